"""复盘 of 宝子 and 佳佳宝 on a phone (390x844), in Chinese and English: each bet shows its
exact odds (win, push, loss) and the expectation per unit bet, each grouping the chances
counted over every hand the banker may hold, and both expectations (the move played, the
best).

The issue: "for 宝子 the bet against the exact odds", "for 十三张 and 佳佳宝 the best
arrangement or grouping and its exact expected value" (十三张's is in
test_review_ratings.py, played by taps). A finished hand of each is played on the server
by the test's player's seat (not the banker's) timing out (托管 plays it); the review the
page shows is that hand's own, made by ``review_record`` with the seat's moves counted as
the player's (a seat played by 托管 has no decision of its player to review).
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

import httpx
import pytest
from web_helpers import ARTIFACTS, PHONE, WebServer

from paiju.review import review_record

CJK = re.compile(r"[\u3400-\u9fff]")
PLAYER = "Ping"


def _finished(server: WebServer, token: str, code: str) -> dict[str, Any]:
    """The record of a finished hand where the player (seat 0) is not the banker: the
    room's second hand, the banker having passed to seat 1 (``banker_rotation``)."""
    headers = {"Authorization": f"Bearer {token}"}
    options = {"seats": 2, "bots": 1, "time_limit": 1, "hands": 2, "bot_delay": 0}
    body = {"code": code, "seat": 0, "options": options}
    answer = httpx.post(f"{server.base}/api/rooms", json=body, headers=headers, timeout=10)
    assert answer.status_code == 201, answer.text
    room = answer.json()["room"]["id"]
    for _ in range(600):
        for game in server.get(f"/api/games?room={room}"):
            record: dict[str, Any] = server.get(f"/api/games/{game['id']}")
            if (record.get("context") or {}).get("banker", 0) != 0:
                return record
        time.sleep(0.3)
    raise AssertionError(f"room {room} of {code} never finished its second hand")


@pytest.fixture(scope="module")
def hands(server: WebServer) -> dict[str, Any]:
    made = httpx.post(f"{server.base}/api/players", json={"name": PLAYER}, timeout=10).json()
    token = made["token"]
    out: dict[str, Any] = {"token": token}
    for code in ("2003", "2101"):
        record = _finished(server, token, code)
        for item in record["actions"]:
            item["actor"] = "player"
        out[code] = {"game": record["id"], "seat": 0, "review": review_record(record, 0)}
    return out


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("code", ["2003", "2101"])
def test_bets_and_groupings_show_their_exact_values(
    browser: Any, server: WebServer, hands: dict[str, Any], code: str, lang: str
) -> None:
    hand = hands[code]
    review = hand["review"]
    assert review["decisions"], review
    context = browser.new_context(viewport=PHONE)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.set_default_timeout(30_000)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{server.base}/")
        page.evaluate(
            f"localStorage.setItem('paiju.lang', '{lang}');"
            f"localStorage.setItem('paiju.token', '{hands['token']}')"
        )
        page.route(
            f"**/api/games/{hand['game']}/review?seat={hand['seat']}",
            lambda route: route.fulfill(
                status=200, content_type="application/json", body=json.dumps(review)
            ),
        )
        page.goto(f"{server.base}/#/replay/{hand['game']}")
        page.wait_for_selector("#action-log li")
        page.click("#review-open")
        page.wait_for_selector("#review-summary")
        lines = page.eval_on_selector_all(
            "#review .rv-line",
            "els => els.map(e => [Number(e.dataset.index),"
            " (e.querySelector('.rv-valued') || {}).innerText || ''])",
        )
        by_index = {d["index"]: d for d in review["decisions"]}
        assert sorted(i for i, _ in lines) == sorted(by_index)
        for index, valued in lines:
            d = by_index[index]
            assert d["method"] == "exact" and valued, (d, valued)
            odds = d.get("facts", {}).get("odds")
            if odds is not None:  # a bet: the exact odds of the game
                win = odds["win"].split("/")
                w = f"{100 * int(win[0]) / int(win[1]):.1f}%"
                assert (f"胜 {w}" if lang == "zh" else f"win {w}") in valued, valued
                assert ("精确胜率" if lang == "zh" else "Exact odds") in valued, valued
            else:  # a grouping: every hand the banker may hold, 36 cards choose 4
                assert "58,905" in valued, valued
            best = d["value_best"]
            shown = "0" if round(best, 1) == 0 else f"{'−' if best < 0 else '+'}{abs(best):.1f}"
            assert (f"最佳 {shown} 分" if lang == "zh" else f"best {shown} points") in valued
        if lang == "en":
            assert not CJK.search(page.inner_text("#review")), page.inner_text("#review")
        wide = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert wide <= 0, f"the page is {wide}px wider than the phone"
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.locator("#review").screenshot(path=str(ARTIFACTS / f"review-{code}-{lang}.png"))
        assert not errors, errors
    finally:
        context.close()
