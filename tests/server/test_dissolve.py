"""申请解散: a vote to end a room, played in process on the real store.

The rule: "a seated player asks to end the room; the others agree or refuse within a timer
(bots agree; no answer counts as agree after the timer, as the usual apps do); if all
agree the room ends after the current hand with its 总结算; the request, the answers and
the result are shown at the table and kept in the room's record. Rate-limited per
player."

The time to answer is held open (``dissolve_time`` of ten minutes): the test plays its end
itself by calling the room's timer callback, :meth:`Room.vote_expired`. No clock runs
a seat's decisions (``time_limit`` 0) and the result between hands waits ten minutes.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from server_helpers import PLAYABLE
from socket_stub import SocketStub

from paiju.server.client import Client
from paiju.server.dissolve import VOTES_KEY
from paiju.server.hub import Hub
from paiju.server.inbox import handle
from paiju.server.options import Limits, RoomOptions
from paiju.server.records import player_record
from paiju.server.room import Room
from paiju.server.rows import ClosingWrite, PlayerRow, VotesWrite
from paiju.server.store import Store
from paiju.server.summary import room_summary, table_of

pytestmark = pytest.mark.skipif("2001" not in PLAYABLE, reason="宝子 2001 is not registered")

LIMITS = Limits(
    min_bot_delay=0, messages_per_second=1000, burst=1000, dissolve_time=600, dissolve_every=120
)


def _options(seats: int, bots: int) -> RoomOptions:
    return RoomOptions(
        seats=seats,
        bots=bots,
        time_limit=0,
        bot_delay=0,
        pause=600,
        hands=5,
        fill_after=None,
        seed_wait=0,
        tuoguan="off",
        ready_check=False,
    )


class Table:
    """A room in play with a socket for each named player (``spectator``: no seat)."""

    def __init__(
        self,
        hub: Hub,
        room: Room,
        socks: dict[str, tuple[Client, SocketStub]],
        writers: list[asyncio.Task[None]],
    ) -> None:
        self.hub, self.room, self.socks, self.writers = hub, room, socks, writers

    def send(self, who: str, message: dict[str, Any]) -> None:
        handle(self.room, self.socks[who][0], json.dumps(message))

    def sent(self, who: str) -> SocketStub:
        return self.socks[who][1]


async def _table(
    store: Store, names: list[str], seats: int, bots: int, spectator: bool = False
) -> Table:
    hub = Hub(store, LIMITS)
    players = [store.create_player(n)[0] for n in names]
    room = await hub.create_room(players[0], "2001", _options(seats, bots), {}, 0)
    for i, p in enumerate(players[1:], start=1):
        room.join(p, i)
    watchers: list[tuple[str, PlayerRow]] = list(zip(names, players, strict=True))
    if spectator:
        watchers.append(("spectator", store.create_player("eve")[0]))
    socks = {}
    writers = []
    loop = asyncio.get_running_loop()
    for name, player in watchers:
        sock = SocketStub()
        client = Client(player, sock.send_text, hub.limits, sock.close)
        writers.append(loop.create_task(client.writer()))
        room.attach(client)
        socks[name] = (client, sock)
    await asyncio.sleep(0.05)
    assert room.status == "playing" and room.state is not None
    return Table(hub, room, socks, writers)


async def _hand_over(room: Room) -> None:
    """The human seats play their first legal action until the hand is settled (the bot
    seats play on their own)."""
    for _ in range(400):
        state = room.state
        if state is None or state.is_over:
            await asyncio.sleep(0.05)
            return
        for seat in sorted(room.acting()):
            if not room.seats[seat].bot:
                room.act(seat, next(iter(state.legal_actions(seat) or [])), "player")
                await room.settled()
        await asyncio.sleep(0.01)
    raise AssertionError("the hand did not end")


def _run(tmp_path: Path, scenario: Callable[[Store], Awaitable[None]]) -> None:
    store = Store(str(tmp_path / "dissolve.db"))
    asyncio.run(scenario(store))
    store.close()


def _votes(sock: SocketStub) -> list[dict[str, Any]]:
    return sock.of("dissolve")


def test_all_agree_and_the_room_ends_after_the_hand_in_play_with_its_summary(
    tmp_path: Path,
) -> None:
    """ "if all agree the room ends after the current hand with its 总结算"; the bot seat
    agrees at once ("bots agree"); the request and answers are shown to every socket."""

    async def scenario(store: Store) -> None:
        t = await _table(store, ["ann", "bob"], seats=3, bots=1, spectator=True)
        room = t.room
        t.send("ann", {"type": "dissolve", "id": 1})
        await asyncio.sleep(0.02)
        asked = _votes(t.sent("spectator"))[-1]
        assert asked["seat"] == 0 and asked["name"] == "ann"
        assert asked["answers"] == ["asked", None, "bot"]
        assert asked["result"] is None and asked["limit"] == 600
        assert 0 < asked["remaining"] <= 600
        assert _votes(t.sent("ann"))[-1]["id"] == 1  # the asker's message id, to the asker
        assert _votes(t.sent("bob"))[-1]["id"] is None
        t.send("bob", {"type": "dissolve_vote", "agree": True, "id": 2})
        await asyncio.sleep(0.02)
        for who in ("ann", "bob", "spectator"):
            agreed = _votes(t.sent(who))[-1]
            assert agreed["answers"] == ["asked", "agree", "bot"]
            assert agreed["result"] == "agreed" and agreed["ends"] == "after_hand"
            assert agreed["remaining"] is None
        assert room.status == "playing" and room.state is not None and room.acting()
        await _hand_over(room)
        assert room.status == "finished"
        over = t.sent("bob").of("hand_over")[-1]
        assert over["room_finished"] and over["next_hand_in"] is None
        summary = t.sent("spectator").of("match_summary")[-1]
        assert summary["ended_by_vote"] and summary["hands"] == 1
        assert not summary["cut_short"]  # the vote ended it, not the room's 5 hands
        assert t.sent("ann").of("match_summary")[-1] == summary
        row = store.room(room.id)
        assert row is not None and row.status == "finished" and row.hands_played == 1
        (record,) = row.context[VOTES_KEY]
        assert record["seat"] == 0 and record["result"] == "agreed"
        assert record["answers"] == ["asked", "agree", "bot"]
        # the 总结算 read back from the store, and the players' 战绩, say so too
        assert room_summary(store, table_of(row)).ended_by_vote
        ann = row.seat_players[0]
        assert ann is not None
        (played,) = player_record(store, ann)["rooms"]
        assert played["room"] == room.id and played["ended_by_vote"]
        t.hub.shutdown()

    _run(tmp_path, scenario)


def test_one_refusal_keeps_the_room_playing_and_the_vote_is_kept(tmp_path: Path) -> None:
    """ "the others agree or refuse": one refusal decides; the room plays on, and the request,
    the answers and the result are kept in the room's record."""

    async def scenario(store: Store) -> None:
        t = await _table(store, ["ann", "bob", "cy"], seats=3, bots=0)
        room = t.room
        t.send("bob", {"type": "dissolve"})
        t.send("cy", {"type": "dissolve_vote", "agree": True})
        t.send("ann", {"type": "dissolve_vote", "agree": False})
        await asyncio.sleep(0.02)
        refused = _votes(t.sent("cy"))[-1]
        assert refused["answers"] == ["refuse", "asked", "agree"]
        assert refused["result"] == "refused" and refused["ends"] is None
        t.send("cy", {"type": "dissolve_vote", "agree": True, "id": 7})
        await asyncio.sleep(0.02)
        assert t.sent("cy").errors()[-1] == "no_dissolve_vote"  # decided: nothing to answer
        await room.settled()
        stored = store.room(room.id)  # kept as soon as it is decided
        assert stored is not None and stored.context[VOTES_KEY][0]["result"] == "refused"
        await _hand_over(room)
        assert room.status == "playing" and room.next_hand is not None
        assert not t.sent("ann").of("match_summary")
        row = store.room(room.id)
        assert row is not None and row.status == "playing"
        (record,) = row.context[VOTES_KEY]
        assert record["seat"] == 1 and record["result"] == "refused"
        assert record["answers"] == ["refuse", "asked", "agree"]
        assert VOTES_KEY not in room.context  # the game's context is the game's alone
        assert not room_summary(store, table_of(row)).ended_by_vote
        (played,) = player_record(store, row.seat_players[1] or 0)["rooms"]
        assert not played["ended_by_vote"]
        t.hub.shutdown()

    _run(tmp_path, scenario)


