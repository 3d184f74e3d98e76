"""The lobby with several people: a second player joins an open seat from the room list,
a third watches (观战) without seeing anyone's cards; cards can be dragged onto a row."""

from __future__ import annotations

import re
from typing import Any

import httpx
from web_helpers import DESKTOP, PHONE, WebServer, enter, more_players, open_room, shoot, token


def test_join_from_the_lobby_and_spectate(page: Any, browser: Any, server: WebServer) -> None:
    """Player A opens a 3-seat 1301 room that waits for players; B sits in an open seat
    from the lobby's room list; only A (the owner) may start it, and bots take the seat
    still open; C watches and sees no card of anyone before the showdown."""
    enter(page, "甲")
    room = open_room(page, "1301", seats=3, bots=0, seat=0, fill_after="")
    page.wait_for_selector("#waiting")
    info = server.get(f"/api/rooms/{room}", token(page))
    assert info["status"] == "waiting" and info["options"]["fill_after"] is None
    with more_players(browser, page, 2) as (b, c):
        enter(b, "乙")
        b.click(f".room-row[data-room='{room}'] button.primary")
        b.wait_for_selector("#waiting .seat-list li.me[data-seat='1']")
        assert b.query_selector("#start-now") is None  # B is not the owner
        page.wait_for_selector("#waiting .seat-list li[data-seat='1']:has-text('乙')")
        page.click("#start-now")
        b.wait_for_selector(".hand-zone .card")
        assert b.get_attribute(".seat.me", "data-seat") == "1"
        page.wait_for_selector(".hand-zone .card")
        assert page.get_attribute(".seat.me", "data-seat") == "0"
        cards = ".hand-zone .card"
        mine_a = {el.get_attribute("data-card") for el in page.query_selector_all(cards)}
        mine_b = {el.get_attribute("data-card") for el in b.query_selector_all(cards)}
        assert len(mine_a) == len(mine_b) == 13 and not mine_a & mine_b
        assert server.get(f"/api/rooms/{room}", token(page))["players"][2] == "bot"
        enter(c, "丙")
        c.click(f".room-row[data-room='{room}'] a.button")
        c.wait_for_selector("#felt")
        assert c.is_visible("text=观战中")
        assert c.query_selector(".hand-zone") is None
        assert c.query_selector_all(".card") == []  # no card of anyone is on the screen


INSIDE = """(sel) => [...document.querySelectorAll(sel)].map((el) => {
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 1
    && r.right <= innerWidth + 1 && el.scrollWidth <= el.clientWidth + 1;
})"""


def test_invite_code_typed_in_the_lobby_and_the_invite_link(
    page: Any, browser: Any, server: WebServer
) -> None:
    """Player A opens a room that waits for players and reads its invite code (邀请码) off
    the screen; B types it (in small letters, with a dash) into the lobby's
    输入房间号/邀请码 field and is seated; a mistyped code says so in Chinese; C opens the
    invite link (#/room/ID) as a new player, signs in and takes the last seat. On a phone
    and on a desktop the code and the field are on the first screen, nothing spills."""
    enter(page, "开房的")
    room = open_room(page, "1301", seats=3, bots=0, seat=0, fill_after="")
    code = page.wait_for_selector("#waiting #invite-code").inner_text().strip()
    assert code == server.get(f"/api/rooms/{room}", token(page))["invite"]
    assert len(code) == 6 and code.isalpha() and code.isupper()
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        assert all(page.evaluate(INSIDE, "#invite-line, #invite-code")), size
    page.set_viewport_size(PHONE)
    shoot(page, "invite-code-room")
    with more_players(browser, page, 2) as (b, c):
        enter(b, "输码的")
        for size in (PHONE, DESKTOP):
            b.set_viewport_size(size)
            assert all(b.evaluate(INSIDE, "#join-code, #join-code-go")), size
        b.set_viewport_size(PHONE)
        assert b.get_attribute("#join-code", "placeholder") == "输入房间号/邀请码"
        b.fill("#join-code", "QQQQQQ" if code != "QQQQQQ" else "RRRRRR")
        b.click("#join-code-go")
        error = b.wait_for_selector("#join-code-error:not(:empty)")
        assert "没有这个邀请码的房间" in error.inner_text()
        shoot(b, "invite-code-lobby-unknown")
        b.fill("#join-code", f"{code[:3].lower()}-{code[3:].lower()}")
        b.click("#join-code-go")
        b.wait_for_url(f"**/#/room/{room}")
        b.wait_for_selector("#waiting .seat-list li.me[data-seat='1']")
        page.wait_for_selector("#waiting .seat-list li[data-seat='1']:has-text('输码的')")
        # the invite link, opened by someone who has never been here
        c.goto(f"{page.base}/#/room/{room}")
        c.fill("#name-input", "点链接的")
        c.click("#welcome-go")
        c.wait_for_selector("#waiting #invite-code")
        c.click("#waiting button.primary:has-text('入座')")
        c.wait_for_selector("#waiting .seat-list li.me[data-seat='2']")
        info = server.get(f"/api/rooms/{room}", token(page))
        assert info["players"] == ["开房的", "输码的", "点链接的"]
        # a room number typed in the same field opens the room too (here: one's own seat)
        b.goto(page.base + "/#/")
        b.fill("#join-code", str(room))
        b.click("#join-code-go")
        b.wait_for_selector("#waiting .seat-list li.me[data-seat='1']")


