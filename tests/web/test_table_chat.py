"""快捷语 and 表情 as two players and a spectator use them: A (desktop, English) taps a
stock phrase in the 💬 menu; B (phone, Chinese) sees it on A's seat in Chinese, with a
sound; B mutes phrases in ⚙ and A's emote then shows on A's own table but not on B's; the
spectator sees bubbles and has no menu."""

from __future__ import annotations

from typing import Any

from web_helpers import DESKTOP, WebServer, enter, more_players, open_room


def test_phrases_and_emotes_between_two_players(browser: Any, page: Any, server: WebServer) -> None:
    page.set_viewport_size(DESKTOP)
    enter(page, "说话的")
    page.click("#lang-switch")
    page.wait_for_function(
        "document.querySelector(\"[data-create='1301']\")?.textContent === 'New room'"
    )
    room = open_room(page, "1301", seats=2, bots=0, fill_after="")
    with more_players(browser, page, 2) as (b, spy):
        enter(b, "听的")
        b.goto(f"{b.base}/#/room/{room}")
        b.click("#waiting button.primary")  # 入座
        b.wait_for_selector("#ready")
        b.click("#ready")
        page.wait_for_selector("#felt .seat.me", timeout=30_000)
        b.wait_for_selector("#felt .seat.me", timeout=30_000)
        enter(spy, "看的")
        spy.goto(f"{spy.base}/#/room/{room}")
        spy.wait_for_selector("#felt .seat")
        assert spy.query_selector("#chat-open") is None  # spectators send nothing
        page.click("#chat-open")
        page.click(".chat-phrase[data-phrase='hurry']")
        bubble = b.wait_for_selector("#felt .seat[data-seat='0'] .chat-bubble")
        assert bubble.inner_text() == "快点吧，等得花都谢了"
        mine = page.wait_for_selector("#felt .seat[data-seat='0'] .chat-bubble")
        assert mine.inner_text() == "Hurry up, the flowers are wilting"
        spy.wait_for_selector("#felt .seat[data-seat='0'] .chat-bubble[data-phrase='hurry']")
        assert b.evaluate("(window.__paijuSounds || {}).chat || 0") >= 1
        b.click("#prefs-open")
        b.check("#pref-mute-chat")
        b.click("#prefs-open")
        page.wait_for_timeout(3200)  # the seat's pace: one message per 3 s
        page.click("#chat-open")
        page.click(".chat-emote[data-emote='thumbs']")
        page.wait_for_selector("#felt .seat[data-seat='0'] .chat-bubble[data-emote='thumbs']")
        spy.wait_for_selector("#felt .seat[data-seat='0'] .chat-bubble[data-emote='thumbs']")
        assert b.query_selector(".chat-bubble[data-emote='thumbs']") is None
