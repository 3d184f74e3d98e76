"""The operator's console in the browser (docs/operations.md): a staff member made with
``paiju admin staff add`` signs in at /admin with a password and a TOTP code (computed
here with pyotp, as an authenticator app would), finds a player and bans them: the
player's token stops working at once and the audit trail shows the ban. The page reads in
Chinese and in English, at 1280x800 and at 390x844.

The issue: "Sign-in to the console needs a second factor (TOTP, with pyotp ...)";
"Console pages at 1280x800 (and readable at 390x844), zh and en, each flow with a
browser test".
"""

from __future__ import annotations

import subprocess
from typing import Any

import httpx
import pyotp
from admin_pages import ADMIN, OVERFLOW, PASSWORD, add_staff, sign_in
from web_helpers import ARTIFACTS, DESKTOP, PHONE, WebServer, enter


def test_staff_sign_in_with_totp_and_ban_a_player(browser: Any, server: WebServer) -> None:
    made = add_staff(server, "mei")
    assert made["otpauth_uri"].startswith("otpauth://totp/") and len(made["recovery_codes"]) == 10
    player = httpx.post(f"{server.base}/api/players", json={"name": "Rowdy"}, timeout=10).json()
    context = browser.new_context(viewport=DESKTOP, locale="zh-CN")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(20_000)
    try:
        page.goto(f"{server.base}/admin")
        assert page.inner_text("#si-go") == "登录"
        page.fill("#si-name", "mei")
        page.fill("#si-password", PASSWORD)
        page.fill(
            "#si-code", "000000" if pyotp.TOTP(made["totp_secret"]).now() != "000000" else "1"
        )
        page.click("#si-go")
        page.wait_for_selector("#si-error:has-text('验证码不对')")
        page.fill("#si-password", PASSWORD)
        page.fill("#si-code", pyotp.TOTP(made["totp_secret"]).now())
        page.click("#si-go")
        page.wait_for_selector("#console:not([hidden])")
        page.wait_for_selector("#sign-in", state="hidden")
        assert page.inner_text("#who").startswith("mei")
        page.wait_for_selector("#live-online:not(:has-text('-'))")
        assert page.evaluate(OVERFLOW) == []
        # find the player and ban them
        page.click("[data-tab='players']")
        page.fill("#search-q", str(player["id"]))
        page.click("#search button")
        page.click(f"[data-player='{player['id']}']")
        page.wait_for_selector("#file:not([hidden])")
        page.fill("#ban-days", "3")
        page.fill("#ban-reason", "abuse in chat")
        assert page.inner_text("#ban-go") == "封禁"
        page.click("#ban-go")
        page.wait_for_selector("#file-ban:has-text('abuse in chat')")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "admin-console-desktop.png"))
        assert "已封禁 Rowdy" in page.inner_text("#flash")
        me = httpx.get(
            f"{server.base}/api/players/me",
            headers={"Authorization": f"Bearer {player['token']}"},
            timeout=10,
        )
        assert me.status_code == 401
        # the same screens in English, and on a phone
        page.click("#lang")
        assert page.inner_text("#ban-go") == "Ban"
        page.wait_for_selector("#file-trail li:has-text('staff:mei ban: abuse in chat')")
        page.set_viewport_size(PHONE)
        assert page.evaluate(OVERFLOW) == []
        page.click("[data-tab='trail']")
        page.wait_for_selector("#trail-state:has-text('Trail intact')")
        assert "staff:mei" in page.inner_text("#trail")
        assert page.evaluate(OVERFLOW) == []
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "admin-console-phone.png"))
    finally:
        context.close()
    assert not errors, errors


def test_the_lobby_shows_the_operators_banner_and_marquee(browser: Any, server: WebServer) -> None:
    for kind, zh, en in (
        ("banner", "今晚23点维护", "Maintenance at 23:00"),
        ("marquee", "新年活动开始了", "New year event"),
    ):
        subprocess.run(
            [
                *ADMIN,
                "announce",
                zh,
                "--en",
                en,
                "--kind",
                kind,
                "--until",
                "2099-01-01",
                "--db",
                str(server.db),
            ],
            check=True,
            capture_output=True,
            timeout=60,
        )
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.base = server.base
    try:
        enter(page, "Reader")
        page.wait_for_selector(".news-banner:has-text('今晚23点维护')")
        page.wait_for_selector(".news-marquee:has-text('新年活动开始了')")
        # the marquee's text scrolls inside its clipped box: the page itself stays as wide
        wide = "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        assert page.evaluate(wide) <= 0
    finally:
        context.close()


def test_the_live_tab_shows_each_nodes_figures_and_refreshes_itself(
    browser: Any, server: WebServer
) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(20_000)
    try:
        sign_in(page, server, "lan")
        row = "#live-nodes tr[data-node='single']"
        page.wait_for_selector(f"{row} td:has-text('single server')")
        cells = page.locator(f"{row} td")
        assert [page.inner_text(f"#live-nodes th:nth-child({i})") for i in (1, 5)] == [
            "Node",
            "Errors a minute",
        ]
        rooms_before = int(cells.nth(2).inner_text())
        assert page.inner_text("#live-epm") == cells.nth(4).inner_text()
        # a room opens meanwhile: the page shows it at its next refresh, unasked
        player = httpx.post(f"{server.base}/api/players", json={"name": "Lin"}, timeout=10).json()
        body = {"code": "2001", "options": {"seats": 2, "fill_after": None}, "seat": 0}
        opened = httpx.post(
            f"{server.base}/api/rooms",
            json=body,
            headers={"Authorization": f"Bearer {player['token']}"},
            timeout=10,
        )
        assert opened.status_code == 201, opened.text
        page.wait_for_function(
            "n => document.querySelector(\"#live-nodes tr[data-node='single'] td:nth-child(3)\")"
            ".textContent === String(n)",
            arg=rooms_before + 1,
        )
        assert page.evaluate(OVERFLOW) == []
        page.click("#lang")
        page.wait_for_selector(f"{row} td:has-text('单机')")
        assert page.inner_text("#live-nodes th:nth-child(5)") == "每分钟错误"
        assert "每分钟错误" in page.inner_text(".figures")
        page.set_viewport_size(PHONE)
        assert page.evaluate(OVERFLOW) == []
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "admin-live-nodes-phone.png"))
    finally:
        context.close()
    assert not errors, errors
