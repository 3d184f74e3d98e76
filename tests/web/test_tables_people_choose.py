"""The tables as a new player uses them on a 390x844 phone and a 1280x800 desktop: what
is on the screen without scrolling, no text overflowing its box, the result kept until
继续, suggestions drawn as cards, 倒水 asked first, the player's own rows played at a
timeout, 准备, refusals and the replay in Chinese. Screenshots go to artifacts/web/."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from web_helpers import (
    DESKTOP,
    PHONE,
    WebServer,
    enter,
    fast_bots,
    hand_by_index,
    open_room,
    shoot,
    token,
)

from paiju.cards import format_cards, parse_cards
from paiju.catalog import find_variant
from paiju.games.sandaha import rules as sandaha_rules
from paiju.games.shisanzhang.game import greedy_arrangement
from paiju.games.shisanzhang.rows import is_foul
from paiju.games.shisanzhang.spec import params_of

SIZES = {"phone": PHONE, "desktop": DESKTOP}
ROWS = ("front", "middle", "back")

ON_SCREEN = """(sel) => [...document.querySelectorAll(sel)].map((el) => {
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.top >= 0 && r.left >= 0
    && r.bottom <= innerHeight + 1 && r.right <= innerWidth + 1;
})"""

OVERFLOWING = """(sel) => [...document.querySelectorAll(sel)].filter((el) => {
  const r = el.getBoundingClientRect();
  return r.width > 0 && (el.scrollWidth > el.clientWidth + 1
    || el.scrollHeight > el.clientHeight + 2
    || r.left < -1 || r.right > innerWidth + 1);
}).map((el) => {
  // what sticks out, so that a failure says why: the box's sizes and its widest children
  const r = el.getBoundingClientRect();
  const out = [...el.querySelectorAll('*')].filter((c) => {
    const b = c.getBoundingClientRect();
    return b.width > 0 && (b.right > r.right + 1 || b.bottom > r.bottom + 1 || b.left < r.left - 1);
  }).slice(0, 3).map((c) => {
    const b = c.getBoundingClientRect();
    return `${c.tagName}.${c.className} [${Math.round(b.left)}-${Math.round(b.right)}`
      + ` x ${Math.round(b.top)}-${Math.round(b.bottom)}] "${c.textContent.slice(0, 20)}"`;
  });
  return `${el.className}: ${el.textContent.slice(0, 60)} | scroll ${el.scrollWidth}x`
    + `${el.scrollHeight} client ${el.clientWidth}x${el.clientHeight} at`
    + ` [${Math.round(r.left)}-${Math.round(r.right)} x ${Math.round(r.top)}-`
    + `${Math.round(r.bottom)}] of ${innerWidth}x${innerHeight} | ${out.join('; ')}`;
})"""


def on_screen(page: Any, selector: str) -> list[bool]:
    """For each element: wholly inside the viewport at the top of the page (no scrolling)."""
    page.evaluate("window.scrollTo(0, 0)")
    result: list[bool] = page.evaluate(ON_SCREEN, selector)
    return result


def overflowing(page: Any, selector: str, settle_ms: int = 2000) -> list[str]:
    """Elements whose text overflows their box, or that stick out of the screen, once the
    page has settled: what a person sees, not a frame of a resize or of an animation that
    a loaded machine paints late. Looked at again every 100 ms for up to ``settle_ms``; an
    overflow that lasts that long is returned."""
    result: list[str] = page.evaluate(OVERFLOWING, selector)
    for _ in range(settle_ms // 100):
        if not result:
            break
        page.wait_for_timeout(100)
        result = page.evaluate(OVERFLOWING, selector)
    return result


def one_line(page: Any, selector: str) -> bool:
    """Every element's text sits on one line (no "三/条" a character per line)."""
    heights = page.evaluate(
        "(sel) => [...document.querySelectorAll(sel)].map((el) => "
        "[el.getBoundingClientRect().height, parseFloat(getComputedStyle(el).lineHeight) || "
        "parseFloat(getComputedStyle(el).fontSize) * 1.4])",
        selector,
    )
    return all(h <= 1.6 * line for h, line in heights)


