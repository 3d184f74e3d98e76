"""The seats of a table (:class:`SeatRuntime`): who holds each one, who plays it now
(the player, a bot, 托管), and the questions a room asks of them - what each seat's
control shows, where a player sits, which seat a joining player takes, whose 继续 the
next hand waits for. Data and pure functions: the room keeps its clocks in the seats'
handles, and does the writing and the sending itself."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field

from paiju.bots import Bot
from paiju.engine import Action
from paiju.server.chat import ChatPace
from paiju.server.errors import ServerError
from paiju.server.messages import Control
from paiju.server.ports import Cancellable, Peer

__all__ = ["SeatRuntime", "bots_only", "control", "human_seats", "pick_seat", "seat_of"]


@dataclass
class SeatRuntime:
    """Who holds a seat and who plays it now."""

    player: int | None = None
    bot: bool = False
    client: Peer | None = None
    auto: bool = False
    """托管: a bot plays for the (human) player."""
    away_since: float | None = None
    timer: Cancellable | None = None
    deadline: float = 0.0
    pending_bot: Cancellable | None = None
    away_handle: asyncio.TimerHandle | None = None
    client_seed: str | None = None
    """The seed the seat's player sent for the next deal (docs/fairness.md)."""
    engine: Bot | None = field(default=None, repr=False)
    engine_level: str = "normal"
    thinking: asyncio.Future[Action] | None = field(default=None, repr=False)
    """A 困难 decision being thought in the bots' thread (its result is dropped when the
    seat's turn has passed meanwhile)."""
    play_at: float | None = None
    """When (the loop's time) the 困难 decision being thought is shown, at the earliest: a
    moment drawn at the turn's start whatever the seat holds
    (:func:`~paiju.server.turns.bot_pace`)."""
    timeouts: int = 0
    """Timeouts in a row (托管 comes after ``tuoguan_after`` of them)."""
    draft: Action | None = None
    """The player's unconfirmed arrangement, played if the time runs out (when legal)."""
    left: bool = False
    """The player left mid-hand: a bot plays the seat, which the player may take back
    until the hand ends; then the seat is the bot's."""
    ready: bool = False
    """准备 before the first deal."""
    auto_pass: bool = False
    """要不起: the player lets the server pass for the seat when pass is all it may do."""
    chat: ChatPace = field(default_factory=ChatPace)
    """The pace of the seat's phrases and emotes, and who reported its text."""


def bots_only(seats: Sequence[SeatRuntime]) -> bool:
    """Bots take every seat (no human seat was open)."""
    return all(s.bot and s.player is None for s in seats)


def control(seats: Sequence[SeatRuntime]) -> list[Control]:
    """Who plays each seat now, as the room's info and every state show it."""
    out: list[Control] = []
    for s in seats:
        if s.bot:
            out.append("bot")
        elif s.player is None:
            out.append("open")
        elif s.auto:
            out.append("tuoguan")
        elif s.client is None:
            out.append("away")
        else:
            out.append("player")
    return out


def seat_of(seats: Sequence[SeatRuntime], player: int) -> int | None:
    """The seat ``player`` holds (not a bot's), or None."""
    for i, s in enumerate(seats):
        if s.player == player and not s.bot:
            return i
    return None


def pick_seat(seats: Sequence[SeatRuntime], room_id: int, player: int, seat: int | None) -> int:
    """The seat a joining ``player`` takes: ``seat`` if it is open, else the first open
    one; refused (``already_seated``, ``room_full``, ``seat_taken``) with what is open."""
    held = seat_of(seats, player)
    if held is not None:
        raise ServerError("already_seated", f"you already sit at seat {held}", 409)
    free = [i for i, s in enumerate(seats) if s.player is None and not s.bot]
    if seat is None:
        if not free:
            raise ServerError("room_full", f"room {room_id} has no open seat", 409)
        return free[0]
    if seat not in free:
        raise ServerError(
            "seat_taken", f"seat {seat} is not open; open seats: {free or 'none'}", 409
        )
    return seat


def human_seats(seats: Sequence[SeatRuntime], *, connected: bool) -> set[int]:
    """The seats a player of one's own plays (not a bot, not 托管); with ``connected``,
    only those whose socket is open."""
    return {
        i
        for i, s in enumerate(seats)
        if not s.bot
        and not s.auto
        and s.player is not None
        and (s.client is not None or not connected)
    }
