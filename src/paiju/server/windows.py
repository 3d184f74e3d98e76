"""Hidden decision windows (a mahjong claim window) on a fixed schedule.

After every discard each other seat decides at once whether to claim it, and no seat may
learn who else could (``State.hidden_window``). What a seat sees must then not depend on
the others' tiles or choices until a claim is made, its timing included. So a window is
held open for exactly ``claim_window`` seconds from the moment it opened, whatever anyone
holds or does:

* a decision sent while the window is open is checked at once (a refusal is answered at
  once: it depends only on the seat's own options) and then kept, not played;
* when the time is up, the seats decide in turn order after the discarder: a kept decision
  is played, a bot (or 托管) seat's bot decides, and a player who sent nothing passes;
* the window's outcome (the claim made, or the next draw) then reaches every socket at
  once, and each decision's own update reaches its seat only.

This is the fixed call window of the usual apps: a seat that cannot claim is shown nothing
(the client hides a 过-only window), and nobody's pass shortens the window. With the room's
``claim_time`` longer than ``claim_window``, a player's seat that can claim (吃, 碰, 杠, 胡)
is given that long to decide, as the usual apps give it: the window then stays open past
its fixed end until every such seat has decided or ``claim_time`` is up. That the table
waits tells everyone that a player could claim (not who, nor what); a window nobody but
bots could claim in still closes at its fixed end. The room (``paiju.server.room``) owns
one :class:`Window` per open window.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal, Protocol

from paiju.engine import Action, State
from paiju.server.errors import ServerError


class Cancellable(Protocol):
    """A call to come that can be called off (a timer, or a call that waits for a commit)."""

    def cancel(self) -> None: ...


class TurnClock(Protocol):
    """What a room times its turns by (its hidden windows, the seats' decision clocks, the
    要不起 pause): its event loop, or a clock a test drives (a window then stays open until
    the test lets its time pass)."""

    def time(self) -> float: ...

    def call_later(self, delay: float, callback: Callable[[], object]) -> Cancellable: ...


__all__ = ["Kept", "TurnClock", "Window", "default_action"]

Actor = Literal["player", "bot", "timeout"]


@dataclass(frozen=True)
class Kept:
    """A seat's decision sent during the window, played when the window closes."""

    action: Action
    actor: Actor
    ref: str | int | None


@dataclass
class Window:
    """One open window of the hand in play: it closes at ``deadline`` (loop time)."""

    hand_id: int
    limit: float
    deadline: float
    handle: Cancellable | None = None
    kept: dict[int, Kept] = field(default_factory=dict)
    closing: bool = False
    """Set while the window's decisions are being played (they then go through)."""
    claimers: frozenset[int] = frozenset()
    """The player seats that can claim (more than 过) and are given ``claim_time``."""
    extended: float | None = None
    """Until when (loop time) the window waits for a claimer still deciding, past its
    fixed end (the room's ``claim_time``); None: the window is uniform."""

    def waiting_for_claimers(self) -> bool:
        """Whether a claimer has not decided yet (the window then waits, up to ``extended``)."""
        return self.extended is not None and not self.claimers <= self.kept.keys()

    def keep(
        self,
        state: State,
        seat: int,
        action: Action,
        actor: Actor,
        ref: str | int | None,
    ) -> None:
        """Check ``seat``'s decision now (raises as playing it would) and keep it."""
        if seat in self.kept:
            raise ServerError(
                "not_your_turn",
                f"seat {seat} has decided on this tile; its decision is played when the"
                " window closes",
            )
        state.check_turn(seat, action)
        state.check(seat, action)
        self.kept[seat] = Kept(action, actor, ref)

    def order(self, state: State, turn: int) -> list[int]:
        """The seats still to decide, in turn order after ``turn`` (the discarder)."""
        n = state.seats
        return sorted(state.to_act(), key=lambda s: (s - turn) % n)

    def cancel(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None


def default_action(state: State, seat: int) -> Action | None:
    """What a player who sent nothing decides when the window closes: 过 (``pass``), the
    usual apps' rule; None when the game lists no pass (the bot decides then)."""
    for action in state.legal_actions(seat) or []:
        if action.type == "pass":
            return action
    return None
