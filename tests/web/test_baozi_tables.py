"""宝子 and 佳佳宝 in the browser: bet, (group,) showdown and settlement against bots."""

from __future__ import annotations

from typing import Any

from web_helpers import WebServer, check_against_ledger, enter, open_room, shoot


def start_as_player(page: Any, code: str) -> int:
    """Open a 4-seat room sitting at seat 1 (seat 0 is the first hand's banker), then
    start it from the waiting room: bots take the open seats."""
    room = open_room(page, code, seats=4, bots=0, seat=1)
    page.wait_for_selector("#waiting")
    page.click("#start-now")
    return room


def test_2001_bet_and_settle(page: Any, server: WebServer) -> None:
    """2001: the player bets with a chip, the two cards are shown, the result is settled.

    rule (000, 2001): "52张牌，每家2张" - every seat shows two cards at the showdown."""
    enter(page, "宝子玩家")
    start_as_player(page, "2001")
    page.wait_for_selector(".bet-chip[data-bet='5']")
    shoot(page, "baozi-betting")
    page.click(".bet-chip[data-bet='5']")
    record = check_against_ledger(page, server, seat=1)
    assert {"seat": 1, "action": {"type": "bet", "amount": 5}, "actor": "player"} in record[
        "actions"
    ]
    for seat in range(4):
        shown = page.query_selector_all(
            f".seat[data-seat='{seat}'] .card"
        ) or page.query_selector_all(".my-cards .card")
        assert len(shown) == 2
    shoot(page, "baozi-result")


def test_2101_bet_group_and_settle(page: Any, server: WebServer) -> None:
    """2101: bet, then split the four cards into two groups by tapping two of them.

    rule (000, 2101): "每家4张牌，分成2组" - the grouping panel shows 4 cards and sends
    the two picked cards as one group and the other two as the other."""
    enter(page, "佳佳宝玩家")
    start_as_player(page, "2101")
    page.click(".bet-chip[data-bet='3']")
    page.wait_for_selector("#group-panel .hand .card")
    hand = "#group-panel .hand .card"  # the player's four cards (not the suggestions')
    cards = [el.get_attribute("data-card") for el in page.query_selector_all(hand)]
    assert len(cards) == 4
    assert page.is_disabled("#group-submit")
    page.click(f"#group-panel .hand .card[data-card='{cards[0]}']")
    page.click(f"#group-panel .hand .card[data-card='{cards[2]}']")
    shoot(page, "jiajiabao-grouping")
    page.click("#group-submit")
    record = check_against_ledger(page, server, seat=1)
    grouped = [
        a["action"] for a in record["actions"] if a["seat"] == 1 and a["action"]["type"] == "group"
    ]
    assert len(grouped) == 1
    first, second = grouped[0]["first"].split(), grouped[0]["second"].split()
    assert sorted(first) == sorted([cards[0], cards[2]])
    assert sorted(second) == sorted([cards[1], cards[3]])
    shoot(page, "jiajiabao-result")
