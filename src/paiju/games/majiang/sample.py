"""Dealing again what a 麻将 seat cannot see: the others' concealed tiles, their 暗杠, the wall.

What a seat knows: its own tiles and draws, every discard and open meld, how many tiles each
seat holds and which seat drew when (from the front, or a replacement from the tail), the
flip and its 混. What it does not: the others' concealed tiles, the kind of their 暗杠, the
order of the wall, and the claim decisions the others made in a window (only the claim
that was carried out shows).

A sample deals the unknown tiles again and rebuilds a deal behind the same public play:
each other seat's receipts (its dealt tiles, then its draws, in order) hold first the tiles
it has put out (discards, the tiles of its melds from its own hand, a 暗杠 of a kind drawn
from the unknown tiles with four copies), in the order it put them out, then its concealed
tiles; the wall's undrawn part is the rest in random order. A seat never puts out more
tiles than it has received, so every tile is in the hand before it leaves it. The actions
are played again: the seat's own as played, the others' public ones as played, their
window decisions that did not show dropped (every other seat is asked in every window, so
the windows are the same on any tiles), and the others a window still waits for when the
play goes on pass.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Protocol

from paiju.engine import Action, Deal, State
from paiju.games.majiang.actions import Chi, Discard, Gang, Kong, Pass, Peng, Win
from paiju.sampling import ResampleFailed, Script, deal_hidden
from paiju.tiles import Tile

__all__ = ["Table", "proposer"]


class Table(Protocol):
    """What a sample reads of a 麻将 hand in play (a :class:`MajiangState` is one)."""

    @property
    def seats(self) -> int: ...
    @property
    def phase(self) -> str: ...
    @property
    def history(self) -> Sequence[tuple[int, Action]]: ...
    @property
    def deal(self) -> Deal: ...
    @property
    def draws(self) -> Sequence[tuple[int, bool]]: ...
    @property
    def hands(self) -> Sequence[Sequence[Tile]]: ...
    @property
    def wall(self) -> Sequence[Tile]: ...
    def hidden_from(self, seat: int | None) -> Counter[int]: ...
    def hidden_window(self) -> bool: ...


_ANGANG = -1
"""A placeholder in a seat's list of tiles put out: one tile of its next 暗杠."""


def _pass_if_waiting(seat: int) -> Callable[[State, random.Random], Action | None]:
    """Pass for ``seat`` when a window on the new tiles waits for it (else nothing)."""

    def step(state: State, rng: random.Random) -> Action | None:
        waiting = state.phase in ("claim", "rob") and seat in state.to_act()
        return Pass() if waiting else None

    return step


