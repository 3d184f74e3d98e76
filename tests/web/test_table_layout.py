"""The tables' layout as a player meets it, at 390x844, 768x1024 and 1280x800, in Chinese and
English:
继续 in view after every hand without scrolling; 打弹子's long 龙 laid out A 2 3 … J inside
the felt's middle; every line of the tribute log readable (one's own 还贡 included); on a
desktop the table's text big enough to read, the seats inside the rim and the table using
the screen's height; the table's tools (⚙, 快捷语) over no seat's box at either size; a seat
taken a moment before said in a message that stays."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from test_climbing_table import FELT, danzi_states
from web_helpers import (
    DESKTOP,
    PHONE,
    TABLET,
    WebServer,
    enter,
    fast_bots,
    more_players,
    open_room,
    token,
    tools_over_seats,
)

IN_VIEW = """(sel) => {
  const el = document.querySelector(sel);
  if (!el) return 'missing';
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return 'not drawn';
  if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth)
    return `out of view: ${JSON.stringify(r)} in ${innerWidth}x${innerHeight}`;
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return el.contains(top) ? 'ok' : `covered by ${top && top.outerHTML.slice(0, 80)}`;
}"""


def switch_language(page: Any, to: str) -> None:
    if page.evaluate("document.documentElement.lang") != to:
        page.click("#lang-switch")
    page.wait_for_function(f"document.documentElement.lang === '{to}'")


def in_view_everywhere(page: Any, selector: str, words: dict[str, str]) -> None:
    """``selector`` is on screen, uncovered, without scrolling, on a phone, a tablet and a
    desktop in both languages (its text is ``words[language]`` there); the table's tools
    cover no seat."""
    for size in (PHONE, TABLET, DESKTOP):
        page.set_viewport_size(size)
        for language in ("zh", "en"):
            switch_language(page, language)
            page.wait_for_function(
                "([sel, w]) => (document.querySelector(sel)?.innerText || '').includes(w)",
                arg=[selector, words[language]],
            )
            page.evaluate("window.scrollTo(0, 0)")
            assert page.evaluate(IN_VIEW, selector) == "ok", (size, language)
            assert not tools_over_seats(page), (size, language, tools_over_seats(page))
    switch_language(page, "zh")
    page.set_viewport_size(PHONE)


@pytest.mark.parametrize(
    ("code", "seats"),
    [
        ("1301", 4),
        ("ningcheng-danzi", 4),
        ("anshan-majiang", 4),
        ("sandaha", 4),
        ("anshan-jiayibing", 6),
    ],
)
def test_continue_stays_in_view_after_every_hand(
    page: Any, server: WebServer, code: str, seats: int
) -> None:
    """A room of two hands: the player lets the clock run (1 s a decision, the bot plays the
    timed-out decision and no 托管 follows); after the first hand 继续 is in view with the
    page at its top, on a phone as on a desktop, and after the last the way on is too."""
    enter(page, f"Continue {code[:8]}")
    fast_bots(page, 0.02)
    page.click(f"[data-create='{code}']")
    page.fill("#create-room input[name=bots]", str(seats - 1))
    page.fill("#create-room input[name=time_limit]", "1")
    page.fill("#create-room input[name=hands]", "2")
    page.select_option("#create-room select[name=tuoguan]", "off")
    page.click("#create-submit")
    page.wait_for_url(re.compile(r"#/room/\d+$"))
    first = page.wait_for_selector("#continue, #open-all", timeout=120_000)
    if first.get_attribute("id") == "open-all":  # 宝子's 搓牌: one's own cards turned first
        first.click()
    page.wait_for_selector("#continue", timeout=30_000)
    in_view_everywhere(page, "#continue", {"zh": "继续", "en": "Continue"})
    game = page.get_attribute("#settlement", "data-game")
    page.click("#continue")
    # the room's last hand: its way on (回大厅, or what the room offers then) as much in view
    page.wait_for_function(
        f"(document.querySelector('#settlement')?.dataset.game || '{game}') !== '{game}'",
        timeout=120_000,
    )
    if page.query_selector("#open-all"):
        page.click("#open-all")
    way_on = "#result-bar .primary, #match-summary > .buttons .primary"
    in_view_everywhere(page, way_on, {"zh": "", "en": ""})


def draw_felt(page: Any, view: dict[str, Any], seat: int, family: str) -> None:
    names = [f"机器人 {i + 1}" if i != seat else "你" for i in range(len(view["hand_sizes"]))]
    page.evaluate(FELT, [view, seat, family, names])
    page.wait_for_timeout(30)


CURRENT = """() => {
  const centre = document.querySelector('#felt .felt-center').getBoundingClientRect();
  const cards = [...document.querySelectorAll('#cl-current .card')];
  const boxes = cards.map((c) => c.getBoundingClientRect());
  return {
    cards: cards.map((c) => c.dataset.card),
    tops: boxes.map((b) => Math.round(b.top)),
    lefts: boxes.map((b) => b.left),
    inside: boxes.every((b) => b.left >= centre.left - 0.5 && b.right <= centre.right + 0.5
                            && b.top >= centre.top - 0.5 && b.bottom <= centre.bottom + 0.5),
    seatOver: [...document.querySelectorAll('#felt > .seat')].some((s) => {
      const r = s.getBoundingClientRect();
      return boxes.some((b) => b.left < r.right && b.right > r.left && b.top < r.bottom
                               && b.bottom > r.top);
    }),
  };
}"""


def test_a_long_dragon_is_laid_from_a_up_inside_the_middle(page: Any, server: WebServer) -> None:
    """An 11-card 单龙 A-J on the table (the engine lists it 4 … J A 2 3, its single order):
    the felt shows it A 2 3 … J, left to right on one row, inside the middle and under no seat.

    rule (002): "单龙 数值相连续的三张及以上单牌 如：345A234" - A 2 3 run at their natural
    places."""
    from paiju.games import game

    g = game("ningcheng-danzi")
    state = g.new_state(4, seed="straight-0")
    seat = min(state.to_act())
    (dragon,) = [
        a
        for a in state.legal_actions(seat)
        if len(a.to_json().get("cards", "").split()) == 11
        and {c[0] for c in a.to_json()["cards"].split()} >= {"A", "2", "3", "J"}
    ][:1]
    state.apply(seat, dragon)
    view = json.loads(json.dumps(state.view((seat + 1) % 4)))
    assert view["table"]["cards"].split()[-3:][0][0] == "A"  # the engine's order: … J A 2 3
    page.goto(page.base + "/")
    page.wait_for_selector("main")
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        draw_felt(page, view, (seat + 1) % 4, "danzi")
        drawn = page.evaluate(CURRENT)
        ranks = [c[0] for c in drawn["cards"]]
        assert ranks == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J"], size
        assert len(set(drawn["tops"])) == 1, (size, drawn["tops"])
        assert drawn["lefts"] == sorted(drawn["lefts"]), size
        assert drawn["inside"], (size, drawn)
        assert not drawn["seatOver"], (size, drawn)
    page.set_viewport_size(PHONE)


LINES = """() => {
  const centre = document.querySelector('#felt .felt-center');
  const c = centre.getBoundingClientRect();
  return [...document.querySelectorAll('#cl-tribute .cl-tribute-line')].map((line) => {
    const r = line.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return {text: line.innerText, inside: r.top >= c.top - 0.5 && r.bottom <= c.bottom + 0.5
            && r.top >= 0 && r.bottom <= innerHeight, seen: line.contains(top),
            fontPx: parseFloat(getComputedStyle(line).fontSize)};
  });
}"""


def test_every_tribute_line_is_readable(page: Any, server: WebServer) -> None:
    """The tribute log of a later deal (进贡, 挑选, 还贡 of both returners, the pool of returns)
    while the last picks are made: every line inside the felt's middle, none cut off or under
    a seat, for each seat's view, at both sizes."""
    state = next(s for s in danzi_states() if s.phase == "picking_returns")
    page.goto(page.base + "/")
    page.wait_for_selector("main")
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        for seat in range(4):
            view = json.loads(json.dumps(state.view(seat)))
            assert len(view["tribute"]["log"]) >= 4
            draw_felt(page, view, seat, "danzi")
            lines = page.evaluate(LINES)
            assert len(lines) >= len(view["tribute"]["log"]), lines
            for line in lines:
                assert line["inside"] and line["seen"], (size, seat, line)
    page.set_viewport_size(PHONE)


