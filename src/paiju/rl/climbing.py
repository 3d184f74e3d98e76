"""The climbing games (鞍山甲乙丙, 鞍山放羊, 宁城打弹子) through the generic PlayEncoder.

A play (出牌: any combination that beats the table, a bomb of two decks included) or a pass
(过) is a card-choice sequence over the core's listed legal plays: ``0-53`` choose a card,
``54`` done (with nothing chosen: pass, where passing is legal). Small decisions follow:

* 放羊: ``55 + i`` the banker's call (叫牌) of card ``i // 2`` (card index 0-51), 亮 when
  ``i`` is odd - the callable ones are masked in;
* 打弹子: ``55`` 宣战 (declare), ``56`` 不宣战.

Observation fields after the generic ``phase``, ``hand``, ``chosen``, ``hand_sizes``:
``table`` (54) the combination to beat and ``table_seat`` (seats) who played it;
``passed`` (seats) who passed on it; ``trick`` (seats, 54) this trick's plays by seat;
``played_by`` (seats, 54) every seat's played cards; ``places`` (seats) finishing place /
seats (0 while holding cards); ``seen`` (seats, 54) the hands the observer sees (its own; a
partner's under 打弹子's 明牌; all at the end); ``scores`` (seats) the settlement.

打弹子's 进贡/还贡 and 挑选 (later deals of a match) are not encoded yet, so its environment
plays one deal (``hands=1``); see the module's note in ``docs/rl.md``.
"""

from __future__ import annotations

from collections.abc import Sequence

from paiju.cards import Card
from paiju.engine import Action, Game, State
from paiju.errors import IllegalAction
from paiju.games.climbing.core import ClimbingState, Pass, Play
from paiju.rl.cardseq import CARD_SLOTS, CardChoice
from paiju.rl.encoding import Mask, Obs
from paiju.rl.plays import FieldSpec, PlayEncoder

__all__ = ["ClimbingEncoder", "DanziEncoder", "FangyangEncoder", "JiayibingEncoder"]


class ClimbingEncoder(PlayEncoder):
    """The climbing core's plays and public state."""

    phases: tuple[str, ...] = ("playing", "over")

    def play_cards(self, action: Action) -> tuple[int, ...] | None:
        if isinstance(action, Play):
            return tuple(int(c) for c in action.cards)
        if isinstance(action, Pass):
            return ()
        return None

    def make_play(self, state: State, seat: int, cards: tuple[int, ...]) -> Action:
        return Play(tuple(Card(c) for c in cards)) if cards else Pass()

    def hand(self, state: State, seat: int) -> Sequence[int]:
        assert isinstance(state, ClimbingState)
        return state.hands[seat]

    def extra_fields(self) -> list[FieldSpec]:
        n = self.seats
        return [
            ("table", (CARD_SLOTS,), "the combination to beat"),
            ("table_seat", (n,), "who played it"),
            ("passed", (n,), "who passed on it"),
            ("trick", (n, CARD_SLOTS), "this trick's plays by seat"),
            ("played_by", (n, CARD_SLOTS), "every seat's played cards"),
            ("places", (n,), "finishing place / seats (0 while holding cards)"),
            ("seen", (n, CARD_SLOTS), "the hands the observer sees"),
            ("scores", (n,), "the settlement"),
        ]

    def observe_extra(self, state: State, seat: int, out: Obs) -> None:
        assert isinstance(state, ClimbingState)
        at, n = self.at, self.seats
        if state.table is not None and state.table_seat is not None:
            self.put_cards(out, "table", state.table.cards)
            out[at["table_seat"] + self.relative(seat, state.table_seat)] = 1
        for s in state.passed:
            out[at["passed"] + self.relative(seat, s)] = 1
        for s, cards in state.trick:
            if cards:
                self.put_cards(out, "trick", cards, self.relative(seat, s))
        over = state.phase == "over"
        for s in range(n):
            r = self.relative(seat, s)
            self.put_cards(out, "played_by", state.played_by[s], r)
            if over or state.sees_hand(seat, s):
                self.put_cards(out, "seen", state.hands[s], r)
        for place, s in enumerate(state.finished, 1):
            out[at["places"] + self.relative(seat, s)] = place / n
        if over:
            for s, x in enumerate(state.settlement()):
                out[at["scores"] + self.relative(seat, s)] = x


class JiayibingEncoder(ClimbingEncoder):
    """鞍山甲乙丙: plays and passes only."""


class FangyangEncoder(ClimbingEncoder):
    """鞍山放羊: the banker's call (叫牌, 亮 or 不亮) of one card, then plays."""

    phases = ("calling", "playing", "over")

    def __init__(self, game: Game, seats: int) -> None:
        from paiju.games.climbing.fangyang import Call

        self.small = tuple(Call.of(c, shown) for c in range(52) for shown in (False, True))
        super().__init__(game, seats)


class DanziEncoder(ClimbingEncoder):
    """宁城打弹子: 宣战 or not, then plays (one deal: tribute phases are not encoded)."""

    phases = (
        "tribute",
        "picking",
        "returning",
        "picking_returns",
        "declaring",
        "playing",
        "over",
    )

    def __init__(self, game: Game, seats: int) -> None:
        from paiju.games.danzi.game import Declare, Decline

        self.small = (Declare(), Decline())
        super().__init__(game, seats)

    def mask(self, state: State, seat: int, choice: CardChoice | None) -> Mask:
        if state.phase in ("tribute", "picking", "returning", "picking_returns"):
            raise IllegalAction(
                f"{state.phase}: 打弹子's 进贡/还贡 and 挑选 have no RL encoding yet; play one"
                " deal per episode (hands=1)",
                reason="not_encoded",
                phase=state.phase,
            )
        return super().mask(state, seat, choice)