def _rows(hand: list[str]) -> tuple[list[str], list[str], list[str]]:
    params = params_of(find_variant("1301"))
    front, middle, back = greedy_arrangement(parse_cards(" ".join(hand)), params.row_rules())
    return (format_cards(front).split(), format_cards(middle).split(), format_cards(back).split())


def _place(page: Any, row: str, cards: list[str]) -> None:
    placed = {
        el.get_attribute("data-card")
        for el in page.query_selector_all(f".row-zone[data-row='{row}'] .card")
    }
    todo = [c for c in cards if c not in placed]
    if not todo:
        return
    for card in todo:
        page.click(f".hand-zone .card[data-card='{card}']")
    page.click(f".row-zone[data-row='{row}'] .row-label")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_1301_hand_rows_and_confirm_on_one_screen(page: Any, server: WebServer, size: str) -> None:
    """The 13 cards, the three rows and 确定 are all on the first
    screen; the hand is one line; row labels do not wrap; suggestions are cards with each
    row's hand type and the expected score, the chosen one marked; sort by suit."""
    page.set_viewport_size(SIZES[size])
    enter(page, f"一屏{size}")
    open_room(page, "1301")
    page.wait_for_selector(".hand-zone .card")
    page.wait_for_selector("#suggestions .sugg-card")
    assert len(page.query_selector_all(".hand-zone .card")) == 13
    assert all(on_screen(page, ".hand-zone .card")), "a card of the hand is off the screen"
    assert all(on_screen(page, ".row-zone")) and all(on_screen(page, "#ssz-submit"))
    tops = {
        round(b["y"])
        for b in (el.bounding_box() for el in page.query_selector_all(".hand-zone .card"))
    }
    assert len(tops) == 1, "the 13th card wrapped to a second line"
    assert one_line(page, ".row-zone .row-label b")
    # (the suggestions strip scrolls sideways: the first one is wholly on the screen)
    assert not overflowing(page, ".seat-name, .row-label, #ssz-submit")
    # a phone's one-line header may cut the room's title short: its whole text is its title
    title = page.query_selector(".room-head .room-title")
    assert title.get_attribute("title") == title.text_content()
    assert not overflowing(page, "#suggestions .sugg-card[data-suggestion='0'] .sugg-head")
    first = page.query_selector("#suggestions .sugg-card[data-suggestion='0']")
    assert len(first.query_selector_all(".card")) == 13
    cats = [el.inner_text() for el in first.query_selector_all(".sugg-cat")]
    assert len(cats) == 3 and all(re.search("[\u4e00-\u9fff]", c) for c in cats)
    # a signed expectation, or an even 0.0 (a deal whose best arrangement is expected to
    # come out level)
    assert re.search(r"预计 (?:[+-]\d+\.\d|0\.0)/家", first.inner_text())
    assert not re.search(r"\b[2-9TJQKA][shcd]\b", first.inner_text()), "raw card codes"
    first.click()
    assert (
        page.get_attribute("#suggestions .sugg-card[data-suggestion='0']", "aria-pressed") == "true"
    )
    page.click("#ssz-clear")
    page.click("#sort-suit")
    suits = [el.get_attribute("data-card")[1] for el in page.query_selector_all(".hand-zone .card")]
    assert suits == sorted(suits, key="shcd".index), "by suit: ♠ ♥ ♣ ♦"
    shoot(page, f"people-1301-arrange-{size}")


def test_foul_asks_before_it_is_played(page: Any, server: WebServer) -> None:
    """A fouled (倒水) arrangement is not played on one tap: the table asks,
    再摆一下 keeps the rows, 倒水也出 plays them."""
    enter(page, "倒水")
    room = open_room(page, "1301")
    page.wait_for_selector(".hand-zone .card")
    hand = [el.get_attribute("data-card") for el in page.query_selector_all(".hand-zone .card")]
    front, middle, back = _rows(hand)
    rules = params_of(find_variant("1301")).row_rules()
    swapped = (
        (back, middle)
        if is_foul(*(parse_cards(" ".join(r)) for r in (front, back, middle)), rules)
        else None
    )
    if swapped is None:  # middle above back fouls only when it is stronger: use the front
        front, middle = middle[:3], front + middle[3:]
    rows = (front, *(swapped or (middle, back)))
    for row, cards in zip(ROWS, rows, strict=True):
        _place(page, row, cards)
    page.wait_for_selector("#foul-warning")
    page.click("#ssz-submit")
    assert page.is_visible("#foul-confirm")
    shoot(page, "people-foul-confirm")
    page.click("#foul-confirm-no")
    assert page.query_selector("#foul-confirm") is None and page.is_visible("#ssz-submit")
    assert server.get(f"/api/rooms/{room}", token(page))["control"][0] == "player"
    page.click("#ssz-submit")
    page.click("#foul-confirm-yes")
    page.wait_for_selector("#settlement", timeout=30_000)


