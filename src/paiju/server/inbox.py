"""What a socket's text asks of its room (:func:`handle`): the text read as one client
message (its size, its player's rate and its frame checked), then carried out by the
room's own calls; a refusal goes back to that socket alone, as an error naming the
message's ``ref``.

A room's messages wait while its last action waits for its group commit, in arrival
order, instead of forcing the commit: the actions of many rooms then share one
transaction, and a room still has at most one action in flight.

This layer sits above the room (:mod:`paiju.server.room`, which knows nothing of frames)
and below the sockets: the app hands it each text of a room's socket.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from typing import Any

from paiju.errors import PaijuError
from paiju.server.chat import chat_message, check_report
from paiju.server.errors import ServerError
from paiju.server.frames import BadFrame, check_size, read_frame
from paiju.server.messages import (
    ActionMsg,
    Again,
    AutoPass,
    AutoPassing,
    Chat,
    ClientSeed,
    Continue,
    Dissolve,
    DissolveVote,
    Draft,
    Drafted,
    Hello,
    Location,
    Ping,
    Pong,
    Ready,
    Report,
    Reported,
    Resume,
    Sync,
    Welcome,
)
from paiju.server.nearby import Point
from paiju.server.ports import Peer
from paiju.server.room import Room

__all__ = ["handle", "handle_now"]

log = logging.getLogger("paiju.server")


def handle(room: Room, client: Peer, text: str) -> None:
    """Answer one text message of a socket of ``room`` (errors go back to it), now or,
    while the room's last action waits for its commit, once that commit is done."""
    journal = room.hub.journal
    if room.deferred or journal.holds(room):
        room.deferred += 1
        journal.later(room, functools.partial(handle_now, room, client, text))
        return
    handle_now(room, client, text)


def handle_now(room: Room, client: Peer, text: str) -> None:
    """Answer one client message now (no action of the room is waiting for a commit)."""
    try:
        check_size(text, room.hub.limits.max_message_bytes)
        if not client.allow():
            client.rate_limited(text)
            return
        frame = read_frame(text)
    except BadFrame as exc:
        client.error(exc.code, str(exc), exc.ref)
        return
    try:
        _dispatch(room, client, frame.message, frame.ref)
    except PaijuError as exc:
        client.refuse(exc, frame.ref)
    except RecursionError:
        client.error("bad_message", "the message is nested too deeply", frame.ref)


def _seat(client: Peer, what: str) -> int:
    """The client's seat, or ``spectator`` refused: a spectator holds no seat ``what``."""
    if client.seat is None:
        raise ServerError("spectator", f"a spectator holds no seat{what}")
    return client.seat


def _dispatch(room: Room, client: Peer, msg: Any, ref: str | int | None) -> None:
    if isinstance(msg, ActionMsg):  # by far the most frequent: asked first
        _action(room, client, msg)
    elif isinstance(msg, Ping):
        client.send(Pong(id=msg.id))
    elif isinstance(msg, Sync):
        state = room.state_for(client, msg.id)
        if state is None:
            client.send(
                Welcome(
                    room=room.info(),
                    player=client.player.id,
                    name=client.player.name,
                    seat=client.seat,
                    limits=room.hub.limits.model_dump(),
                )
            )
        else:
            client.send(state)
    elif isinstance(msg, Hello):
        raise ServerError("bad_message", "already authenticated")
    elif isinstance(msg, Resume):
        room.resume(_seat(client, " to resume"))
    elif isinstance(msg, Continue):
        _continue(room, client)
    elif isinstance(msg, Again):
        _seat(client, " to play again in")
        _again(room, client, ref)
    elif isinstance(msg, Ready):
        room.set_ready(_seat(client, " to get ready in"), msg.ready)
    elif isinstance(msg, Draft):
        seat = _seat(client, "")
        room.set_draft(seat, msg.action)
        draft = room.seats[seat].draft is not None
        client.send(Drafted(room=room.id, seat=seat, draft=draft, id=msg.id))
    elif isinstance(msg, ClientSeed):
        room.set_client_seed(client, msg)
    elif isinstance(msg, Chat):
        _chat(room, client, msg)
    elif isinstance(msg, Report):
        _report(room, client, msg)
    elif isinstance(msg, AutoPass):
        seat = _seat(client, " to pass for")
        room.set_auto_pass(seat, msg.on)
        client.send(AutoPassing(room=room.id, seat=seat, on=msg.on, id=msg.id))
    elif isinstance(msg, Dissolve):
        room.ask_dissolve(_seat(client, " to ask to end the room from"), msg.id)
    elif isinstance(msg, DissolveVote):
        room.answer_dissolve(_seat(client, " to vote with"), msg.agree, msg.id)
    elif isinstance(msg, Location):
        seat = _seat(client, " to share a location for")
        if (msg.lat is None) != (msg.lon is None):
            raise ServerError("bad_message", "a location has both lat and lon, or neither")
        point = None if msg.lat is None or msg.lon is None else Point(msg.lat, msg.lon)
        room.locate(seat, point, msg.id)


