"""鞍山麻将 win conditions (R14-R26 of the reading), quoting the text 004 they check.

「胡牌条件1、有碰牌(或有中发白一对)2、有顺子3、有幺九4、三门齐5、十三幺和七对可以缺门,7对可以缺幺
6、混不能,二八,三叉,不能单独代替一门,不能单独顶幺九」

Unless said otherwise the flip is 西 (3z): the 混 is 北 (4z) and the 明枪 is 南 (2z).
"""

from __future__ import annotations

import pytest
from mj_helpers import verdict

from paiju.errors import NotationError
from paiju.games.majiang import win
from paiju.games.majiang.rules import MajiangRules, kind_counts
from paiju.games.majiang.win import HandShape, Meld, best_reading, can_win
from paiju.tiles import parse_tiles


def test_tables_built_at_import_are_pinned() -> None:
    """The per-suit decomposition tables: any change to the solver or the encoding shows."""
    assert len(win.SUIT_TABLE) == 21743
    assert len(win.HONOR_TABLE) == 498
    assert win.table_digest() == "9bc19238cc294c17eec2ba46e0e44b68"


def test_standard_hand_wins() -> None:
    """「1、有碰牌 2、有顺子 3、有幺九 4、三门齐」: 111m is the 碰, 123m the 顺子, 1m the 幺九."""
    r = verdict("123m111m456p789s5z", "5z")
    assert r["win"] and r["reason"] == "standard"


def test_condition_1_needs_a_pung() -> None:
    """「1、有碰牌」: four chows and a wind pair have no 碰."""
    r = verdict("123m456m456p789s1z", "1z")
    assert not r["win"]
    assert r["reason"] == "no 碰 (pung) and no 中发白 pair"


@pytest.mark.parametrize("dragon", ["5z", "6z", "7z"])
def test_condition_1_a_dragon_pair_replaces_the_pung(dragon: str) -> None:
    """「(或有中发白一对)」: 中中, 发发 or 白白 as the pair stands in for the 碰."""
    r = verdict(f"123m456m456p789s{dragon}", dragon)
    assert r["win"], r


def test_condition_1_a_wind_pair_does_not() -> None:
    """「或有中发白一对」 names 中发白 only: 东东 is no substitute for the 碰 (R14)."""
    assert not verdict("123m456m456p789s1z", "1z")["win"]


def test_condition_1_a_hun_may_complete_the_pung_or_the_dragon_pair() -> None:
    """R14 reading: 5m 5m + 混 is a 碰; 中 + 混 is a 中发白 pair (the 混 is 北 4z here)."""
    assert verdict("123m55m4z456p789s1z", "1z")["win"]  # 55m+混 pung, 1z pair... 1s? 1z pair
    assert verdict("123m456m456p789s7z", "4z", self_drawn=True)["win"]  # 中 + 混 pair
    rules = {"hun_may_make_dragon_pair": False}
    assert not verdict("123m456m456p789s7z", "4z", self_drawn=True, options=rules)["win"]


def test_condition_2_needs_a_chow() -> None:
    """「2、有顺子」: four pungs and a pair have no 顺子."""
    r = verdict("111m999p111s777s5z", "5z")
    assert not r["win"]
    assert r["reason"] == "no 顺子 (chow)"


def test_condition_2_a_meld_chow_counts() -> None:
    """「有顺子」: a 吃 is a 顺子 (and a 碰 meld a 碰)."""
    r = verdict("111m999p111s5z", "5z", melds="c:789s")
    assert r["win"], r


def test_condition_3_needs_a_yaojiu() -> None:
    """「3、有幺九」: all 2-8 fails."""
    r = verdict("234m222m456p678s8p", "8p")
    assert not r["win"]
    assert r["reason"].startswith("no 幺九")


def test_condition_3_honours_are_yaojiu() -> None:
    """R16 reading: winds and dragons are 幺九 (a 白白 pair is this hand's only 幺九)."""
    assert verdict("234m222m456p678s5z", "5z")["win"]


