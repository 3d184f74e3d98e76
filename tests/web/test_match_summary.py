"""A room is a match: a person plays a short match (2 hands) of 十三张 against fast bots,
reads the 总结算 on screen - who won, each seat's total and hands won - at phone and
desktop sizes in Chinese and English, and 再来一局 seats them at the next match's table.
The room says how long it lasts (第 1/2 局), and the room form what an empty count plays."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from web_helpers import DESKTOP, PHONE, WebServer, enter, fast_bots, open_room, token

SHOTS = Path("/work/shots/match")

WORDS = {
    "zh": {
        "title": "总结算",
        "hands": "共 2 局",
        "cut": "提前结束",
        "again": "再来一局",
        "lobby": "回大厅",
        "won": "胜局",
        "chip1": "第 1/2 局",
        "chip2": "第 2/2 局",
    },
    "en": {
        "title": "Match summary",
        "hands": "2 hands",
        "cut": "Ended early",
        "again": "Play again",
        "lobby": "Back to the lobby",
        "won": "Hands won",
        "chip1": "Hand 1 of 2",
        "chip2": "Hand 2 of 2",
    },
}


COVERED = """(rows) => [...document.querySelectorAll(rows)].flatMap((row) => {
  const r = row.getBoundingClientRect();
  const at = document.elementFromPoint(r.left + 8, r.top + r.height / 2);
  if (r.top < 0 || r.bottom > innerHeight) return [`row ${row.dataset.seat} off the screen`];
  const what = at ? at.outerHTML.slice(0, 80) : "nothing";
  return row.contains(at) ? [] : [`row ${row.dataset.seat} under ${what}`];
})"""
"""The rows of ``rows`` that are off the screen or covered by something else."""


def _play_a_hand(page: Any) -> None:
    """Take the first suggested arrangement and confirm it, as a player does; then wait for
    the hand's result."""
    page.wait_for_selector("#suggestions .sugg-card[data-suggestion='0']", timeout=30_000)
    page.click("#suggestions .sugg-card[data-suggestion='0']")
    page.click("#ssz-submit")
    page.wait_for_selector("#settlement", timeout=30_000)


