"""The lobby finds a game, as a new player uses it at 390x844 and 1280x800 in Chinese and
English: the games grouped by family (three rows each until 更多) on a page far shorter
than the whole catalogue; search by name, pinyin initials, full pinyin, English name or
code; the region chips; ★ favourites and the recently played game first (常玩, kept after a
reload); 快速开始 takes the open seat of a waiting room of that game, else opens a new room
with bots that starts at once. The pinyin table covers every name of the catalogue."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from web_helpers import DESKTOP, PHONE, ROOT, WebServer, enter, more_players, token

from paiju.catalog import catalog

SHOTS = Path("/work/shots/helpers")
SIZES = {"phone": PHONE, "desktop": DESKTOP}
FINDER = ROOT / "src" / "paiju" / "web" / "js" / "finder.js"


def visible_codes(page: Any) -> list[str]:
    return page.eval_on_selector_all(
        "#finder .family .code[data-code]",
        "els => els.filter(e => e.offsetParent).map(e => e.dataset.code)",
    )


def search(page: Any, text: str) -> list[str]:
    page.fill("#game-search", text)
    page.wait_for_timeout(50)
    return visible_codes(page)


def test_the_pinyin_table_covers_every_name() -> None:
    table = dict(re.findall(r"(\S): \"([a-z]+)\"", FINDER.read_text(encoding="utf-8")))
    names = "".join(v.name_zh for v in catalog())
    missing = sorted({ch for ch in names if "\u4e00" <= ch <= "\u9fff" and ch not in table})
    assert not missing, missing
    assert (table["鞍"], table["弹"], table["麻"]) == ("an", "dan", "ma")


@pytest.mark.parametrize(("size", "code"), [("phone", "zh"), ("desktop", "en"), ("phone", "en")])
def test_find_a_game_by_family_search_region_and_favourite(
    page: Any, server: WebServer, size: str, code: str
) -> None:
    page.set_viewport_size(SIZES[size])
    enter(page, f"找游戏{size}{code}")
    if code == "en":
        page.click("#lang-switch")
        page.wait_for_function(
            "document.querySelector('#game-search')?.placeholder.startsWith('Find')"
            " && document.querySelectorAll('#finder .family').length > 4"
        )
    total = len(catalog())
    page.wait_for_function(  # the families folded once the lobby has its data (a slow server)
        "(n) => [...document.querySelectorAll('#finder .family .code[data-code]')]"
        ".filter(e => e.offsetParent).length < n / 2",
        arg=total,
        timeout=15_000,
    )
    shown = visible_codes(page)
    # grouped: every family present, the long ones folded to their first rows
    families = page.eval_on_selector_all("#finder .family", "els => els.map(e => e.dataset.family)")
    assert {"shisanzhang", "baozi", "jiajiabao", "majiang", "danzi"} <= set(families)
    assert len(shown) < total / 2, (len(shown), total)
    assert "1301" in shown and "anshan-majiang" in shown
    # not one 3,900-px list on a phone (the rooms below it are the server's, capped apart)
    height = page.evaluate("document.querySelector('#finder').getBoundingClientRect().height")
    assert height < 1800, height
    page.screenshot(path=str(SHOTS / f"lobby-{size}-{code}.png"), full_page=True)
    page.click("#finder button[data-more='baozi']")
    assert sum(c.startswith("20") for c in visible_codes(page)) == 21
    # search: pinyin initials, full pinyin, English name, code, Chinese name
    assert search(page, "asfy") == ["anshan-fangyang"]
    assert search(page, "danzi") == ["ningcheng-danzi"]
    assert search(page, "Mahjong") == ["anshan-majiang"]
    assert search(page, "2108") == ["2108"]
    assert search(page, "三打哈") == ["sandaha"]
    assert set(search(page, "sx")) == {"1304", "1305"}  # 绍兴13张
    none = search(page, "qqqzz")
    assert none == [] and page.is_visible("#find-none")
    search(page, "")
    # a region: 鞍山's three games
    page.click("#region-chips .chip[data-region='anshan']")
    assert set(visible_codes(page)) == {"anshan-jiayibing", "anshan-fangyang", "anshan-majiang"}
    page.click("#region-chips .chip[data-region='']")
    # ★ a favourite: first, in 常玩, kept after a reload
    page.click("#finder .family .code[data-code='sandaha'] .star")
    page.wait_for_selector("#usual .code[data-top='sandaha']")
    page.reload()
    page.wait_for_selector("#usual .code[data-top='sandaha'] .star.on")
    first = page.eval_on_selector_all("#usual .code", "els => els.map(e => e.dataset.top)")
    assert first[0] == "sandaha"
    box = page.query_selector("#usual").bounding_box()
    games = page.query_selector("#finder .family").bounding_box()
    assert box["y"] < games["y"]  # 常玩 before the families
    assert page.query_selector("#usual .code[data-top='sandaha'] [data-quick-top]").is_visible()
    page.screenshot(path=str(SHOTS / f"lobby-usual-{size}-{code}.png"), full_page=False)


def test_quick_start_joins_a_waiting_room_else_opens_one_with_bots(
    browser: Any, page: Any, server: WebServer
) -> None:
    """快速开始 of 宁城打弹子: nobody waits, so a new room with three bots starts and the
    player sits at seat 1; a second player's 快速开始 of 十三张 1301 takes the open seat of
    the first player's waiting room, not a new room."""
    enter(page, "快速开始")
    page.fill("#game-search", "danzi")
    page.click("#finder .code[data-code='ningcheng-danzi'] [data-quick]")
    page.wait_for_url(re.compile(r"#/room/\d+$"))
    room = int(page.url.rsplit("/", 1)[1])
    page.wait_for_selector("#felt .seat.me")
    info = server.get(f"/api/rooms/{room}", token(page))
    assert info["code"] == "ningcheng-danzi" and info["status"] == "playing"
    assert info["players"].count("bot") == 3 and info["seat_players"][0] is not None
    # the game played is remembered: 常玩 has it first
    page.goto(page.base + "/#/")
    page.wait_for_selector("#usual .code[data-top='ningcheng-danzi']")
    # a waiting 1301 room with an open seat (no bots fill it)
    made = page.evaluate(
        """async () => {
          const answer = await fetch('/api/rooms', {method: 'POST', headers: {
            'Content-Type': 'application/json',
            Authorization: 'Bearer ' + localStorage.getItem('paiju.token')},
            body: JSON.stringify({code: '1301', options: {seats: 2, bots: 0,
              fill_after: null}, seat: 0})});
          return (await answer.json()).room.id;
        }"""
    )
    with more_players(browser, page, 1) as (other,):
        enter(other, "第二位")
        other.click("#finder .code[data-code='1301'] [data-quick]")
        other.wait_for_url(re.compile(rf"#/room/{made}$"))
        info = server.get(f"/api/rooms/{made}", token(other))
        assert info["players"][1] == "第二位"
