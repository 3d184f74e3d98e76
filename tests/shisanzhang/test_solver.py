"""The arrangement solver (自动摆牌): legal, optimal under its own scoring, the contract."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.cards import Card, deck, parse_cards
from paiju.catalog import find_variant
from paiju.cli import cli
from paiju.errors import NotationError
from paiju.games.shisanzhang.rows import RowRules, is_foul, row_value
from paiju.games.shisanzhang.solver import (
    C3,
    C5,
    SPLIT_BACK,
    SPLIT_FRONT,
    SPLIT_MIDDLE,
    arrange,
    best_arrangement,
    brute_force_arrangement,
    expected_score,
    solve,
    strongest_back_first,
)
from paiju.games.shisanzhang.spec import params_of

CODES = ["1301", "1302", "1303", "1304", "1305", "1306", "1301-points", "1301-payout",
         "1303-2", "1301-2"]  # fmt: skip
hands13 = st.lists(st.sampled_from(deck("52")), min_size=13, max_size=13, unique=True)


def test_split_tables_cover_every_split_once() -> None:
    """72,072 = C(13,5) * C(8,5) splits, each a partition of the 13 positions."""
    assert len(SPLIT_FRONT) == 72072
    parts = np.concatenate([C3[SPLIT_FRONT], C5[SPLIT_MIDDLE], C5[SPLIT_BACK]], axis=1)
    assert (np.sort(parts, axis=1) == np.arange(13)).all()
    masks = (1 << parts).sum(axis=1)
    assert (
        len(np.unique(masks * 0 + SPLIT_FRONT * 2**22 + SPLIT_MIDDLE * 2**11 + SPLIT_BACK)) == 72072
    )


@settings(max_examples=25, deadline=None)
@given(hands13, st.sampled_from(CODES))
def test_always_a_legal_non_fouling_use_of_the_13_cards(cards: list[Card], code: str) -> None:
    """Issue #3: "It always returns a legal, non-fouling use of exactly the given 13 cards"."""
    variant = find_variant(code)
    front, middle, back = best_arrangement(variant, cards)
    assert (len(front), len(middle), len(back)) == (3, 5, 5)
    assert sorted(front + middle + back) == sorted(cards)
    assert not is_foul(front, middle, back, params_of(variant).row_rules())


@settings(max_examples=15, deadline=None)
@given(hands13, st.sampled_from(["1301", "1301-points", "1303", "1303-2", "1301-payout"]))
def test_no_sampled_split_beats_the_solver(cards: list[Card], code: str) -> None:
    """The solver's pick has the highest expected score among valid splits (sampled)."""
    variant = find_variant(code)
    rules = params_of(variant).row_rules()
    best = expected_score(variant, *best_arrangement(variant, cards))
    rng = random.Random(sum(cards))
    for k in rng.sample(range(72072), 300):
        rows = [
            [cards[i] for i in C3[SPLIT_FRONT[k]]],
            [cards[i] for i in C5[SPLIT_MIDDLE[k]]],
            [cards[i] for i in C5[SPLIT_BACK[k]]],
        ]
        if not is_foul(*rows, rules):
            assert expected_score(variant, *rows) <= best + 1e-9


@pytest.mark.parametrize("code", ["1301"])
def test_solver_agrees_with_brute_force(code: str) -> None:
    """The index scan finds the same best score as re-evaluating every split."""
    params = params_of(find_variant(code))
    cards = parse_cards("As Kd Qd Jh Th 9c 7c 7s 6d 5d 4d 3h 2s")
    (_, naive_score) = brute_force_arrangement(cards, params)
    assert solve(cards, params)[0].score == pytest.approx(naive_score, abs=1e-6)


def test_baomahui_makes_the_back_as_strong_as_it_can() -> None:
    """1301-2 (宝马会): "只是尽量让尾墩最大。比大小时只比最后一墩"."""
    variant = find_variant("1301-2")
    rules = params_of(variant).row_rules()
    rng = random.Random(5)
    for _ in range(20):
        cards = rng.sample(list(deck("52")), 13)
        _, _, back = best_arrangement(variant, cards)
        _, _, strongest = strongest_back_first(cards, rules)
        assert row_value(back, rules) >> 2 == row_value(strongest, rules) >> 2


def test_strongest_back_first_never_fouls() -> None:
    rules = RowRules()
    rng = random.Random(11)
    for _ in range(50):
        cards = rng.sample(list(deck("52")), 13)
        assert not is_foul(*strongest_back_first(cards, rules), rules)