def test_result_stays_until_continue_with_totals_after_the_reveal(
    page: Any, server: WebServer
) -> None:
    """The totals are not in the first frame of the showdown, the
    result stays (no next hand on its own) until 继续; rows are explained by name; the
    running total of the room is shown."""
    enter(page, "继续")
    open_room(page, "1301", hands=3)
    page.wait_for_selector("#suggestions .sugg-card")
    page.click("#suggestions .sugg-card[data-suggestion='0']")
    page.click("#ssz-submit")
    page.wait_for_selector("#showdown")
    assert page.query_selector("#settlement") is None, "totals before the rows are turned"
    page.wait_for_selector("#settlement", timeout=10_000)
    # each row's mark and what it moved (1301 counts the rows 1, 2, 3 with their bonuses)
    assert re.search(r"头[▲▼=][+-]?\d*中[▲▼=][+-]?\d*尾[▲▼=]", page.inner_text("#showdown"))
    page.wait_for_selector("#session-total")
    assert "本场累计" in page.inner_text("#session-total")
    page.wait_for_timeout(4000)
    assert page.is_visible("#settlement"), "the result vanished before 继续"
    assert page.inner_text(".room-head .chip") == "第 1/3 局"  # the room says how long it lasts
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        assert all(on_screen(page, "#continue")) or size == "phone"
        # no seat clipped at the screen's edge, nothing sticking out of its box (the page is
        # shot first: a failure leaves the picture of what overflowed)
        stuck = overflowing(page, ".seat, .seat-score, .pair-score, .rows-result")
        shoot(page, f"people-result-{size}")
        assert not stuck, size
        assert one_line(page, ".seat .shown-row .cat, .pairs-box .rows-result")
    page.set_viewport_size(PHONE)
    page.click("#continue")
    page.wait_for_function(
        "document.querySelector('.room-head .chip')?.textContent === '第 2/3 局'"
    )
    page.wait_for_selector(".hand-zone .card")


def test_a_timeout_plays_the_rows_i_placed(page: Any, server: WebServer) -> None:
    """13 cards placed but not confirmed when the time runs out are played as
    placed (the second suggestion here, not the bot's first choice), and no 托管."""
    enter(page, "超时")
    open_room(page, "1301", time_limit=5, hands=1)
    # the solver's list comes with the deal; a loaded machine may take a while to draw it
    page.wait_for_selector("#suggestions .sugg-card[data-suggestion='1']", timeout=60_000)
    second = page.query_selector("#suggestions .sugg-card[data-suggestion='1']")
    rows = [
        [el.get_attribute("data-card") for el in row.query_selector_all(".card")]
        for row in second.query_selector_all(".sugg-row")
    ]
    second.click()
    page.wait_for_selector("#settlement", timeout=30_000)
    assert page.query_selector("#tuoguan") is None
    game = int(page.get_attribute("#settlement", "data-game"))
    record = server.get(f"/api/games/{game}")
    mine = [a for a in record["actions"] if a["seat"] == 0]
    assert mine[0]["actor"] == "player"
    assert [sorted(mine[0]["action"][r].split()) for r in ROWS] == [sorted(r) for r in rows]