def test_condition_4_needs_three_suits() -> None:
    """「4、三门齐」: no 条 fails, even with everything else (no 清一色 exemption, R17)."""
    r = verdict("123m111m456p789p5z", "5z")
    assert not r["win"]
    assert r["reason"] == "三门齐 fails: no natural 条"


def test_condition_4_melds_count_for_the_suits() -> None:
    """「三门齐」 counts the winner's melds too (R17)."""
    assert verdict("123m111m456p5z", "5z", melds="p:333s")["win"]


def test_clause_6_the_hun_cannot_supply_a_suit() -> None:
    """「混不能…不能单独代替一门」: flip 8s makes 9s the 混; 789s of 7s 8s + 混 still has 条,
    but a hand whose only 条 is the 混 has no 条 (R18)."""
    assert verdict("123m111m456p79s55z", "8s", flip="7s", self_drawn=True)["win"]
    r = verdict("123m111m456p78p55z", "9s", flip="8s", self_drawn=True)  # 混 9s as 9p
    assert not r["win"] and r["reason"] == "三门齐 fails: no natural 条"


def test_clause_6_the_hun_cannot_supply_the_yaojiu_even_as_itself() -> None:
    """「不能单独顶幺九」: flip 8m, 混 9m: in 789m the 9m is the hand's only 幺九 - no win."""
    r = verdict("789m222m456p345s8p", "8p", flip="8m")
    assert not r["win"] and r["reason"].startswith("no 幺九")
    assert verdict("789m222m456p345s8p", "8p", flip="1z")["win"]  # 9m natural: a 幺九


def test_clause_5_seven_pairs_may_lack_a_suit_and_yaojiu() -> None:
    """「十三幺和七对可以缺门,7对可以缺幺」: 七对 of 万 and 筒 only, all 2-8."""
    r = verdict("2233m4466p5577p8m", "8m")
    assert r["win"] and r["reason"] == "七对"


def test_qidui_four_alike_are_two_pairs_and_hun_pairs_anything() -> None:
    """R25: four alike count as two pairs; a 混 (4z) pairs with any single tile."""
    assert verdict("2222m4466p5577p8m", "8m")["win"]
    assert verdict("2233m4466p557p4z8m", "8m")["win"]


def test_shisanyao_every_tile_yaojiu() -> None:
    """R26 (changed): 十三幺 = every tile 幺九, any shape; 「十三幺…可以缺门」."""
    r = verdict("1199m119p1z2z3z5z6z7z", "7z")
    assert r["win"] and r["reason"] == "十三幺"
    assert "十三幺" in r["fans"]


def test_shisanyao_classic_option() -> None:
    """Option ``shisanyao = "thirteen-orphans"``: one of each of the 13 and one pair."""
    classic = {"shisanyao": "thirteen-orphans"}
    assert verdict("19m19p19s1234567z", "1z", flip="1s", options=classic)["win"]
    assert not verdict("1199m119p1z2z3z5z6z7z", "7z", options=classic)["win"]


def test_a_discarded_hun_cannot_be_claimed() -> None:
    """R12 reading: a discarded 混 cannot be won on."""
    r = verdict("123m111m456p789s1z", "4z")
    assert not r["win"] and r["reason"] == "a discarded 混 cannot be claimed"
    assert verdict("123m111m456p789s1z", "4z", self_drawn=True)["win"]


def test_hun_may_stand_for_a_fifth_copy() -> None:
    """R12: in the concealed hand a 混 stands for any tile, a fifth copy included."""
    shape = HandShape(parse_tiles("1111m456m456p789s4z"), (), frozenset({30}))
    # 1111m + 混 as a fifth 1m: 111m pung and 11m pair
    assert best_reading(shape).win


def test_best_reading_picks_most_fan() -> None:
    """R24: 222333444m reads as three pungs (三叉) rather than three chows when that scores more."""
    r = verdict("222333444m789p1s", "1s", melds="")
    assert r["win"]
    assert "三叉" in r["fans"]


