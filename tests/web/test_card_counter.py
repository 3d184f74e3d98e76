"""记牌器 and 上一轮 as a player uses them: a 甲乙丙 deal against bots and a 三打哈 hand. At
each of the player's turns the counter on screen equals what a spectator counts (the
server's spectator view: the cards not played) less the player's own hand on screen; a
spectator's page shows the spectator's count itself; 上一轮 opens the last trick as the
spectator's view has it. Phone and desktop, Chinese and English; screenshots."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from web_helpers import (
    DESKTOP,
    PHONE,
    WebServer,
    enter,
    fast_bots,
    lobby_in,
    open_room,
    token,
)

SHOTS = Path("/work/shots/helpers")
SIZES = {"phone": PHONE, "desktop": DESKTOP}
TITLE = {"zh": "记牌器", "en": "Card counter"}
LAST = {"zh": "上一轮", "en": "Last trick"}


def on_screen(page: Any) -> dict[str, int]:
    cells = page.eval_on_selector_all(
        "#card-counter .ct-cell", "els => els.map(e => [e.dataset.rank, Number(e.dataset.left)])"
    )
    return dict(cells)


def rank(card: str) -> str:
    return card if card in ("BJ", "RJ") else card[0]


def spectator_view(server: WebServer, page: Any, room: int) -> dict[str, Any]:
    view: dict[str, Any] = server.get(f"/api/rooms/{room}/spectate", token(page))["view"]
    assert view["seat"] is None and view.get("hand") is None
    return view


LABELS = {"16": "RJ", "15": "BJ", "14": "A", "13": "K", "12": "Q", "11": "J", "10": "T"}


def spectators_count(view: dict[str, Any]) -> dict[str, int]:
    """The spectator view's ``unplayed`` counts by the labels the counter shows."""
    return {LABELS.get(n, n): left for n, left in view["unplayed"].items()}


def expected(view: dict[str, Any], known: list[str]) -> dict[str, int]:
    mine = Counter(rank(c) for c in known)
    return {r: n - mine[r] for r, n in spectators_count(view).items()}


def my_turns(page: Any, count: int, act: Any) -> Any:
    """Yield at each of the player's next ``count`` turns of play; ``act`` then plays."""
    for _ in range(count):
        page.wait_for_selector("#turn.mine, #settlement", timeout=30_000)
        if page.query_selector("#settlement"):
            return
        yield
        act()


def climbing_act(page: Any) -> None:
    before = page.inner_text("#turn")
    if page.query_selector("#cl-hint"):
        page.click("#cl-hint")
        page.wait_for_selector("#cl-hand .card.selected")
        page.click("#cl-play")
    else:
        page.click("#cl-pass")
    page.wait_for_function(
        "b => !document.querySelector('#turn.mine') || document.querySelector('#turn').innerText"
        " !== b || !document.querySelector('#cl-hand .card.selected')",
        arg=before,
    )
    page.wait_for_selector("#turn.mine", state="detached", timeout=20_000)


@pytest.mark.parametrize(("size", "code"), [("phone", "zh"), ("desktop", "en")])
def test_the_counter_is_the_spectators_count_less_my_hand(
    browser: Any, page: Any, server: WebServer, size: str, code: str
) -> None:
    page.set_viewport_size(SIZES[size])
    enter(page, f"记牌{size}")
    lobby_in(page, code)
    fast_bots(page, 0.05)
    room = open_room(page, "anshan-jiayibing", seats=6, bots=5)
    checked = 0
    opened = False
    for _ in my_turns(page, 40, lambda: climbing_act(page)):
        if page.query_selector("#cl-call"):
            continue
        page.wait_for_selector("#card-counter")
        hand = page.eval_on_selector_all("#cl-hand .card", "els => els.map(e => e.dataset.card)")
        view = spectator_view(server, page, room)
        shown = on_screen(page)
        assert shown == expected(view, hand), (shown, view["unplayed"], hand)
        assert int(page.get_attribute("#card-counter", "data-total")) == sum(shown.values())
        assert TITLE[code] in page.inner_text("#card-counter .ct-head")
        # the ranks big first in the game's order: 大王 小王 2 A K … 3
        assert list(shown)[:4] == ["RJ", "BJ", "2", "A"] and list(shown)[-1] == "3"
        checked += 1
        if view["last_trick"] and not opened:
            opened = True
            button = page.locator("#last-trick-open")
            assert button.inner_text() == LAST[code]
            button.click()
            lines = page.eval_on_selector_all(
                "#last-trick .ct-last-line",
                "els => els.map(e => [Number(e.dataset.seat), e.dataset.pass === '1',"
                " e.dataset.cards])",
            )
            want = [
                [x["seat"], bool(x.get("pass")), "" if x.get("pass") else x["cards"]]
                for x in view["last_trick"]
            ]
            assert lines == want
            # drawn again by every play: scrolled to as it is at this instant
            page.evaluate(
                "document.querySelector('#card-counter')?.scrollIntoView({block: 'nearest'})"
            )
            page.screenshot(path=str(SHOTS / f"counter-{size}-{code}.png"), full_page=True)
            # a spectator's page: the spectator's own count, no hand subtracted
            watcher = browser.new_context(viewport=SIZES[size])
            try:
                spy = watcher.new_page()
                spy.base = page.base
                enter(spy, f"看记牌{size}")
                spy.goto(f"{page.base}/#/room/{room}")
                spy.wait_for_selector("#card-counter")
                assert spy.query_selector("#cl-hand") is None
                assert on_screen(spy) == spectators_count(spectator_view(server, page, room))
            finally:
                watcher.close()
        if checked >= 3 and opened:
            break
    assert checked >= 3 and opened, (checked, opened)


def test_sandaha_gets_the_counter_and_keeps_its_last_trick(page: Any, server: WebServer) -> None:
    """三打哈 at phone size in Chinese, the player's seat in 托管 after two timeouts (the bot
    plays it on): while the tricks are played the counter is the spectator's count less the
    hand on screen (and the kitty the declarer buried), 大王 小王 7 2 first; the table's
    own 上一轮 stays beside it."""
    enter(page, "三打哈记牌")
    fast_bots(page, 0.6)
    room = open_room(page, "sandaha", seats=4, bots=3, time_limit=1)
    page.wait_for_selector("#card-counter", timeout=60_000)
    matched = 0
    last_trick = False
    for _ in range(60):
        if page.query_selector("#settlement") or not page.query_selector("#card-counter"):
            break
        last_trick = last_trick or bool(
            page.query_selector("#sdh-show-last") or page.query_selector("#sdh-last")
        )
        view = spectator_view(server, page, room)
        # the screen follows the server a moment later: give it that moment to show the
        # count of this view (a play after it moves both on, and the next round compares)
        for _ in range(10):
            shown = on_screen(page)
            hand = page.eval_on_selector_all(
                "#sdh-hand .card", "els => els.map(e => e.dataset.card)"
            )
            kitty = page.eval_on_selector_all(
                "#sdh-buried .card", "els => els.map(e => e.dataset.card)"
            )
            if view["phase"] == "playing" and shown == expected(view, hand + kitty):
                matched += 1
                assert list(shown)[:4] == ["RJ", "BJ", "7", "2"]
                if matched == 2:
                    shot = SHOTS / "counter-sandaha-phone-zh.png"
                    page.screenshot(path=str(shot), full_page=True)
                break
            page.wait_for_timeout(60)
        if matched >= 3 and last_trick:
            break
        page.wait_for_timeout(150)
    assert matched >= 3
    assert last_trick  # beside the counter while the tricks were played
