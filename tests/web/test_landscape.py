"""Phones held sideways (844x390), in Chinese and in English, as a person sees the page: every
table with the felt across the width and the seats round it, the player's hand along the
bottom wholly on the screen without scrolling and every card of it tappable, the buttons of
the decision on the screen and tappable, no seat over another or off the screen, nothing
sticking out sideways and no text spilling out of its box; the lobby, the waiting room and
the club pages use the width and spill nothing. Pictures of each table go to
artifacts/web/landscape/ (docs/screenshots/landscape/ holds a copy of them)."""

from __future__ import annotations

from typing import Any

import pytest
from web_helpers import (
    ARTIFACTS,
    WebServer,
    enter,
    fast_bots,
    open_room,
    screen_settlement,
    set_lang,
)

LANDSCAPE = {"width": 844, "height": 390}
SHOTS = ARTIFACTS / "landscape"

# what a person sees of the page, the top of it (no scrolling): the problems found
SEEN = """([hand, controls]) => {
  window.scrollTo(0, 0);
  const vw = innerWidth, vh = innerHeight, out = [];
  const at = (r) => `[${[r.left, r.top, r.right, r.bottom].map(Math.round)}]`;
  const name = (el) => `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}.${el.className}`;
  const inView = (r) => r.top >= -1 && r.left >= -1 && r.bottom <= vh + 1 && r.right <= vw + 1;
  // the nearest box that clips what it holds (a strip that scrolls sideways, a panel that
  // scrolls): what lies beyond its edge is reached by scrolling it, not off the page
  const clipper = (el) => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      if (!(p instanceof HTMLElement)) continue;  // a drawing's own box (an svg) is the card's
      const s = getComputedStyle(p);
      if (s.overflowX !== 'visible' || s.overflowY !== 'visible') return p;
    }
    return null;
  };
  const hits = (el, x, y) => {
    const top = document.elementFromPoint(x, y);
    return !!top && (el === top || el.contains(top));
  };
  // the hand: every card on the screen, and a tap on its corner takes that card
  const cards = [...document.querySelectorAll(hand)];
  if (!cards.length) out.push(`hand ${hand}: missing`);
  for (const el of cards) {
    const r = el.getBoundingClientRect();
    if (!inView(r)) out.push(`hand: ${name(el)} ${at(r)} off ${vw}x${vh}`);
    else if (!hits(el, r.left + 8, r.top + 8)) out.push(`hand: ${name(el)} ${at(r)} covered`);
  }
  // the decision's buttons: on the screen, a tap in their middle takes them
  for (const sel of controls) {
    const els = [...document.querySelectorAll(sel)];
    if (!els.length) out.push(`${sel}: missing`);
    for (const el of els) {
      const r = el.getBoundingClientRect();
      const [x, y] = [(r.left + r.right) / 2, (r.top + r.bottom) / 2];
      if (!inView(r)) out.push(`${sel}: ${at(r)} off ${vw}x${vh}`);
      else if (!hits(el, x, y))
        out.push(`${sel}: ${at(r)} covered by ${name(document.elementFromPoint(x, y))}`);
    }
  }
  // the seats: on the screen, none over another
  const seats = [...document.querySelectorAll('#felt .seat')]
    .map((el) => [el.dataset.seat, el.getBoundingClientRect()]);
  for (const [s, r] of seats) if (!inView(r)) out.push(`seat ${s}: ${at(r)} off the screen`);
  // a seat that clips what it holds shows every card and tile of it whole
  for (const el of document.querySelectorAll('#felt .seat')) {
    const cs = getComputedStyle(el);
    if (cs.overflowX === 'visible' && cs.overflowY === 'visible') continue;
    const b = el.getBoundingClientRect();
    const within = (r) => r.left >= b.left - 1 && r.right <= b.right + 1
      && r.top >= b.top - 1 && r.bottom <= b.bottom + 1;
    for (const c of el.querySelectorAll('.card, .mj-tile')) {
      const r = c.getBoundingClientRect();
      if (!within(r))
        out.push(`seat ${el.dataset.seat}: ${name(c)} ${at(r)} cut by its edge ${at(b)}`);
    }
  }
  const meet = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
    && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  for (let i = 0; i < seats.length; i++)
    for (let j = i + 1; j < seats.length; j++)
      if (meet(seats[i][1], seats[j][1]))
        out.push(`seats ${seats[i][0]} and ${seats[j][0]} overlap at ${at(seats[i][1])}`);
  // nothing sticks out sideways (beyond a box that scrolls it), no text out of its box
  for (const el of document.querySelectorAll('#app *')) {
    if (!(el instanceof HTMLElement)) continue;  // the drawings inside a card go with it
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (r.right > vw + 1 || r.left < -1) {
      const c = clipper(el);
      const cr = c && c.getBoundingClientRect();
      if (!c || cr.right > vw + 1 || cr.left < -1) out.push(`sticks out: ${name(el)} ${at(r)}`);
    }
  }
  const walker = document.createTreeWalker(document.getElementById('app'), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim()) continue;
    let box = node.parentElement;
    if (!box.offsetParent && getComputedStyle(box).position !== 'fixed') continue;
    while (box && getComputedStyle(box).display.startsWith('inline')) box = box.parentElement;
    const cut = getComputedStyle(box);
    if (cut.textOverflow === 'ellipsis' && box.title && box.title === box.textContent) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const t = range.getBoundingClientRect(), b = box.getBoundingClientRect();
    if (t.width === 0) continue;
    if (t.left < b.left - 1 || t.right > b.right + 1)
      out.push(`text spills: ${node.textContent.trim().slice(0, 30)} ${at(t)} in ${name(box)}`);
  }
  return out;
}"""


