"""十三张 through the Game protocol: simultaneous arranging, hidden views, showdown, options."""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from paiju.cards import Card, deck, format_cards, parse_cards
from paiju.engine import Deal, Match
from paiju.errors import IllegalAction, NotYourTurn
from paiju.games import game, make_bot
from paiju.games.shisanzhang.game import (
    Arrange,
    Bet,
    BetPlaced,
    BetsShown,
    Declare,
    Ready,
    Revealed,
    ShisanzhangState,
    greedy_arrangement,
)
from paiju.games.shisanzhang.rows import RowRules, is_foul
from paiju.games.shisanzhang.showdown import showdown
from paiju.harness import view_items

DRAGON = "2s 3h 4c 5d 6s 7h 8c 9d Ts Jh Qc Kd Ac"
QUADS = "Ts Th Tc Td 9s 2h 3d Jc Qs Ks Ad 4h 4c"


def deal_of(*texts: str) -> Deal:
    """A 4-seat deal: the given hands, the rest of the deck to the last seats."""
    hands = [tuple(parse_cards(t)) for t in texts]
    used = {c for h in hands for c in h}
    left = [c for c in deck("52") if c not in used]
    while len(hands) < 4:
        hands.append(tuple(left[:13]))
        left = left[13:]
    return Deal(tuple(hands))


def state_of(code: str, *texts: str, **options: object) -> ShisanzhangState:
    st = game(code, **options).new_state(4, deal=deal_of(*texts))
    assert isinstance(st, ShisanzhangState)
    return st


def arrange_greedy(st: ShisanzhangState, seat: int) -> Arrange:
    return Arrange(*greedy_arrangement(st.hands[seat], st.game.params.row_rules()))


def test_everyone_arranges_at_once_and_views_hide_until_showdown() -> None:
    st = state_of("1301")
    assert st.phase == "arranging" and st.to_act() == frozenset(range(4))
    own = st.view(0)
    assert len(parse_cards(own["hand"])) == 13 and own["mine"] is None
    events = st.apply(2, arrange_greedy(st, 2))
    assert events == [Ready(2)]
    assert st.to_act() == frozenset({0, 1, 3})
    # seat 0 sees that seat 2 is ready, not its cards or rows
    view = st.view(0)
    assert view["ready"] == [False, False, True, False]
    assert "showdown" not in view
    named = view_items(view)
    assert named and not any(named[c] for c in st.hands[2])
    assert st.view(2)["mine"] is not None
    assert st.view(None).get("hand") is None
    for seat in (0, 1, 3):
        events = st.apply(seat, arrange_greedy(st, seat))
    assert st.phase == "over" and st.is_over
    revealed = [e for e in events if isinstance(e, Revealed)]
    assert len(revealed) == 1 and len(revealed[0].hands) == 4
    shown = st.view(None)["showdown"]
    assert shown["scores"] == list(st.settlement())
    assert sum(st.settlement()) == 0


def test_the_showdown_event_writes_its_hands_when_read() -> None:
    """The showdown event's hands (``f / m / b`` each, or ``name: cards``) are written from
    the showdown when first read: the same event, JSON, equality and pickle as an event
    written at once."""
    rng = random.Random(7)
    for n in range(40):
        st = game("1301").new_state(4, seed=f"shown-{n}")
        for seat in range(4):
            events = st.apply(seat, st.random_action(seat, rng))
        event = next(e for e in events if isinstance(e, Revealed))
        assert "hands" not in vars(event)  # not written yet
        assert st.result is not None
        texts = tuple(h.shown_text() for h in st.result.hands)
        eager = Revealed(texts, event.specials, event.fouls, event.scores)
        again = pickle.loads(pickle.dumps(event))
        assert event.to_json() == eager.to_json()
        assert event == eager and hash(event) == hash(eager)
        assert event.hands == texts and vars(event)["hands"] is event.hands
        assert again == eager
    with pytest.raises(AttributeError, match="no attribute 'shown'"):
        event.shown  # noqa: B018  (only the hands are written late)


def test_settlement_is_the_showdown_of_the_arrangements() -> None:
    st = state_of("1301")
    texts = []
    for seat in range(4):
        action = arrange_greedy(st, seat)
        st.apply(seat, action)
        texts.append(
            " / ".join(" ".join(map(str, r)) for r in (action.front, action.middle, action.back))
        )
    assert list(st.settlement()) == showdown("1301", texts)["scores"]


def test_arrangement_must_use_exactly_the_own_cards() -> None:
    st = state_of("1301")
    mine = st.hands[0]
    theirs = st.hands[1]
    before = st.snapshot()
    bad = Arrange(mine[:3], mine[3:8], (*mine[8:12], theirs[0]))
    with pytest.raises(IllegalAction, match="exactly once"):
        st.apply(0, bad)
    with pytest.raises(IllegalAction, match="front"):
        st.apply(0, Arrange(mine[:5], mine[5:10], mine[10:]))
    assert st.snapshot() == before


