"""The Game protocol on the toy game: dealing, turns, checks, views, replay, JSON forms."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paiju.cards import parse_cards
from paiju.engine import Deal, HandEnded, Match
from paiju.errors import IllegalAction, NotYourTurn, ProtocolError
from paiju.games import game, read_record, replay
from toy import Play, Stake, Staked, ToyState


def test_same_seed_same_deal_and_different_seed_different_deal(toy_variants: Path) -> None:
    g = game("toy")
    a = g.new_state(3, seed=7).deal
    b = g.new_state(3, seed=7).deal
    c = g.new_state(3, seed=8).deal
    assert a == b
    assert a != c
    assert sorted(a.items().elements()) == sorted(g.full_set())


def test_simultaneous_phase_lists_every_seat_then_turns_go_in_order(toy_variants: Path) -> None:
    state = game("toy").new_state(3, seed=1)
    assert state.to_act() == {0, 1, 2}
    state.apply(1, Stake(2))
    assert state.to_act() == {0, 2}
    state.apply(0, Stake(1))
    state.apply(2, Stake(3))
    assert state.phase == "playing"
    assert state.to_act() == {0}


def test_out_of_turn_and_illegal_actions_raise_and_change_nothing(toy_variants: Path) -> None:
    state = game("toy").new_state(2, seed=3)
    before = state.snapshot()
    with pytest.raises(IllegalAction, match="stake 1, 2 or 3, not 9"):
        state.apply(0, Stake(9))
    with pytest.raises(NotYourTurn, match="there is no seat 5"):
        state.apply(5, Stake(1))
    with pytest.raises(IllegalAction, match="stake first"):
        state.apply(0, Play(state.deal.hands[0][:1]))
    assert state.snapshot() == before
    state.apply(0, Stake(1))
    with pytest.raises(NotYourTurn, match="seat 0 may not act now"):
        state.apply(0, Stake(1))


def test_a_view_shows_own_cards_and_hides_the_others(toy_variants: Path) -> None:
    state = game("toy").new_state(2, seed=4)
    own = parse_cards(state.view(0)["hand"])
    assert sorted(own) == sorted(state.deal.hands[0])
    text = json.dumps(state.view(0))
    for card in state.deal.hands[1]:
        assert f'"{card}' not in text and f" {card}" not in text
    assert "hand" not in state.view(None)


def test_stakes_stay_hidden_until_everyone_has_staked(toy_variants: Path) -> None:
    state = game("toy").new_state(2, seed=4)
    state.apply(0, Stake(3))
    assert state.view(1)["stakes"] == [True, False]
    state.apply(1, Stake(2))
    assert state.view(1)["stakes"] == [3, 2]


def test_events_carry_their_audience_and_the_last_action_ends_the_hand(toy_variants: Path) -> None:
    state = game("toy").new_state(2, seed=5)
    assert state.apply(0, Stake(1)) == [Staked(0)]
    state.apply(1, Stake(1))
    state.apply(0, Play(state.deal.hands[0][:1]))
    events = state.apply(1, Play(state.deal.hands[1][:1]))
    assert isinstance(events[-1], HandEnded)
    assert events[-1].scores == state.settlement()
    assert sum(state.settlement()) == 0
    assert state.is_over and state.to_act() == frozenset()
    with pytest.raises(NotYourTurn, match="the hand is over"):
        state.apply(0, Stake(1))


def test_action_and_event_json_forms_round_trip(toy_variants: Path) -> None:
    g = game("toy")
    play = Play(parse_cards("As"))
    assert play.to_json() == {"type": "play", "card": "As"}
    assert g.parse_action({"type": "play", "card": "As"}) == play
    assert g.parse_action(json.loads(json.dumps(Stake(2).to_json()))) == Stake(2)
    ended = HandEnded((3, -3))
    assert g.parse_event(ended.to_json()) == ended


@pytest.mark.parametrize(
    ("message", "error"),
    [
        ({"type": "fly"}, "unknown action type 'fly'; this game knows play, stake"),
        ({"type": "play", "card": "Zz"}, "bad 'play' message: card: bad card 'Zz'"),
        ({"type": "stake"}, "bad 'stake' message: amount: Field required"),
        ({"type": "stake", "amount": "many"}, "bad 'stake' message: amount: Input should be"),
        ([1, 2], "expected a JSON object for an action"),
    ],
)
def test_malformed_actions_say_what_is_wrong(
    toy_variants: Path, message: object, error: str
) -> None:
    with pytest.raises(ProtocolError, match=error.replace("(", r"\(")):
        game("toy").parse_action(message)


def test_a_state_starts_from_a_given_deal(toy_variants: Path) -> None:
    g = game("toy")
    dealt = g.new_state(2, seed=11).deal.to_json()
    assert set(dealt) == {"hands", "stock"}
    state = g.new_state(2, deal=dealt)
    assert state.deal == g.new_state(2, seed=11).deal
    assert state.seed is None


def test_a_given_deal_must_use_the_deck_exactly(toy_variants: Path) -> None:
    g = game("toy")
    dealt = g.new_state(2, seed=11).deal.to_json()
    dealt["hands"][0] = dealt["hands"][1]
    with pytest.raises(ProtocolError, match=r"missing .* extra"):
        g.new_state(2, deal=dealt)
    with pytest.raises(ProtocolError, match="deal has 2 hands for 3 seats"):
        g.new_state(3, deal=g.new_state(2, seed=11).deal)
    with pytest.raises(ProtocolError, match="hand 0: bad card"):
        g.new_state(2, deal={"hands": ["Xx", ""], "stock": ""})


def test_seat_count_outside_the_variant_is_refused(toy_variants: Path) -> None:
    with pytest.raises(IllegalAction, match="played by 2-4 seats, not 5"):
        game("toy").new_state(5, seed=1)


def test_replay_rebuilds_every_state(toy_variants: Path) -> None:
    g = game("toy")
    state = g.new_state(3, seed=21)
    views = [state.view(0)]
    for seat in (2, 0, 1):
        state.apply(seat, Stake(seat + 1))
        views.append(state.view(0))
    while not state.is_over:
        (seat,) = state.to_act()
        state.apply(seat, Play((min(state.hands[seat]),)))  # type: ignore[attr-defined]
        views.append(state.view(0))
    record = read_record(json.loads(json.dumps(state.record().to_json())))
    assert record == state.record()
    rebuilt = [s.view(0) for s in replay(record)]
    assert rebuilt == views


def test_clone_is_independent(toy_variants: Path) -> None:
    state = game("toy").new_state(2, seed=2)
    copy = state.clone()
    copy.apply(0, Stake(1))
    assert state.to_act() == {0, 1}
    assert copy.to_act() == {1}
    assert copy.game is state.game


def test_a_match_carries_the_context_and_sums_the_hands(toy_variants: Path) -> None:
    g = game("toy")
    match = Match(g, 2, iter(["a", "b", "c"]))
    while not match.is_over:
        state = match.next_hand()
        assert isinstance(state, ToyState)
        assert state.first == len(match.hands) - 1
        while not state.is_over:
            seat = min(state.to_act())
            legal = state.legal_actions(seat)
            state.apply(seat, legal[0])
    assert len(match.hands) == 2
    assert match.totals == [sum(h.settlement()[s] for h in match.hands) for s in range(2)]
    assert sum(match.totals) == 0


def test_deal_json_form_is_the_notation() -> None:
    d = Deal((parse_cards("As Kd"), parse_cards("2c")), {"kitty": parse_cards("RJ")}, {"x": 1})
    assert d.to_json() == {"hands": ["As Kd", "2c"], "kitty": "RJ", "info": {"x": 1}}
    assert Deal.from_json(d.to_json()) == d
    with pytest.raises(ProtocolError, match="info must map names"):
        Deal.from_json({"hands": [], "info": {"x": [1]}})
