"""The operator's console lists the duplicate events (复式赛) and makes one for staff
(docs/events.md: "An event (made by staff or a club admin): a game, a number of deals,
the entrants, the time per move"), at 1280x800 in Chinese and in English: the form's
game, deals and seconds a move become the event the server keeps, listed at once with
its status, and opened to entrants on the players' event page."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from admin_pages import OVERFLOW, sign_in
from web_helpers import ARTIFACTS, DESKTOP, WebServer

CJK = re.compile(r"[\u3400-\u9fff]")
CANCEL = {"zh": "取消比赛", "en": "Cancel"}


@pytest.mark.parametrize(("lang", "staff"), [("zh", "events-zh"), ("en", "events-en")])
def test_the_console_lists_events_and_makes_one(
    browser: Any, server: WebServer, lang: str, staff: str
) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="zh-CN" if lang == "zh" else "en-GB")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(20_000)
    try:
        sign_in(page, server, staff)
        page.click("#tabs [data-tab='events']")
        page.wait_for_selector("#event-code option[value='1301']", state="attached")
        assert page.is_visible("#event-form")
        name = f"Tuesday duplicate {lang}"
        page.fill("#event-name", name)
        page.select_option("#event-code", "1301")
        page.fill("#event-deals", "4")
        page.fill("#event-time", "30")
        page.click("#event-make")
        said = page.wait_for_selector("#flash:not(.bad):not(:empty)").inner_text()
        kept = httpx.get(f"{server.base}/api/events", timeout=10).json()["events"]
        made = next(e for e in kept if e["name"] == name)
        assert (made["code"], made["deals"], made["time_limit"], made["status"]) == (
            "1301",
            4,
            30,
            "open",
        )
        if lang == "zh":
            assert said == f"已创建比赛 #{made['id']}：{name}"
        else:
            assert said == f"Event #{made['id']} made: {name}"
        # listed at once, newest first, with its game, deals, entrants and status
        first = page.locator("#event-list tbody tr").first
        assert first.get_attribute("data-event") == str(made["id"])
        cells = first.locator("td").all_inner_texts()
        assert cells[0] == f"#{made['id']}" and cells[1] == name
        assert cells[2].startswith("1301 · ") and cells[2] != "1301 · "
        assert cells[3:] == ["4", "0", "报名中" if lang == "zh" else "open", CANCEL[lang]]
        heads = page.locator("#event-list th").all_inner_texts()
        assert heads[1:] == (
            ["名称", "游戏", "副数", "参赛", "状态", "操作"]
            if lang == "zh"
            else ["Name", "Game", "Deals", "Entrants", "Status", "Actions"]
        )
        assert page.evaluate(OVERFLOW) == []
        if lang == "en":
            text = page.inner_text("#tab-events").replace(name, "")
            assert not CJK.search(text), text
            assert page.inner_text("#tabs [data-tab='events']") == "Duplicate events"
        else:
            assert page.inner_text("#tabs [data-tab='events']") == "复式赛"
        # a bad form is refused by the server, said, and nothing more is made
        page.fill("#event-deals", "1")
        page.eval_on_selector("#event-deals", "e => e.removeAttribute('min')")
        page.click("#event-make")
        page.wait_for_selector("#flash.bad")
        again = httpx.get(f"{server.base}/api/events", timeout=10).json()["events"]
        assert len(again) == len(kept)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"admin-events-desktop-{lang}.png"))
        # the event's own page, for the players, is where entrants join
        href = first.locator("a").get_attribute("href")
        assert href == f"/#/event/{made['id']}"
        # staff call it off from the list, giving the reason the trail keeps
        page.once("dialog", lambda dialog: dialog.accept("no entrants"))
        first.locator("[data-stop='cancel']").click()
        said = page.wait_for_selector("#flash:not(.bad):not(:empty)").inner_text()
        assert said == (
            f"比赛 #{made['id']}：已取消" if lang == "zh" else f"Event #{made['id']}: cancelled"
        )
        now = httpx.get(f"{server.base}/api/events/{made['id']}", timeout=10).json()
        assert now["status"] == "cancelled"
        row = page.locator(f"#event-list tbody tr[data-event='{made['id']}']")
        assert row.get_attribute("data-status") == "cancelled"
        assert row.locator("[data-stop]").count() == 0
        assert not errors, errors
    finally:
        context.close()