def _in_view(page: Any, selector: str) -> bool:
    box = page.eval_on_selector(
        selector,
        "el => { el.scrollIntoView({block: 'center'}); const r = el.getBoundingClientRect();"
        " return [r.top, r.bottom, r.left, r.right, innerHeight, innerWidth]; }",
    )
    top, bottom, left, right, height, width = box
    return top >= 0 and bottom <= height + 1 and left >= -1 and right <= width + 1


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_short_match_ends_with_the_summary_and_play_again(
    page: Any, server: WebServer, lang: str
) -> None:
    words = WORDS[lang]
    enter(page, "总结" if lang == "zh" else "Summer")
    if lang == "en":
        page.click("#lang-switch")
    fast_bots(page)
    room = open_room(page, "1301", hands=2)
    # the room says how long it lasts from its first hand
    page.wait_for_function(
        f"document.querySelector('.room-head .chip')?.textContent === {words['chip1']!r}"
    )
    _play_a_hand(page)
    assert page.query_selector("#match-summary") is None  # one hand of two: no summary yet
    page.click("#continue")
    page.wait_for_function(
        f"document.querySelector('.room-head .chip')?.textContent === {words['chip2']!r}"
    )
    _play_a_hand(page)
    panel = page.wait_for_selector("#match-summary", timeout=30_000)
    # on first view, as the room brought it into view: every row readable, none under the
    # bar of 再来一局 / 回大厅
    covered = page.evaluate(COVERED, "#match-summary tbody tr")
    assert not covered, covered
    text = panel.inner_text()
    assert words["title"] in text and words["hands"] in text
    # the room played exactly the hands it was opened for: nothing ended early
    assert words["cut"] not in text and page.query_selector("#summary-cut") is None
    assert words["won"] in text
    assert page.query_selector("text=房间已结束") is None
    summary = server.get(f"/api/rooms/{room}/summary", token(page))
    rows = page.query_selector_all("#match-summary tbody tr")
    assert len(rows) == 4
    for row, line in zip(rows, summary["seats"], strict=True):
        assert int(row.get_attribute("data-seat")) == line["seat"]
        assert int(row.query_selector(".total").inner_text().replace("+", "")) == line["total"]
        assert int(row.query_selector(".won").inner_text()) == line["won"]
        assert ("★" in row.inner_text()) == line["winner"]
    winner = page.inner_text("#summary-winner")
    if summary["winners"]:
        assert summary["winners"] != [0] or winner in ("你是大赢家！", "You are the top winner!")
    else:
        assert winner in ("没有大赢家：无人赢分", "No top winner: nobody ended ahead")
    assert page.inner_text("#again") == words["again"]
    assert page.inner_text("#summary-lobby") == words["lobby"]
    SHOTS.mkdir(parents=True, exist_ok=True)
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(viewport)
        assert _in_view(page, "#match-summary h2"), size
        assert _in_view(page, "#again") and _in_view(page, "#summary-lobby"), size
        page.screenshot(path=str(SHOTS / f"summary-{lang}-{size}.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.click("#again")
    page.wait_for_url(re.compile(rf"#/room/(?!{room}$)\d+$"), timeout=20_000)
    new = int(page.url.rsplit("/", 1)[1])
    info = server.get(f"/api/rooms/{new}", token(page))
    assert info["code"] == "1301" and info["players"][1:] == ["bot", "bot", "bot"]
    assert info["seat_players"][0] is not None
    page.wait_for_selector(".hand-zone .card", timeout=30_000)  # the next match is dealt


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_room_form_says_what_a_whole_match_is(page: Any, lang: str) -> None:
    """局数 left empty plays the game's whole match: the form says what that is for the game
    (8 局 of 十三张, 1 圈 of 麻将, 打弹子's 局 to the target score, counted in 盘)."""
    enter(page, "局数")
    if lang == "en":
        page.click("#lang-switch")
    wanted = {
        "zh": {
            "1301": "局数（空：打满一整场 8 局）",
            "anshan-majiang": "局数（空：打满 1 圈，每家都坐过庄）",
            "ningcheng-danzi": "盘数（空：打满一整局，先到目标分的一方赢）",
        },
        "en": {
            "1301": "Hands (empty: a whole match of 8)",
            "anshan-majiang": (
                "Hands (empty: 1 full round of the table, each seat the dealer in turn)"
            ),
            "ningcheng-danzi": (
                "Deals (empty: a whole match, won by the side that reaches the target score)"
            ),
        },
    }[lang]
    for code, label in wanted.items():
        page.goto(f"{page.base}/#/")
        button = f"[data-create='{code}']"
        page.wait_for_selector(button, state="attached")
        if not page.is_visible(button):
            page.fill("#game-search", code)
        page.click(button)
        read = "() => document.querySelector('#create-room label:has(input[name=hands]) span')"
        try:
            page.wait_for_function(f"({read})()?.innerText === {json.dumps(label)}", timeout=5000)
        finally:
            assert page.evaluate(f"({read})()?.innerText") == label
        assert page.eval_on_selector(
            "#create-room input[name=hands]", "e => e.getBoundingClientRect().right <= innerWidth"
        )
        # 麻将's form offers a player who can claim time to decide (claim_time), 8 s
        claim = page.query_selector("#create-room input[name=claim_time]")
        assert (claim is not None) == (code == "anshan-majiang")
        if claim is not None:
            assert claim.input_value() == "8"


def test_a_finished_rooms_link_opens_its_summary_and_hands(browser: Any, tmp_path: Path) -> None:
    """A room's link after its match is over and the server has let the table go (here: the
    server restarted; a running one lets a finished table go a minute after its last socket)
    opens the 总结算 and each hand's replay, not "没有这个房间"."""
    srv = WebServer(tmp_path).start()
    context = browser.new_context(viewport=PHONE)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.set_default_timeout(20_000)
        page.base = srv.base
        enter(page, "散场")
        fast_bots(page)
        room = open_room(page, "1301", hands=2)
        _play_a_hand(page)
        page.click("#continue")
        _play_a_hand(page)
        page.wait_for_selector("#match-summary", timeout=30_000)
        summary = srv.get(f"/api/rooms/{room}/summary", token(page))
        games = sorted(srv.get(f"/api/games?room={room}"), key=lambda g: g["hand_no"])
        page.goto(f"{srv.base}/#/")
        srv.stop()
        srv.start()
        page.goto(f"{srv.base}/#/room/{room}")
        panel = page.wait_for_selector("#match-summary")
        text = panel.inner_text()
        assert "总结算" in text and "共 2 局" in text and "没有这个房间" not in text
        rows = page.query_selector_all("#match-summary tbody tr")
        assert [int(r.get_attribute("data-seat")) for r in rows] == [0, 1, 2, 3]
        for row, line in zip(rows, summary["seats"], strict=True):
            assert int(row.query_selector(".total").inner_text().replace("+", "")) == line["total"]
        who = page.inner_text("#match-summary tbody tr[data-seat='0'] .who")
        crowned = 0 in summary["winners"]  # the 大赢家 badge follows the name then
        assert who == ("你 ★ 大赢家" if crowned else "你"), who
        assert page.query_selector("#again") is None  # the table is gone: no 再来一局 here
        links = page.eval_on_selector_all(
            "#finished-hands li a", "els => els.map(e => [e.innerText, e.getAttribute('href')])"
        )
        assert links == [[f"第 {g['hand_no']} 局", f"#/replay/{g['id']}"] for g in games]
        page.click("#finished-hands li a >> nth=1")
        page.wait_for_selector("#action-log li")
        # in English too
        page.goto(f"{srv.base}/#/room/{room}")
        page.wait_for_selector("#match-summary")
        page.click("#lang-switch")
        page.wait_for_function(
            "document.querySelector('#finished-hands h3')?.innerText === \"Each hand's replay\""
        )
        assert "Match summary" in page.inner_text("#match-summary")
        assert page.inner_text("#finished-hands li a >> nth=0") == "Hand 1"
    finally:
        context.close()
        srv.stop()
    assert not errors, errors
