"""One-tap suggestions in the browser: "十三张 (… the solver's suggestions as
one-tap choices …)" and "佳佳宝 (choose the two groups, with the suggested grouping)"."""

from __future__ import annotations

from typing import Any

from web_helpers import WebServer, check_against_ledger, enter, open_room, shoot, token

from paiju.games import game


def test_1301_a_suggestion_fills_the_rows_in_one_tap(page: Any, server: WebServer) -> None:
    enter(page, "推荐玩家")
    room = open_room(page, "1301")
    page.wait_for_selector("#suggestions .suggestion")
    advice = server.get(f"/api/rooms/{room}/suggestions", token(page))["suggestions"]
    arrangements = [a for a in advice if a["type"] == "arrange"]
    assert len(page.query_selector_all("#suggestions .suggestion")) == min(4, len(arrangements))
    page.click("#suggestions .suggestion[data-suggestion='0']")
    for row in ("front", "middle", "back"):
        shown = [
            el.get_attribute("data-card")
            for el in page.query_selector_all(f"[data-row='{row}'] .card")
        ]
        assert sorted(shown) == sorted(arrangements[0][row].split())
    assert page.is_visible("#foul-ok")
    shoot(page, "shisanzhang-suggestion")
    page.click("#ssz-submit")
    record = check_against_ledger(page, server, seat=0)
    mine = [a["action"] for a in record["actions"] if a["seat"] == 0]
    assert mine == [{k: arrangements[0][k] for k in ("type", "front", "middle", "back")}]


def test_2101_the_suggested_grouping_is_one_tap(page: Any, server: WebServer) -> None:
    enter(page, "推荐分组")
    room = open_room(page, "2101", seats=4, bots=0, seat=1)
    page.wait_for_selector("#waiting")
    page.click("#start-now")
    page.click(".bet-chip[data-bet='2']")
    page.wait_for_selector("#suggestions .suggestion")
    advice = server.get(f"/api/rooms/{room}/suggestions", token(page))["suggestions"]
    assert advice and advice[0]["type"] == "group"
    assert len(advice) == 3  # four cards split three ways, best first
    page.click("#suggestions .suggestion[data-suggestion='0']")
    page.click("#group-submit")
    record = check_against_ledger(page, server, seat=1)
    grouped = [
        a["action"] for a in record["actions"] if a["seat"] == 1 and a["action"]["type"] == "group"
    ]
    assert len(grouped) == 1
    g = game("2101")
    sent = g.parse_action(grouped[0])
    best = g.parse_action({k: advice[0][k] for k in ("type", "first", "second")})
    assert {frozenset(sent.first), frozenset(sent.second)} == {  # type: ignore[attr-defined]
        frozenset(best.first),  # type: ignore[attr-defined]
        frozenset(best.second),  # type: ignore[attr-defined]
    }
