"""Test devices of the mahjong browser and server tests (not a strategy worth shipping).

* :func:`decide` - what the test's player does at its seat, from what its table shows: its
  concealed tiles, its melds, the 混 kinds and the legal actions. It claims the first 碰 or
  吃 it is offered (so that a claim is made by tapping), wins whenever it can, and otherwise
  discards towards a ready hand (the discard leaving the most winning tiles, else the least
  connected tile; never a 混).
* :class:`PassiveBot` - the bots of the scripted browser hand: they discard the tile they
  drew and pass every claim. With them the hand depends only on the wall (the seed) and the
  test player's decisions, so the test can look for a seed in-process whose hand has a claim
  and a win, and then play exactly that hand through the browser.
* :func:`find_seed` - that search.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from paiju.engine import Action, Game, State
from paiju.games import game as make_game
from paiju.games.majiang.game import MajiangState
from paiju.games.majiang.rules import MajiangRules, kind_counts
from paiju.games.majiang.win import Meld, can_win
from paiju.tiles import Tile, parse_tiles

CODE = "anshan-majiang"


@dataclass(frozen=True)
class Seen:
    """What the test player's table shows it: tiles as ints 0-33."""

    hand: tuple[int, ...]
    """Concealed tiles, the drawn one included."""
    melds: tuple[tuple[str, tuple[int, ...]], ...]
    hun: frozenset[int]


def _wins(
    concealed: Sequence[int], melds: Sequence[Meld], hun: frozenset[int], rules: MajiangRules
) -> bool:
    counts, wilds = kind_counts(concealed, hun)
    return can_win(counts, wilds, melds, rules)


def _waits(
    concealed: Sequence[int], melds: Sequence[Meld], hun: frozenset[int], rules: MajiangRules
) -> int:
    return sum(1 for t in range(34) if _wins([*concealed, t], melds, hun, rules))


def _usefulness(tile: int, counts: Counter[int]) -> int:
    score = 3 * (counts[tile] - 1)
    if tile < 27:
        for d, w in ((1, 2), (2, 1)):
            for t in (tile - d, tile + d):
                if t // 9 == tile // 9 and 0 <= t < 27 and counts[t]:
                    score += w
    return score


def best_discard(seen: Seen, rules: MajiangRules) -> int:
    """The discard towards a ready hand (the most winning tiles after it), deterministic."""
    melds = [Meld(kind, tuple(Tile(t) for t in tiles)) for kind, tiles in seen.melds]
    hand = list(seen.hand)
    candidates = sorted({t for t in hand if t not in seen.hun}) or sorted(set(hand))
    scored = []
    natural = Counter(t for t in hand if t not in seen.hun)
    for t in candidates:
        rest = list(hand)
        rest.remove(t)
        scored.append((_waits(rest, melds, seen.hun, rules), -_usefulness(t, natural), t))
    return max(scored)[2]


def decide(
    seen: Seen, legal: Sequence[dict[str, Any]], claimed: bool, rules: MajiangRules
) -> dict[str, Any]:
    """The test player's action among ``legal`` (JSON forms)."""
    types = [a["type"] for a in legal]
    if "win" in types:
        return {"type": "win"}
    if "pass" in types:
        if not claimed:
            for kind in ("peng", "chi"):
                for a in legal:
                    if a["type"] == kind:
                        return a
        return {"type": "pass"}
    return {"type": "discard", "tile": str(Tile(best_discard(seen, rules)))}


def seen_of(state: MajiangState, seat: int) -> Seen:
    return Seen(
        tuple(state.hands[seat]),
        tuple((m.kind, tuple(m.tiles)) for m in state.melds[seat]),
        frozenset(state.hun),
    )


class PassiveBot:
    """Discards the tile it drew (else its highest tile) and passes every claim."""

    def __init__(self, game: Game, seed: int = 0) -> None:
        self.game = game

    def act(self, state: State, seat: int) -> Action:
        assert isinstance(state, MajiangState)
        legal = state.legal_actions(seat) or []
        for a in legal:
            if a.type == "pass":
                return a
        tile = (
            state.drawn
            if state.drawn is not None and state.drawn in state.hands[seat]
            else max(state.hands[seat])
        )
        return self.game.parse_action({"type": "discard", "tile": str(tile)})


@dataclass
class Plan:
    seed: str
    claims: list[str]
    state: MajiangState


def simulate(seed: str, seat: int = 0) -> Plan:
    """The hand of ``seed`` with the test player at ``seat`` and passive bots elsewhere."""
    g = make_game(CODE)
    state = g.new_state(4, seed=seed)
    assert isinstance(state, MajiangState)
    bot = PassiveBot(g)
    claims: list[str] = []
    rules = state.rules

    def mine() -> Action:
        legal = [a.to_json() for a in state.legal_actions(seat) or []]
        action = decide(seen_of(state, seat), legal, bool(claims), rules)
        if action["type"] in ("peng", "chi"):
            claims.append(action["type"])
        return g.parse_action(action)

    while not state.is_over:
        # a claim window's decisions are played in seat order when it closes, as the
        # server plays them (paiju.server.windows)
        for s in sorted(state.to_act()):
            state.apply(s, mine() if s == seat else bot.act(state, s))
    return Plan(seed, claims, state)


def find_seed(prefix: str = "mj-web-", tries: int = 400) -> Plan:
    """The first seed whose hand has a claim (碰 or 吃) by the test player and a win by it."""
    for k in range(tries):
        plan = simulate(f"{prefix}{k}")
        if plan.claims and any(w.seat == 0 for w in plan.state.wins):
            return plan
    raise AssertionError(f"no seed among {tries} gives the test player a claim and a win")


def tiles_of(text: str) -> tuple[int, ...]:
    return tuple(int(t) for t in parse_tiles(text)) if text else ()


def ints(tiles: Iterable[str]) -> frozenset[int]:
    return frozenset(int(parse_tiles(t)[0]) for t in tiles)
