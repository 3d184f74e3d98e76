"""What the server's floors hand each other about the database: the rows it reads (a
player, a room, a hand with its log), the writes the journal commits (a new hand, an
accepted action and the settlement it causes, the seats of a room, its closing) and a
room's table for its 总结算.

Plain frozen data with no I/O, below the store that reads and writes them and the room
that makes them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "ActionWrite",
    "ClosingWrite",
    "HandEnding",
    "HandRow",
    "HandWrite",
    "PlayerRow",
    "RoomRow",
    "SeatsWrite",
    "Table",
    "VotesWrite",
    "Write",
    "seated",
]


@dataclass(frozen=True)
class PlayerRow:
    id: int
    name: str
    session: int | None = field(default=None, compare=False, repr=False)
    """The session (a device signed in) whose token named the player: None where the
    player was read otherwise (a room's seats, a name lookup)."""


@dataclass(frozen=True)
class RoomRow:
    """A room as stored: its game, options, seats and where its match stands."""

    id: int
    code: str
    options: dict[str, Any]
    game_options: dict[str, Any]
    seats: int
    owner_id: int
    status: str
    hands_played: int
    context: dict[str, Any]
    seat_players: tuple[int | None, ...]
    seat_bots: tuple[bool, ...]
    seat_ready: tuple[bool, ...] = ()
    """Each seat's 准备 mark while the room waits (empty: none stored)."""
    invite: str | None = None
    """The room's random invite code (邀请码, :mod:`paiju.server.invites`)."""

    def ready_marks(self) -> tuple[bool, ...]:
        """Each seat's stored 准备, a mark of an open seat not counting."""
        marks = self.seat_ready or (False,) * self.seats
        return tuple(r and p is not None for p, r in zip(self.seat_players, marks, strict=True))


@dataclass(frozen=True)
class HandRow:
    """One hand (a game, by its id): the commitment, the secret seed and its action log."""

    id: int
    room_id: int
    hand_no: int
    code: str
    game_options: dict[str, Any]
    seats: int
    players: tuple[int | None, ...]
    commitment: str
    seed: str
    """The server's seed (its sha256 is the commitment)."""
    client_seeds: tuple[str, ...] | None
    """The seats' client seeds (empty: none sent), None when no seat sent one."""
    deal: dict[str, Any]
    context: dict[str, Any]
    status: str
    settlement: tuple[int, ...] | None
    actions: tuple[tuple[int, dict[str, Any], str], ...]
    """(seat, action JSON, actor) in order."""
    started_at: float
    ended_at: float | None
    record_format: int = 1
    """The format of the log (:attr:`paiju.engine.Record.format`): the game's record
    format when the hand was dealt (1 for the hands stored before formats were kept)."""


@dataclass(frozen=True)
class HandEnding:
    """What :meth:`Store.append_action` writes when the action ends the hand."""

    room_id: int
    scores: tuple[int, ...]
    """The game's settlement (points per seat)."""
    deltas: tuple[int, ...]
    """The ledger deltas per seat (the scores times the room's stake)."""
    players: tuple[int | None, ...]
    hands_played: int
    context: Mapping[str, Any]
    room_finished: bool


@dataclass(frozen=True)
class ActionWrite:
    """One accepted action to append to its hand's log (and the settlement it causes)."""

    hand_id: int
    idx: int
    seat: int
    action: Mapping[str, Any]
    actor: str
    ending: HandEnding | None = None


@dataclass(frozen=True)
class HandWrite:
    """A new hand to store: its commitment, and its seed and deal (secret until the end)."""

    id: int
    room_id: int
    hand_no: int
    code: str
    game_options: Mapping[str, Any]
    players: tuple[int | None, ...]
    commitment: str
    seed: str
    deal: Mapping[str, Any]
    context: Mapping[str, Any]
    client_seeds: tuple[str, ...] | None = None
    record_format: int = 1
    """The game's :attr:`~paiju.engine.Game.record_format`: the format of the log."""


@dataclass(frozen=True)
class SeatsWrite:
    """Seats of a room as they now stand (before its first deal, or a seat a bot takes
    over), and the room's new status if it changes with them: stored by the group commit
    in order with the room's hands and actions."""

    room_id: int
    seats: tuple[tuple[int, int | None, bool, bool], ...]
    """(seat, player (None: no player), is a bot, 准备) of each seat written."""
    status: str | None = None
    """The room's status from now on, ``waiting`` or ``playing`` (None: unchanged); a room
    whose match is over or closed stays so."""


@dataclass(frozen=True)
class ClosingWrite:
    """A room closed for good (its owner, the operator, a storage failure): its status
    ``closed`` and its hand in play, if any, ``void``; stored by the group commit after the
    room's writes before it."""

    room_id: int
    void_hand: int | None
    """The hand in play when the room closed (None: none was)."""


@dataclass(frozen=True)
class VotesWrite:
    """A room's votes to end it (申请解散) as decided: its context (the match's, and the
    votes' records) and, when its players voted to end it while no hand was in play, its
    status ``finished``; stored by the group commit after the room's writes before it,
    never over a room finished or closed."""

    room_id: int
    context: Mapping[str, Any]
    finished: bool = False


Write = ActionWrite | HandWrite | SeatsWrite | ClosingWrite | VotesWrite
"""What a room hands the group commit."""


@dataclass(frozen=True)
class Table:
    """Who sat where at the end of the room: the player of each seat (None: a bot)."""

    room: int
    code: str
    stake: int
    players: Sequence[int | None]
    cut_short: bool = False
    next_room: int | None = None
    context: Mapping[str, Any] = field(default_factory=dict)
    """What the room's last finished hand carried on (to count that hand's winners)."""
    game_options: Mapping[str, Any] = field(default_factory=dict)
    ended_by_vote: bool = False
    """The players voted to end the room (申请解散)."""


def seated(rows: Iterable[RoomRow]) -> list[int]:
    """The players seated in these rooms (each once, in id order)."""
    return sorted({p for row in rows for p in row.seat_players if p is not None})