def seen_problems(page: Any, hand: str, controls: list[str]) -> list[str]:
    """What is wrong with the screen, looked at again for up to two seconds (a frame that a
    loaded machine paints late is not what a person sees)."""
    problems: list[str] = page.evaluate(SEEN, [hand, controls])
    for _ in range(20):
        if not problems:
            break
        page.wait_for_timeout(100)
        problems = page.evaluate(SEEN, [hand, controls])
    return problems


def look_both_ways(
    page: Any, name: str, hand: str, controls: list[str], scroll: bool = False
) -> None:
    """The screen at 844x390 in Chinese and in English: no problem; a picture of each.
    ``scroll``: a page a person scrolls (the lobby, under the operator's announcements
    when there are some) is looked at with ``hand`` scrolled into view first; a table is
    looked at as it comes."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for lang in ("zh", "en"):
        set_lang(page, lang)
        if scroll:
            page.locator(hand).first.scroll_into_view_if_needed()
        problems = seen_problems(page, hand, controls)
        assert not problems, (lang, problems)
        page.screenshot(path=str(SHOTS / f"{name}-{lang}.png"), animations="disabled")
    set_lang(page, "zh")


def sideways(page: Any) -> None:
    page.set_viewport_size(LANDSCAPE)


CLIMBING = [("anshan-jiayibing", 6), ("anshan-fangyang", 4), ("ningcheng-danzi", 4)]
DECISION = ".cl-controls button, #cl-call-submit, .cl-declare-buttons button, #cl-pick button"
"""The buttons of a climbing game's first decision: a play, 放羊's call, 打弹子's 宣战 or a
tribute card."""


@pytest.mark.parametrize(("code", "seats"), CLIMBING)
def test_climbing_tables_sideways(page: Any, server: WebServer, code: str, seats: int) -> None:
    """A climbing game's first own decision: the hand in stacks along the bottom, the
    note and the buttons on one line above it, the seats round the felt."""
    sideways(page)
    enter(page, "横屏")
    fast_bots(page, 0.05)
    open_room(page, code, seats=seats, bots=seats - 1, time_limit=0)
    page.wait_for_selector("#turn.mine")
    page.wait_for_selector("#cl-hand .card")
    page.wait_for_selector(DECISION)
    if page.query_selector("#cl-call"):  # 放羊's banker calls first: the call's cards too
        look_both_ways(page, f"{code}-call", "#cl-call .card", ["#cl-call-submit"])
        page.click("#cl-call .cl-call-suit .card >> nth=0")
        page.click("#cl-call-submit")
        page.wait_for_selector("#cl-call", state="detached")
        page.wait_for_selector(".cl-controls button")  # the banker leads
    look_both_ways(page, code, "#cl-hand .card", [DECISION])
    if page.query_selector("#cl-play"):  # a tap on the hand's last card picks it
        page.locator("#cl-hand .card").last.click()
        page.wait_for_selector("#cl-hand .card.selected")


def test_shisanzhang_sideways(page: Any, server: WebServer) -> None:
    """十三张 arranging: the three rows on the left, who is ready and the suggestions on the
    right, the thirteen cards along the bottom with 确定 beside them."""
    sideways(page)
    enter(page, "横屏")
    fast_bots(page, 0.05)
    open_room(page, "1301", time_limit=0)
    page.wait_for_selector(".hand-zone .card")
    look_both_ways(page, "1301", ".hand-zone .card", ["#ssz-submit", ".row-zone .row-label"])
    # the result: every seat's rows on the felt, the settlement beside it, 继续 in view
    page.click("#suggestions .sugg-card[data-suggestion='0']")
    page.click("#ssz-submit")
    page.wait_for_selector("#settlement")
    page.wait_for_selector("#showdown")
    look_both_ways(page, "1301-result", "#continue", ["#settlement .verdict"])


def test_sandaha_sideways(page: Any, server: WebServer) -> None:
    """三打哈 bidding: the bids in a row above the hand's suit groups."""
    sideways(page)
    enter(page, "横屏")
    fast_bots(page, 0.05)
    open_room(page, "sandaha", time_limit=0)
    page.wait_for_selector("#turn.mine")
    page.wait_for_selector("#sdh-hand .card")
    look_both_ways(page, "sandaha", "#sdh-hand .card", ["#sdh-choices button:first-child"])


