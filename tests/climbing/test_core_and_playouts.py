"""The climbing core: legal plays, the text's every sentence quoted, playout invariants,
hidden information (the called card's holder), the bot, and the family's CLI contract."""

from __future__ import annotations

import io
import json
import re
from collections import Counter

import pytest
import test_fangyang_rules
import test_jiayibing_rules
from climbing_helpers import P, fangyang, fy_position, jiayibing
from hypothesis import given, settings
from hypothesis import strategies as st
from test_fangyang_rules import SENTENCES as FY_SENTENCES
from test_jiayibing_rules import SENTENCES as JYB_SENTENCES

import paiju.games as games
from cli_run import run as cli
from paiju.cards import Card, deck, unplayed_by_rank
from paiju.catalog import find_variant
from paiju.engine import Deal
from paiju.games import game
from paiju.games.climbing.bot import ClimbingBot, SmallestBot
from paiju.games.climbing.core import ClimbingState, Pass, brute_force_plays, unplayed
from paiju.games.climbing.fangyang import FangyangState
from paiju.harness import check_game, playout


@pytest.mark.parametrize(
    ("code", "sentences", "module"),
    [
        ("anshan-jiayibing", JYB_SENTENCES, test_jiayibing_rules),
        ("anshan-fangyang", FY_SENTENCES, test_fangyang_rules),
    ],
)
def test_every_sentence_of_the_text_is_quoted_by_a_test(
    code: str, sentences: dict[str, list[str]], module: object
) -> None:
    """Each sentence of the catalogue's verbatim text maps to tests that exist."""
    text = find_variant(code).rules_zh
    parts = [p.strip() for p in re.split(r"(?<=[。!])", text) if p.strip()]
    assert parts
    for part in parts:
        assert part in sentences, part
        for name in sentences[part]:
            assert callable(getattr(module, name, None)), name


