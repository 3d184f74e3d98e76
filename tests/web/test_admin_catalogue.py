"""The console's catalogue in the browser: an admin adds a house variant from TOML (a
bad file shows its error in the page), turns it off and on for new rooms, sets its
default options and the choices a room form offers, and the lobby's room form offers
exactly those. The page reads in Chinese and in English, at 1280x800 and at 390x844.

The issue: "Catalogue: turn a game on or off for new rooms, set the default options and
the choices a room form offers, add a house variant from a TOML file (validated, with
the error shown), all without a restart and on every node."
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from admin_pages import OVERFLOW, sign_in
from web_helpers import ARTIFACTS, DESKTOP, PHONE, WebServer, enter

from house_toml import house_toml

HOUSE = house_toml("house-web", "网页宝子", "Web Baozi")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """A server of this module's own: the house variant added here must not reach the
    shared server's catalogue, whose every variant other tests also build in-process."""
    srv = WebServer(tmp_path_factory.mktemp("catalogue-server")).start()
    try:
        yield srv
    finally:
        srv.stop()


def _new_room(server: WebServer, token: str) -> httpx.Response:
    body = {"code": "house-web", "options": {"seats": 2, "bots": 1}, "game_options": {}}
    return httpx.post(
        f"{server.base}/api/rooms",
        json=body,
        headers={"Authorization": f"Bearer {token}"},
        timeout=10,
    )


def test_a_house_variant_is_added_turned_off_and_on_and_its_form_limited(
    browser: Any, server: WebServer
) -> None:
    player = httpx.post(f"{server.base}/api/players", json={"name": "Host"}, timeout=10).json()
    context = browser.new_context(viewport=DESKTOP, locale="zh-CN")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(20_000)
    try:
        sign_in(page, server, "cato")
        page.click("[data-tab='catalogue']")
        page.wait_for_selector("#cat-list li[data-code='2001']")
        # a bad file: its error in the page, nothing added
        page.fill("#house-text", HOUSE.replace('deck = "52"', 'deck = "53"'))
        page.click("#house-go")
        page.wait_for_selector("#house-error:has-text('文件有误')")
        assert "field deck" in page.inner_text("#house-error")
        assert page.query_selector("#cat-list li[data-code='house-web']") is None
        page.fill("#house-text", HOUSE)
        page.click("#house-go")
        page.wait_for_selector("#flash:has-text('已添加：house-web')")
        assert page.inner_text("#house-error") == ""
        row = "#cat-list li[data-code='house-web']"
        page.wait_for_selector(f"{row} .tag:has-text('自定义')")
        assert _new_room(server, player["token"]).status_code == 201
        # off for new rooms
        page.click(f"{row} .cat-toggle")
        page.wait_for_selector(f"{row}.off .tag.off:has-text('已关闭')")
        refused = _new_room(server, player["token"])
        assert refused.status_code == 409
        assert refused.json()["error"]["code"] == "game_off"
        page.click(f"{row} .cat-toggle")
        page.wait_for_selector(f"{row}:not(.off) .cat-toggle:has-text('关闭')")
        # its defaults and the choices the room form offers
        page.click(f"{row} .cat-edit")
        page.wait_for_selector("#cat-edit:not([hidden])")
        assert "min_bet" in page.inner_text("#cat-options")
        page.fill("#cat-defaults", '{"min_bet": 3}')
        page.fill("#cat-choices", '{"banker_rotation": ["stay"]}')
        page.click("#cat-save")
        page.wait_for_selector("#flash:has-text('house-web 的选项已保存')")
        assert page.evaluate(OVERFLOW) == []
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "admin-catalogue-desktop.png"))
        # a bad JSON stays in the page
        page.fill("#cat-defaults", "{min_bet")
        page.click("#cat-save")
        page.wait_for_selector("#flash.bad:has-text('不是有效的 JSON')")
        # in English, on a phone
        page.click("#lang")
        page.wait_for_selector(f"{row} .cat-toggle:has-text('Turn off')")
        assert page.inner_text("#house-go") == "Check and add"
        page.set_viewport_size(PHONE)
        assert page.evaluate(OVERFLOW) == []
        page.screenshot(path=str(ARTIFACTS / "admin-catalogue-phone.png"), full_page=True)
    finally:
        context.close()
    assert not errors, errors
    # the lobby's room form of the game offers only what the house allows
    lobby = browser.new_context(viewport=PHONE, locale="zh-CN")
    page = lobby.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(20_000)
    page.base = server.base
    try:
        enter(page, "Guest")
        page.goto(f"{server.base}/#/rules/house-web")
        page.click(".rules .primary")
        page.wait_for_selector("#create-room")
        offered = page.eval_on_selector_all(
            "select[name='g.banker_rotation'] option", "os => os.map(o => o.value)"
        )
        assert offered == ["stay"]
        assert page.input_value("input[name='g.min_bet']") == "3"
        page.click("#create-submit")
        page.wait_for_url("**/#/room/*")
    finally:
        lobby.close()
    assert not errors, errors
