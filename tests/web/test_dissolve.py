"""申请解散 as two people at a table use it: A (desktop, English) taps "Ask to end" and
confirms; B (phone, Chinese) is shown the request with each seat's answer, the seconds left
and 同意 / 拒绝, and agrees; both read that the room ends after this hand, play it out, and
see the 总结算 saying the players agreed to end it early. The vote's timer is the test's
clock (``hold_clock``): the request is read and answered before it could run out.

The rule: "a seated player asks to end the room; the others agree or refuse within a timer
... if all agree the room ends after the current hand with its 总结算; the request, the
answers and the result are shown at the table"."""

from __future__ import annotations

import re
from typing import Any

from web_helpers import (
    DESKTOP,
    WebServer,
    enter,
    hold_clock,
    more_players,
    open_room,
    shoot,
    token,
)


def _arrange(page: Any) -> None:
    """Take the first suggested arrangement and confirm it, as a player does."""
    page.wait_for_selector("#suggestions .sugg-card[data-suggestion='0']", timeout=30_000)
    page.click("#suggestions .sugg-card[data-suggestion='0']")
    page.click("#ssz-submit")


def _sit_down(page: Any, b: Any, name_a: str, name_b: str) -> int:
    """A (``page``, desktop, English) opens a 十三张 room for two; B (phone, Chinese) takes
    the other seat and gets ready; both at the table. Returns the room's id."""
    page.set_viewport_size(DESKTOP)
    enter(page, name_a)
    page.click("#lang-switch")
    page.wait_for_function(
        "document.querySelector(\"[data-create='1301']\")?.textContent === 'New room'"
    )
    hold_clock(page)
    room = open_room(page, "1301", seats=2, bots=0, fill_after="")
    enter(b, name_b)
    b.goto(f"{b.base}/#/room/{room}")
    b.click("#waiting button.primary")  # 入座
    b.wait_for_selector("#ready")
    b.click("#ready")
    page.wait_for_selector("#felt .seat.me", timeout=30_000)
    b.wait_for_selector("#felt .seat.me", timeout=30_000)
    return room


def test_two_players_vote_to_end_the_room_and_see_the_summary(
    browser: Any, page: Any, server: WebServer
) -> None:
    with more_players(browser, page, 1) as (b,):
        room = _sit_down(page, b, "想散的", "同意的")
        # on a phone the one-line header has room for the short word; its title is whole
        assert b.inner_text("#dissolve-ask") == "解散"
        assert b.get_attribute("#dissolve-ask", "title") == "申请解散"
        shoot(b, "dissolve-button")
        page.once("dialog", lambda dialog: dialog.accept())
        page.click("#dissolve-ask")

        prompt = b.wait_for_selector("#dissolve-vote")
        text = prompt.inner_text()
        assert "想散的 申请解散房间" in text
        assert "想散的: 发起" in text and "你: 等待表态…" in text
        secs = re.search(r"(\d+) 秒内不表态视为同意", text)
        assert secs and 0 < int(secs.group(1)) <= 60, text
        mine = page.wait_for_selector("#dissolve-vote")  # the asker sees it, with no buttons
        assert "You asked to end the room; waiting for the others" in mine.inner_text()
        assert page.query_selector("#dissolve-agree") is None
        assert page.query_selector("#dissolve-ask") is None  # one request at a time
        shoot(b, "dissolve-asked")
        b.click("#dissolve-agree")

        agreed = b.wait_for_selector("#dissolve-result[data-result='agreed']")
        assert agreed.inner_text() == "全员同意：本局结束后解散房间"
        line = page.wait_for_selector("#dissolve-result[data-result='agreed']")
        assert line.inner_text() == "All agreed: the room ends after this hand"
        assert b.query_selector("#dissolve-vote") is None
        shoot(b, "dissolve-agreed")

        # the hand in play is played out, then the room ends with its 总结算
        _arrange(page)
        _arrange(b)
        zh = b.wait_for_selector("#match-summary", timeout=30_000).inner_text()
        assert "总结算" in zh and "经全员同意提前解散" in zh and "共 1 局" in zh
        en = page.wait_for_selector("#match-summary", timeout=30_000).inner_text()
        assert "Match summary" in en and "Ended early: all players agreed" in en
        assert page.query_selector("#continue") is None and b.query_selector("#continue") is None
        b.wait_for_selector("#dissolve-result:has-text('全员同意，房间已解散')")
        shoot(page, "dissolve-summary")
        # the room's record (战绩) on the 积分 page says how it ended
        b.click("#nav-ledger")
        kept = b.wait_for_selector(f"#record .rec-room[data-room='{room}']")
        kept.evaluate("el => { el.open = true; }")  # its details shown, as a tap does
        assert "经全员同意提前解散" in kept.inner_text()
    summary = server.get(f"/api/rooms/{room}/summary", token(page))
    assert summary["ended_by_vote"] and summary["hands"] == 1


def test_a_refusal_is_shown_to_both_and_the_hand_goes_on(
    browser: Any, page: Any, server: WebServer
) -> None:
    """ "the others agree or refuse": B asks, A refuses; both read who refused, and play on."""
    with more_players(browser, page, 1) as (b,):
        _sit_down(page, b, "不散的", "想走的")
        b.once("dialog", lambda dialog: dialog.accept())
        b.click("#dissolve-ask")
        prompt = page.wait_for_selector("#dissolve-vote")
        assert "想走的 asks to end the room" in prompt.inner_text()
        page.click("#dissolve-refuse")
        line = b.wait_for_selector("#dissolve-result[data-result='refused']")
        assert line.inner_text() == "不散的 拒绝解散，牌局继续"
        mine = page.wait_for_selector("#dissolve-result[data-result='refused']")
        assert mine.inner_text() == "You refused: the game goes on"
        assert page.query_selector("#dissolve-vote") is None
        # the room plays on: the hand is there to arrange, and either may ask again later
        _arrange(page)
        _arrange(b)
        b.wait_for_selector("#settlement", timeout=30_000)
        assert b.query_selector("#match-summary") is None
        assert b.query_selector("#continue") is not None
