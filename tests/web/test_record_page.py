"""战绩 on the 积分 page, as a player reads it at 390x844 and 1280x800 in Chinese and
English, after two rooms (three hands of 宝子 2001 and two of 十三张 1301, the seat played
by 托管 once its first decision timed out): per game the hands, win rate, best hand and
total equal the ledger; one record per room, newest first, with its date, players, the
总结算 (every seat's total equal to the public records' settlements times the stake), the
大赢家 crowned, and its hands under it, each linking to its replay."""

from __future__ import annotations

import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from web_helpers import DESKTOP, PHONE, WebServer, enter, token

SHOTS = Path("/work/shots/helpers")

MAKE = """async ([code, hands, stake]) => {
  const auth = 'Bearer ' + localStorage.getItem('paiju.token');
  const answer = await fetch('/api/rooms', {method: 'POST', headers: {
    'Content-Type': 'application/json', Authorization: auth},
    body: JSON.stringify({code, seat: 0, options: {seats: 3, bots: 2, stake, hands, time_limit: 0.5,
      tuoguan: 'timeout', tuoguan_after: 1, pause: 0, bot_delay: 0.5, reconnect_grace: 60}})});
  return (await answer.json()).room.id;
}"""


def finished(server: WebServer, page: Any, room: int, hands: int) -> list[dict[str, Any]]:
    for _ in range(300):
        games = server.get(f"/api/games?room={room}")
        if len(games) >= hands:
            return list(reversed(games))
        time.sleep(0.3)
    raise AssertionError(f"room {room} did not finish")


@pytest.fixture(scope="module")
def played(browser: Any, server: WebServer) -> dict[str, Any]:
    """A player with two finished rooms; their records from the public API."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.base = server.base
    enter(page, "战绩")
    rooms = {}
    for code, hands, stake in (("2001", 3, 2), ("1301", 2, 1)):
        room = page.evaluate(MAKE, [code, hands, stake])
        page.goto(f"{server.base}/#/room/{room}")  # sit at it: the first timeout makes 托管
        page.wait_for_selector("#felt .seat.me")
        rooms[code] = (room, finished(server, page, room, hands), stake)
    storage = context.storage_state()
    tok = token(page)
    context.close()
    return {"rooms": rooms, "storage": storage, "token": tok}


@pytest.mark.parametrize(("size", "lang"), [("phone", "zh"), ("desktop", "en")])
def test_the_record_page_groups_hands_by_room_with_totals_and_stats(
    browser: Any, server: WebServer, played: dict[str, Any], size: str, lang: str
) -> None:
    context = browser.new_context(
        viewport=PHONE if size == "phone" else DESKTOP, storage_state=played["storage"]
    )
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{server.base}/#/")
        page.wait_for_selector("#finder")
        if lang == "en":
            page.click("#lang-switch")
            page.wait_for_function("document.querySelector('#nav-ledger').textContent === 'Ledger'")
        page.click("#nav-ledger")
        page.wait_for_selector("#record .rec-room")
        ledger = server.get("/api/players/me/ledger", played["token"])["entries"]
        # one record per room, newest first
        order = page.eval_on_selector_all(
            "#record .rec-room", "els => els.map(e => Number(e.dataset.room))"
        )
        assert order == [played["rooms"]["1301"][0], played["rooms"]["2001"][0]]
        for room, games, stake in played["rooms"].values():
            box = f"#record .rec-room[data-room='{room}']"
            if page.get_attribute(box, "open") is None:
                page.click(f"{box} > summary")
            mine = [e for e in ledger if e["room"] == room]
            assert int(page.get_attribute(box, "data-total")) == sum(e["delta"] for e in mine)
            totals: dict[int, int] = defaultdict(int)
            for g in games:
                for seat, x in enumerate(g["settlement"]):
                    totals[seat] += x * stake
            shown = dict(
                page.eval_on_selector_all(
                    f"{box} .rec-totals li",
                    "els => els.map(e => [Number(e.dataset.seat), Number(e.dataset.total)])",
                )
            )
            assert shown == dict(totals)
            top = max(totals.values())
            crowned = page.eval_on_selector_all(
                f"{box} .rec-totals li.winner", "els => els.map(e => Number(e.dataset.seat))"
            )
            assert crowned == ([s for s, x in totals.items() if x == top] if top > 0 else [])
            hands = page.eval_on_selector_all(
                f"{box} .rec-hands tbody tr", "els => els.map(e => Number(e.dataset.game))"
            )
            assert hands == [g["id"] for g in games]  # the room's hands, under it, in order
            links = page.eval_on_selector_all(
                f"{box} .rec-replay", "els => els.map(e => e.getAttribute('href'))"
            )
            assert links == [f"#/replay/{g['id']}" for g in games]
        # per game: hands, wins, best, total from the ledger
        for code in ("2001", "1301"):
            rows = [e for e in ledger if e["code"] == code]
            row = f"#rec-stats tr[data-code='{code}']"
            assert int(page.get_attribute(row, "data-hands")) == len(rows)
            assert int(page.get_attribute(row, "data-wins")) == sum(e["delta"] > 0 for e in rows)
            assert int(page.get_attribute(row, "data-total")) == sum(e["delta"] for e in rows)
            assert int(page.get_attribute(row, "data-best")) == max(e["delta"] for e in rows)
            # in words: the game by its title, the hands in the UI's language, on one line
            wins = sum(e["delta"] > 0 for e in rows)
            played = page.inner_text(f"{row} .rec-played")
            hands = f"{len(rows)} 局" if lang == "zh" else f"{len(rows)} hands"
            assert played == (f"{hands} · 胜 {wins}" if lang == "zh" else f"{hands} · won {wins}")
            lines = page.eval_on_selector(
                f"{row} .rec-played",
                "e => new Set([...e.querySelectorAll('.rec-part')]"
                ".map((p) => Math.round(p.getBoundingClientRect().top))).size",
            )
            assert lines == 1, played
            cell = page.inner_text(f"{row} td >> nth=0")
            assert cell.startswith(code) and cell.count(code) == 1, cell
        counts = page.eval_on_selector_all(
            "#record .rec-room > summary", "els => els.map(e => e.innerText)"
        )
        for text, n in zip(counts, (2, 3), strict=True):  # 1301's two hands, then 2001's three
            assert (f"{n} 局" if lang == "zh" else f"{n} hands") in text, text
        word = {"zh": "大赢家", "en": "Top winner"}[lang]
        if page.query_selector("#record .rec-totals li.winner"):
            assert word in page.inner_text("#record")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= page.viewport_size["width"] + 1  # nothing wider than the screen
        page.screenshot(path=str(SHOTS / f"record-{size}-{lang}.png"), full_page=True)
        first = page.query_selector("#record .rec-replay")
        first.click()
        page.wait_for_url("**/#/replay/*")
    finally:
        context.close()
    assert not errors, errors