def test_no_answer_counts_as_agreement_when_the_time_is_up(tmp_path: Path) -> None:
    """ "no answer counts as agree after the timer": asked between hands, the room ends at
    once when the time is up (the test plays the timer's end), with its 总结算."""

    async def scenario(store: Store) -> None:
        t = await _table(store, ["ann", "bob", "cy"], seats=3, bots=0)
        room = t.room
        await _hand_over(room)
        assert room.next_hand is not None  # the result is shown, the next hand waits
        t.send("cy", {"type": "dissolve"})
        t.send("ann", {"type": "dissolve_vote", "agree": True})
        await asyncio.sleep(0.02)
        assert room.vote is not None and room.status == "playing"  # bob has not answered
        room.vote_expired()  # the timer's callback: ten minutes are up
        await asyncio.sleep(0.05)
        agreed = _votes(t.sent("bob"))[-1]
        assert agreed["answers"] == ["agree", "timeout", "asked"]
        assert agreed["result"] == "agreed" and agreed["ends"] == "now"
        assert room.status == "finished" and room.next_hand is None
        assert t.sent("bob").of("hand_over")[-1]["room_finished"]
        summary = t.sent("bob").of("match_summary")[-1]
        assert summary["ended_by_vote"] and summary["hands"] == 1
        await room.settled()
        row = store.room(room.id)
        assert row is not None and row.status == "finished" and row.hands_played == 1
        assert row.context[VOTES_KEY][0]["answers"] == ["agree", "timeout", "asked"]
        t.hub.shutdown()

    _run(tmp_path, scenario)


