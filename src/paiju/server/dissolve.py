"""申请解散: a seated player asks to end the room, the others agree or refuse.

A plain state machine with no clock, socket or store of its own (the room drives it and
gives it the time): :func:`open_vote` starts a :class:`Vote` - a bot seat agrees at once,
each other human seat is awaited; :meth:`Vote.answer` takes a seat's answer (one refusal
decides it: refused; the last agreement: agreed); :meth:`Vote.expire` is the end of the
time to answer, where no answer counts as agreement. A decided vote's :meth:`Vote.record`
is what the room keeps of it. :class:`Asks` holds the rate of each player's requests.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from paiju.server.errors import ServerError

__all__ = ["VOTES_KEY", "Answer", "Asks", "Result", "Vote", "ended_by_vote", "open_vote"]

VOTES_KEY = "dissolve_votes"
"""The key of the room's stored context that keeps its votes' records (the room's
match context for the game is the rest)."""

Answer = Literal["asked", "agree", "refuse", "bot", "timeout"]
"""A seat's part in a vote: it asked; it agreed; it refused; a bot seat (agrees); it did
not answer in time (counts as agreement)."""
Result = Literal["agreed", "refused"]


@dataclass
class Vote:
    """One request to end the room and its answers so far."""

    asker: int
    """The asking seat."""
    player: int
    """The asking seat's player."""
    at: float
    """When it was asked (seconds since the epoch, for the record)."""
    limit: float
    """Seconds the others have to answer."""
    answers: list[Answer | None]
    """Each seat's answer (None: awaited, or an open seat)."""
    result: Result | None = None

    @property
    def awaited(self) -> list[int]:
        """The seats whose answer is still awaited (none once decided)."""
        if self.result is not None:
            return []
        return [i for i, a in enumerate(self.answers) if a is None]

    def answer(self, seat: int, agree: bool) -> None:
        """The seat's answer (``dissolve_answered`` if it is not awaited)."""
        if seat not in self.awaited:
            raise ServerError(
                "dissolve_answered", f"seat {seat} is not awaited in this vote to end the room"
            )
        self.answers[seat] = "agree" if agree else "refuse"
        if not agree:
            self.result = "refused"
        elif not self.awaited:
            self.result = "agreed"

    def expire(self) -> None:
        """The time to answer is up: each seat not heard from agrees."""
        if self.result is not None:
            return
        for seat in self.awaited:
            self.answers[seat] = "timeout"
        self.result = "agreed"

    def record(self) -> dict[str, Any]:
        """What the room keeps of the vote (JSON)."""
        return {
            "seat": self.asker,
            "player": self.player,
            "at": round(self.at, 3),
            "answers": list(self.answers),
            "result": self.result,
        }


def open_vote(
    asker: int,
    player: int,
    seats: Sequence[tuple[int | None, bool]],
    limit: float,
    at: float,
) -> Vote:
    """A vote asked by seat ``asker`` among ``seats`` (each its player and whether a bot
    plays it): bots agree at once, the other human seats are awaited; with none to await
    it is agreed at once."""
    answers: list[Answer | None] = []
    for i, (seat_player, bot) in enumerate(seats):
        if i == asker:
            answers.append("asked")
        elif bot or seat_player is None:
            answers.append("bot")
        else:
            answers.append(None)
    vote = Vote(asker, player, at, limit, answers)
    if not vote.awaited:
        vote.result = "agreed"
    return vote


@dataclass
class Asks:
    """When each player last asked to end the room: one request per ``every`` seconds."""

    last: dict[int, float] = field(default_factory=dict)

    def check(self, player: int, now: float, every: float) -> None:
        """Refused (``dissolve_too_soon``, with the ``seconds`` left) within ``every``
        seconds of the player's last request."""
        last = self.last.get(player)
        if last is not None and now - last < every:
            left = max(1, math.ceil(every - (now - last)))
            raise ServerError(
                "dissolve_too_soon",
                f"player {player} asked to end the room {now - last:.0f} s ago;"
                f" one request per {every:g} s",
                429,
                seconds=left,
            )

    def asked(self, player: int, now: float) -> None:
        self.last[player] = now


def ended_by_vote(records: Sequence[dict[str, Any]]) -> bool:
    """Whether a vote among ``records`` ended the room."""
    return any(r.get("result") == "agreed" for r in records)