def proposer(state: Table, seat: int) -> Callable[[random.Random], tuple[Deal, Script]]:
    """The deals (and the scripts that play the hand again on them) that a sample for
    ``seat`` proposes, for :func:`paiju.sampling.replay_sample` (see the module docs); of a
    hand still in play."""
    n = state.seats
    others = [s for s in range(n) if s != seat]
    decisions = (Chi, Peng, Gang, Pass, Win)
    history = state.history
    # the runs of window decisions, and which one of each closed run was carried out
    open_from = len(history)
    if state.phase in ("claim", "rob"):
        while open_from > 0 and isinstance(history[open_from - 1][1], decisions):
            open_from -= 1
    executed: set[int] = set()
    window_tile: dict[int, int] = {}
    tile: int | None = None
    run: list[int] = []

    def close(run: list[int]) -> None:
        claims = [i for i in run if isinstance(history[i][1], Peng | Gang)]
        claims = claims or [i for i in run if isinstance(history[i][1], Chi)]
        executed.update(claims[:1])

    for i, (_, action) in enumerate(history):
        if isinstance(action, decisions):
            assert tile is not None
            window_tile[i] = tile
            if i < open_from:
                run.append(i)
            continue
        close(run)
        run = []
        if isinstance(action, Discard | Kong):
            tile = int(action.tile)
    close(run)
    # what each other seat has put out, in order (暗杠 as placeholders)
    puts: dict[int, list[int]] = {s: [] for s in others}
    pengs: set[tuple[int, int]] = set()
    angangs: list[tuple[int, int]] = []  # (seat, history index)
    for i, (who, action) in enumerate(history):
        if who == seat:
            continue
        if isinstance(action, Discard):
            puts[who].append(int(action.tile))
        elif isinstance(action, Kong):
            if (who, int(action.tile)) in pengs:
                puts[who].append(int(action.tile))
            else:
                puts[who].extend([_ANGANG] * 4)
                angangs.append((who, i))
        elif i in executed:
            w = window_tile[i]
            if isinstance(action, Chi):
                chow = [int(t) for t in action.chow]
                chow.remove(w)
                puts[who].extend(chow)
            elif isinstance(action, Peng):
                puts[who].extend([w, w])
                pengs.add((who, w))
            else:
                puts[who].extend([w, w, w])
    # each seat's receipts: its dealt tiles, then its draws (wall positions), in order
    wall = state.deal.piles["wall"]
    receipts: dict[int, list[tuple[str, int]]] = {
        s: [("hand", k) for k in range(len(state.deal.hands[s]))] for s in range(n)
    }
    front, back = 0, len(wall) - 1
    for who, replacement in state.draws:
        if replacement:
            receipts[who].append(("wall", back))
            back -= 1
        else:
            receipts[who].append(("wall", front))
            front += 1
    hidden = state.hidden_from(seat)
    four = sorted(t for t, k in hidden.items() if k == 4)
    concealed = [len(state.hands[s]) for s in others]
    for s in others:
        if len(receipts[s]) != len(puts[s]) + len(state.hands[s]):
            raise ResampleFailed(f"seat {s}'s tiles do not add up")  # pragma: no cover

    def propose(rng: random.Random) -> tuple[Deal, Script]:
        if len(four) < len(angangs):
            raise ResampleFailed("no kinds left for the hidden kongs")
        kinds = rng.sample(four, len(angangs))
        pool = Counter(hidden)
        for k in kinds:
            pool[k] -= 4
        parts = deal_hidden(rng, sorted(pool.elements()), [*concealed, len(state.wall)])
        hands = [list(h) for h in state.deal.hands]
        new_wall = list(wall)
        for i, s in enumerate(others):
            angang_tiles = iter(t for k in kinds_of(s, kinds) for t in [k] * 4)
            tiles = [next(angang_tiles) if t == _ANGANG else t for t in puts[s]] + parts[i]
            for (where, at), t in zip(receipts[s], tiles, strict=True):
                if where == "hand":
                    hands[s][at] = t
                else:
                    new_wall[at] = t
        undrawn = iter(parts[-1])
        for at in range(front, back + 1):
            new_wall[at] = next(undrawn)
        script: Script = []
        kind_at = dict(zip((i for _, i in angangs), kinds, strict=True))
        for i, (who, action) in enumerate(history):
            in_window = isinstance(action, decisions)
            if not in_window:
                script.extend((s, _pass_if_waiting(s)) for s in others)
            if who == seat:
                script.append((who, action))
            elif i in kind_at:
                script.append((who, Kong(Tile(kind_at[i]))))
            elif not in_window or i in executed:
                script.append((who, action))
        if not state.hidden_window():  # the last window has closed: the others passed
            script.extend((s, _pass_if_waiting(s)) for s in others)
        piles = {"wall": tuple(new_wall), "flip": state.deal.piles["flip"]}
        deal = Deal(tuple(tuple(h) for h in hands), piles, state.deal.info)
        return deal, script

    def kinds_of(s: int, kinds: list[int]) -> list[int]:
        return [k for (who, _), k in zip(angangs, kinds, strict=True) if who == s]

    return propose