_making: set[asyncio.Task[None]] = set()
"""The 再来一局 rooms being made for sockets' messages (a task is kept until done)."""


def _again(room: Room, client: Peer, ref: str | int | None) -> None:
    """再来一局 asked on a socket: the next match's room is made (stored off the event loop),
    and every socket of this room is told (``next_room``); a refusal goes back to the
    asker."""

    async def make() -> None:
        try:
            await room.hub.again(room, client.player)
        except PaijuError as exc:
            client.refuse(exc, ref)
        except Exception:
            log.exception("room %s: could not make the next match's room", room.id)
            client.error("again_failed", "the next match's room could not be made; ask again", ref)

    task = asyncio.get_running_loop().create_task(make())
    _making.add(task)
    task.add_done_callback(_making.discard)


def _continue(room: Room, client: Peer) -> None:
    """继续: answered by the result again (to everyone, while the next hand still waits
    for this seat; else to this socket), or refused when no result is shown."""
    if client.seat is None:
        raise ServerError("spectator", "a spectator has no result to continue from")
    shown = room.result_now()
    if shown is None:
        raise ServerError("no_result", "no hand's result is shown: 继续 comes after a hand")
    if client.seat in room.waiting and room.next_hand is not None:
        room.next_hand_please(client.seat)
        return
    client.send(shown)


def _chat(room: Room, client: Peer, msg: Chat) -> None:
    """A seat's phrase, emote or (where the operator allows it) text, to every socket."""
    seat = client.seat
    pace = None if seat is None else room.seats[seat].chat
    out = chat_message(msg, room.id, seat, room.variant.family, room.hub.limits, pace)
    body = out.model_dump_json()
    for other in room.clients():
        other.send(body)


def _report(room: Room, client: Peer, msg: Report) -> None:
    """举报 a seat's free text: to the operator's list, with the seat's last texts; two
    reporters stop it."""
    check_report(client.seat, msg.seat, room.n)
    pace = room.seats[msg.seat].chat
    first = client.player.id not in pace.reported_by
    pace.reported_by.add(client.player.id)
    log.warning(
        "room %s: player %s reported the chat of seat %d", room.id, client.player.id, msg.seat
    )
    if first:  # to the operator's list, once per reporter and seat
        room.hub.chat_reported(
            {
                "room": room.id,
                "hand": room.hand_id or None,
                "reporter": client.player.id,
                "reported": room.seats[msg.seat].player,
                "seat": msg.seat,
                "lines": [{"at": at, "text": text} for at, text in pace.lines],
            }
        )
    client.send(Reported(seat=msg.seat, muted=pace.muted, id=msg.id))


def _action(room: Room, client: Peer, msg: ActionMsg) -> None:
    seat = client.seat
    if seat is None:
        raise ServerError("spectator", "spectators cannot act; join a seat to play")
    if msg.seat is not None and msg.seat != seat:
        raise ServerError("wrong_seat", f"this token holds seat {seat}, not seat {msg.seat}")
    if room.state is None or not room.acting():
        raise ServerError("no_hand", "no hand is in play; wait for the next deal", **room.words())
    if msg.game is not None and msg.game != room.hand_id:
        raise ServerError(
            "stale",
            f"game {msg.game} is not in play; the current game is {room.hand_id}",
            **room.words(),
        )
    room.player_acts(seat, room.parse_action(msg.action), msg.id)