def test_solver_splits_a_straight_flush_and_keeps_quads() -> None:
    """A real hand: quads and a straight flush each make a row; the pair goes in front."""
    cards = parse_cards("9s 9h 9c 9d 2s 3s 4s 5s 6s Ah Ad Kc Qd")
    front, middle, back = best_arrangement(find_variant("1301"), cards)
    rules = RowRules()
    assert row_value(back, rules) >> 22 == 8  # 同花顺
    assert row_value(middle, rules) >> 22 == 7  # 炸弹
    assert row_value(front, rules) >> 22 == 1  # 对子 AA


def _rows(result: dict[str, object]) -> Sequence[str]:
    return [str(result[k]) for k in ("front", "middle", "back")]


def test_arrange_contract_and_special() -> None:
    """`paiju arrange` JSON contract; 一条龙 (13 distinct ranks) is reported in 1301."""
    result = arrange("1301", "As Kd Qc Jh Ts 9d 8c 7h 6s 5d 4c 3h 2s")
    assert set(result) == {"front", "middle", "back", "special", "alternatives"}
    assert result["special"] == "一条龙"
    cards = parse_cards(" ".join(_rows(result)))
    assert sorted(cards) == sorted(parse_cards("As Kd Qc Jh Ts 9d 8c 7h 6s 5d 4c 3h 2s"))
    alternatives = result["alternatives"]
    assert isinstance(alternatives, list) and 1 <= len(alternatives) <= 4
    scores = [a["expected_score"] for a in alternatives]
    assert scores == sorted(scores, reverse=True)
    assert arrange("1301", "2s 2h 7c 9d Js Qh Kc Ad 3s 4s 8h Td 6d")["special"] is None


def test_arrange_rejects_bad_hands() -> None:
    with pytest.raises(NotationError, match="13 different cards"):
        arrange("1301", "As Kd Qc")
    with pytest.raises(NotationError, match="13 different cards"):
        arrange("1301", "As As Qc Jh Ts 9d 8c 7h 6s 5d 4c 3h 2s")
    with pytest.raises(NotationError, match="scoring"):
        arrange("1301", "As Kd Qc Jh Ts 9d 8c 7h 6s 5d 4c 3h 2s", scoring="bogus")
    with pytest.raises(NotationError, match="十三张"):
        arrange("2001", "As Kd Qc Jh Ts 9d 8c 7h 6s 5d 4c 3h 2s")


def test_cli_arrange_json_and_batch() -> None:
    runner = CliRunner()
    hand = "9s 9h 9c 9d 2s 3s 4s 5s 6s Ah Ad Kc Qd"
    one = runner.invoke(cli, ["arrange", "1301", hand, "--json"])
    assert one.exit_code == 0, one.output
    assert json.loads(one.output) == arrange("1301", hand)
    batch = runner.invoke(
        cli,
        ["arrange", "1303", "-", "--json"],
        input=f"{hand}\n\nAs Kd Qc Jh Ts 9d 8c 7h 6s 5d 4c 3h 2s\n",
    )
    assert batch.exit_code == 0, batch.output
    lines = [json.loads(line) for line in batch.output.splitlines()]
    assert len(lines) == 2 and lines[1]["special"] == "一条龙"
    table = runner.invoke(cli, ["arrange", "1301", hand])
    assert table.exit_code == 0 and "9s 9h 9c 9d" in table.output


def test_expected_score_of_a_foul_is_a_loss() -> None:
    """倒水: "凡“摆乌龙”者全赔" - a fouled arrangement scores below any legal one."""
    variant = find_variant("1301-points")
    cards = parse_cards("9s 9h 9c 9d 2s 3s 4s 5s 6s Ah Ad Kc Qd")
    foul = expected_score(variant, cards[9:12], cards[:5], cards[5:9] + cards[12:])
    legal = expected_score(variant, *best_arrangement(variant, cards))
    assert foul < 0 < legal


def test_splits_are_back_major() -> None:
    """The scan relies on it: split k has back k // 56."""
    assert (np.repeat(np.arange(1287), 56) == SPLIT_BACK).all()


@pytest.mark.parametrize("code", ["1301", "1301-points", "1303", "1301-payout", "1303-2", "1301-2"])
def test_solver_score_is_the_expected_score_of_its_pick(code: str) -> None:
    """The scan and the one-split scorer agree, under every settlement."""
    variant = find_variant(code)
    rng = random.Random(code)
    for _ in range(5):
        cards = rng.sample(list(deck("52")), 13)
        for found in solve(cards, params_of(variant)):
            rows = (found.front, found.middle, found.back)
            assert expected_score(variant, *rows) == pytest.approx(found.score, abs=1e-5)


