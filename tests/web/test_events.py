"""复式赛 (duplicate events) as people use them, at 390x844 and 1280x800, in Chinese and
English.

A club's owner opens the events page from the lobby, makes an event of 十三张 (1301) for
the club, enters it and withdraws, enters four bot levels (a level may enter twice: bots
fill an event of many sides), and starts it. The standings fill in as the tables' hands
settle - each entrant's score, mean per deal and 95% interval - and turn final. A deal
then opens side by side: the same cards at two tables from one seat's view, stepped
through, with a jump to the seat's next decision and a mark where the tables differ.

The issue: "Standings live during the event and final after it, with each entrant's score,
its 95% interval, and the deals to replay side by side (same deal, two tables, two
decisions at each step)."
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from web_helpers import DESKTOP, PHONE, WebServer, enter, no_overflow, set_lang, shoot, token

CJK = re.compile(r"[\u3400-\u9fff]")
SIZES = {"phone": PHONE, "desktop": DESKTOP}
CARDS = "(els) => els.map((e) => e.lastElementChild.innerText)"
"""The cards of each column's hand (not its label, which names the table's entrant)."""


def _page(browser: Any, server: WebServer, size: str) -> tuple[Any, Any, list[str]]:
    """A page of the server at ``size``, and the JavaScript errors it will meet."""
    context = browser.new_context(viewport=SIZES[size])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(30_000)
    page.base = server.base
    return context, page, errors


@pytest.mark.parametrize(("size", "lang"), [("phone", "zh"), ("desktop", "en")])
def test_a_club_owner_runs_an_event_of_bots_and_compares_a_deal(
    browser: Any, server: WebServer, size: str, lang: str
) -> None:
    context, page, errors = _page(browser, server, size)
    try:
        enter(page, f"Owner{size}")
        set_lang(page, lang)
        made = httpx.post(
            f"{server.base}/api/clubs",
            json={"name": f"Club {size}"},
            headers={"Authorization": f"Bearer {token(page)}"},
        )
        assert made.status_code == 201, made.text
        page.goto(server.base + "/#/")
        page.wait_for_selector("#events-entry")
        no_overflow(page)  # the lobby's entry beside 亲友圈's
        shoot(page, f"events-lobby-{size}-{lang}")
        page.set_viewport_size(SIZES[size])
        page.click("#events-entry")
        page.wait_for_selector("#event-new")
        no_overflow(page)
        page.fill("#ev-name", f"Ladder {size}")
        page.select_option("#ev-game", "1301")
        page.fill("#ev-deals", "2")
        page.click("#ev-make")
        page.wait_for_url(re.compile(r"#/event/\d+$"))
        page.wait_for_selector("#event-join")
        # enter, then withdraw
        page.click("#event-join")
        page.wait_for_selector("#event-entrants li.me")
        assert f"Owner{size}" in page.inner_text("#event-entrants")
        page.click("#event-leave")
        page.wait_for_selector("#event-join")
        assert page.locator("#event-entrants li").count() == 0
        # four bot entrants
        for n, level in enumerate(["hard", "normal", "easy", "normal"], 1):
            page.select_option("#event-bot-level", level)
            page.click("#event-add-bot")
            page.wait_for_function(
                f"document.querySelectorAll('#event-entrants li').length === {n}"
            )
        bots = page.locator("#event-entrants li").evaluate_all(
            "(els) => els.map((e) => e.dataset.bot)"
        )
        assert bots == ["hard", "normal", "easy", "normal"]
        names = page.inner_text("#event-entrants")
        assert ("困难" in names) if lang == "zh" else ("hard" in names)
        page.click("#event-start")
        page.wait_for_selector("#event[data-status='running'], #event[data-status='finished']")
        page.wait_for_selector("#event-standings")
        # the page follows the event to its end on its own
        page.wait_for_selector("#event[data-status='finished']", timeout=240_000)
        page.wait_for_selector("#event-standings[data-final='1']")
        rows = page.locator("#event-standings tbody tr")
        assert rows.count() == 4
        scores = rows.evaluate_all("(els) => els.map((e) => Number(e.dataset.score))")
        assert abs(sum(scores)) < 1e-2, "duplicate scores of one deal and seat sum to zero"
        means = rows.evaluate_all("(els) => els.map((e) => Number(e.dataset.mean))")
        assert means == sorted(means, reverse=True)
        assert re.search(r"[−+]?\d+\.\d\d … [−+]?\d+\.\d\d", page.inner_text("#event-standings"))
        text = page.inner_text("#event")
        if lang == "en":
            assert not CJK.search(text), text
            assert "Final standings" in text and "95% interval" in text
        else:
            assert "最终排名" in text and "95% 区间" in text
        no_overflow(page)
        shoot(page, f"event-{size}-{lang}")
        page.set_viewport_size(SIZES[size])  # the screenshots leave it at the phone's
        # deal 1 at two tables side by side
        page.locator("#event-deals li[data-deal='0'] .ev-compare").first.click()
        page.wait_for_selector("#side-by-side .sbs-col")
        assert page.locator(".sbs-col").count() == 2
        assert page.inner_text("#sbs-step").startswith("第 0 步" if lang == "zh" else "Step 0")
        hands = page.locator(".sbs-hand").evaluate_all(CARDS)
        assert len(hands) == 2 and hands[0] == hands[1], "the same cards at both tables"
        page.click("#sbs-decision")
        page.wait_for_selector("#sbs-note")
        note = page.inner_text("#sbs-note")
        assert ("决定" in note) if lang == "zh" else ("decision" in note)
        moves = page.locator(".sbs-move.mine").count()
        assert moves >= 1, "the seat's own move is marked at a table"
        page.click("#sbs-last")
        page.wait_for_selector(".sbs-result")
        # another seat's view: its hand, the same at both tables
        page.click("#sbs-seats button[data-seat='2']")
        page.wait_for_function("document.querySelector('#sbs-step').innerText.match(/0/)")
        other = page.locator(".sbs-hand").evaluate_all(CARDS)
        assert other[0] == other[1] and other[0] != hands[0]
        if size == "desktop":
            tops = page.locator(".sbs-col").evaluate_all(
                "(els) => els.map((e) => Math.round(e.getBoundingClientRect().top))"
            )
            assert tops[0] == tops[1], "two columns side by side on a wide screen"
        if lang == "en":
            assert not CJK.search(page.inner_text("#side-by-side"))
        no_overflow(page)
        shoot(page, f"event-side-by-side-{size}-{lang}")
    finally:
        context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.mark.parametrize(
    ("size", "lang", "how"), [("phone", "zh", "end"), ("desktop", "en", "cancel")]
)
def test_a_club_owner_ends_or_cancels_a_running_event_from_its_page(
    browser: Any, server: WebServer, size: str, lang: str, how: str
) -> None:
    """An absent player is not waited for: the event's page offers its makers to end it
    now (standings final over the deals every table finished) or to call it off."""
    context, page, errors = _page(browser, server, size)
    try:
        enter(page, f"Stopper{size}")
        set_lang(page, lang)
        auth = {"Authorization": f"Bearer {token(page)}"}
        club = httpx.post(f"{server.base}/api/clubs", json={"name": f"Stop {size}"}, headers=auth)
        assert club.status_code == 201, club.text
        body = {
            "name": f"Stop {size}",
            "code": "1301",
            "deals": 2,
            "time_limit": 600,
            "club": club.json()["id"],
        }
        event = httpx.post(f"{server.base}/api/events", json=body, headers=auth).json()["id"]
        httpx.post(f"{server.base}/api/events/{event}/join", json={}, headers=auth)
        for level in ["hard", "normal", "easy"] * 2 + ["normal"]:
            httpx.post(
                f"{server.base}/api/events/{event}/entrants", json={"bot": level}, headers=auth
            )
        started = httpx.post(f"{server.base}/api/events/{event}/start", headers=auth)
        assert started.status_code == 200, started.text
        page.goto(f"{server.base}/#/event/{event}")
        page.wait_for_selector("#event[data-status='running']")
        movement = page.inner_text("#event-movement")
        assert ("2 桌 2 轮" in movement) if lang == "zh" else ("2 tables and 2 rounds" in movement)
        page.once("dialog", lambda dialog: dialog.accept())
        if how == "end":
            page.click("#event-end")
            page.wait_for_selector("#event[data-status='finished']")
            page.wait_for_selector("#event-ended-early")
            assert "每一桌都打完" in page.inner_text("#event-ended-early")
        else:
            page.click("#event-cancel")
            page.wait_for_selector("#event[data-status='cancelled']")
            assert "Cancelled" in page.inner_text("#event-cancelled")
            assert not CJK.search(page.inner_text("#event"))
        assert page.locator("#event-end, #event-cancel").count() == 0
        no_overflow(page)
    finally:
        context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"
