"""宝子 and 佳佳宝 in the browser: bet, (group,) showdown and settlement against bots."""

from __future__ import annotations

import re
from typing import Any

import pytest
from web_helpers import (
    DESKTOP,
    PHONE,
    WebServer,
    check_against_ledger,
    enter,
    fast_bots,
    open_room,
    shoot,
)


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


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


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_banker_sees_no_result_before_turning_own_cards(
    page: Any, server: WebServer, lang: str
) -> None:
    """宝子 as banker (seat 1 of the first hand): the players bet, the cards come, and one's
    own two wait face down for 搓牌. Until they are turned, nothing of the result is on the
    screen at either size: no player's 赢/输, no "庄 +9", no settlement; each tap turns one
    card, and only after the second do every result and the banker's total appear."""
    page.goto(page.base + "/")
    page.evaluate(f"localStorage.setItem('paiju.lang', '{lang}')")
    enter(page, "庄家" if lang == "zh" else "Banker")
    fast_bots(page)
    open_room(page, "2001", seats=4, bots=3, seat=0, hands=1)  # the result stays up
    page.wait_for_selector(".squeeze-back", timeout=30_000)
    banker = "庄" if lang == "zh" else "Banker"
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        page.wait_for_timeout(300)  # past the reveal: the result would be drawn by now
        assert page.locator("#my-cards-row .squeeze-back").count() == 2
        assert page.locator("#my-cards-row .squeeze-back").first.is_visible()
        assert page.locator("#room .result").count() == 0
        assert page.locator("#bz-pot, #settlement").count() == 0
        felt = page.inner_text("#felt")
        assert f"{banker} +" not in felt and f"{banker} -" not in felt
        assert not re.search(r"[+-]\d", felt), felt
    page.click("#my-cards-row .squeeze-back[data-index='0']")
    assert page.locator("#my-cards-row .squeeze-back").count() == 1
    assert page.locator("#room .result, #bz-pot, #settlement").count() == 0
    page.click("#my-cards-row .squeeze-back[data-index='1']")
    page.wait_for_selector("#settlement")
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        assert page.locator("#bz-pot").is_visible()
        pot = page.inner_text("#bz-pot")
        assert re.fullmatch(rf"{banker} [+-]?\d+", pot)
        results = page.locator("#felt .result")
        assert results.count() == 3  # each player's result against the banker
    record = check_against_ledger(page, server, seat=0)
    # read while the hand's result was up (the room's next hand may be dealt by now)
    assert pot == f"{banker} {signed(record['settlement'][0])}"


@pytest.mark.parametrize("code", ["2001", "2101"])
def test_the_seats_readings_fit_the_phone_in_english(page: Any, code: str) -> None:
    """At the end of a hand in English on a phone, every seat shows its bet, cards, reading
    and result each on a line of its own, inside the seat and inside the screen (an English
    reading is long: it wraps in its seat; the page never scrolls sideways)."""
    page.goto(page.base + "/")
    page.evaluate("localStorage.setItem('paiju.lang', 'en')")
    enter(page, "Readings")
    fast_bots(page, 0.01, time_limit=0.2, tuoguan_after=1)  # the seat's bot plays it through
    open_room(page, code, seats=4, bots=3, seat=0, hands=1)
    first = page.wait_for_selector("#settlement, #open-all", timeout=60_000)
    if first.get_attribute("id") == "open-all":
        first.click()
    page.wait_for_selector("#settlement", timeout=30_000)
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(200)
    found = page.evaluate(
        """() => ({
          wide: document.documentElement.scrollWidth - innerWidth,
          out: [...document.querySelectorAll('#felt .seat')].filter((s) => {
            const r = s.getBoundingClientRect();
            return r.left < -1 || r.right > innerWidth + 1 || s.scrollWidth > s.clientWidth + 1;
          }).map((s) => s.textContent.slice(0, 40)),
          runTogether: [...document.querySelectorAll('#felt .seat .seat-extra .reading')]
            .filter((el) => {
              const prev = el.previousElementSibling;
              const top = el.getBoundingClientRect().top;
              return prev && prev.getBoundingClientRect().bottom > top + 1;
            }).length,
        })"""
    )
    assert found["wide"] <= 1 and found["out"] == [], found
    assert found["runTogether"] == 0, found