def test_shipped_row_tables() -> None:
    """data/row_tables.npz: per straight order, each row counted once per simulated hand."""
    from paiju.games.shisanzhang.solver import load_row_tables

    tables = load_row_tables()
    assert set(tables) == {"second", "lowest"}
    for table in tables.values():
        hands = {int(c.sum()) for c in table.counts}
        assert len(hands) == 1 and hands.pop() >= 2000
        for values, counts in zip(table.values, table.counts, strict=True):
            assert (np.diff(values) > 0).all() and (counts > 0).all()
        fronts = table.values[0] >> 20  # categories of fronts: 散牌, 对子, 三条 only
        assert set(fronts.tolist()) <= {0, 1, 3}


def test_settlement_stakes_the_solver_optimises() -> None:
    """The stakes a won row pays under each code's settlement (file 001).

    积分规则: "头墩加1注，中墩加2注，底墩加3注"; "冲三：头墩出3条…另加6注"; "四梅…另加8注";
    "同花顺…另加10注". 报到13张2: "顺金…中墩赔十倍，底墩赔五倍"; "三冲头…赔三倍".
    """
    from paiju.games.shisanzhang.rows import CATEGORIES
    from paiju.games.shisanzhang.solver import Scorer

    def pay(code: str, row: int, category: str) -> float:
        return Scorer.of(params_of(find_variant(code))).row_pay[row][CATEGORIES.index(category)]

    assert [pay("1301-points", r, "散牌") for r in range(3)] == [1, 2, 3]
    assert pay("1301-points", 0, "三条") == 7
    assert pay("1301-points", 1, "炸弹") == 10
    assert pay("1301-points", 2, "同花顺") == 13
    assert Scorer.of(params_of(find_variant("1301-points"))).gun_bonus == 6
    assert pay("1303-2", 1, "同花顺") == 10 and pay("1303-2", 2, "同花顺") == 5
    assert pay("1303-2", 0, "三条") == 3 and pay("1303-2", 2, "两对") == 1
    assert Scorer.of(params_of(find_variant("1303-2"))).ties_lose  # "同样的牌，庄家比闲家大"
    assert not Scorer.of(params_of(find_variant("1303-2")), banker=True).ties_lose
    assert pay("1301", 2, "同花顺") == 13  # 1301's own default is the points settlement
    assert pay("1301-2", 2, "同花顺") == 1  # 宝马会: one row, one stake


def test_special_only_where_the_settlement_knows_it() -> None:
    """CATALOG.md: "1301 knows 一条龙 and 同花十三水 only, through the points settlement"."""
    dragon = "As Kd Qc Jh Ts 9d 8c 7h 6s 5d 4c 3h 2s"
    assert arrange("1301", dragon)["special"] == "一条龙"
    assert arrange("1301", dragon, scoring="majority")["special"] is None
    assert arrange("1301-2", dragon)["special"] is None  # 宝马会 knows no special hand


@settings(max_examples=30, deadline=None)
@given(hands13, st.sampled_from([RowRules(), RowRules("lowest"), RowRules(suit_ties=True)]))
def test_subset_values_equal_row_value(cards: list[Card], rules: RowRules) -> None:
    """The numpy values of the 1,287 + 286 subsets are exactly rows.row_value, suits included."""
    from paiju.games.shisanzhang.solver import subset_values

    v5, v3 = subset_values(cards, rules)
    for i in range(0, len(C5), 7):
        assert v5[i] == row_value([cards[j] for j in C5[i]], rules)
    for i in range(len(C3)):
        assert v3[i] == row_value([cards[j] for j in C3[i]], rules)


def test_cli_errors_are_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    from paiju.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["arrange", "1301", "As Kd"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "13 different cards" in err


def test_best_arrangement_follows_the_room_scoring() -> None:
    """1301 played by majority: the solver optimises P(2+ rows), not points."""
    variant = find_variant("1301")
    rng = random.Random(3)
    differ = 0
    for _ in range(30):
        cards = rng.sample(list(deck("52")), 13)
        rows = best_arrangement(variant, cards, scoring="majority")
        assert (
            expected_score(variant, *rows, scoring="majority")
            >= expected_score(variant, *best_arrangement(variant, cards), scoring="majority") - 1e-6
        )
        differ += rows != best_arrangement(variant, cards)
    assert differ > 0
