"""最近的牌友 as two people use it: A (desktop, English) and B (phone, Chinese) share a
table; A opens a new room that waits for players, finds B under Recent players and taps
Invite; B's lobby shows the invitation and one tap of 加入 seats B in A's room. The list
names only players A sat with; a spectator's page has no list."""

from __future__ import annotations

import re
import time
from typing import Any

from web_helpers import DESKTOP, WebServer, enter, more_players, open_room, token

MAKE = """async () => {
  const auth = 'Bearer ' + localStorage.getItem('paiju.token');
  const answer = await fetch('/api/rooms', {method: 'POST', headers: {
    'Content-Type': 'application/json', Authorization: auth},
    body: JSON.stringify({code: '2001', seat: 0, options: {seats: 2, bots: 0, hands: 1,
      time_limit: 0.5, tuoguan: 'timeout', tuoguan_after: 1, pause: 0, fill_after: null,
      ready_check: false}})});
  return (await answer.json()).room.id;
}"""
JOIN = """async (room) => (await fetch(`/api/rooms/${room}/join`, {method: 'POST', headers: {
  'Content-Type': 'application/json',
  Authorization: 'Bearer ' + localStorage.getItem('paiju.token')}, body: '{}'})).status"""


def test_invite_a_recent_player_with_one_tap(browser: Any, page: Any, server: WebServer) -> None:
    page.set_viewport_size(DESKTOP)
    enter(page, "牌友A")
    with more_players(browser, page, 2) as (b, stranger):
        enter(b, "牌友B")
        enter(stranger, "路人")
        shared = page.evaluate(MAKE)
        assert b.evaluate(JOIN, shared) == 200
        for _ in range(200):  # both seats time out to 托管: the hand settles by itself
            if server.get(f"/api/games?room={shared}"):
                break
            time.sleep(0.3)
        else:
            raise AssertionError("the shared hand did not end")
        page.goto(page.base + "/#/")
        page.click("#lang-switch")
        page.wait_for_function(
            "document.querySelector(\"[data-create='1301']\")?.textContent === 'New room'"
        )
        room = open_room(page, "1301", seats=3, bots=0, fill_after="")
        row = page.wait_for_selector("#mates li[data-player]")
        names = page.eval_on_selector_all("#mates .mate-name", "els => els.map(e => e.innerText)")
        assert names == ["牌友B"]  # not the stranger, not oneself
        assert "Recent players" in page.inner_text("#mates h3")
        button = row.query_selector("[data-invite-player]")
        assert button.inner_text() == "Invite"
        button.click()
        page.wait_for_selector("#mates [data-invite-player][disabled]")
        assert page.inner_text("#mates [data-invite-player]") == "Invited"
        # B's lobby: the invitation, in Chinese, and one tap to the seat
        b.goto(b.base + "/#/")
        card = b.wait_for_selector(f"#invites .invite-card[data-room='{room}']", timeout=15_000)
        assert "牌友A 邀请你玩" in card.inner_text()
        assert stranger.query_selector("#invites .invite-card") is None
        b.click(f"#invites .invite-card[data-room='{room}'] [data-accept-invite]")
        b.wait_for_url(re.compile(rf"#/room/{room}$"))
        info = server.get(f"/api/rooms/{room}", token(b))
        assert "牌友B" in info["players"]
        b.wait_for_selector("#waiting")
        assert server.get("/api/players/me/invites", token(b))["invites"] == []
