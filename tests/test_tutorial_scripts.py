"""The 新手教程 scripts (web/learn/tutorials.json) against the engines' own rules: a
tutorial must not teach a play the game refuses. Each card the player taps is in the deal
and is what the step plays; each climbing play is the kind the script names and beats the
play before it (or, where the script passes, the cards it names do not beat it); the
宝子 and 佳佳宝 points are the engine's readings; the 麻将 hand wins with the fans shown;
the 十三张 rows do not foul. Every sentence is there in Chinese and in English."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from paiju.cards import parse_cards
from paiju.catalog import find_variant
from paiju.games import game
from paiju.games.baozi.rules import evaluator
from paiju.games.majiang.hu import hu
from paiju.games.shisanzhang.rows import RowRules, is_foul, row_value
from paiju.tiles import parse_tiles

WEB = Path(__file__).resolve().parents[1] / "src" / "paiju" / "web"
SCRIPTS: dict[str, Any] = json.loads((WEB / "learn" / "tutorials.json").read_text("utf-8"))
CLIMBING = {"jiayibing", "fangyang", "danzi"}


def cards_of(script: dict[str, Any], text: str) -> list[str]:
    if script.get("tiles"):
        return [str(t) for t in parse_tiles(text)]
    return [str(c) for c in parse_cards(text)]


def mine(script: dict[str, Any], events: list[dict[str, Any]]) -> list[str]:
    """What the player's own events of a step take out of the hand."""
    out: list[str] = []
    for e in events:
        if e.get("seat", 0) != 0 and e["type"] != "placed":
            continue
        if e["type"] in ("played", "placed", "shown"):
            out += cards_of(script, e["cards"])
        elif e["type"] == "discarded":
            out += cards_of(script, e["tile"])
    return out


def test_the_client_lists_every_scripted_family() -> None:
    source = (WEB / "js" / "tutorial.js").read_text("utf-8")
    listed = re.search(r"TUTORIAL_FAMILIES = \[([^\]]*)\]", source)
    assert listed
    assert sorted(re.findall(r'"(\w+)"', listed.group(1))) == sorted(SCRIPTS)


@pytest.mark.parametrize("family", sorted(SCRIPTS))
def test_a_script_speaks_both_languages_and_ends_with_the_result(family: str) -> None:
    script = SCRIPTS[family]
    assert find_variant(script["code"]).family == family
    assert script["intro"]["zh"] and script["intro"]["en"]
    steps = script["steps"]
    assert steps[-1]["do"] == "end"
    for step in steps:
        assert step["do"] in ("watch", "tap", "choose", "end")
        assert step["say"]["zh"] and step["say"]["en"], step
        if step["do"] in ("tap", "choose"):
            # a move of the player's says why it is legal, on the button it names
            assert step["why"]["zh"] and step["why"]["en"], step
            assert step["button"]["zh"] and step["button"]["en"], step


@pytest.mark.parametrize("family", sorted(SCRIPTS))
def test_every_tapped_card_is_in_the_deal_and_is_what_the_step_plays(family: str) -> None:
    script = SCRIPTS[family]
    hand = Counter(cards_of(script, script["hand"]))
    assert sum(hand.values()) == script["sizes"][0]
    for step in script["steps"]:
        events = step.get("events", [])
        taken = Counter(mine(script, events))
        if step["do"] == "tap" and not step.get("pass"):
            assert Counter(cards_of(script, step["cards"])) <= taken, step
        for e in events:  # a claimed tile comes from the discarder: 碰 takes two of one's own
            if e["type"] == "melded" and e["seat"] == 0:
                taken += Counter(cards_of(script, e["tiles"])[1:])
        assert taken <= hand, (step, hand)
        hand -= taken


@pytest.mark.parametrize("family", sorted(CLIMBING))
def test_every_climbing_play_is_its_kind_and_beats_the_table(family: str) -> None:
    """J6/F9/N22: a play is beaten only by a higher combination the rules allow."""
    script = SCRIPTS[family]
    g: Any = game(script["code"])
    sizes = list(script["sizes"])
    table: str | None = None
    passes = 0
    checked = 0
    for step in script["steps"]:
        for e in step.get("events", []):
            if e["type"] == "passed":
                passes += 1
                if passes >= script["seats"] - 1:
                    table = None  # everyone else passed: the last player leads anew
                continue
            if e["type"] != "played":
                continue
            assert g.combo_json(e["cards"])["kind"] == e["kind"], e
            if table is not None:
                verdict = g.beats_json(table, e["cards"])
                assert verdict["beats"], (table, e, verdict)
                checked += 1
            sizes[e["seat"]] -= len(e["cards"].split())
            if e["seat"] != 0:
                assert e["left"] <= sizes[e["seat"]] + len(e["cards"].split())
            else:
                assert e["left"] == sizes[0], e
            table, passes = e["cards"], 0
        if step["do"] == "choose" and step.get("events", [{}])[0].get("type") == "passed":
            assert table is not None
            held = cards_of(script, script["hand"])
            jokers = " ".join(c for c in held if c in ("RJ", "BJ"))
            # 打弹子: the player's two jokers are equal to the 双王 on the table (N22)
            assert not g.beats_json(table, jokers)["beats"]
    assert checked >= 2