def test_drag_a_card_onto_a_row(page: Any, server: WebServer) -> None:
    """Cards can be dragged from the hand onto a row, and back to the hand (with a mouse,
    on a desktop screen; phones tap)."""
    page.set_viewport_size(DESKTOP)
    enter(page, "拖")
    open_room(page, "1301")
    page.wait_for_selector(".hand-zone .card")
    card = page.get_attribute(".hand-zone .card", "data-card")
    page.drag_and_drop(f".hand-zone .card[data-card='{card}']", ".row-zone[data-row='back']")
    page.wait_for_selector(f".row-zone[data-row='back'] .card[data-card='{card}']", timeout=5000)
    assert page.query_selector(f".hand-zone .card[data-card='{card}']") is None
    page.drag_and_drop(f".row-zone[data-row='back'] .card[data-card='{card}']", ".hand-zone")
    assert page.query_selector(f".hand-zone .card[data-card='{card}']")
    assert page.query_selector_all(".row-zone .card") == []
    # what comes during a drag (here: the language switched) is drawn once it ends, so the
    # card under the pointer stays where it is
    kept = page.evaluate(
        """async () => {
          const el = document.querySelector('.hand-zone .card');
          const drag = {bubbles: true, dataTransfer: new DataTransfer()};
          el.dispatchEvent(new DragEvent('dragstart', drag));
          const i18n = await import('/js/i18n.js');
          i18n.setLang('en');
          const english = () => document.getElementById('room').innerText.includes('Back');
          const during = el.isConnected && !english();
          el.dispatchEvent(new DragEvent('dragend', {bubbles: true}));
          return [during, english()];
        }"""
    )
    assert kept == [True, True], kept


def test_leave_mid_hand_and_back_to_the_seat(page: Any, server: WebServer) -> None:
    """Leaving a room in play asks first; then a bot plays the seat (托管) and the lobby
    offers 回到座位 for that room, not only 观战; tapping it gives the seat back while the
    hand is still on (三打哈: a long hand)."""
    enter(page, "走")
    room = open_room(page, "sandaha", hands=2)
    page.wait_for_selector(".seat.me")
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.click("#leave-room")
    assert page.url.endswith(f"#/room/{room}")  # dismissed: still at the table
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#leave-room")
    page.wait_for_selector("[data-create='1301']")
    info = server.get(f"/api/rooms/{room}", token(page))
    assert info["control"][0] == "tuoguan" and info["players"][0] == "走"
    back = page.wait_for_selector(f".room-row[data-room='{room}'] .back-to-seat")
    assert back.is_visible() and back.inner_text() == "回到座位"
    assert page.query_selector(f".room-row[data-room='{room}'] a.ghost") is None  # not 观战
    shoot(page, "lobby-back-to-seat")
    back.click()
    page.wait_for_selector(".seat.me[data-seat='0']")
    assert not page.is_visible("text=观战中")
    for _ in range(100):
        if server.get(f"/api/rooms/{room}", token(page))["control"][0] == "player":
            break
        page.wait_for_timeout(100)
    assert server.get(f"/api/rooms/{room}", token(page))["control"][0] == "player"


def test_a_busy_lobby_lists_a_few_rooms_and_keeps_mine_first(page: Any, server: WebServer) -> None:
    """A server with many waiting tables: the lobby lists one's own room first, then at
    most five tables with an open seat (the newest) before 更多房间, so that the games stay
    near the top on a phone; 更多房间 shows every open room."""
    others = httpx.post(f"{server.base}/api/players", json={"name": "开桌的"}, timeout=10)
    headers = {"Authorization": f"Bearer {others.json()['token']}"}
    made = []
    for _ in range(8):
        body = {"code": "1301", "seat": 0, "options": {"seats": 3, "fill_after": None}}
        answer = httpx.post(f"{server.base}/api/rooms", json=body, headers=headers, timeout=10)
        assert answer.status_code == 201, answer.text
        made.append(answer.json()["room"]["id"])
    enter(page, "看大厅")
    mine = open_room(page, "1301", seats=3, bots=0, seat=0, fill_after="")
    page.goto(page.base + "/")
    page.wait_for_selector(f".room-row[data-room='{mine}']")
    rows = page.eval_on_selector_all("#rooms .room-row", "els => els.map(e => +e.dataset.room)")
    assert rows[0] == mine  # where I sit comes first, with 回到座位
    assert page.query_selector(f".room-row[data-room='{mine}'] .back-to-seat")
    joinable = [r for r in rows[1:] if r in made]
    assert joinable == sorted(made, reverse=True)[:5]  # the newest five tables with a seat
    more = page.locator("#rooms-more")
    assert more.is_visible() and re.search(r"更多房间（还有 \d+ 个）", more.inner_text())
    more.click()
    shown = page.eval_on_selector_all("#rooms .room-row", "els => els.map(e => +e.dataset.room)")
    assert set(made) <= set(shown) and page.query_selector("#rooms-more") is None
