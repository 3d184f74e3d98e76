"""The console's chat reports, erasing a player and the reports' CSV in the browser: staff
read a player's report of a chat line with the reported seat's last lines, open the
reported player's file (the report is there), handle the report; erase a player (their
new anonymous name shows); make the daily report with clubs' activity and download its
CSV. In Chinese and in English, at 1280x800 and at 390x844.

The issue: "Players: ... reports against them, chat mutes; ... erase a player (their hands
stay in the records under an anonymous seat ...)"; "Reports: ... clubs' activity ...
CSV export"; "Console pages at 1280x800 (and readable at 390x844), zh and en, each flow
with a browser test".
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
from admin_pages import OVERFLOW, sign_in
from web_helpers import ARTIFACTS, DESKTOP, PHONE, WebServer

from paiju.server.admin.chat_reports import ChatReports
from paiju.server.store import Store


def _guest(server: WebServer, name: str) -> int:
    made = httpx.post(f"{server.base}/api/players", json={"name": name}, timeout=10).json()
    return int(made["id"])


def test_staff_handle_a_chat_report_erase_a_player_and_download_a_csv(
    browser: Any, server: WebServer, tmp_path: Path
) -> None:
    rude, kind, gone = (_guest(server, n) for n in ("Rude", "Kind", "Gone"))
    store = Store(str(server.db))  # as the table's 举报 keeps it (tested in tests/server)
    try:
        report = ChatReports(store).add(
            {
                "room": 1,
                "hand": None,
                "reporter": kind,
                "reported": rude,
                "seat": 0,
                "lines": [{"at": 1.0, "text": "快点出牌"}, {"at": 2.0, "text": "你这个笨蛋"}],
            }
        )
    finally:
        store.close()
    context = browser.new_context(viewport=DESKTOP, locale="zh-CN", accept_downloads=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("dialog", lambda dialog: dialog.accept())
    page.set_default_timeout(20_000)
    item = f"#chat-list li[data-report='{report}']"
    try:
        sign_in(page, server, "moda")
        page.click("[data-tab='chat']")
        page.wait_for_selector(f"{item} blockquote:has-text('快点出牌 | 你这个笨蛋')")
        assert "Rude" in page.inner_text(item) and "Kind" in page.inner_text(item)
        # the reported player's file lists the report
        page.click(f"{item} a[data-player='{rude}']")
        page.wait_for_selector("#file:not([hidden])")
        page.wait_for_selector("#file-reports li:has-text('你这个笨蛋')")
        assert "待处理" in page.inner_text("#file-reports")
        # handled with an outcome
        page.click("[data-tab='chat']")
        page.wait_for_selector("#chat-list[data-ready='1']")
        page.fill(f"{item} .outcome", "禁言24小时")
        page.click(f"{item} .handle")
        page.wait_for_selector(f"#flash:has-text('已处理举报 #{report}')")
        page.wait_for_selector("#chat-list li:has-text('没有待处理的举报')")
        page.check("#chat-all")
        page.wait_for_selector(f"{item}:has-text('禁言24小时')")
        assert page.evaluate(OVERFLOW) == []
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "admin-chat-reports-desktop.png"))
        # erase a player
        page.click("[data-tab='players']")
        page.fill("#search-q", str(gone))
        page.click("#search button")
        page.click(f"#found [data-player='{gone}']")
        page.wait_for_selector("#file-title:has-text('Gone')")
        page.fill("#erase-reason", "本人申请注销")
        assert page.inner_text("#erase-go") == "注销玩家"
        page.click("#erase-go")
        page.wait_for_selector(f"#file-title:has-text('已注销#{gone}')")
        assert f"现名 已注销#{gone}" in page.inner_text("#flash")
        # the daily report with clubs' activity, and its CSV
        page.click("[data-tab='reports']")
        page.fill("#daily-days", "3")
        page.click("#daily-form button[type='submit']")
        page.wait_for_selector("#report th:has-text('亲友圈局数')")
        with page.expect_download() as caught:
            page.click("#report-csv")
        saved = tmp_path / "daily.csv"
        caught.value.save_as(saved)
        lines = saved.read_text(encoding="utf-8-sig").splitlines()
        assert lines[0].startswith("day,active,new_players") and len(lines) == 4
        page.screenshot(path=str(ARTIFACTS / "admin-reports-desktop.png"))
        # in English, on a phone
        page.click("#lang")
        page.set_viewport_size(PHONE)
        page.click("#daily-form button[type='submit']")
        page.wait_for_selector("#report th:has-text('Club hands')")
        assert page.evaluate(OVERFLOW) == []
        page.click("[data-tab='chat']")
        page.wait_for_selector(f"{item}:has-text('handled')")
        assert page.inner_text("#chat-csv") == "Export CSV"
        assert page.evaluate(OVERFLOW) == []
        page.screenshot(path=str(ARTIFACTS / "admin-chat-reports-phone.png"), full_page=True)
    finally:
        context.close()
    assert not errors, errors