# ------------------------------------------------------------------------ legal plays


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_legal_plays_equal_a_brute_force_enumeration(data: st.DataObject) -> None:
    """``Rules.plays`` lists exactly the distinct legal plays brute force finds, on a lead
    and against every kind of table, for 18-card (two decks) and 14-card (one deck) hands."""
    code = data.draw(st.sampled_from(["anshan-jiayibing", "anshan-fangyang"]))
    g = game(code)
    size = 18 if code == "anshan-jiayibing" else 14
    hand = data.draw(st.permutations(list(deck(g.variant.deck))))[:size]
    table_cards = data.draw(st.sampled_from(["", "7h", "9s 9d", "Qs Qh Qd", "5s 5h 5c 5d", "2h"]))
    table = g.rules.classify(P(table_cards)) if table_cards else None
    fast = sorted(c.cards for c in g.rules.plays(hand, table))
    slow = sorted(c.cards for c in brute_force_plays(g.rules, hand, table))
    assert fast == slow
    assert len(set(fast)) == len(fast)


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_plays_on_a_table_keep_the_order_of_the_combinations(data: st.DataObject) -> None:
    """Against a table, ``Rules.plays`` filters the hand's remembered lead plays: without
    bombs it lists the plays of the table's size above its rank in the order
    ``Rules.combos`` yields them (the rule bot takes the first of equals, so the order
    decides its play)."""
    code = data.draw(st.sampled_from(["anshan-jiayibing", "anshan-fangyang"]))
    g = game(code)
    rules = g.rules
    hand = data.draw(st.permutations(list(deck(g.variant.deck))))[:14]
    table = rules.classify(P(data.draw(st.sampled_from(["7h", "9s 9d", "Qs Qh Qd", "2h"]))))
    assert table is not None
    if data.draw(st.booleans()):
        rules.plays(hand, None)  # the lead's answer remembered first, then filtered
    assert rules.plays(hand, table) == list(rules.combos(hand, table.length, table.rank))


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_remembered_plays_are_the_plays_of_the_hand_on_that_table(data: st.DataObject) -> None:
    """``Rules.plays`` remembers its answers by the hand and the table's kind, rank and
    length: asked again, or on another table of the same kind and rank (other cards), or
    with bombs on, it still lists what brute force finds; ``beatable`` says whether it
    lists any."""
    code = data.draw(st.sampled_from(["anshan-jiayibing", "anshan-fangyang"]))
    g = game(code, quads_beat_all=data.draw(st.booleans()))
    size = 18 if code == "anshan-jiayibing" else 14
    hand = data.draw(st.permutations(list(deck(g.variant.deck))))[:size]
    first, second = data.draw(
        st.sampled_from([("9s 9d", "9h 9c"), ("7h", "7s"), ("5s 5h 5c", "5d 5h 5c"), ("", "")])
    )
    for table_cards in (first, second, first):
        table = g.rules.classify(P(table_cards)) if table_cards else None
        fast = sorted(c.cards for c in g.rules.plays(hand, table))
        assert fast == sorted(c.cards for c in brute_force_plays(g.rules, hand, table))
        if table is not None:
            assert g.rules.beatable(hand, table) == bool(fast)
            # classify remembers by the cards as given: the other order is the same play
            assert g.rules.classify(P(table_cards)[::-1]) == table
    assert g.rules.classify(P("9s 8s")) is None
    assert g.rules.classify(P("9s 8s")) is None


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(["anshan-jiayibing", "anshan-fangyang"]), st.data())
def test_what_the_rules_remember_is_made_of_cards_whoever_asked_first(
    code: str, data: st.DataObject
) -> None:
    """A bot asks the rules with plain ints (its counted hands), the engine with cards, and
    the two are equal keys: every play, combination and classification handed back is made
    of :class:`Card` objects, so a bot's int never reaches a real table's play."""
    g = game(code)
    size = 18 if code == "anshan-jiayibing" else 14
    hand = data.draw(st.permutations(list(deck(g.variant.deck))))[:size]
    as_ints = [int(c) for c in hand]
    table = g.rules.classify([int(c) for c in P(data.draw(st.sampled_from(["7h", "9s 9d"])))])
    assert table is not None
    answers = [*g.rules.plays(as_ints, None), *g.rules.plays(as_ints, table), table]
    answers += [*g.rules.plays(hand, None), *g.rules.plays(hand, table)]
    answers += list(g.rules.combos(as_ints))
    assert all(type(c) is Card for combo in answers for c in combo.cards)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["anshan-jiayibing", "anshan-fangyang"]), st.data())
def test_the_unplayed_count_of_a_view_is_unplayed_by_rank(code: str, data: st.DataObject) -> None:
    """A view's 记牌器 (``unplayed``), counted by card, is :func:`unplayed_by_rank` of the
    cards played, key for key and in the same order."""
    full = game(code).full_set()
    played = data.draw(st.lists(st.sampled_from(full), max_size=len(full)))
    by_seat = [played[i::4] for i in range(4)]
    assert list(unplayed(full, by_seat).items()) == list(unplayed_by_rank(full, played).items())


def test_legal_actions_are_all_accepted_and_nothing_else_is() -> None:
    """Every listed action is legal; a play outside the list is refused."""
    state = jiayibing().new_state(seed=11)
    seat = state.turn
    listed = state.legal_actions(seat)
    assert listed
    for action in listed:
        assert state.is_legal(seat, action)
    assert not state.is_legal(seat, game("anshan-jiayibing").parse_action({"type": "pass"}))


# --------------------------------------------------------------------- the harness


@pytest.mark.parametrize("code", ["anshan-jiayibing", "anshan-fangyang"])
def test_playouts_keep_every_invariant(code: str) -> None:
    """Conservation, zero sum, replay, JSON round trips, clean rejections, no leaks."""
    assert check_game(game(code), [f"c{i}" for i in range(3)]) == []


@pytest.mark.parametrize(
    "options",
    [
        {"quads_beat_all": True, "must_beat": True},
        {"payout": "team-out", "special3": "first-dealt"},
    ],
)
def test_playouts_under_options(options: dict[str, object]) -> None:
    assert check_game(game("anshan-jiayibing", **options), ["o1"], deep=False) == []