def test_foul_is_allowed_and_loses() -> None:
    """倒水 is a legal (losing) arrangement, not an illegal action."""
    st = state_of("1301", "As Ah Kc 2s 3s 5c 7c 9h Ts Js 4d 6d 8s")
    st.apply(
        0,
        Arrange(
            parse_cards("As Ah Kc"), parse_cards("2s 3s 5c 7c 9h"), parse_cards("Ts Js 4d 6d 8s")
        ),
    )
    for seat in (1, 2, 3):
        st.apply(seat, arrange_greedy(st, seat))
    assert st.view(0)["showdown"]["fouls"][0] is True
    assert st.settlement()[0] < 0


def rows_of(text: str) -> Arrange:
    """An arrangement written ``"front / middle / back"``."""
    front, middle, back = (parse_cards(row) for row in text.split("/"))
    return Arrange(front, middle, back)


def test_preview_judges_an_arrangement_without_playing_it() -> None:
    """What an arrangement would show (its categories and 倒水), before confirming it."""
    st = state_of("1301", "As Ah Kc 2c 3s 5c 7c 9h Tc Js 4d 6d 8s", DRAGON)
    before = st.snapshot()
    foul = rows_of("As Ah Kc / 2c 3s 5c 7c 9h / Tc Js 4d 6d 8s")
    fine = rows_of("2c 3s 5c / As Ah Kc 4d 6d / 7c 9h Tc Js 8s")
    shown = [
        ("As Ah Kc / 9h 7c 5c 3s 2c / Js Tc 8s 6d 4d", ["对子", "散牌", "散牌"], True),
        ("5c 3s 2c / As Ah Kc 6d 4d / Js Tc 9h 8s 7c", ["散牌", "对子", "顺子"], False),
    ]
    for action, (rows, categories, fouled) in zip((foul, fine), shown, strict=True):
        front, middle, back = (row.strip() for row in rows.split("/"))
        assert st.preview(0, action) == {
            "front": front,
            "middle": middle,
            "back": back,
            "categories": categories,
            "foul": fouled,
        }
    dragon = format_cards(sorted(parse_cards(DRAGON), key=lambda c: (-(c // 4), c % 4)))
    assert st.preview(1, Declare()) == {"declared": "一条龙", "cards": dragon}
    with pytest.raises(IllegalAction, match="exactly once"):
        st.preview(0, rows_of("As Ah Kc / 2c 3s 5c 7c 9h / Tc Js 4d 6d Kd"))
    assert st.snapshot() == before, "a preview changes nothing"
    st.apply(0, foul)
    with pytest.raises(NotYourTurn):
        st.preview(0, fine)


def test_declare_needs_a_special() -> None:
    st = state_of("1301", DRAGON)
    assert st.view(0)["special"] == "一条龙"
    with pytest.raises(IllegalAction, match="no special hand"):
        st.apply(1, Declare())
    st.apply(0, Declare())
    for seat in (1, 2, 3):
        st.apply(seat, arrange_greedy(st, seat))
    assert st.settlement()[0] == 108  # points: 一条龙 takes 36 from each


def test_1301_majority_room_knows_no_special() -> None:
    st = state_of("1301", DRAGON, scoring="majority")
    assert st.view(0)["special"] is None
    with pytest.raises(IllegalAction):
        st.apply(0, Declare())


def test_exempt_hand_may_only_declare() -> None:
    """1302: 此家不用再摆牌 — the seat's only action is to show it."""
    st = state_of("1302", QUADS)
    assert st.view(0)["must_declare"] is True
    assert st.legal_actions(0) == [Declare()]
    with pytest.raises(IllegalAction, match="免摆"):
        st.apply(0, arrange_greedy(st, 0))
    assert st.random_action(0, random.Random(1)) == Declare()


def test_1304_nobody_arranges() -> None:
    """1304: 不摆拍，直接比最大牌型 — every seat's only action is Declare."""
    st = state_of("1304")
    for seat in range(4):
        assert st.legal_actions(seat) == [Declare()]
        st.apply(seat, Declare())
    assert st.is_over and sum(st.settlement()) == 0


def test_random_action_never_fouls() -> None:
    rng = random.Random(7)
    g = game("1303")
    for i in range(30):
        st = g.new_state(4, seed=f"r{i}")
        assert isinstance(st, ShisanzhangState)
        action = st.random_action(0, rng)
        assert isinstance(action, Arrange)
        st.check(0, action)
        assert not is_foul(action.front, action.middle, action.back, RowRules())


class _SubclassedRandom(random.Random):
    """A Random the fast arranger does not write out: it goes through ``rng.shuffle``."""


@pytest.mark.parametrize("code", ["1301", "1303"])
def test_random_action_draws_as_random_shuffle(code: str) -> None:
    """The written-out shuffle of a plain Random draws exactly as ``Random.shuffle``: the
    same arrangement, and the generator left in the same state."""
    g = game(code)
    for i in range(40):
        st = g.new_state(4, seed=f"d{i}")
        assert isinstance(st, ShisanzhangState)
        plain, sub = random.Random(i), _SubclassedRandom(i)
        for seat in range(4):
            if st.forced[seat]:
                continue
            assert st.random_action(seat, plain) == st.random_action(seat, sub)
        assert plain.getstate() == sub.getstate()


def test_options() -> None:
    assert game("1301").options == {"scoring": "points", "stake": 1, "favoured": False}
    assert game("1301", scoring="majority").options["scoring"] == "majority"
    with pytest.raises(IllegalAction, match="settled by"):
        game("1302", scoring="points")
    with pytest.raises(IllegalAction, match="stake"):
        game("1301", stake=0)
    with pytest.raises(IllegalAction, match="banker"):
        game("1301", favoured=True)
    with pytest.raises(IllegalAction, match="no room option"):
        game("1301", speed=3)
    assert game("1301-payout", favoured=True).options["favoured"] is True


def test_stake_multiplies_the_settlement() -> None:
    plain = state_of("1301")
    staked = state_of("1301", stake=5)
    for st in (plain, staked):
        for seat in range(4):
            st.apply(seat, arrange_greedy(st, seat))
    assert [5 * x for x in plain.settlement()] == list(staked.settlement())


def test_banker_rotates_in_banker_games() -> None:
    g = game("1303-2")
    match = Match(g, 4, (f"b{h}" for h in range(10)))
    bots = [make_bot(g, s) for s in range(4)]
    bankers = []
    for _ in range(3):
        st = match.next_hand()
        assert isinstance(st, ShisanzhangState)
        bankers.append(st.banker)
        while not st.is_over:
            seat = min(st.to_act())
            st.apply(seat, bots[seat].act(st, seat))
    assert bankers == [0, 1, 2]
    assert game("1301").new_state(4, seed="x").next_context() == {}


def test_bot_declares_a_dragon_and_arranges_legally() -> None:
    st = state_of("1301", DRAGON)
    bot = make_bot(st.game, 3)
    assert bot.act(st, 0) == Declare()
    action = bot.act(st, 1)
    assert isinstance(action, Arrange)
    st.check(1, action)
    assert not is_foul(action.front, action.middle, action.back, st.game.params.row_rules())


def test_two_and_three_seats_leave_cards_undealt_and_hidden() -> None:
    g = game("1301")
    st = g.new_state(2, seed="two")
    assert isinstance(st, ShisanzhangState)
    assert sum(len(p) for p in st.locations().values()) == 52
    undealt = st.deal.piles["undealt"]
    assert len(undealt) == 26
    for seat in range(2):
        st.apply(seat, arrange_greedy(st, seat))
    hidden = st.hidden_from(0)
    assert all(hidden[Card(c)] == 1 for c in undealt)


def test_banker_games_bet_first() -> None:
    """玩法: "开牌前，各闲家向庄家下注" — players bet (hidden until all have), then arrange."""
    st = state_of("1303-2")
    assert st.phase == "betting" and st.banker == 0
    assert st.to_act() == frozenset({1, 2, 3})
    assert st.legal_actions(0) == []
    assert st.legal_actions(1) == [Bet(x) for x in (1, 2, 3, 4, 5)]
    with pytest.raises(IllegalAction, match="bets first"):
        st.apply(1, arrange_greedy(st, 1))
    with pytest.raises(IllegalAction, match="one of"):
        st.apply(1, Bet(7))
    assert st.apply(1, Bet(5)) == [BetPlaced(1)]
    assert st.view(2)["bets"] == [None, "placed", None, None]
    assert st.view(1)["bets"] == [None, 5, None, None]
    st.apply(2, Bet(1))
    events = st.apply(3, Bet(2))
    assert events[-1] == BetsShown((0, 5, 1, 2))
    assert st.phase == "arranging" and st.to_act() == frozenset(range(4))
    with pytest.raises(IllegalAction, match="placed"):
        st.apply(1, Bet(1))
    texts = []
    for seat in range(4):
        action = arrange_greedy(st, seat)
        st.apply(seat, action)
        texts.append(
            " / ".join(" ".join(map(str, r)) for r in (action.front, action.middle, action.back))
        )
    plain = showdown("1303-2", texts, banker=0)
    per_player = [p["scores"][1] for p in plain["pairs"]]
    assert list(st.settlement())[1:] == [5 * per_player[0], 1 * per_player[1], 2 * per_player[2]]
    assert sum(st.settlement()) == 0


@settings(max_examples=60, deadline=None)
@given(hs.integers(0, 2**32), hs.sampled_from(["second", "lowest"]), hs.booleans())
def test_greedy_arrangement_never_fouls(seed: int, order: str, suits: bool) -> None:
    """ "Strongest back first" (the bot's fallback and the baseline) never 倒水."""
    rules = RowRules(straight_a2345=order, suit_ties=suits)  # type: ignore[arg-type]
    hand = random.Random(seed).sample(deck("52"), 13)
    front, middle, back = greedy_arrangement(hand, rules)
    assert sorted((*front, *middle, *back)) == sorted(hand)
    assert not is_foul(front, middle, back, rules)
