"""Play goes the way Chinese players read a table: the seat after mine (下家) is drawn on my
right, the seat before (上家) on my left, the 对家 straight across at the top, so play runs
counter-clockwise on screen. One rule for every family's table (甲乙丙, 放羊, 打弹子, 三打哈
and 麻将), seen by a player, by a spectator and in the replay; read off the screen from
the seats' boxes at 390x844 and 1280x800, in Chinese and in English.

Every engine passes the turn from seat ``s`` to seat ``s + 1``, so the 下家 of seat ``s``
is ``s + 1`` and its 上家 ``s - 1`` (mod the number of seats)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

import pytest
from web_helpers import DESKTOP, PHONE, WebServer, enter, fast_bots, more_players, open_room

FAMILIES = [
    ("anshan-jiayibing", 6),
    ("anshan-fangyang", 4),
    ("ningcheng-danzi", 4),
    ("sandaha", 4),
    ("anshan-majiang", 4),
]

SEATS = """(felt) => {
  const box = document.querySelector(felt).getBoundingClientRect();
  const seats = [...document.querySelectorAll(`${felt} > .seat`)].map((e) => {
    const r = e.getBoundingClientRect();
    return {seat: Number(e.dataset.seat), x: r.left + r.width / 2, y: r.top + r.height / 2,
            w: r.width, h: r.height, me: e.classList.contains('me'), text: e.innerText};
  });
  return {x: box.left + box.width / 2, y: box.top + box.height / 2,
          w: box.width, h: box.height, seats};
}"""


def angle(felt: dict[str, Any], seat: dict[str, Any]) -> float:
    """Where a seat sits seen from the felt's middle, in degrees counter-clockwise from the
    right (screen y points down): the bottom is -90, the top 90, the left 180."""
    return math.degrees(math.atan2(felt["y"] - seat["y"], seat["x"] - felt["x"]))


def check_round(page: Any, felt_selector: str, base: int, n: int, where: str) -> None:
    """The seats of the felt go round counter-clockwise from ``base`` at the bottom."""
    felt = page.evaluate(SEATS, felt_selector)
    seats = {s["seat"]: s for s in felt["seats"]}
    assert sorted(seats) == list(range(n)), (where, felt)
    for s in seats.values():
        assert s["w"] > 0 and s["h"] > 0, (where, s)
    by_k = [seats[(base + k) % n] for k in range(n)]
    where += " " + " ".join(f"{s['seat']}@({s['x']:.0f},{s['y']:.0f})" for s in by_k)
    me, xia, shang = by_k[0], by_k[1], by_k[-1]
    assert me["y"] > max(s["y"] for s in by_k[1:]), f"{where}: my seat is not at the bottom"
    assert abs(me["x"] - felt["x"]) < felt["w"] * 0.15, f"{where}: my seat is off centre"
    assert xia["x"] > felt["x"] + felt["w"] * 0.1, f"{where}: the 下家 is not on my right"
    assert shang["x"] < felt["x"] - felt["w"] * 0.1, f"{where}: the 上家 is not on my left"
    if n % 2 == 0:
        dui = by_k[n // 2]
        assert dui["y"] < min(s["y"] for k, s in enumerate(by_k) if k != n // 2), (
            f"{where}: the 对家 is not at the top"
        )
        assert abs(dui["x"] - felt["x"]) < felt["w"] * 0.15, f"{where}: the 对家 is off centre"
    # counter-clockwise from my seat: each next seat a larger turn from mine
    turns = [(angle(felt, s) - angle(felt, me)) % 360 for s in by_k]
    assert turns == sorted(turns) and len(set(turns)) == n, (
        f"{where}: the seats do not go round counter-clockwise: {turns}"
    )


def switch_language(page: Any, to: str) -> None:
    if page.evaluate("document.documentElement.lang") != to:
        page.click("#lang-switch")
    page.wait_for_function(f"document.documentElement.lang === '{to}'")


def at_every_size_and_language(
    page: Any,
    felt: str,
    base: int,
    n: int,
    where: str,
    words: dict[str, str],
    prepare: Callable[[], None] | None = None,
) -> None:
    """Measure the round at both sizes in both languages; ``words`` is a text of the page
    in each language (proof that the page is drawn in it); ``prepare`` is what the viewer
    does after the language changed (the replay's page is drawn anew: pick the chair)."""
    for size, size_name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page.set_viewport_size(size)
        for language in ("zh", "en"):
            switch_language(page, language)
            page.wait_for_function(
                "([sel, w]) => document.querySelector(sel) && document.body.innerText.includes(w)",
                arg=[felt, words[language]],
            )
            if prepare is not None:
                prepare()
            check_round(page, felt, base, n, f"{where} {size_name} {language}")
    switch_language(page, "zh")
    page.set_viewport_size(PHONE)


@pytest.mark.parametrize(("code", "n"), FAMILIES)
def test_the_seat_after_mine_is_on_my_right(
    page: Any, browser: Any, server: WebServer, code: str, n: int
) -> None:
    """As a player at seat 2 (not the first: the rule counts from my own seat) and as a
    spectator (seat 1 at the bottom)."""
    enter(page, f"Round {code[:10]}")
    fast_bots(page, 0.2)
    mine = 1
    room = open_room(
        page, code, seats=n, bots=n - 2, seat=mine, time_limit=0, hands=1, fill_after="0"
    )
    page.wait_for_selector(f"#felt > .seat[data-seat='{n - 1}']", timeout=30_000)
    assert page.get_attribute("#felt > .seat.me", "data-seat") == str(mine)
    words = {"zh": "离开房间", "en": "Leave"}
    at_every_size_and_language(page, "#felt", mine, n, f"{code} player", words)

    with more_players(browser, page, 1) as (watcher,):
        enter(watcher, "Watcher")
        watcher.goto(f"{server.base}/#/room/{room}")
        watcher.wait_for_selector(f"#felt > .seat[data-seat='{n - 1}']", timeout=30_000)
        assert watcher.query_selector("#felt > .seat.me") is None
        assert re.search("观战|Watching", watcher.inner_text(".room-head"))
        words = {"zh": "观战", "en": "atch"}
        at_every_size_and_language(watcher, "#felt", 0, n, f"{code} spectator", words)


@pytest.mark.parametrize(("code", "n"), FAMILIES)
def test_the_replay_goes_round_the_same_way(
    page: Any, server: WebServer, code: str, n: int
) -> None:
    """A hand of bots only, replayed as a spectator and from seat 3's chair."""
    enter(page, f"Replay {code[:10]}")
    made = page.evaluate(
        """([code, n]) => fetch('/api/rooms', {method: 'POST', headers: {'Content-Type':
        'application/json', Authorization: `Bearer ${localStorage.getItem('paiju.token')}`},
        body: JSON.stringify({code, seat: null, options: {seats: n, bots: n, hands: 1,
        bot_delay: 0, time_limit: 0, claim_window: 0.05}})}).then((r) => r.json())""",
        [code, n],
    )
    # 麻将's claim windows stay open their whole length whatever the bots decide: at the
    # default 3 s a hand of bots takes two minutes
    room = made["room"]["id"]
    game = None
    for _ in range(600):
        # the room's own games: the newest 100 of the whole server may all be other rooms'
        # (the shared server's bot rooms finish many short hands while a 麻将 hand is played)
        games = [g for g in server.get(f"/api/games?room={room}") if g.get("room") == room]
        if games:
            game = games[0]["id"]
            break
        page.wait_for_timeout(200)
    assert game is not None, f"the bots' hand of {code} did not finish"
    page.goto(f"{server.base}/#/replay/{game}")
    page.wait_for_selector(f"#replay-felt > .seat[data-seat='{n - 1}']")
    words = {"zh": "回放", "en": "eplay"}
    at_every_size_and_language(page, "#replay-felt", 0, n, f"{code} replay spectator", words)

    def from_seat_3() -> None:
        page.click("[data-viewer='2']")
        page.wait_for_selector("#replay-felt > .seat.me[data-seat='2']")

    where = f"{code} replay seat 3"
    at_every_size_and_language(page, "#replay-felt", 2, n, where, words, from_seat_3)
