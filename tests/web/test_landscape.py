"""Phones held sideways (844x390), in Chinese and in English, as a person sees the page: every
table with the felt across the width and the seats round it, the player's hand along the
bottom wholly on the screen without scrolling and every card of it tappable, the buttons of
the decision on the screen and tappable, no seat over another, off the screen or under the
table's tools (⚙, 快捷语), nothing sticking out sideways and no text spilling out of its
box; the lobby, the waiting room and the club pages use the width and spill nothing.
Pictures of each table go to artifacts/web/landscape/ (docs/screenshots/landscape/ holds a
copy of them)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_climbing_table import hand_on_screen, tap
from test_danzi_table import returned
from test_majiang_table import (
    SIGNATURE,
    decided_in_window,
    seen_on_screen,
    signature,
    until_asked,
)
from test_majiang_table import tap as tap_tiles
from web_helpers import (
    ARTIFACTS,
    DealServer,
    ScriptedServer,
    WebServer,
    enter,
    fast_bots,
    hold_clock,
    open_room,
    screen_settlement,
    set_lang,
    tools_over_seats,
)

from majiang_play import decide

LANDSCAPE = {"width": 844, "height": 390}
SHOTS = ARTIFACTS / "landscape"

# what a person sees of the page, the top of it, or (``scroll``) with the hand's first
# element scrolled into view in the same task (nothing re-renders between the scroll and
# the look): the problems found
SEEN = """([hand, controls, scroll]) => {
  const first = document.querySelector(hand);
  if (scroll && first) first.scrollIntoView({block: 'nearest', inline: 'nearest'});
  else window.scrollTo(0, 0);
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
  // the title line's buttons and the language switch: none under another (the table's
  // tools beside them)
  for (const el of document.querySelectorAll('.room-head :is(a, button), #lang-switch')) {
    const r = el.getBoundingClientRect();
    if (!r.width) continue;
    const [x, y] = [(r.left + r.right) / 2, (r.top + r.bottom) / 2];
    for (const [px, py] of [[x, y], [r.left + 3, y], [r.right - 3, y]])
      if (inView(r) && !hits(el, px, py)) {
        out.push(`${name(el)} ${at(r)} covered by ${name(document.elementFromPoint(px, py))}`);
        break;
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
    if (box.closest('[role=marquee]')) continue;  // its text runs through its box by design
    const range = document.createRange();
    range.selectNodeContents(node);
    const t = range.getBoundingClientRect(), b = box.getBoundingClientRect();
    if (t.width === 0) continue;
    if (t.left < b.left - 1 || t.right > b.right + 1)
      out.push(`text spills: ${node.textContent.trim().slice(0, 30)} ${at(t)} in ${name(box)}`);
  }
  return out;
}"""


def seen_problems(page: Any, hand: str, controls: list[str], scroll: bool = False) -> list[str]:
    """What is wrong with the screen, looked at again for up to two seconds (a frame that a
    loaded machine paints late is not what a person sees). ``scroll``: ``hand`` is
    scrolled into view before each look, as a person scrolls back to it when the page
    grows above it (the lobby's rooms and announcements arrive while it is read)."""

    def look() -> list[str]:
        found: list[str] = page.evaluate(SEEN, [hand, controls, scroll])
        found += tools_over_seats(page)
        return found

    problems = look()
    for _ in range(20):
        if not problems:
            break
        page.wait_for_timeout(100)
        problems = look()
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
        problems = seen_problems(page, hand, controls, scroll)
        assert not problems, (lang, problems)
        page.screenshot(path=str(SHOTS / f"{name}-{lang}.png"), animations="disabled")
    set_lang(page, "zh")


def sideways(page: Any) -> None:
    page.set_viewport_size(LANDSCAPE)


# what of the felt's middle a person cannot see: a card or a line under a seat, or cut off
# by the middle's own edge (its middle and two corners are not the element's own)
HIDDEN = """(sel) => [...document.querySelectorAll(sel)].filter((el) => {
  const r = el.getBoundingClientRect();
  if (!r.width || !r.height) return false;  // not drawn (a chip this layout leaves out)
  const hit = (x, y) => {
    const top = document.elementFromPoint(x, y);
    return !!top && (el === top || el.contains(top));
  };
  return !(hit((r.left + r.right) / 2, (r.top + r.bottom) / 2) && hit(r.left + 3, r.top + 3)
    && hit(r.right - 3, r.bottom - 3));
}).map((el) => {
  const r = el.getBoundingClientRect();
  const what = el.dataset.card || el.textContent.trim().slice(0, 24);
  return `${what} at ${Math.round(r.left)},${Math.round(r.top)}`;
})"""


def felt_seen(page: Any, selector: str) -> None:
    """Every element of ``selector`` on the felt is seen whole, in both languages."""
    for lang in ("zh", "en"):
        set_lang(page, lang)
        hidden: list[str] = page.evaluate(HIDDEN, selector)
        for _ in range(20):  # a frame a loaded machine paints late
            if not hidden:
                break
            page.wait_for_timeout(100)
            hidden = page.evaluate(HIDDEN, selector)
        assert not hidden, (lang, selector, hidden)
    set_lang(page, "zh")


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
    look_both_ways(
        page, "anshan-majiang", "#mj-hand .mj-tile", ["#mj-turn button", "#mj-auto button"]
    )
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
        # claim_time 0: 麻将's form gives a player who can claim 8 s to decide, in a window
        # with no clock of the seat's own, which this player never answers; each such
        # window (0 to 3 in the deals looked at, more in some) held the hand 8 s, and on a
        # loaded machine the hand ran past the wait for its end
        fast_bots(page, 0.01, claim_window=0.3, time_limit=0.2, tuoguan_after=100, claim_time=0)
        open_room(page, code, seats=seats, bots=seats - 1, hands=2, time_limit=0)
    page.wait_for_selector("#settlement, #open-all", timeout=120_000)  # a whole hand
    screen_settlement(page)  # 宝子's 搓牌 opens one's own cards first
    page.wait_for_selector("#continue")
    look_both_ways(page, f"{code}-result", "#continue", ["#replay-link", "#settlement .verdict"])
    assert page.evaluate(LAST_LINE_CLEAR), "the result's last line stays under its buttons"


# the settlement scrolled to its end: its lowest line (a leaf, not of the buttons) clear of
# the result's buttons, which float over the settlement's foot
LAST_LINE_CLEAR = """() => {
  const s = document.getElementById('settlement');
  s.scrollTop = s.scrollHeight;
  const bar = document.getElementById('result-bar').getBoundingClientRect();
  const leaves = [...s.querySelectorAll('*')].filter((el) => !el.closest('#result-bar')
    && !el.children.length && el.getBoundingClientRect().height > 0);
  const low = leaves.map((el) => el.getBoundingClientRect())
    .reduce((a, r) => (r.bottom > a.bottom ? r : a));
  return low.bottom <= bar.top + 1 || low.right <= bar.left + 1 || low.left >= bar.right - 1;
}"""


SANDAHA_SEED = "landscape-12"
"""三打哈: seat 0 bids first (``SandahaGame.new_state(4, seed=...).first_bidder``, searched
over "landscape-N"): its bid of 5, the lowest, makes it the declarer whatever the bots do."""


def test_sandaha_burying_and_tricks_sideways(page: Any, deal_server: DealServer) -> None:
    """三打哈 as the declarer, held sideways: the 29 cards with the kitty taken up, 提示's
    eight picked and 扣底 on the screen; naming trumps; then, three tricks later, the
    trick on the felt whole beside its seats (none under one's own seat), 出牌, 上一轮 and
    the sorting tappable, and 上一轮's four plays whole in the trick's place. Nothing in
    the room is timed (no time per move), so the screens wait for the player.

    rule (003): "叫分最低者为庄家，庄家得到底牌" "4个玩家各发21牌，剩余8张为底牌" """
    page.base = deal_server.base
    deal_server.choose(SANDAHA_SEED)
    sideways(page)
    enter(page, "横屏埋底")
    fast_bots(page, 0.05)
    open_room(page, "sandaha", time_limit=0)
    page.wait_for_selector("#turn.mine ~ #mine .legal-actions button")
    page.click(".legal-actions button:last-child")  # 5: nobody can bid under it
    page.wait_for_selector("#bury-submit")
    assert len(page.query_selector_all("#sdh-hand .card")) == 29
    page.click("#sdh-hint")
    page.wait_for_function("document.querySelectorAll('#sdh-hand .card.selected').length === 8")
    look_both_ways(
        page, "sandaha-bury", "#sdh-hand .card", ["#bury-submit", "#sdh-hint", "#sdh-sort button"]
    )
    page.click("#bury-submit")
    page.wait_for_selector(".legal-actions button[data-action*='trump']")
    look_both_ways(page, "sandaha-trump", "#sdh-hand .card", [".legal-actions button"])
    page.click(".legal-actions button[data-action*='trump']")
    # three tricks or more by 提示 and 出牌, until the player follows in a trick (the
    # others' cards on the felt, 上一轮 beside them)
    for played in range(20):
        page.wait_for_selector("#play-submit", timeout=30_000)
        if played >= 3 and page.query_selector("#sdh-show-last"):
            break
        left = len(page.query_selector_all("#sdh-hand .card"))
        page.click("#sdh-hint")
        page.wait_for_function("!document.querySelector('#play-submit').disabled")
        page.click("#play-submit")
        page.wait_for_function(
            f"document.querySelectorAll('#sdh-hand .card').length < {left}", timeout=30_000
        )
    else:
        raise AssertionError("the player never followed in a trick")
    look_both_ways(
        page,
        "sandaha-tricks",
        "#sdh-hand .card",
        ["#play-submit", "#sdh-hint", "#sdh-show-last", "#sdh-sort button"],
    )
    felt_seen(page, "#table-center .trick-play .card, #table-center .chip")
    page.click("#sdh-show-last")
    page.wait_for_selector("#sdh-last")
    assert len(page.query_selector_all("#sdh-last .trick-play")) == 4
    felt_seen(page, "#sdh-last .trick-play .card, #sdh-last .trick-play small, #sdh-last .sdh-mid")
    look_both_ways(page, "sandaha-last-trick", "#sdh-hand .card", ["#sdh-show-last"])


DANZI_SEED = "landscape-0"
"""打弹子: with either finishing order below, seat 0 meets each of the screens listed
(``DanziGame.new_state`` played by the rule bot, searched over "landscape-N")."""
DANZI_TRIBUTE = [
    ([0, 1, 3, 2], ["pick", "return", "declare", "play"]),  # 头游: 挑选 and 还贡 (2/2)
    ([1, 3, 0, 2], ["pick", "declare", "play"]),  # 三游: 挑还贡牌, then 宣战 offered first
]


@pytest.mark.parametrize(("previous", "screens"), DANZI_TRIBUTE)
def test_danzi_tribute_sideways(
    page: Any, deal_server: DealServer, previous: list[int], screens: list[str]
) -> None:
    """打弹子's second deal held sideways, from 进贡 to the first play: the tribute log on
    the felt whole (no line under a seat or cut off), 挑选's pairs beside what to do, 还贡's
    chosen cards and its button, the cards one received beside the decision and the
    宣战 buttons above the hand, and at the first play the whole hand still on the
    screen. Nothing in the room is timed (no time per move), so the screens wait.

    rule (002): "三游和末游自动各拿出两张最大的牌给头游和二游挑选，头游有优先选择权";
    "进贡方得到贡牌之后，须拿出同样张数的牌作为还贡"; "在不宣战的情况下，三游优先选择还贡牌" """
    page.base = deal_server.base
    deal_server.choose(
        DANZI_SEED,
        {
            "totals": [12, 9],
            "deal_number": 1,
            "previous": {"finish_order": previous, "declarer": None},
            "match_over": False,
        },
    )
    sideways(page)
    enter(page, "横屏进贡")
    fast_bots(page, 0.05)
    open_room(page, "ningcheng-danzi", seats=4, bots=3, hands=1, time_limit=0)
    log = "#cl-tribute .card, #cl-tribute .cl-tribute-line, #cl-tribute .cl-who"
    name = f"ningcheng-danzi-{''.join(str(p) for p in previous)}"
    decision = "#turn.mine ~ #mine :is(#cl-pick, #cl-give, #cl-declare-offer, #cl-play)"
    seen: list[str] = []
    picked: list[str] = []
    while "play" not in seen:
        page.wait_for_selector(decision, timeout=30_000)
        if page.query_selector("#cl-pick"):
            seen.append("pick")
            look_both_ways(page, f"{name}-pick", "#cl-hand .card", ["#cl-pick button"])
            felt_seen(page, log)
            picked = page.eval_on_selector(
                "#cl-pick button", "b => JSON.parse(b.dataset.action).cards.split(' ')"
            )
            page.click("#cl-pick button >> nth=0")
            page.wait_for_selector("#cl-pick", state="detached")
        elif page.query_selector("#cl-give"):
            seen.append("return")
            hand = hand_on_screen(page)
            tap(page, hand, returned(hand, picked, len(picked)))
            page.wait_for_selector("#cl-give:not([disabled])")
            look_both_ways(page, f"{name}-return", "#cl-hand .card", ["#cl-give", "#cl-clear"])
            felt_seen(page, log)
            page.click("#cl-give")
            page.wait_for_selector("#cl-give", state="detached")
        elif page.query_selector("#cl-declare-offer"):
            seen.append("declare")
            look_both_ways(
                page, f"{name}-declare", "#cl-hand .card", [".cl-declare-buttons button"]
            )
            felt_seen(page, log)
            page.click("button[data-action*='decline']")
            page.wait_for_selector("#cl-declare-offer", state="detached")
        else:
            seen.append("play")
            look_both_ways(page, f"{name}-play", "#cl-hand .card", [".cl-controls button"])
            felt_seen(page, log)
    assert seen == screens, seen


def test_majiang_claim_and_commitment_sideways(
    page: Any, scripted: ScriptedServer, plan: Any
) -> None:
    """麻将 held sideways in a claim window held open (``plan``'s hand: the player is
    offered a 碰 or 吃): the bar with its buttons above the hand, the wall's count, the
    indicators and the discard up whole in the felt's middle column (not under a seat);
    after 过 the bar says what was chosen while the others decide and offers nothing more
    (a tap there could only be refused), also once the page is loaded again; the deal's
    commitment in the felt's corner opens its hash whole on the screen. The windows are
    held by the test's clock."""
    page.base = scripted.base
    sideways(page)
    enter(page, "横屏吃碰")
    fast_bots(page)
    hold_clock(page)
    room = open_room(page, "anshan-majiang", hands=1)
    page.wait_for_selector("#mj-hand .mj-tile")
    for _ in range(100):  # the player's discards as the plan made them, to its first claim
        until_asked(page, room)
        if page.query_selector("#mj-claim"):
            break
        assert page.query_selector("#mj-turn"), "the hand ended before the player's claim"
        before = signature(page)
        shown, legal = seen_on_screen(page)
        tap_tiles(page, decide(shown, legal, False, plan.state.rules))
        page.wait_for_function(f"({SIGNATURE})() !== {json.dumps(before)}", timeout=30_000)
    else:
        raise AssertionError("no claim window asked the player")
    middle = "#mj-wall, #mj-flip, #mj-hun, #mj-qiang, #mj-last"
    look_both_ways(page, "anshan-majiang-claim", "#mj-hand .mj-tile", ["#mj-claim .mj-act"])
    felt_seen(page, middle)
    page.click("#mj-claim .mj-act[data-kind='pass']")
    page.wait_for_selector("#mj-claim.sent #mj-sent")
    assert not page.query_selector("#mj-claim .mj-act, #mj-claim button")
    # the screen opened again in the window (a reload): the server tells it the choice it
    # kept, so the bar says it again and offers nothing
    page.reload()
    page.wait_for_selector("#mj-claim.sent #mj-sent")
    assert not page.query_selector("#mj-claim .mj-act, #mj-claim button")
    look_both_ways(page, "anshan-majiang-passed", "#mj-hand .mj-tile", ["#mj-sent"])
    felt_seen(page, middle)
    commitment = page.get_attribute("#commitment", "data-commitment")
    assert commitment
    page.click("#commitment summary")
    page.wait_for_selector("#commitment[open] p")
    said = {"zh": "发牌承诺", "en": "Deal commitment"}
    for lang in ("en", "zh"):  # opened once, it stays open as the language's switch redraws
        set_lang(page, lang)
        page.wait_for_function(
            f"document.querySelector('#commitment p')?.textContent.startsWith('{said[lang]}')"
        )
        assert page.query_selector("#commitment[open] p"), (lang, "the commitment closed")
        problems = seen_problems(
            page, "#mj-hand .mj-tile", ["#commitment summary", "#commitment p"]
        )
        assert not problems, (lang, problems)
        assert commitment in page.inner_text("#commitment p")
        page.screenshot(path=str(SHOTS / f"anshan-majiang-commitment-{lang}.png"))
    set_lang(page, "zh")
    decided_in_window(page, room)


FANGYANG_SEED = "landscape-8"
"""放羊: the first deal gives seat 0 the ♥4 (``FangyangGame.new_state``, searched over
"landscape-N"), so the player is the banker and calls."""


def test_fangyang_call_sideways(page: Any, deal_server: DealServer) -> None:
    """放羊's call held sideways, the player the banker (the ♥4's holder): the callable
    cards by suit, 亮 and 叫牌 on the screen and tappable; a card tapped says whom it
    makes one's partner and 叫牌 takes it, with the hand still whole below; then the banker
    leads. Pictures: ``anshan-fangyang-call``.

    rule (004, 鞍山放羊): "第一局由手中有红桃4的为庄家先出牌"; "由庄家选择一张A以下的牌,
    庄家与手中有庄家要的牌的玩家一伙" """
    page.base = deal_server.base
    deal_server.choose(FANGYANG_SEED)
    sideways(page)
    enter(page, "横屏叫牌")
    fast_bots(page, 0.05)
    open_room(page, "anshan-fangyang", seats=4, bots=3, time_limit=0)
    page.wait_for_selector("#turn.mine ~ #mine #cl-call")
    assert "4h" in hand_on_screen(page)
    look_both_ways(page, "anshan-fangyang-call", "#cl-call .card", ["#cl-call-submit", "#cl-liang"])
    page.click("#cl-call .cl-call-suit .card >> nth=0")
    page.wait_for_selector("#cl-call-mode")
    page.wait_for_selector("#cl-call-submit:not([disabled])")
    look_both_ways(page, "anshan-fangyang-called", "#cl-hand .card", ["#cl-call-submit"])
    page.click("#cl-call-submit")
    page.wait_for_selector("#cl-call", state="detached")
    page.wait_for_selector(".cl-controls button")  # the banker leads