TEXT_SIZES = """() => {
  const felt = document.querySelector('#felt');
  const walker = document.createTreeWalker(felt, NodeFilter.SHOW_TEXT);
  const sizes = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.textContent.trim()) continue;
    const el = n.parentElement;
    if (el.closest('.card')) continue; // the cards' corners are drawn, not read as text
    const r = el.getBoundingClientRect();
    if (r.width === 0) continue;
    sizes.push([n.textContent.trim().slice(0, 20), parseFloat(getComputedStyle(el).fontSize)]);
  }
  const box = felt.getBoundingClientRect();
  const inner = {l: box.left + felt.clientLeft, t: box.top + felt.clientTop,
                 r: box.left + felt.clientLeft + felt.clientWidth,
                 b: box.top + felt.clientTop + felt.clientHeight};
  const out = [...felt.querySelectorAll(':scope > .seat')].filter((s) => {
    const r = s.getBoundingClientRect();
    return r.left < inner.l || r.right > inner.r || r.top < inner.t || r.bottom > inner.b;
  }).map((s) => s.dataset.seat);
  return {sizes, out, feltBottom: box.bottom, height: innerHeight};
}"""


@pytest.mark.parametrize(
    ("code", "seats"),
    [("anshan-jiayibing", 6), ("ningcheng-danzi", 4), ("anshan-fangyang", 4), ("sandaha", 4)],
)
def test_the_desktop_table_is_readable_and_fills_the_screen(
    page: Any, server: WebServer, code: str, seats: int
) -> None:
    """At 1280x800: no text on the felt under 13 px, every seat box inside the rim, and the
    felt reaching into the screen's lower part (its foot below 80% of the height); there and
    on a phone held upright the table's tools (⚙, 快捷语) cover no seat."""
    enter(page, f"Desktop {code[:8]}")
    fast_bots(page, 0.3)
    open_room(page, code, seats=seats, bots=seats - 1, time_limit=0)
    page.wait_for_selector(f"#felt > .seat[data-seat='{seats - 1}']", timeout=30_000)
    for language in ("zh", "en"):  # a phone held upright
        switch_language(page, language)
        page.wait_for_timeout(300)
        assert not tools_over_seats(page), (language, tools_over_seats(page))
    page.set_viewport_size(DESKTOP)
    for language in ("zh", "en"):
        switch_language(page, language)
        page.wait_for_timeout(300)
        found = page.evaluate(TEXT_SIZES)
        small = [(text, px) for text, px in found["sizes"] if px < 13]
        assert not small, (language, small)
        assert found["out"] == [], (language, found["out"])
        assert found["feltBottom"] > 0.8 * found["height"], found
        assert not tools_over_seats(page), (language, tools_over_seats(page))
    switch_language(page, "zh")
    page.set_viewport_size(PHONE)