def test_fangyang_matches_chain_the_banker() -> None:
    """Three deals of a match: each deal's banker is the previous deal's 头游."""
    g = fangyang()
    from paiju.engine import Match

    match = Match(g, 4, iter(["a", "b", "c"]))
    bots = [ClimbingBot(g, s) for s in range(4)]
    for _ in range(3):
        state = match.next_hand()
        while not state.is_over:
            (s,) = state.to_act()
            state.apply(s, bots[s].act(state, s))
    for before, after in zip(match.hands, match.hands[1:], strict=False):
        assert isinstance(before, FangyangState) and isinstance(after, FangyangState)
        assert after.banker == before.finished[0]
        assert len(after.hands[after.banker]) + len(after.played_by[after.banker]) == 14


def _swapped(deal: Deal, a: int, b: int, card: int, other: int) -> Deal:
    hands = [list(h) for h in deal.hands]
    hands[a][hands[a].index(card)] = other
    hands[b][hands[b].index(other)] = card
    return Deal(tuple(tuple(h) for h in hands), deal.piles, deal.info)


def test_the_called_cards_holder_does_not_leak_before_it_is_played() -> None:
    """Under 不亮 a seat that does not hold the called card sees the same views whichever
    other seat holds it, until the card is played (F16)."""
    g = fangyang()
    state = g.new_state(seed=21)
    banker = state.banker
    a, b = [s for s in range(4) if s != banker][:2]
    viewer = next(s for s in range(4) if s not in (banker, a, b))
    card = next(c for c in state.hands[a] if 4 <= c // 4 + 2 <= 14 and c < 52)
    other = next(c for c in state.hands[b] if c < 52 and c // 4 + 2 != 4 and c != card)
    first = g.new_state(deal=state.deal)
    second = g.new_state(deal=_swapped(state.deal, a, b, card, other))
    from paiju.games.climbing.fangyang import Call

    for s in (first, second):
        s.apply(banker, Call.of(card, False))
    assert first.partner == a and second.partner == b

    def public(view: dict[str, object]) -> dict[str, object]:
        return {k: v for k, v in view.items() if k not in ("hand", "hands")}

    assert public(first.view(viewer)) == public(second.view(viewer))
    assert public(first.view(banker)) == public(second.view(banker))
    assert public(first.view(None)) == public(second.view(None))
    assert first.view(viewer)["hand"] == second.view(viewer)["hand"]


# -------------------------------------------------------------------------- the bot


def test_the_bot_keeps_quads_and_leads_low() -> None:
    state = fy_position(["4s 9s 9h 9c 9d Kd", "5h", "As 8c", "5c"], banker=0, call="As")
    bot = ClimbingBot(state.game, 1)
    action = bot.act(state, 0)
    assert action.to_json() == {"type": "play", "cards": "4s"}


def test_the_bot_passes_on_its_partner_and_blocks_an_opponent() -> None:
    from climbing_helpers import jyb_position, run

    state = jyb_position(["5s 9s", "6s Ks", "7s 8c Qd", "4c 4d", "4h 3h", "5d 3d"], leader=0)
    run(state, [(0, "5s"), (1, "pass"), (2, "7s")])
    bot = ClimbingBot(state.game, 0)
    assert bot.act(state, 3).to_json() == {"type": "pass"}  # 4c 4d cannot beat
    run(state, [(3, "pass"), (4, "pass"), (5, "pass")])
    assert state.turn == 0
    # seat 0 holds 9s: its partner 2 played 7s, seat 0 would not overtake a partner
    block = jyb_position(["5s Ks Qs", "6s", "Ts 8c", "4c 4d", "4h 3h", "5d 3d"], leader=0)
    run(block, [(0, "5s"), (1, "6s"), (2, "Ts"), (3, "pass"), (4, "pass"), (5, "pass")])
    assert block.turn == 0
    assert bot.act(block, 0).to_json() == {"type": "pass"}  # partner's Ts stands
    threat = jyb_position(["5s Ks Qs Js", "6s 9h", "8c 7c", "4c 4d", "4h 3h", "5d 3d"], leader=1)
    run(threat, [(1, "6s")])
    # seat 1 (one card left after this) is an opponent about to go out: block high
    threat.turn = 0
    threat.passed = set()
    assert bot.act(threat, 0).to_json() == {"type": "play", "cards": "Ks"}


def test_the_bot_beats_random_and_smallest_play_over_deals() -> None:
    """A short run of bench/climbing_bots.py's comparison: the bot team's mean is positive."""
    from paiju.bots import RandomBot
    from paiju.games.climbing.bot import duel

    jiayibing, fangyang = game("anshan-jiayibing"), game("anshan-fangyang")
    assert sum(duel(jiayibing, f"t{i}", ClimbingBot, RandomBot) for i in range(4)) > 0
    assert sum(duel(fangyang, f"t{i}", ClimbingBot, SmallestBot) for i in range(8)) > 0


# ---------------------------------------------------------------------- the CLI contract


def test_cli_combo(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "combo", "anshan-jiayibing", "9c 9c 9d 9d", "--json")
    assert code == 0 and json.loads(out)["kind_zh"] == "四同张"
    code, out, _ = cli(capsys, "combo", "anshan-fangyang", "10h Th", "--json")
    assert code == 2
    for bad in ("", "7h 8h", "RJ BJ", "8s 8s 8s", "5s 5h 5c 5d 5s"):
        code, out, err = cli(capsys, "combo", "anshan-jiayibing", bad, "--json")
        assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, bad
    code, _, err = cli(capsys, "combo", "anshan-fangyang", "7h 7h", "--json")
    assert code == 2 and err.startswith("paiju: error:")


def test_cli_beats(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "beats", "anshan-fangyang", "2s", "3h", "--json")
    assert code == 0 and json.loads(out)["beats"] is True
    code, out, _ = cli(capsys, "beats", "anshan-jiayibing", "7h", "7s", "--json")
    assert json.loads(out) == {"beats": False, "reason": json.loads(out)["reason"]}
    assert json.loads(out)["beats"] is False
    code, out, _ = cli(capsys, "beats", "anshan-jiayibing", "7h", "7h 8h", "--json")
    result = json.loads(out)
    assert code == 0 and not result["beats"] and result["reason"].startswith("not a combination")
    code, _, err = cli(capsys, "beats", "anshan-jiayibing", "7h 8h", "9s", "--json")
    assert code == 2 and len(err.strip().splitlines()) == 1
    code, out, _ = cli(
        capsys,
        "beats",
        "anshan-jiayibing",
        "2s",
        "4s 4s 4h 4h",
        "--json",
        "--option",
        "quads_beat_all=true",
    )
    assert json.loads(out)["beats"] is True


def test_cli_call(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "call", "anshan-fangyang", "Ks", "4h 5s Kd", "--json")
    assert json.loads(out) == {"allowed": True, "mode": "2v2"}
    code, out, _ = cli(capsys, "call", "anshan-fangyang", "Ah", "4h Ah", "--json")
    assert json.loads(out) == {"allowed": True, "mode": "1v3"}
    code, out, _ = cli(capsys, "call", "anshan-fangyang", "BJ", "4h", "--json")
    result = json.loads(out)
    assert result["allowed"] is False and result["mode"] is None and result["reason"]
    for args in (("Kx", "4h"), ("Ks", "4h 4h")):
        code, _, err = cli(capsys, "call", "anshan-fangyang", *args, "--json")
        assert code == 2 and len(err.strip().splitlines()) == 1


def _stdin(monkeypatch: pytest.MonkeyPatch, obj: object) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(obj)))


