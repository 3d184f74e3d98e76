"""防作弊 at the table as two people meet it: Ann (desktop, English) opens a room; Bo (phone,
Chinese) takes the other seat from the same address, and both are told before the first
deal that they share an IP address (同IP提醒). Each is asked, in the table (once another person
sits there), whether to share
their location; once both allow it (their browsers at two points 60 m apart), both read
that they sit about 60 m apart (GPS距离提醒, under the server's 200 m). The reminder is gone
once the first hand is dealt.

The issue: "before the first deal, players sharing an address are told so (同IP提醒), and,
for players who allow the browser's location, those closer than a distance the operator
sets (GPS距离提醒, 200 m by default) ... Location is asked for only with the player's
consent".
"""

from __future__ import annotations

import re
from typing import Any

from web_helpers import DESKTOP, PHONE, WebServer, enter, open_room, shoot

HOME = {"latitude": 39.9087, "longitude": 116.3975}
NEAR = {"latitude": 39.9087 + 60 / 111_195.0, "longitude": 116.3975}  # 60 m north
WIDE = """() => {
  const root = document.documentElement, width = root.clientWidth, wide = [];
  for (const el of document.querySelectorAll('#nearby, #nearby *')) {
    const box = el.getBoundingClientRect();
    if (box.width && (box.right > width + 0.5 || box.left < -0.5))
      wide.push(el.id || el.className || el.tagName);
  }
  return wide;
}"""


def _person(
    browser: Any, server: WebServer, viewport: dict[str, int], where: dict[str, float]
) -> Any:
    context = browser.new_context(viewport=viewport, geolocation=where, permissions=["geolocation"])
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.base = server.base
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    return page


def test_two_players_from_one_address_are_reminded_and_told_their_distance(
    browser: Any, server: WebServer
) -> None:
    ann = _person(browser, server, DESKTOP, HOME)
    bo = _person(browser, server, PHONE, NEAR)
    try:
        enter(ann, "Ann")
        ann.click("#lang-switch")
        ann.wait_for_function(
            "document.querySelector(\"[data-create='1301']\")?.textContent === 'New room'"
        )
        room = open_room(ann, "1301", seats=2, bots=0, fill_after="")
        # alone at the table: nothing to remind of, nothing asked
        ann.wait_for_selector("#waiting")
        assert ann.query_selector("#nearby") is None
        enter(bo, "Bo")
        bo.goto(f"{bo.base}/#/room/{room}")
        bo.click("#waiting button.primary")  # 入座
        # (seated once its socket is back: until then Bo watches, and reads Bo's name)
        same = bo.wait_for_selector("#nearby-pairs li[data-same='true']:has-text('你')")
        assert same.inner_text() == "Ann 与 你 的IP相同"
        assert "防作弊提醒" in bo.inner_text("#nearby")
        line = ann.wait_for_selector("#nearby-pairs li[data-same='true']")
        assert line.inner_text().lower() == "you and bo share an ip address"
        # asked, in the table, once another person sits there; nothing is sent before
        ask = ann.wait_for_selector("#nearby-ask")
        assert "Share your location" in ask.inner_text() and "200 m" in ask.inner_text()
        assert "开启位置" in bo.inner_text("#nearby-ask")
        shoot(bo, "nearby-same-ip")
        assert bo.evaluate(WIDE) == []
        # both allow their location: the distance, never the points, comes back
        ann.click("#nearby-allow")
        ann.wait_for_selector("#nearby-on")
        bo.click("#nearby-allow")
        bo.wait_for_selector("#nearby-pairs li:has-text('相距约 60 米')")
        assert bo.inner_text("#nearby-pairs li") == "Ann 与 你 IP相同，相距约 60 米"
        ann.wait_for_selector("#nearby-pairs li:has-text('about 60 m apart')")
        assert ann.query_selector("#nearby-ask") is None
        shoot(ann, "nearby-distance")
        for page, size in ((ann, DESKTOP), (bo, PHONE)):
            page.set_viewport_size(size)
            assert page.evaluate(WIDE) == []
        # the first deal: the reminder has done its work
        bo.click("#ready")
        bo.wait_for_selector("#felt .seat.me", timeout=30_000)
        assert bo.query_selector("#nearby") is None
    finally:
        ann.context.close()
        bo.context.close()
    assert not ann.errors and not bo.errors, (ann.errors, bo.errors)


def test_a_room_that_refuses_near_seats_tells_the_player_why(
    browser: Any, server: WebServer
) -> None:
    """ "a room option can refuse such seats": the option is ticked in the room form, and
    the second player from the same address is told why the seat is refused."""
    ann = _person(browser, server, PHONE, HOME)
    bo = _person(browser, server, DESKTOP, NEAR)
    try:
        enter(ann, "Ann")
        ann.click("[data-create='1301']")
        label = ann.wait_for_selector("#create-room label:has(input[name=refuse_nearby])")
        assert label.inner_text() == "禁止同IP或距离过近的玩家入座"
        ann.fill("#create-room input[name=seats]", "2")
        ann.fill("#create-room input[name=bots]", "0")
        ann.fill("#create-room input[name=fill_after]", "")
        ann.check("#create-room input[name=refuse_nearby]")
        ann.click("#create-submit")
        ann.wait_for_url(re.compile(r"#/room/\d+$"))
        room = int(ann.url.rsplit("/", 1)[1])
        ann.wait_for_selector("#waiting")
        enter(bo, "Bo")
        bo.click("#lang-switch")
        bo.wait_for_function(
            "document.querySelector(\"[data-create='1301']\")?.textContent === 'New room'"
        )
        bo.goto(f"{bo.base}/#/room/{room}")
        bo.click("#waiting button.primary")  # Take a seat
        refused = bo.wait_for_selector("#join-refused")
        assert "you share an address with seat 1" in refused.inner_text()
        assert bo.evaluate(WIDE) == []
        info = server.get(f"/api/rooms/{room}", ann.evaluate("localStorage.getItem('paiju.token')"))
        assert info["players"][1] is None and info["options"]["refuse_nearby"] is True
    finally:
        ann.context.close()
        bo.context.close()
    assert not ann.errors and not bo.errors, (ann.errors, bo.errors)
