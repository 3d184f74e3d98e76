"""记牌器: the views' ``unplayed`` counts (cards of each rank not played yet) of the climbing
games and 三打哈 hold only public information: every seat and a spectator read the same
counts at every step of random playouts, and they equal what a spectator counts itself from
the public ``played`` events it was sent (the full set less every card seen played)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from paiju import game
from paiju.cards import Card, deck, parse_cards, unplayed_by_rank

CODES = ["anshan-jiayibing", "anshan-fangyang", "ningcheng-danzi", "sandaha"]


def rank_of(card: Card) -> str:
    """The count's key of a card: its rank's number (A 14, 小王 15, 大王 16)."""
    return str({"BJ": 15, "RJ": 16}.get(str(card), card.rank))


def test_unplayed_by_rank_counts_copies_and_keeps_played_out_ranks_at_zero() -> None:
    full = deck("54") + deck("54")
    played = parse_cards("RJ RJ As Ah 2c")
    counts = unplayed_by_rank(full, played)
    assert list(counts)[:3] == ["16", "15", "14"] and list(counts)[-1] == "2"
    assert (counts["16"], counts["15"], counts["14"], counts["2"], counts["13"]) == (0, 2, 6, 7, 8)
    assert sum(counts.values()) == 108 - 5


@pytest.mark.parametrize("code", CODES)
def test_every_viewer_reads_the_count_a_spectator_makes_from_public_plays(code: str) -> None:
    g = game(code)
    for seed in range(3):
        rng = random.Random(seed)
        state = g.new_state(g.default_seats, seed=f"counter-{seed}")
        seen_played: list[Card] = []
        full = g.full_set()
        steps = 0
        while not state.is_over and steps < 2000:
            views = {v: state.view(v) for v in [None, *range(state.seats)]}
            spectator = views[None]["unplayed"]
            # the spectator's own count: the full set less every card it saw played
            mine = Counter(rank_of(Card(c)) for c in full)
            mine.subtract(rank_of(c) for c in seen_played)
            assert spectator == {k: mine[k] for k in spectator}, (code, seed, steps)
            assert set(spectator) == {rank_of(Card(c)) for c in full}
            for viewer, view in views.items():
                assert view["unplayed"] == spectator, (code, viewer, steps)
            # the cards not played are exactly those still in hands (and 三打哈's kitty)
            held = sum(views[None]["hand_sizes"]) + views[None].get("kitty_size", 0)
            assert sum(spectator.values()) == held, (code, steps)
            seat = min(state.to_act())
            events = state.apply(seat, state.random_action(seat, rng))
            for event in events:
                body = event.to_json()
                if event.audience() is None and body["type"] == "played":
                    seen_played.extend(parse_cards(body["cards"]))
            steps += 1
        assert state.is_over, (code, seed)
        end = state.view(None)
        assert sum(end["unplayed"].values()) == sum(end["hand_sizes"]) + end.get("kitty_size", 0)