def test_a_seat_taken_a_moment_before_is_said_and_stays(
    page: Any, browser: Any, server: WebServer
) -> None:
    """Two people see the same open seat in the lobby; the first takes it, the second taps
    入座 a moment later (its list is from before: the test keeps it so, the list refreshes
    every 5 s): the lobby says the seat is taken in a message that is still there seconds
    later (not a toast that fades), in view, until dismissed."""
    enter(page, "Owner")
    room = open_room(page, "1301", seats=2, bots=0, fill_after="")
    with more_players(browser, page, 2) as (second, third):
        enter(second, "Second")
        stale = json.dumps(server.get("/api/rooms", token(second)))
        enter(third, "Third")
        third.click(f".room-row[data-room='{room}'] button.primary")
        third.wait_for_url(f"**/#/room/{room}")

        def as_seen_before(route: Any) -> None:
            if route.request.method == "GET":
                route.fulfill(status=200, content_type="application/json", body=stale)
            else:
                route.continue_()

        second.route("**/api/rooms", as_seen_before)
        for size, language, word in ((PHONE, "zh", "没能坐进"), (DESKTOP, "en", "could not")):
            second.set_viewport_size(size)
            second.goto(f"{server.base}/#/")
            switch_language(second, language)
            second.click(f".room-row[data-room='{room}'] button.primary")
            note = second.wait_for_selector("#join-refused")
            assert word in note.inner_text()
            second.wait_for_timeout(6000)  # a toast is gone by now, the list drawn again
            assert second.evaluate(IN_VIEW, "#join-refused") == "ok", size
            assert word in second.inner_text("#join-refused")
            second.click("#join-refused button")
            assert second.query_selector("#join-refused") is None
        switch_language(second, "zh")