def test_chinese_ui_speaks_chinese(page: Any, server: WebServer) -> None:
    """A refused bet is told in Chinese from its reason and params; the
    lobby's seats and the replay's log, icons and fairness checks are Chinese."""
    enter(page, "中文")
    open_room(page, "2001", seats=3, bots=0, seat=1)  # seat 1: a player, not the banker
    page.click("#start-now")
    page.wait_for_selector("#bet-amount")
    page.fill("#bet-amount", "50")
    page.click("#bet-submit")
    toast = page.wait_for_selector("#toast.show.error")
    assert "下注要在 1-10 之间，不能是 50" in toast.inner_text()
    page.click(".bet-chip[data-bet='2']")
    page.click("#open-all", timeout=30_000)  # 搓牌: both cards at once
    page.wait_for_selector("#settlement", timeout=30_000)
    page.click("#replay-link")
    page.wait_for_selector("#fairness")
    assert page.query_selector("#replay-first svg") is not None  # an SVG icon, not a glyph
    log = page.inner_text(".action-log")
    assert "下注" in log and "bet" not in log and "amount" not in log
    checks = page.inner_text(".checks")
    assert "重新发牌" in checks and "deal:" not in checks
    shoot(page, "people-replay-zh")
    page.goto(page.base + "/#/")
    page.wait_for_selector("[data-create='1301']")
    waiting = open_room(page, "1301", seats=3, bots=1, fill_after="")
    page.click(".room-head .back")
    row = page.wait_for_selector(f".room-row[data-room='{waiting}']")
    assert "机器人" in row.inner_text() and "bot" not in row.inner_text()


def test_ready_step_before_the_first_hand(page: Any, browser: Any, server: WebServer) -> None:
    """The hand does not start the instant a second player sits: 准备."""
    enter(page, "房主")
    room = open_room(page, "1301", seats=2, bots=0, fill_after="")
    others = browser.new_context(viewport=PHONE)
    try:
        b = others.new_page()
        b.set_default_timeout(20_000)
        b.base = page.base
        enter(b, "客人")
        b.click(f".room-row[data-room='{room}'] button.primary")
        b.wait_for_selector("#ready")
        page.wait_for_selector("#waiting li[data-seat='1'] .ready-mark:not(.on)")
        assert server.get(f"/api/rooms/{room}", token(page))["status"] == "waiting"
        shoot(b, "people-ready")
        b.click("#ready")
        b.wait_for_selector(".hand-zone .card")
        page.wait_for_selector(".hand-zone .card")
    finally:
        others.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_sandaha_and_baozi_keep_the_hand_on_screen(page: Any, server: WebServer, size: str) -> None:
    """三打哈's bids do not push the hand below the fold; 佳佳宝's own cards
    and the grouping's button are on the first screen."""
    page.set_viewport_size(SIZES[size])
    enter(page, f"三打哈{size}")
    open_room(page, "sandaha")
    page.wait_for_selector(".sandaha-mine .card")
    page.wait_for_selector("#sdh-choices .action", timeout=30_000)
    assert all(on_screen(page, ".sandaha-mine .card")), "a card of the hand is off the screen"
    assert on_screen(page, "#sdh-choices .action")[0]
    assert not overflowing(page, ".seat-name, .sdh-note")
    shoot(page, f"people-sandaha-bid-{size}")
    page.goto(page.base + "/#/")
    open_room(page, "2101", seats=3, bots=0, seat=1)
    page.click("#start-now")
    page.click(".bet-chip[data-bet='2']")
    page.wait_for_selector("#group-panel .hand .card", timeout=30_000)
    assert all(on_screen(page, "#group-panel .hand .card")) and all(
        on_screen(page, "#group-submit")
    )
    shoot(page, f"people-jiajiabao-group-{size}")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_lobby_tells_the_codes_apart(page: Any, server: WebServer, size: str) -> None:
    """Each 宝子 / 佳佳宝 entry says what makes it different (deck, points,
    best pair, ties); codes are not broken mid-word; the form counts seats from 1."""
    page.set_viewport_size(SIZES[size])
    enter(page, f"大厅{size}")
    notes = {
        el.get_attribute("data-code"): el.query_selector(".code-note").inner_text()
        for el in page.query_selector_all(".family[data-family='baozi'] .code")
    }
    assert len(notes) >= 10
    assert all("张" in n and "最大" in n for n in notes.values()), notes
    assert notes["2001"] != notes["2005"]  # AA best against KK best (A lowest)
    assert one_line(page, ".code .code-id")
    assert not overflowing(page, ".code .code-id")
    page.click("[data-create='1301']")
    assert page.get_attribute("#create-room input[name=seat]", "value") == "1"
    shoot(page, f"people-lobby-{size}")