def test_no_258_pair_option() -> None:
    """Option ``no_258_pair`` (本溪): a 2, 5 or 8 may not be the pair."""
    assert verdict("123m111m456p789s5s", "5s")["win"]
    assert not verdict("123m111m456p789s5s", "5s", options={"no_258_pair": True})["win"]


def test_can_win_agrees_with_best_reading_on_the_clause_hands() -> None:
    """The fast check behind claim windows says what the full reading says."""
    hands = [
        ("123m111m456p789s55z", ""),
        ("123m456m456p789s11z", ""),
        ("111m999p111s777s55z", ""),
        ("2233m4466p5577p88m", ""),
        ("123m111m456p78p9s5z5z", "9s"),
        ("1199m11p1z2z3z5z6z7z7z", ""),
    ]
    for text, hun_text in hands:
        tiles = parse_tiles(text)
        hun = frozenset(parse_tiles(hun_text))
        counts, wilds = kind_counts(tiles, hun)
        assert (
            can_win(counts, wilds, (), MajiangRules())
            == best_reading(HandShape(tiles, (), hun)).win
        ), text


def test_meld_with_a_hun_is_bad_input() -> None:
    """R12: a 混 is never part of a 吃/碰/杠."""
    with pytest.raises(NotationError, match="混"):
        verdict("123m456p789s5z", "5z", melds="p:444z")


def test_melds_parse() -> None:
    m = win.Meld("peng", parse_tiles("555p"))
    assert m.is_open and not m.is_kong
    assert Meld("angang", parse_tiles("2222s")).is_open is False


def test_r22_three_hun_alone_are_a_group_and_two_a_pair() -> None:
    """R22: three 混 alone are a pung or a chow of anything; two 混 are a pair (混 = 北 4z)."""
    # 123m 111p 789s + 白白 pair + three 混 as a fourth group
    assert verdict("123m111p789s55z44z", "4z", self_drawn=True)["win"]
    # 123m 111p 789s 999m + two 混 as the pair
    assert verdict("123m111p789s999m4z", "4z", self_drawn=True)["win"]
    # two 混 as the 中发白 pair of condition 1 (no pung otherwise): 123m 456m 456p 789s
    r = verdict("123m456m456p789s4z", "4z", self_drawn=True)
    assert r["win"], r
    assert not verdict(
        "123m456m456p789s4z", "4z", self_drawn=True, options={"hun_may_make_dragon_pair": False}
    )["win"]


def test_r21_a_closed_hand_wins_and_any_pair_may_be_the_jiang() -> None:
    """R21: 「站立(没有开门)」 is a fan, so 开门 is no condition; a 5 may be the pair."""
    r = verdict("123m111m456p789s5s", "5s")
    assert r["win"] and "站立" in r["fans"]


def test_four_pairs_in_four_blocks_are_not_a_hand() -> None:
    """Four groups *and one pair*: 22m 99p 55s 66z with 789m 234s is two groups, four pairs
    (found by a random playout: the table path once took every block's pair)."""
    tiles = parse_tiles("22789m99p23455s66z")
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    assert not can_win(counts, 0, (), MajiangRules())
    assert not best_reading(HandShape(tiles, (), frozenset())).win
    assert not verdict("22789m99p23455s6z", "6z")["win"]


def test_the_winning_groups_name_natural_tiles_and_what_each_hun_plays() -> None:
    """R12 「混」 stands in for a tile without being it: a group lists its natural tiles and
    the kinds its 混 play (13m + 混 as 2m, 1z + 混 as 东), never a face as a held tile."""
    r = verdict("13m111m456p789s4z4z", "1z")
    assert r["win"], r
    groups = r["groups"]
    assert {"type": "shunzi", "tiles": "13m", "hun": 1, "hun_as": [1]} in groups
    assert {"type": "jiang", "tiles": "1z", "hun": 1, "hun_as": [27]} in groups
    natural = sorted(t for g in groups for t in parse_tiles(g["tiles"]))
    assert natural == sorted(parse_tiles("13m111m456p789s1z"))  # the two 北 are the 混
    assert sum(g["hun"] for g in groups) == 2
