"""The toy game's RL adapter: what a climbing family writes to plug into PlayEncoder."""

from __future__ import annotations

from collections.abc import Sequence

from paiju.cards import Card
from paiju.engine import Action, State
from paiju.rl.encoding import Obs
from paiju.rl.plays import PlayEncoder
from toy import Play, Stake, ToyState


class ToyEncoder(PlayEncoder):
    small = (Stake(1), Stake(2), Stake(3))
    phases = ("staking", "playing", "over")

    def play_cards(self, action: Action) -> tuple[int, ...] | None:
        return tuple(action.card) if isinstance(action, Play) else None

    def make_play(self, state: State, seat: int, cards: tuple[int, ...]) -> Action:
        return Play(tuple(Card(c) for c in cards))

    def hand(self, state: State, seat: int) -> Sequence[int]:
        assert isinstance(state, ToyState)
        return state.hands[seat]

    def extra_fields(self) -> list[tuple[str, tuple[int, ...], str]]:
        return [("table", (self.seats, 54), "the card each seat played")]

    def observe_extra(self, state: State, seat: int, out: Obs) -> None:
        assert isinstance(state, ToyState)
        for s, card in state.played.items():
            self.put_cards(out, "table", [card], self.relative(seat, s))