def test_the_baozi_points_are_the_engines_readings() -> None:
    """ "Hand points = sum mod 10 (9 best, 0 worst)"; 2001 counts J Q K as 1 2 3."""
    script = SCRIPTS["baozi"]
    reader = evaluator(find_variant(script["code"]))
    shown = {
        e["seat"]: e for s in script["steps"] for e in s.get("events", []) if e["type"] == "shown"
    }
    assert reader.read_text(shown[0]["cards"]).name == shown[0]["label"]["zh"]
    assert shown[1]["label"]["zh"].startswith(reader.read_text(shown[1]["cards"]).name)
    assert reader.compare_text(shown[1]["cards"], shown[0]["cards"]) == "banker"


def test_the_jiajiabao_split_is_a_push_as_the_script_says() -> None:
    """ "a player who wins both wins, loses both loses, otherwise push"."""
    script = SCRIPTS["jiajiabao"]
    reader = evaluator(find_variant(script["code"]))
    events = [e for s in script["steps"] for e in s.get("events", [])]
    rows = {e["row"]: e["cards"] for e in events if e["type"] == "placed"}
    banker = next(e for e in events if e["type"] == "shown")["cards"].split()
    front, back = " ".join(banker[:2]), " ".join(banker[2:])
    assert reader.read_text(rows["front"]).name == "0点"
    assert reader.read_text(rows["back"]).name == "对7"
    assert banker and reader.read_text(front).name == "6点"
    assert reader.read_text(back).name == "3点"
    assert reader.compare_text(front, rows["front"]) == "banker"
    assert reader.compare_text(back, rows["back"]) == "player"


def test_the_shisanzhang_rows_do_not_foul() -> None:
    """倒水: "the back must be the strongest and the front the weakest"."""
    events = [e for s in SCRIPTS["shisanzhang"]["steps"] for e in s.get("events", [])]
    rows = {e["row"]: parse_cards(e["cards"]) for e in events if e["type"] == "placed"}
    assert [len(rows[r]) for r in ("front", "middle", "back")] == [3, 5, 5]
    assert not is_foul(rows["front"], rows["middle"], rows["back"], RowRules())
    # and laid the other way round it would foul: the check can fail
    assert is_foul(rows["back"][:3], rows["middle"], rows["front"] + rows["back"][3:], RowRules())


def test_the_shisanzhang_shot_wins_all_three_rows() -> None:
    """打枪: the player wins every row against the seat the script says it shoots."""
    script = SCRIPTS["shisanzhang"]
    events = [e for s in script["steps"] for e in s.get("events", [])]
    mine = {e["row"]: parse_cards(e["cards"]) for e in events if e["type"] == "placed"}
    shown = next(e for e in events if e["type"] == "shown")
    theirs = [parse_cards(r) for r in shown["rows"]]
    assert sorted(parse_cards(shown["cards"])) == sorted(c for r in theirs for c in r)
    assert not set(parse_cards(script["hand"])) & set(parse_cards(shown["cards"]))
    assert not is_foul(*theirs, RowRules())
    for row, other in zip(("front", "middle", "back"), theirs, strict=True):
        assert row_value(mine[row], RowRules()) > row_value(other, RowRules()), row
    step = next(s for s in script["steps"] if "showdown" in s)
    guns = [p for p in step["showdown"]["pairs"] if p["gun"] is not None]
    assert guns == [{"seats": [0, shown["seat"]], "gun": 0}]


def test_the_majiang_hand_wins_with_the_fans_the_script_shows() -> None:
    """R14-R17: four groups and a pair, a chow, a 幺九, three suits; R27 穷胡, R30 二八将,
    R32 大哥大."""
    script = SCRIPTS["majiang"]
    events = [e for s in script["steps"] for e in s.get("events", [])]
    hand = Counter(cards_of(script, script["hand"]))
    for e in events:
        if e["type"] == "melded":
            hand -= Counter(cards_of(script, e["tiles"])[1:])
        elif e["type"] == "discarded" and e["seat"] == 0:
            hand -= Counter(cards_of(script, e["tile"]))
    won = next(e for e in events if e["type"] == "won")
    verdict = hu(
        "".join(sorted(hand.elements())), win=won["tile"], flip=script["flip"], melds="p:555z"
    )
    assert verdict["win"] is True
    assert sorted(verdict["fans"]) == sorted(won["fans"])