def test_baozi_squeeze_and_own_seat_at_the_showdown(page: Any, server: WebServer) -> None:
    """宝子's own cards come face down (搓牌), turned one tap at a
    time; the result waits until they are open; then one's own seat shows its cards too."""
    enter(page, "搓牌")
    open_room(page, "2001", seats=3, bots=0, seat=1)
    page.click("#start-now")
    page.click(".bet-chip[data-bet='2']")
    page.wait_for_selector(".squeeze-back", timeout=30_000)
    assert len(page.query_selector_all("#my-cards-row .squeeze-back")) == 2
    assert all(on_screen(page, "#my-cards-row .card"))
    page.wait_for_timeout(2000)
    assert page.query_selector("#settlement") is None  # nothing spoils the squeeze
    page.click("#my-cards-row .squeeze-back[data-index='0']")
    assert len(page.query_selector_all("#my-cards-row .squeeze-back")) == 1
    shoot(page, "people-baozi-squeeze")
    page.click("#my-cards-row .squeeze-back")
    page.wait_for_selector("#settlement")
    assert len(page.query_selector_all(".seat.me .card")) == 2  # own seat not empty
    assert not overflowing(page, ".seat .bet, .seat .reading, .seat .result")
    shoot(page, "people-baozi-result")


def test_sandaha_marks_the_kitty_and_keeps_the_trick_history(page: Any, server: WebServer) -> None:
    """After the pickup the declarer's kitty cards are marked 底 until they are
    buried; every earlier trick can be looked at, not only the last one."""
    from paiju.games import game, make_bot

    st = game("sandaha").new_state(4, seed=3)
    while st.phase != "burying":
        s = min(st.to_act())
        st.apply(s, make_bot(st.game, s).act(st, s))
    declarer = min(st.to_act())
    burying = st.view(declarer)
    while st.phase == "burying" or st.phase == "naming" or len(st.view(0)["tricks"]) < 3:
        s = min(st.to_act())
        st.apply(s, make_bot(st.game, s).act(st, s))
    playing = st.view(0)
    page.goto(page.base + "/")
    counts = page.evaluate(
        """([burying, playing, declarer]) => import('/tables/sandaha.js').then((m) => {
             const ctx = (view, seat) => ({view, legal: null, seat, local: {}, events: [],
               seatName: (i) => `S${i}`, act: () => {}, rerender: () => {}, handOver: null});
             const a = m.render(ctx(burying, declarer));
             const c = ctx(playing, 0);
             let b = m.render(c);
             document.body.append(b.center);
             c.rerender = () => { b = m.render(c); };
             b.center.querySelector('#sdh-show-history').click();
             return [a.mine.querySelectorAll('.card.from-kitty').length,
                     b.center.querySelectorAll('#sdh-history li').length];
           })""",
        [burying, playing, declarer],
    )
    assert counts == [len(burying["taken"].split()), len(playing["tricks"])]
    assert counts[0] == 8 and counts[1] >= 3


def test_rule_pages_speak_to_players(page: Any, server: WebServer) -> None:
    """No page-break debris (the page numbers "2、" … of the 三打哈
    source) and no talk of our files in the rule pages."""
    enter(page, "规则")
    page.goto(page.base + "/#/rules/sandaha")
    text = page.wait_for_selector("#rules-zh").inner_text()
    assert "\n2、分" not in text and "降2、分" not in text and "降分；若有人" in text
    for code in ("1301", "1303", "1304", "1305", "ningcheng-danzi"):
        page.goto(page.base + f"/#/rules/{code}")
        page.wait_for_selector("#rules-reading-zh")
        for sel in ("#rules-reading-zh", "#rules-en"):
            words = page.eval_on_selector(sel, "el => el.textContent")
            assert words and "file 0" not in words and "CATALOG" not in words
            assert ".md" not in words and "issue" not in words
    shoot(page, "people-rules")


RULE_BOXES = ".rules h1, .rules h2, .rules p, .rules .rule-text, .rules summary, .rules a.back"


def visible(page: Any, selector: str) -> bool:
    return bool(page.is_visible(selector))


def fits(page: Any) -> None:
    """At both sizes, no text of the rule page overflows its box or leaves the screen."""
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        assert overflowing(page, RULE_BOXES) == [], size
    page.set_viewport_size(PHONE)


