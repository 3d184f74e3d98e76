"""The 鞍山麻将 bot: 向听数 and tile efficiency (进张) with the 混 counted.

It decides from what its seat sees (own tiles, every discard and meld, the 混):

* declares every win it can (自摸, 点炮, 抢杠);
* discards the tile that leaves the lowest 向听数, counting the text's conditions (a missing
  门 or no natural 幺九 costs a step), then the most 进张 (unseen tiles that take a step off);
  it never lets a 混 go while another tile can;
* claims 碰 / 吃 / 明杠 only when the claim takes a step off its hand, and makes 暗杠 / 补杠
  when they cost nothing;
* defends: when another seat shows three melds (an obvious 听) and its own hand is two or
  more steps away, it discards tiles that seat has discarded (现物) or that are all but gone.

:class:`WorthBot` is what the 困难 level's search proposes and rolls out with: the rule bot's
wins, claims and kongs, and the discard that leaves the hand worth most
(:meth:`~paiju.games.majiang.game.MajiangState.worth`: every condition of a win counted in
its 向听, its 进张, the fans it already holds, the stakes at the table).

:class:`ShantenOnlyBot` is the baseline of ``bench/majiang_bots.py``: lowest 向听数 only,
ties at random, no 进张, no claims but 胡, no defence.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from paiju.engine import Action, Game, State
from paiju.games.majiang.distance import evaluate
from paiju.games.majiang.game import Chi, Discard, Gang, Kong, MajiangState, Pass, Peng, Win
from paiju.games.majiang.shanten import shanten
from paiju.tiles import Tile

__all__ = ["MajiangBot", "ShantenOnlyBot", "WorthBot"]


class _Hand:
    """A seat's natural counts, 混 count, melds and the natural tiles of its melds."""

    def __init__(self, state: MajiangState, seat: int) -> None:
        self.hun = state.hun
        self.counts = [0] * 34
        self.wilds = 0
        for t in state.hands[seat]:
            if t in self.hun:
                self.wilds += 1
            else:
                self.counts[t] += 1
        self.melds = len(state.melds[seat])
        self.meld_tiles = [t for m in state.melds[seat] for t in m.tiles]

    def take(self, tile: Tile) -> None:
        """One ``tile`` out of the concealed tiles (a 混 from the wilds)."""
        if tile in self.hun:
            self.wilds -= 1
        else:
            self.counts[tile] -= 1

    def put(self, tile: Tile) -> None:
        """``tile`` back: undoes :meth:`take`."""
        if tile in self.hun:
            self.wilds += 1
        else:
            self.counts[tile] += 1

    def value(self) -> int:
        """The rule bot's 向听数 of the hand as it is (:func:`evaluate`)."""
        return evaluate(self.counts, self.wilds, self.melds, self.meld_tiles)


def _unseen(state: MajiangState, seat: int) -> list[int]:
    """Copies of each kind the seat has not seen (own hand, rivers, shown melds, the flip)."""
    left = [4] * 34
    for t in state.hands[seat]:
        left[t] -= 1
    for s in range(state.seats):
        for t, _ in state.river[s]:
            left[t] -= 1
        for m in state.melds[s]:
            if m.kind != "angang" or s == seat:
                for t in m.tiles:
                    left[t] -= 1
    left[state.flip] -= 1
    return [max(0, n) for n in left]


def _order(tile: Tile) -> tuple[int, int]:
    """Which of two tiles as useful to let go first: an honour, then the ends of a suit."""
    return (1 if tile >= 27 else 0, abs(4 - tile % 9) if tile < 27 else 0)