def test_majiang_sideways(page: Any, server: WebServer) -> None:
    """麻将 on one's own turn: the seats' rivers round the wall, the bar and the fourteen
    tiles along the bottom."""
    sideways(page)
    enter(page, "横屏")
    fast_bots(page, 0.05)
    open_room(page, "anshan-majiang", time_limit=0)
    page.wait_for_selector("#mj-turn")
    look_both_ways(page, "anshan-majiang", "#mj-hand .mj-tile", ["#mj-turn button"])
    page.locator("#mj-hand .mj-tile.playable").first.click()  # a first tap picks a tile
    page.wait_for_selector("#mj-hand .mj-tile.picked")


def start_as_player(page: Any, code: str) -> None:
    """A 4-seat room at seat 2 (seat 1 is the first hand's banker), started from the
    waiting room, which fits the screen too."""
    open_room(page, code, seats=4, bots=0, seat=1)
    page.wait_for_selector("#waiting")
    for lang in ("zh", "en"):
        set_lang(page, lang)
        problems = seen_problems(page, "#start-now", [])
        problems = [p for p in problems if not p.startswith("hand")]
        assert not problems, (lang, problems)
    set_lang(page, "zh")
    page.click("#start-now")


def test_baozi_sideways(page: Any, server: WebServer) -> None:
    """宝子: the chips and one's own stake on one line; after the bet, one's two cards."""
    sideways(page)
    enter(page, "横屏")
    fast_bots(page, 0.05)
    start_as_player(page, "2001")
    page.wait_for_selector(".bet-chip[data-bet='5']")
    look_both_ways(page, "2001-bet", ".bet-chip", [".bet-custom button"])
    page.click(".bet-chip[data-bet='5']")
    page.wait_for_selector(".my-cards .card")
    look_both_ways(page, "2001", ".my-cards .card", [])