def test_cli_settle(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    _stdin(monkeypatch, {"finish_order": [2, 0, 3, 1], "banker": 0, "partner": 2, "shown": False})
    code, out, _ = cli(capsys, "settle", "anshan-fangyang", "--json")
    assert code == 0 and json.loads(out)["deltas"] == [2, -2, 2, -2]
    _stdin(monkeypatch, {"finish_order": [0, 3, 2, 4], "base": 1})
    code, out, _ = cli(capsys, "settle", "anshan-jiayibing", "--json")
    assert json.loads(out) | {} == json.loads(out) and json.loads(out)["result"] == "win"
    for bad in (
        {"finish_order": [0, 3]},
        {"finish_order": [0, 0, 2, 4]},
        {"finish_order": [0, 9, 2, 4]},
        {"base": 1},
    ):
        _stdin(monkeypatch, bad)
        code, _, err = cli(capsys, "settle", "anshan-jiayibing", "--json")
        assert code == 2 and len(err.strip().splitlines()) == 1, bad
    _stdin(monkeypatch, {"finish_order": [2], "banker": 0, "partner": 2, "shown": False})
    assert cli(capsys, "settle", "anshan-fangyang", "--json")[0] == 2


def test_cli_jiefeng(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    _stdin(
        monkeypatch,
        {"finisher": 1, "holding": [0, 2, 3], "banker": 0, "partner": 2, "teams_known": True},
    )
    code, out, _ = cli(capsys, "jiefeng", "anshan-fangyang", "--json")
    assert code == 0 and json.loads(out) == {"leader": 3}
    _stdin(monkeypatch, {"finisher": 0, "holding": [1, 2, 3, 4, 5]})
    code, out, _ = cli(capsys, "jiefeng", "anshan-jiayibing", "--json")
    assert json.loads(out) == {"leader": 1}
    for bad in ({"finisher": 0, "holding": [0, 1, 2, 3]}, {"finisher": 0, "holding": [1, 3, 5]}):
        _stdin(monkeypatch, bad)
        code, _, err = cli(capsys, "jiefeng", "anshan-jiayibing", "--json")
        assert code == 2 and len(err.strip().splitlines()) == 1, bad


@pytest.mark.parametrize("code", ["anshan-jiayibing", "anshan-fangyang"])
def test_cli_simulate(capsys: pytest.CaptureFixture[str], code: str) -> None:
    games = "1" if code == "anshan-jiayibing" else "2"
    status, out, _ = cli(capsys, "simulate", code, "--games", games, "--json")
    summary = json.loads(out)
    assert status == 0 and summary["invariant_failures"] == 0 and sum(summary["totals"]) == 0


def test_fangyang_playouts_under_options() -> None:
    options = {"quads_beat_all": True, "must_beat": True, "call_max": "K", "next_banker": "rotate"}
    assert check_game(game("anshan-fangyang", **options), ["p1", "p2"]) == []


def test_a_bot_playout_settles_every_deal() -> None:
    result = playout(game("anshan-fangyang"), seed="z", deep=False)
    assert result.hands and all(sum(h.settlement) == 0 for h in result.hands)


@pytest.mark.parametrize("code", ["anshan-jiayibing", "anshan-fangyang"])
def test_suggestions_are_legal_distinct_and_the_bots_choice_first(code: str) -> None:
    from paiju.games import make_bot

    for seed in range(4):
        state = game(code).new_state(seed=seed)
        for _ in range(12):
            (seat,) = state.to_act()
            advice = games.suggestions(state, seat)
            assert 1 <= len(advice) <= 5 and len(set(advice)) == len(advice)
            assert advice[0] == make_bot(state.game, 0).act(state, seat)
            for action in advice:
                state.check(seat, action)
            assert games.suggestions(state, (seat + 1) % state.seats) == []
            state.apply(seat, advice[-1])
            if state.is_over:
                break


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(["anshan-jiayibing", "anshan-fangyang"]), st.integers(0, 10**6))
def test_the_turn_and_the_trick_follow_the_core_rules(code: str, seed: int) -> None:
    """Random legal deals: the turn only goes to a seat still in play; a trick ends exactly
    when every other seat still in has passed on its play; then its player leads, or the
    接风 leader when it went out; passing is never allowed on a lead."""
    import random

    state = game(code).new_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        (seat,) = state.to_act()
        assert isinstance(state, ClimbingState)
        if state.phase == "playing":
            assert state.in_play(seat)
            if state.table is None:
                assert not any(a == Pass() for a in state.legal_actions(seat) or [])
        before_table = state.table_seat
        action = rng.choice(list(state.legal_actions(seat) or []))
        events = state.apply(seat, action)
        kinds = [e.type for e in events]
        if "trick_ended" in kinds and not state.is_over:
            assert before_table is not None
            lead = next(e for e in events if e.type == "lead")
            if state.in_play(before_table):
                assert state.turn == before_table and not lead.to_json()["jiefeng"]
            else:
                assert lead.to_json()["jiefeng"] and lead.to_json()["after"] == before_table
            assert state.table is None


def test_a_given_deal_must_have_the_games_hand_sizes() -> None:
    from paiju.errors import ProtocolError

    good = game("anshan-fangyang").new_state(seed=3).deal.to_json()
    hands = [h.split() for h in good["hands"]]
    hands[2].append(hands[0].pop())  # 13 14 14 13 -> still two of each: fine
    game("anshan-fangyang").new_state(deal={"hands": [" ".join(h) for h in hands]})
    hands[3].append(hands[1].pop())
    hands[3].append(hands[2].pop())
    with pytest.raises(ProtocolError, match="two seats hold 14"):
        game("anshan-fangyang").new_state(deal={"hands": [" ".join(h) for h in hands]})
    six = game("anshan-jiayibing").new_state(seed=3).deal.to_json()
    rows = [h.split() for h in six["hands"]]
    rows[0].append(rows[1].pop())
    with pytest.raises(ProtocolError, match="18 cards"):
        game("anshan-jiayibing").new_state(deal={"hands": [" ".join(h) for h in rows]})


def test_stop_takes_a_seat_out_of_play_without_a_place() -> None:
    """The core's ``stop`` (打弹子's failed 宣战 plays nothing more): skipped, unranked."""
    from climbing_helpers import jyb_position, run

    state = jyb_position(["5s 9s", "6s Ks", "7s 8c", "4c 4d", "4h 3h", "5d 3d"], leader=0)
    run(state, [(0, "5s")])
    state.stop(2)
    assert not state.in_play(2) and state.places()[2] is None
    run(state, [(1, "6s")])
    assert state.turn == 3  # seat 2 is skipped
    run(state, [(3, "pass"), (4, "pass"), (5, "pass"), (0, "pass")])
    assert state.table is None and state.turn == 1  # the trick ended without seat 2


def test_partner_visible_hands_through_the_sees_hand_hook() -> None:
    """A game that shows partners' hands (明牌) overrides ``sees_hand``: the view carries
    the partner's cards and ``hidden_from`` agrees, so the harness checks exactly that."""
    from paiju.games.climbing.jiayibing import JiayibingState

    class OpenPartners(JiayibingState):
        def sees_hand(self, viewer: int | None, seat: int) -> bool:
            return viewer is not None and self.team_of(viewer) == self.team_of(seat)

    g = jiayibing()
    base = g.new_state(seed=5)
    state = OpenPartners(g, 6, base.deal, {})
    view = state.view(0)
    assert view["hands"][2] is not None and view["hands"][1] is None
    hidden = state.hidden_from(0)
    expected: Counter[int] = Counter()
    for s in (1, 3, 5):
        expected.update(state.hands[s])
        expected.subtract(state.exposed[s])
    assert hidden == +expected
    from paiju.harness import view_items

    shown = view_items(view)
    copies = Counter(g.full_set())
    assert not [c for c in shown if hidden.get(c, 0) >= copies[c]]


def test_the_bot_counts_cards_and_leads_a_sure_winner_in_the_endgame() -> None:
    """With two groups left, a play nothing unseen can beat goes first (then the other)."""
    state = fy_position(["RJ 5s", "5h 6h 7h", "As 8c 8d", "5c Tc Jc"], banker=0, call="As")
    bot = ClimbingBot(state.game, 1)
    assert bot.act(state, 0).to_json() == {"type": "play", "cards": "RJ"}
    early = fy_position(["RJ 5s 7d 9d", "5h 6h 7h", "As 8c 8d", "5c Tc Jc"], banker=0, call="As")
    assert bot.act(early, 0).to_json() == {"type": "play", "cards": "5s"}  # low first