class MajiangBot:
    """Plays by 向听数 and 进张; see the module docs."""

    def __init__(self, game: Game, seed: int = 0) -> None:
        self.game = game
        self.rng = random.Random(seed)

    def act(self, state: State, seat: int) -> Action:
        assert isinstance(state, MajiangState)
        legal = list(state.legal_actions(seat) or [])
        if legal == [Pass()]:
            return Pass()  # a window with nothing to claim
        if Win() in legal:
            return Win()
        if state.phase in ("claim", "rob"):
            return self._claim(state, seat, legal)
        hand = _Hand(state, seat)
        best_discard, best_value = self._discard(state, seat, legal, hand)
        for action in legal:
            if isinstance(action, Kong) and self._kong_free(hand, action.tile, best_value):
                return action
        return best_discard

    # -- discards ----------------------------------------------------------------------

    def alternatives(self, state: State, seat: int) -> list[Action]:
        """The plans a search compares with the rule bot's (:mod:`paiju.search`): on a
        discard, the discards next best by the rule bot's own scoring (向听, 进张), best
        first; elsewhere none (the claim windows have few legal actions)."""
        assert isinstance(state, MajiangState)
        if state.phase in ("claim", "rob"):
            return []
        legal = list(state.legal_actions(seat) or [])
        if not any(isinstance(a, Discard) for a in legal):
            return []
        return self._ranked(state, seat, legal, _Hand(state, seat))[0]

    def _discard(
        self, state: MajiangState, seat: int, legal: Sequence[Action], hand: _Hand
    ) -> tuple[Action, int]:
        ranked, best_value = self._ranked(state, seat, legal, hand)
        return ranked[0], best_value

    def _ranked(
        self, state: MajiangState, seat: int, legal: Sequence[Action], hand: _Hand
    ) -> tuple[list[Action], int]:
        """The natural discards, the rule bot's best first, and the best 向听数."""
        discards = [a for a in legal if isinstance(a, Discard)]
        natural = [a for a in discards if a.tile not in hand.hun] or discards
        unseen = _unseen(state, seat)
        threat = self._threat(state, seat)
        scored = []
        for action in natural:
            t = action.tile
            hand.take(t)
            value = hand.value()
            gain = self._ukeire(hand, value, unseen)
            hand.put(t)
            danger = 0 if threat is None else self._danger(state, threat, t, unseen)
            scored.append((value, -gain, _order(t), self.rng.random(), action, danger))
        scored.sort(key=lambda s: s[:4])
        best_value = scored[0][0]
        if threat is not None and best_value >= 2:
            scored.sort(key=lambda s: (s[5], *s[:4]))
        return [s[4] for s in scored], best_value

    def _ukeire(self, hand: _Hand, value: int, unseen: Sequence[int]) -> int:
        """进张: unseen tiles that would take the hand a step closer (a 混 always does)."""
        total = 0
        for k in range(34):
            if not unseen[k]:
                continue
            if k in hand.hun:
                total += unseen[k]
                continue
            hand.counts[k] += 1
            if evaluate(hand.counts, hand.wilds, hand.melds, hand.meld_tiles) < value:
                total += unseen[k]
            hand.counts[k] -= 1
        return total

    def _threat(self, state: MajiangState, seat: int) -> int | None:
        """A seat showing three or more melds: an obvious 听."""
        for s in range(state.seats):
            if s != seat and len(state.melds[s]) >= 3:
                return s
        return None

    def _danger(self, state: MajiangState, threat: int, tile: Tile, unseen: Sequence[int]) -> int:
        if any(t == tile for t, _ in state.river[threat]):
            return 0  # 现物: the threat discarded it, it cannot win on it (过胡 aside)
        if unseen[tile] == 0:
            return 0
        return 1 if tile >= 27 else 2

    def _kong_free(self, hand: _Hand, tile: Tile, best_value: int) -> bool:
        """暗杠 / 补杠 when the hand is no worse for it (a kong is a fan and a free draw)."""
        n = hand.counts[tile]
        hand.counts[tile] = 0 if n == 4 else n - 1
        value = evaluate(
            hand.counts, hand.wilds, hand.melds + (1 if n == 4 else 0), hand.meld_tiles
        )
        hand.counts[tile] = n
        return value <= best_value

    # -- claims ------------------------------------------------------------------------

    def _claim(self, state: MajiangState, seat: int, legal: Sequence[Action]) -> Action:
        if state.phase == "rob":
            return Pass()
        hand = _Hand(state, seat)
        tile = state.window_tile()
        assert tile is not None
        now = evaluate(hand.counts, hand.wilds, hand.melds, hand.meld_tiles)
        best: tuple[int, Action] = (now, Pass())
        for action in legal:
            if isinstance(action, Gang):
                hand.counts[tile] -= 3
                v = evaluate(hand.counts, hand.wilds, hand.melds + 1, [*hand.meld_tiles, tile])
                hand.counts[tile] += 3
                if v <= now and v <= best[0]:
                    best = (v - 1, action)  # a kong is a fan and a draw: prefer it to 碰
            elif isinstance(action, Peng):
                hand.counts[tile] -= 2
                v = self._after_claim(hand, [tile] * 3)
                hand.counts[tile] += 2
                if v < best[0]:
                    best = (v, action)
            elif isinstance(action, Chi):
                used = [t for t in action.chow]
                used.remove(tile)
                for t in used:
                    hand.counts[t] -= 1
                v = self._after_claim(hand, list(action.chow))
                for t in used:
                    hand.counts[t] += 1
                if v < best[0]:
                    best = (v, action)
        return best[1]

    # -- 简单's slips ------------------------------------------------------------------

    def mistake(self, state: State, seat: int, best: Action, rng: random.Random) -> Action | None:
        """A beginner's slip instead of ``best`` (for 简单, :class:`paiju.bots.EasyBot`):
        in a claim window it takes every 碰 or 吃 offered; on its turn it counts no tiles:
        any discard as near to 听 as the best (not the one with the most 进张, and no
        defence), or, half the time, a suited tile out of its shape (a pair or a partial
        set broken, a step further from 听) while it keeps its winds and dragons. None
        where no such discard is open."""
        assert isinstance(state, MajiangState)
        legal = list(state.legal_actions(seat) or [])
        if state.phase == "claim":
            claims = [a for a in legal if isinstance(a, Peng | Chi)]
            return rng.choice(claims) if claims and not isinstance(best, Peng | Chi) else None
        if state.phase != "play":
            return None
        hand = _Hand(state, seat)
        options: list[tuple[int, Action]] = []
        for action in legal:
            if not isinstance(action, Discard) or action.tile in hand.hun:
                continue
            hand.counts[action.tile] -= 1
            options.append((evaluate(hand.counts, hand.wilds, hand.melds, hand.meld_tiles), action))
            hand.counts[action.tile] += 1
        if not options:
            return None
        low = min(v for v, _ in options)
        near = [a for v, a in options if v == low and a != best]
        broken = [a for v, a in options if v == low + 1 and isinstance(a, Discard) and a.tile < 27]
        if broken and (not near or rng.random() < 0.5):
            return rng.choice(broken)
        return rng.choice(near) if near else None

    def _after_claim(self, hand: _Hand, meld: list[int]) -> int:
        """The best value after a 吃/碰 and the discard that must follow."""
        meld_tiles = [*hand.meld_tiles, *meld]
        best = 99
        for k in range(34):
            if hand.counts[k]:
                hand.counts[k] -= 1
                best = min(best, evaluate(hand.counts, hand.wilds, hand.melds + 1, meld_tiles))
                hand.counts[k] += 1
        return best