def test_jiajiabao_sideways(page: Any, server: WebServer) -> None:
    """佳佳宝 grouping: the four cards, the suggestions and 确定 side by side."""
    sideways(page)
    enter(page, "横屏")
    fast_bots(page, 0.05)
    start_as_player(page, "2101")
    page.wait_for_selector(".bet-chip[data-bet='5']")
    page.click(".bet-chip[data-bet='5']")
    page.wait_for_selector("#group-panel .hand .card")
    look_both_ways(page, "2101", "#group-panel .hand .card", ["#group-submit"])


def test_lobby_and_club_pages_sideways(page: Any, server: WebServer) -> None:
    """The lobby (the join box on one line, the games in two columns) and a club's pages
    (its list, its lobby, members, 战绩) at 844x390 in both languages: the first button of
    each page on the screen and tappable, nothing sticking out, no text spilling."""
    sideways(page)
    enter(page, "横屏圈主")
    page.wait_for_selector("[data-create='1301']")
    assert page.evaluate(
        "() => { const [a, b] = ['#join-code-form', '#clubs-entry']"
        ".map((s) => document.querySelector(s).getBoundingClientRect());"
        " return a.right <= b.left && a.bottom > b.top; }"
    ), "the join box and the club entry are not on one line"
    look_both_ways(page, "lobby", "[data-create='1301']", ["#lang-switch"], scroll=True)
    page.click("#clubs-entry")
    page.wait_for_selector("#club-found-go")
    look_both_ways(page, "clubs", "#club-join-go", ["#lang-switch"], scroll=True)
    page.fill("#club-name", "横屏牌局")
    page.fill("#club-notice", "每晚八点 / every night at eight")
    page.click("#club-found-go")
    page.wait_for_selector("#club")
    club = page.url.rsplit("/", 1)[1]
    for tab in ("", "/members", "/record"):
        page.goto(f"{page.base}/#/club/{club}{tab}")
        page.wait_for_selector("#club .club-tab.on")
        look_both_ways(
            page, f"club{tab.replace('/', '-')}", ".club-tab", ["#lang-switch"], scroll=True
        )


RESULTS = [
    ("2001", 4),
    ("2101", 4),
    ("sandaha", 4),
    ("ningcheng-danzi", 4),
    ("anshan-jiayibing", 6),
    ("anshan-majiang", 4),
]


@pytest.mark.parametrize(("code", "seats"), RESULTS)
def test_hand_results_sideways(page: Any, server: WebServer, code: str, seats: int) -> None:
    """A hand the player's seat plays by timeouts (the server plays each for it, never 托管,
    so the result waits for its 继续): the result and the settlement beside the felt, its
    verdict, 继续 and 回放 on the screen and tappable, nothing spilling."""
    sideways(page)
    enter(page, "横屏结果")
    if code in ("2001", "2101"):  # a bet of one's own (and 佳佳宝's suggested groups)
        fast_bots(page, 0.05)
        start_as_player(page, code)
        page.click(".bet-chip[data-bet='5']")
        if code == "2101":  # two cards of the four make one group
            page.click("#group-panel .hand .card >> nth=0")
            page.click("#group-panel .hand .card >> nth=1")
            page.click("#group-submit")
    else:
        fast_bots(page, 0.01, claim_window=0.3, time_limit=0.2, tuoguan_after=100)
        open_room(page, code, seats=seats, bots=seats - 1, hands=2, time_limit=0)
    page.wait_for_selector("#settlement, #open-all", timeout=120_000)  # a whole hand
    screen_settlement(page)  # 宝子's 搓牌 opens one's own cards first
    page.wait_for_selector("#continue")
    look_both_ways(page, f"{code}-result", "#continue", ["#replay-link", "#settlement .verdict"])
