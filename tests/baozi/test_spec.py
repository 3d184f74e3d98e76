"""Variants are data: the params spec validates at load with clear errors, and a new
宝子 variant is a TOML entry, not Python."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.cards import deck
from paiju.catalog import find_variant, load_file
from paiju.errors import CatalogError
from paiju.games import check_catalog, game
from paiju.games.baozi.rules import evaluator
from paiju.games.baozi.spec import BaoziParams, TwoCardRules, params_of
from paiju.harness import check_game

ENTRY = """
[[variant]]
code = "{code}"
name_zh = "自定义宝子"
name_en = "Custom baozi"
family = "baozi"
players = [2, 6]
deck = "{deck}"
[variant.params]
{params}
"""

CODES = [str(c) for c in range(2001, 2022)] + ["2101", *(str(c) for c in range(2103, 2109))]


def write(tmp_path: Path, params: str, deck_name: str = "52", code: str = "9201") -> Path:
    path = tmp_path / "mine.toml"
    path.write_text(ENTRY.format(code=code, deck=deck_name, params=params), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ('ladder = "AA>KX"', "field params.ladder: Value error, ladder 'AA>KX': 'KX' is not 2"),
        (
            'ladder = "AA>KK>AA"',
            "field params.ladder: Value error, ladder 'AA>KK>AA': 'AA' is listed twice",
        ),
        ('ladder = "AA>>KK"', "empty level between '>' signs"),
        (
            'ladder = "AA"\npoint_ties = ["banker", "top_card"]',
            "field params.point_ties: Value error, 'banker' (庄家大) ends",
        ),
        ('ladder = "AA"\npoint_ties = ["top_cards"]', "field params.point_ties.0: Input should be"),
        (
            'ladder = "AA"\npoints = { Z = 3 }',
            "field params.points: Value error, unknown card 'Z' in points",
        ),
        ('ladder = "AA"\npoints = { K = 11 }', "points of K must be 0-10, got 11"),
        (
            'ladder = "AA"\nbanker_points = [10]',
            "field params.banker_points: Value error, 10 is not a points total",
        ),
        ('ladder = "AA"\ncolour = "red"', "field params.colour: Extra inputs are not permitted"),
    ],
)
def test_bad_params_are_rejected_naming_the_field(
    tmp_path: Path, params: str, message: str
) -> None:
    with pytest.raises(CatalogError, match=r"mine\.toml: entry '9201'") as info:
        check_catalog(load_file(write(tmp_path, params)))
    assert message in str(info.value)


def test_a_card_order_that_misses_a_rank_of_the_deck_is_caught(tmp_path: Path) -> None:
    (variant,) = load_file(write(tmp_path, 'ladder = "AA"\ncard_order = "A>K>Q>J>T>9"'))
    with pytest.raises(CatalogError, match="does not rank 2, 3, 4, 5, 6, 7, 8 of the 52-card"):
        evaluator(variant)


def test_a_new_variant_is_toml_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A 22nd 宝子: J Q K = 10 points, 10点最大, only 对A and 对K, banker takes ties."""
    params = "\n".join(
        [
            "points = { T = 10, J = 10, Q = 10, K = 10 }",
            "ten_high = true",
            'ladder = "AA>KK"',
            'point_ties = ["banker"]',
            'ladder_ties = ["banker"]',
            'dealing = "two_at_once"',
        ]
    )
    path = write(tmp_path, params, code="9202")
    monkeypatch.setenv("PAIJU_VARIANTS", str(path))
    from paiju.catalog import _load

    _load.cache_clear()
    try:
        v = find_variant("9202")
        ev = evaluator(v)
        assert ev.read_text("Kc 9d").name == "9点" and ev.read_text("Qc Jd").name == "10点"
        assert ev.compare_text("Qc Jd", "Qh Js") == "banker"
        assert ev.read_text("Qc Qd").name == "10点"  # not on this ladder
        assert check_game(game("9202"), range(3)) == []
    finally:
        monkeypatch.delenv("PAIJU_VARIANTS")
        _load.cache_clear()


def test_every_code_has_validated_params() -> None:
    for code in CODES:
        v = find_variant(code)
        assert isinstance(params_of(v), TwoCardRules), code
        assert evaluator(v).deck == tuple(sorted(set(deck(v.deck))))
    assert isinstance(params_of(find_variant("2017")), BaoziParams)


@pytest.mark.parametrize("code", CODES)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_orderings_are_consistent(code: str, data: st.DataObject) -> None:
    """Every ladder hand beats every points hand; a comparison reversed is reversed, up to
    the banker's ties; equal ranks are a tie."""
    ev = evaluator(find_variant(code))
    cards = data.draw(st.permutations(ev.deck))
    a, b = ev.read(cards[:2]), ev.read(cards[2:4])
    if a.is_ladder and not b.is_ladder:
        assert a.rank > b.rank
    forward, backward = ev.outcome(a, b), ev.outcome(b, a)
    if a.rank == b.rank:
        assert forward == backward == ("banker" if a.banker_ties else "push")
    else:
        assert {forward, backward} == {"banker", "player"}