class ShantenOnlyBot:
    """Baseline: the discard with the lowest plain 向听数 (ties at random); wins, else passes."""

    def __init__(self, game: Game, seed: int = 0) -> None:
        self.game = game
        self.rng = random.Random(seed)

    def act(self, state: State, seat: int) -> Action:
        assert isinstance(state, MajiangState)
        legal = list(state.legal_actions(seat) or [])
        if Win() in legal:
            return Win()
        if state.phase in ("claim", "rob"):
            return Pass()
        hand = _Hand(state, seat)
        options = []
        for action in legal:
            if not isinstance(action, Discard):
                continue
            t = action.tile
            if t in hand.hun:
                hand.wilds -= 1
                v = shanten(hand.counts, hand.wilds, hand.melds)
                hand.wilds += 1
            else:
                hand.counts[t] -= 1
                v = shanten(hand.counts, hand.wilds, hand.melds)
                hand.counts[t] += 1
            options.append((v, self.rng.random(), action))
        options.sort(key=lambda o: o[:2])
        return options[0][2]


class WorthBot(MajiangBot):
    """The 困难 level's policy (see the module docs): the rule bot's wins, claims and
    kongs, and on a discard the tile whose going leaves the hand worth most."""

    def _discard(
        self, state: MajiangState, seat: int, legal: Sequence[Action], hand: _Hand
    ) -> tuple[Action, int]:
        """The discard worth most, and the best 向听数 a discard leaves (what the rule
        bot weighs a kong against)."""
        ranked = self.alternatives(state, seat)
        best_value = 99
        for action in ranked:
            assert isinstance(action, Discard)
            hand.take(action.tile)
            best_value = min(best_value, hand.value())
            hand.put(action.tile)
        return ranked[0], best_value

    def alternatives(self, state: State, seat: int) -> list[Action]:
        """On a discard, the natural discards by what they leave the hand worth
        (:meth:`~paiju.games.majiang.game.MajiangState.worth`), best first, a tie going to
        the tile the rule bot would let go first (honours, then the ends of a suit);
        elsewhere none (the claim windows have few legal actions)."""
        assert isinstance(state, MajiangState)
        if state.phase in ("claim", "rob"):
            return []
        discards = [a for a in state.legal_actions(seat) or [] if isinstance(a, Discard)]
        natural = [a for a in discards if a.tile not in state.hun] or discards
        value_of = state.appraiser(seat)
        scored = []
        for action in natural:
            rest = list(state.hands[seat])
            rest.remove(action.tile)
            scored.append((-value_of(rest), _order(action.tile), action.tile, action))
        scored.sort(key=lambda s: s[:3])
        return [s[3] for s in scored]