def test_bots_agree_at_once(tmp_path: Path) -> None:
    """ "bots agree": with only bots to answer, the request is agreed as it is made."""

    async def scenario(store: Store) -> None:
        t = await _table(store, ["ann"], seats=3, bots=2)
        t.send("ann", {"type": "dissolve"})
        await asyncio.sleep(0.02)
        (vote,) = _votes(t.sent("ann"))
        assert vote["answers"] == ["asked", "bot", "bot"] and vote["result"] == "agreed"
        assert t.room.dissolving
        await _hand_over(t.room)
        assert t.room.status == "finished"
        assert t.sent("ann").of("match_summary")[-1]["ended_by_vote"]
        t.hub.shutdown()

    _run(tmp_path, scenario)


def test_a_player_may_ask_again_only_after_dissolve_every(tmp_path: Path) -> None:
    """ "Rate-limited per player": a second request of the same player within
    ``dissolve_every`` is refused (with the seconds left); another player may ask."""

    async def scenario(store: Store) -> None:
        t = await _table(store, ["ann", "bob"], seats=2, bots=0)
        t.send("ann", {"type": "dissolve"})
        t.send("ann", {"type": "dissolve", "id": 3})
        await asyncio.sleep(0.02)
        (pending,) = t.sent("ann").of("error")
        assert pending["code"] == "dissolve_pending" and pending["ref"] == 3
        t.send("bob", {"type": "dissolve_vote", "agree": False})
        t.send("ann", {"type": "dissolve", "id": 4})
        await asyncio.sleep(0.02)
        too_soon = t.sent("ann").of("error")[-1]
        assert too_soon["code"] == "dissolve_too_soon" and too_soon["ref"] == 4
        assert 0 < too_soon["params"]["seconds"] <= 120
        assert too_soon["text"]["zh"] and too_soon["text"]["en"]
        t.send("bob", {"type": "dissolve"})
        await asyncio.sleep(0.02)
        assert _votes(t.sent("ann"))[-1]["seat"] == 1  # bob's own request is his first
        assert t.room.vote is not None and t.room.vote.asker == 1
        t.hub.shutdown()

    _run(tmp_path, scenario)


def test_a_spectator_can_neither_ask_nor_answer_and_no_one_answers_twice(
    tmp_path: Path,
) -> None:
    """A spectator holds no seat: "a seated player asks" and the seated players answer."""

    async def scenario(store: Store) -> None:
        t = await _table(store, ["ann", "bob", "cy"], seats=3, bots=0, spectator=True)
        t.send("spectator", {"type": "dissolve"})
        t.send("ann", {"type": "dissolve_vote", "agree": True})
        await asyncio.sleep(0.02)
        assert t.sent("spectator").errors() == ["spectator"]
        assert t.sent("ann").errors() == ["no_dissolve_vote"]
        assert t.room.vote is None and not _votes(t.sent("ann"))
        t.send("ann", {"type": "dissolve"})
        t.send("spectator", {"type": "dissolve_vote", "agree": False})
        t.send("ann", {"type": "dissolve_vote", "agree": True})  # the asker has asked
        t.send("bob", {"type": "dissolve_vote", "agree": True})
        t.send("bob", {"type": "dissolve_vote", "agree": False})  # bob has answered
        await asyncio.sleep(0.02)
        assert t.sent("spectator").errors() == ["spectator", "spectator"]
        assert t.sent("ann").errors() == ["no_dissolve_vote", "dissolve_answered"]
        assert t.sent("bob").errors() == ["dissolve_answered"]
        vote = _votes(t.sent("spectator"))[-1]  # the spectator sees the vote
        assert vote["answers"] == ["asked", "agree", None] and vote["result"] is None
        t.hub.shutdown()

    _run(tmp_path, scenario)