def test_rule_page_explains_in_the_players_language(page: Any, server: WebServer) -> None:
    """A Chinese player reads 规则说明 in Chinese under the original text (原文),
    an English one the English explanation; the other language waits behind a toggle. Nothing
    overflows its box at 390x844 or 1280x800."""
    enter(page, "读规则")
    page.goto(page.base + "/#/rules/1301")
    page.wait_for_selector("#rules-reading-zh")
    headings = page.eval_on_selector_all(".rules h2", "els => els.map((e) => e.textContent)")
    assert headings == ["规则原文", "规则说明"]
    # the original text "头和头比，中和中比，尾和尾比" and the reading of it, both in Chinese
    assert "头和头比，中和中比，尾和尾比" in page.inner_text("#rules-zh")
    reading = page.inner_text("#rules-reading-zh")
    assert "头道和头道比" in reading and "倒水" in reading and "三道全输" in reading
    assert not visible(page, "#rules-en"), "the English reading is shown in the Chinese UI"
    assert page.inner_text("#rules-other summary") == "English"
    fits(page)
    shoot(page, "rules-reading-zh")
    page.click("#rules-other summary")  # the toggle opens the English reading
    assert visible(page, "#rules-en") and "fouled" in page.inner_text("#rules-en")
    fits(page)

    page.click("#lang-switch")  # the same page in English
    page.wait_for_selector("text=How it is played here")
    assert page.eval_on_selector_all(".rules h2", "els => els.map((e) => e.textContent)") == [
        "Original text",
        "How it is played here",
    ]
    assert visible(page, "#rules-en") and "A fouled arrangement" in page.inner_text("#rules-en")
    assert not visible(page, "#rules-reading-zh")
    assert "中文说明" in page.inner_text("#rules-other summary")
    fits(page)
    shoot(page, "rules-reading-en")

    for code, zh_words, en_words in (
        ("sandaha", "抠底只在闲家用全是主牌的一手赢最后一轮时算", "抠底 counts only"),
        ("ningcheng-danzi", "宣战失败的玩家马上成为末游", "a failed declarer"),
        ("anshan-majiang", "打出的混谁也不能吃、碰、杠、胡", "a discarded 混 cannot be claimed"),
    ):
        page.goto(page.base + f"/#/rules/{code}")
        assert en_words in page.wait_for_selector("#rules-en").inner_text()
        fits(page)
        page.click("#lang-switch")
        assert zh_words in page.wait_for_selector("#rules-reading-zh").inner_text()
        assert not visible(page, "#rules-en")
        fits(page)
        page.click("#lang-switch")


SDH_DRAWN = """() => ({
  cards: [...document.querySelectorAll('#sdh-hand .card')].map((e) => e.dataset.card),
  groups: [...document.querySelectorAll('#sdh-hand .sdh-group')].map((g) => g.dataset.group),
  trump: document.getElementById('sdh-trump')?.dataset.trump ?? null,
})"""


def _sdh_order(trump: str | None) -> sandaha_rules.Order:
    """The engine's card order for the trump the table shows; with no trump named yet, only
    常主 are trumps (the 无主 order)."""
    return sandaha_rules.order(sandaha_rules.TRUMP_NAMES.index(trump or "none"))


def _sdh_rank_order(hand: list[str], trump: str | None) -> list[str]:
    """The hand high to low by the engine's strength (``rules.Order.strength``, in
    :func:`_sdh_order`); equal cards by suit ♠ ♥ ♣ ♦."""
    o = _sdh_order(trump)

    def key(text: str) -> tuple[int, int]:
        card = parse_cards(text)[0]
        return -o.strength(card), -1 if card.is_joker else card.suit

    return sorted(hand, key=key)


def _sdh_check_sorts(page: Any, label: str) -> str | None:
    """Tap 按大小 and 按花色 and check the drawn order against the engine at both sizes;
    returns the trump the check saw."""
    page.click("#sdh-sort-rank")
    assert page.get_attribute("#sdh-sort-rank", "aria-pressed") == "true"
    drawn = page.evaluate(SDH_DRAWN)
    held = hand_by_index(page, "#sdh-hand .card")
    assert drawn["cards"] == _sdh_rank_order(held, drawn["trump"]), drawn
    o = _sdh_order(drawn["trump"])
    trumps = [o.suit[parse_cards(c)[0]] == sandaha_rules.TRUMP for c in held]
    # 主牌/常主, then 副牌; a hand dealt no trump at all (no 王, 7 or 2 while bidding) has
    # only the side group
    expected = (["T"] if any(trumps) else []) + (["side"] if not all(trumps) else [])
    assert drawn["groups"] == expected, drawn
    for name, size in SIZES.items():
        page.set_viewport_size(size)
        assert all(on_screen(page, "#sdh-hand .card")), f"a card is off the {name} screen"
        assert all(on_screen(page, "#sdh-sort button")), f"the toggle is off the {name} screen"
        assert not overflowing(page, "#sdh-sort button, .sdh-group > small, .sdh-note")
        assert one_line(page, "#sdh-sort button")
    shoot(page, f"people-sandaha-sort-{label}")  # both sizes; ends at the phone's
    # 按花色: the server's grouping again (trumps first, then the suits, each high to low)
    page.click("#sdh-sort-suit")
    assert page.get_attribute("#sdh-sort-suit", "aria-pressed") == "true"
    suit = page.evaluate(SDH_DRAWN)
    assert suit["cards"] == hand_by_index(page, "#sdh-hand .card")
    assert sorted(suit["cards"]) == sorted(drawn["cards"])
    trump: str | None = drawn["trump"]
    return trump


def test_sandaha_sorts_by_suit_or_by_rank(page: Any, server: WebServer) -> None:
    """三打哈 sorts the hand by suit (trumps first) or by rank, the rank
    order being the game's own: 「大王、小王、主7、副7、主2、副2」 above the trump suit's A … 5,
    above the side cards. Checked while bidding (no trump yet: 常主 only) and again once
    trumps are named, at phone and desktop sizes, with the hand and the toggle on screen."""
    enter(page, "理牌")
    fast_bots(page)
    open_room(page, "sandaha")
    page.wait_for_selector("#sdh-hand .card")
    # a first room of the game offers the 新手教程 above the felt; this player declines it
    # (with it, a hand sorted into three rows reaches 7 px past a phone's foot)
    page.click("#learn-offer-no")
    page.wait_for_selector("#learn-offer", state="detached")
    page.wait_for_selector("#sdh-sort-suit.on")  # 按花色 is the default (the grouping)
    assert page.inner_text("#sdh-sort-rank") == "按大小"
    assert page.inner_text("#sdh-sort-suit") == "按花色"
    page.wait_for_selector("#turn.mine", timeout=30_000)
    bidding = "phase-bidding" in (page.get_attribute("#room", "class") or "")
    first = _sdh_check_sorts(page, "first")
    assert first is None or not bidding  # while bidding only 常主 are trumps
    page.click("#sdh-sort-rank")  # the choice stays while the hand is played (and after)
    for _ in range(60):
        page.wait_for_selector("#turn.mine, #settlement", timeout=30_000)
        room = page.get_attribute("#room", "class") or ""
        if "phase-playing" in room or page.query_selector("#settlement"):
            break
        assert page.get_attribute("#sdh-sort-rank", "aria-pressed") == "true"
        before = page.evaluate(f"JSON.stringify(({SDH_DRAWN})())")
        if "phase-burying" in room:
            for _ in range(8):
                page.click("#sdh-hand .card.pick:not(.selected):not(.blocked) >> nth=-1")
            page.click("#bury-submit")
        else:  # 叫分: the lowest bid on offer; 叫主: the first suit
            page.click(
                "#sdh-choices .action:last-child"
                if "phase-bidding" in room
                else "#sdh-choices .action:first-child"
            )
        page.wait_for_function(
            f"JSON.stringify(({SDH_DRAWN})()) !== {json.dumps(before)}"
            " || !document.querySelector('#turn.mine')",
            timeout=30_000,
        )
    else:
        raise AssertionError("trumps were not named")
    assert page.query_selector("#turn.mine") and not page.query_selector("#settlement")
    assert page.evaluate("localStorage.getItem('paiju.sandaha.sort')") == "rank"
    page.wait_for_selector("#sdh-trump")
    assert _sdh_check_sorts(page, "trumps") is not None