def test_no_vote_before_the_room_plays(tmp_path: Path) -> None:
    """A room waiting for its players has nothing to end yet (its owner may close it)."""

    async def scenario(store: Store) -> None:
        hub = Hub(store, LIMITS)
        ann = store.create_player("ann")[0]
        room = await hub.create_room(ann, "2001", _options(2, 0), {}, 0)
        sock = SocketStub()
        client = Client(ann, sock.send_text, hub.limits, sock.close)
        task = asyncio.get_running_loop().create_task(client.writer())
        room.attach(client)
        handle(room, client, json.dumps({"type": "dissolve"}))
        await asyncio.sleep(0.02)
        assert room.status == "waiting" and sock.errors() == ["dissolve_not_now"]
        hub.shutdown()
        task.cancel()

    _run(tmp_path, scenario)


def test_an_agreement_is_stored_at_once_and_holds_after_a_restart(tmp_path: Path) -> None:
    """The result is "kept in the room's record" when it is decided, not only with the
    hand's settlement: a server restarted in the hand after the players agreed still ends
    the room after that hand."""

    async def scenario(store: Store) -> None:
        t = await _table(store, ["ann", "bob"], seats=2, bots=0)
        t.send("bob", {"type": "dissolve"})
        t.send("ann", {"type": "dissolve_vote", "agree": True})
        await asyncio.sleep(0.02)
        await t.room.settled()
        assert t.room.status == "playing" and t.room.acting()  # the hand is still in play
        row = store.room(t.room.id)
        assert row is not None and row.status == "playing"
        assert [v["result"] for v in row.context[VOTES_KEY]] == ["agreed"]
        t.hub.shutdown()
        for task in t.writers:
            task.cancel()

        hub = Hub(store, LIMITS)  # the server again, after a restart
        room = hub.recover_room(row)
        assert room is not None and room.dissolving and room.state is not None
        sock = SocketStub()  # ann comes back: she is shown the agreement
        client = Client(
            PlayerRow(row.seat_players[0] or 0, "ann"), sock.send_text, LIMITS, sock.close
        )
        writer = asyncio.get_running_loop().create_task(client.writer())
        room.attach(client)
        await asyncio.sleep(0.02)
        (shown,) = sock.of("dissolve")
        assert shown["seat"] == 1 and shown["name"] == "bob"
        assert shown["result"] == "agreed" and shown["ends"] == "after_hand"
        await _hand_over(room)
        await room.settled()
        assert room.status == "finished"
        again = store.room(room.id)
        assert again is not None and again.status == "finished" and again.hands_played == 1
        assert room_summary(store, table_of(again)).ended_by_vote
        assert sock.of("match_summary")[-1]["ended_by_vote"]
        hub.shutdown()
        writer.cancel()

    _run(tmp_path, scenario)


def _votes_stored(store: Store) -> None:
    """A room's votes go to its context with its status: ``finished`` once they ended it,
    never over a room already finished or closed."""
    ann = store.create_player("ann")[0]
    room = store.create_room("toy", {}, {}, 2, ann.id, [False, True])
    store.set_room_status(room, "playing")
    record = {"seat": 0, "player": ann.id, "at": 1.0, "answers": ["asked", "bot"]}
    refused = {**record, "result": "refused"}
    store.append_actions([VotesWrite(room, {"banker": 1, VOTES_KEY: [refused]})])
    row = store.room(room)
    assert row is not None and row.status == "playing"
    assert row.context == {"banker": 1, VOTES_KEY: [refused]}
    agreed = {**record, "result": "agreed"}
    store.append_actions([VotesWrite(room, {VOTES_KEY: [refused, agreed]}, finished=True)])
    store.append_actions([VotesWrite(room, {VOTES_KEY: []})])  # late: the room is over
    row = store.room(room)
    assert row is not None and row.status == "finished"
    assert row.context == {VOTES_KEY: [refused, agreed]}
    closed = store.create_room("toy", {}, {}, 2, ann.id, [False, True])
    store.append_actions([ClosingWrite(closed, None), VotesWrite(closed, {}, finished=True)])
    assert (store.room(closed) or row).status == "closed"
    store.close()


def test_votes_are_stored_with_the_room_on_sqlite(tmp_path: Path) -> None:
    _votes_stored(Store(str(tmp_path / "votes.db")))


def test_votes_are_stored_with_the_room_on_postgresql(postgres_db: str) -> None:
    _votes_stored(Store(postgres_db))
