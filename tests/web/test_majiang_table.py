"""麻将 in the browser: whole hands of 鞍山麻将 played by taps on the table, claims by the
claim buttons, the win screen checked against the engine and the server's record, and what
a phone (390x844) and a desktop (1280x800) show without scrolling and without text spilling
out of its box.

The scripted hand runs on a server of its own (``tests/majiang_launch.py``, the ``scripted``
fixture): every hand is dealt
from a seed the test chose, and the bots discard what they draw and pass every claim. The
test looks for that seed in-process first (``majiang_play.find_seed``: a hand in which its
player is offered a 碰 or 吃, takes it and wins), so the claim and the win are certain and
the screen can be compared with the engine's own result of the same hand. A second hand is
played on the ordinary server against the family's real bots, whatever is dealt.

rule (004): 「只有庄家可得到十四张牌,其余的人十三张牌。庄家从牌中选出一张最无用的牌丢出。」
「胡牌后,三家都付给胡牌家应付的分,点炮方会多付一番。…n番付2的n次方。」
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from web_helpers import (
    ARTIFACTS,
    DESKTOP,
    PHONE,
    ScriptedServer,
    WebServer,
    check_against_ledger,
    clock_state,
    enter,
    fast_bots,
    hold_clock,
    let_time_pass,
    open_room,
    set_lang,
    token,
)

from majiang_play import Seen, decide, ints, tiles_of
from paiju.games.majiang.rules import MajiangRules

HERE = Path(__file__).resolve().parent
CODE = "anshan-majiang"

# what changes on the page when an action is accepted (or the table moves on)
SIGNATURE = """() => [
  (document.getElementById('mj-hand') || {dataset: {}}).dataset.tiles,
  [...document.querySelectorAll('.mj-pond')].map(p => p.dataset.tiles).join('/'),
  [...document.querySelectorAll('.mj-meld')].length,
  !!document.getElementById('mj-claim'), !!document.getElementById('mj-turn'),
  !!document.getElementById('mj-result'), !!document.getElementById('settlement'),
  (document.getElementById('mj-wall') || {dataset: {}}).dataset.wall,
].join('|')"""

# every piece of text on the table that lies outside its box (or outside the viewport)
TEXT_OVERFLOW = """() => {
  const out = [];
  const root = document.getElementById('room');
  const vw = document.documentElement.clientWidth;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim()) continue;
    let box = node.parentElement;
    if (!box.offsetParent && getComputedStyle(box).position !== 'fixed') continue;  // hidden
    while (box && getComputedStyle(box).display.startsWith('inline')) box = box.parentElement;
    // a text cut short on purpose (…), its whole text kept as the box's title: not a spill
    const cut = getComputedStyle(box);
    if (cut.textOverflow === 'ellipsis' && box.title && box.title === box.textContent) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const t = range.getBoundingClientRect();
    const b = box.getBoundingClientRect();
    if (t.width === 0) continue;
    const spill = t.left < b.left - 1 || t.right > b.right + 1 || t.left < -1 || t.right > vw + 1;
    const at = (r) => `[${Math.round(r.left)}-${Math.round(r.right)}]`;
    const where = `<${box.tagName.toLowerCase()} class="${box.className}">`;
    if (spill) out.push(`${node.textContent.trim().slice(0, 30)} ${at(t)} in ${where} ${at(b)}`);
  }
  return out;
}"""

# the boxes that must be on screen without scrolling (top-level page scroll at 0)
VISIBLE = """(selectors) => {
  window.scrollTo(0, 0);
  const vw = document.documentElement.clientWidth, vh = window.innerHeight;
  const out = [];
  for (const sel of selectors) {
    const els = [...document.querySelectorAll(sel)];
    if (!els.length) out.push(`${sel}: missing`);
    for (const el of els) {
      const r = el.getBoundingClientRect();
      if (r.top < 0 || r.left < -1 || r.bottom > vh + 1 || r.right > vw + 1)
        out.push(`${sel}: ${[r.left, r.top, r.right, r.bottom].map(Math.round)} off ${vw}x${vh}`);
    }
  }
  return out;
}"""


def signature(page: Any) -> str:
    value: str = page.evaluate(SIGNATURE)
    return value


def seen_on_screen(page: Any) -> tuple[Seen, list[dict[str, Any]]]:
    """What the table shows the player, and its choices (buttons and playable tiles)."""
    info = page.evaluate(
        """() => ({
          hand: document.getElementById('mj-hand').dataset.tiles,
          melds: [...document.querySelectorAll('.mj-mymelds .mj-meld')]
            .map(m => [m.dataset.kind, m.dataset.tiles]),
          hun: (document.getElementById('mj-hun') || {dataset: {tiles: ''}}).dataset.tiles,
          buttons: [...document.querySelectorAll('.mj-bar .mj-act')]
            .map(b => JSON.parse(b.dataset.action)),
          playable: [...document.querySelectorAll('#mj-hand .mj-tile.playable')]
            .map(t => t.dataset.tile),
        })"""
    )
    seen = Seen(
        tiles_of(info["hand"]),
        tuple((kind, tiles_of(tiles)) for kind, tiles in info["melds"]),
        ints(f"{info['hun'][i : i + 2]}" for i in range(0, len(info["hun"]), 2)),
    )
    legal = [
        *info["buttons"],
        *({"type": "discard", "tile": t} for t in dict.fromkeys(info["playable"])),
    ]
    return seen, legal


def tap(page: Any, action: dict[str, Any]) -> None:
    """Do ``action`` as a person does: a button, or a tile tapped twice (pick, discard)."""
    if action["type"] == "discard":
        tile = page.locator(f"#mj-hand .mj-tile.playable[data-tile='{action['tile']}']").last
        tile.click()
        page.wait_for_selector("#mj-hand .mj-tile.picked")
        page.locator("#mj-hand .mj-tile.picked").click()
        return
    button = page.locator(
        f".mj-bar .mj-act[data-action='{json.dumps(action, separators=(',', ':'))}']"
    )
    try:
        button.click(timeout=10_000)
    except PlaywrightTimeout:
        # seen once on a loaded machine: the bar drawn again while Playwright waited for
        # the button to hold still; the tap itself, without that wait
        button.dispatch_event("click")


def until_asked(page: Any, room: int, me: int = 0, limit: int = 2_000) -> None:
    """In a room whose windows are held (``hold_clock``): let every window the player has
    no say in reach its end, until the screen asks the player (its turn, or a claim window
    it can claim in) or the hand is over."""
    for _ in range(limit):
        if page.query_selector("#mj-turn, #mj-result, #settlement"):
            return
        held = clock_state(page, room)
        if not held["window"]:
            page.wait_for_timeout(30)  # a bot's turn: its discard opens the next window
        elif me in held["asks"]:
            page.wait_for_selector("#mj-claim, #mj-result, #settlement")
            return
        elif not held["pending"]:
            # the window's time is up already: its decisions are being played, each after
            # the commit of the one before (nothing is due on the clock until they are)
            page.wait_for_timeout(30)
        else:
            let_time_pass(page, room)
    raise AssertionError(f"the screen did not ask the player after {limit} looks")


def decided_in_window(page: Any, room: int, me: int = 0) -> None:
    """After the player's tap in a held claim window: once the server keeps the decision,
    the window reaches its end (its decisions are played and shown)."""
    for _ in range(500):
        held = clock_state(page, room)
        if not held["window"] or me not in held["asks"]:
            break
        page.wait_for_timeout(20)
    else:
        raise AssertionError("the server never had the player's decision")
    if held["window"] and held["pending"]:  # (none: it is closing already)
        let_time_pass(page, room)


def lang(page: Any) -> str:
    value: str = page.evaluate("document.documentElement.lang")
    return value


def layout_problems(page: Any, must_show: list[str]) -> list[str]:
    problems: list[str] = []
    for size, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page.set_viewport_size(size)
        page.wait_for_timeout(50)
        problems += [f"{name}: {p}" for p in page.evaluate(VISIBLE, must_show)]
        problems += [f"{name}: text spills: {p}" for p in page.evaluate(TEXT_OVERFLOW)]
    page.set_viewport_size(PHONE)
    return problems


def shoot(page: Any, name: str) -> None:
    """Screenshots of what a player sees (the viewport, unscrolled) at both sizes."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for size, label in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page.set_viewport_size(size)
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(ARTIFACTS / f"{name}-{label}.png"), animations="disabled")
        page.screenshot(
            path=str(ARTIFACTS / f"{name}-{label}-full.png"), full_page=True, animations="disabled"
        )
    page.set_viewport_size(PHONE)


def play_hand(
    page: Any,
    room: int,
    rules: MajiangRules,
    on_claim: Any = None,
    limit: int = 200,
    late: Any = None,
    every: Any = None,
    late_at: int = 30,
) -> list[dict[str, Any]]:
    """Play the seat by taps until the hand is over, in a room whose windows are held
    (each one the player is asked in is read and answered before its time passes); returns
    the actions taken. ``late`` is called once, at the first decision with ``late_at``
    tiles or more in the rivers (the felt at its fullest), ``every`` at every decision."""
    taken: list[dict[str, Any]] = []
    claimed = False
    for _ in range(limit):
        until_asked(page, room)
        if page.query_selector("#mj-result") or page.query_selector("#settlement"):
            return taken
        if late is not None and len(page.query_selector_all(".mj-pond .mj-tile")) >= late_at:
            late()
            late = None
        if every is not None:
            every()
        before = signature(page)
        seen, legal = seen_on_screen(page)
        if page.query_selector("#mj-turn"):
            # 「只有庄家可得到十四张牌,其余的人十三张牌」: on one's turn 14 tiles, melds counted
            assert len(seen.hand) + 3 * len(seen.melds) == 14, seen
        action = decide(seen, legal, claimed, rules)
        if action["type"] in ("peng", "chi") and on_claim is not None:
            on_claim(action)
        claimed = claimed or action["type"] in ("peng", "chi")
        in_window = page.query_selector("#mj-claim") is not None
        tap(page, action)
        if in_window:
            decided_in_window(page, room)
        taken.append(action)
        page.wait_for_function(f"({SIGNATURE})() !== {json.dumps(before)}", timeout=30_000)
    raise AssertionError(f"the hand did not end after {limit} decisions")


def test_scripted_hand_with_a_claim_and_the_win_screen(
    page: Any, scripted: ScriptedServer, plan: Any
) -> None:
    """A whole hand at seat 0 against three bots, every decision a tap: the 碰/吃 button of a
    claim window (with 过 beside it, and nothing the seat may not do), tiles tapped twice to
    discard, 胡 when it comes. The win screen shows the engine's result of the same hand: the
    arrangement, every fan, each loser's 2^fan; the settlement equals the record and the ledger.

    rule (004): 「胡牌后,三家都付给胡牌家应付的分,点炮方会多付一番。自摸为三家点炮。」"""
    page.base = scripted.base
    enter(page, "麻将")
    fast_bots(page)
    hold_clock(page)  # the checks below are made inside a window held open
    room = open_room(page, CODE, hands=1)
    page.wait_for_selector("#mj-hand .mj-tile")
    shots: list[str] = []

    def at_claim(action: dict[str, Any]) -> None:
        kinds = set(
            page.eval_on_selector_all(".mj-bar .mj-act", "els => els.map(e => e.dataset.kind)")
        )
        assert "pass" in kinds and action["type"] in kinds, kinds
        assert kinds <= {"hu", "gang", "peng", "chi", "pass"}, kinds
        assert not page.query_selector("#mj-hand .mj-tile.playable")  # no discard in a window
        if not shots:
            # the page is in English until this first claim: its buttons in English, on
            # screen at both sizes
            assert "Pass" in page.inner_text("#mj-claim")
            problems = layout_problems(page, ["#mj-hand", "#mj-claim", "#mj-claim .mj-act"])
            assert not problems, problems
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "majiang-claim-en-phone.png"))
            shots.append("claim-en")
        elif "claim-zh" not in shots and lang(page) == "zh":
            assert "过" in page.inner_text("#mj-claim")
            shots.append("claim-zh")

    def every() -> None:
        if shots and lang(page) == "en":
            set_lang(page, "zh")  # after the first claim, in Chinese again

    def late_in_the_hand() -> None:
        problems = layout_problems(page, ["#mj-hand", ".mj-bar", ".mj-bar .mj-prompt"])
        assert not problems, problems
        shoot(page, "majiang-late")

    set_lang(page, "en")
    taken = play_hand(page, room, plan.state.rules, at_claim, late=late_in_the_hand, every=every)
    set_lang(page, "zh")
    assert shots[0] == "claim-en", shots
    assert [a["type"] for a in taken if a["type"] in ("peng", "chi")] == plan.claims
    result = page.wait_for_selector("#mj-result")
    assert result.get_attribute("data-kind") == "win"
    (win,) = plan.state.wins
    panel = page.locator("#mj-result .mj-win")
    assert panel.get_attribute("data-seat") == "0" and panel.get_attribute("data-how") == win.how
    fans = page.eval_on_selector_all(
        "#mj-result .mj-fans li", "els => els.map(e => [e.dataset.fan, Number(e.dataset.count)])"
    )
    expected: dict[str, int] = {}
    for f in win.fans:
        expected[f] = expected.get(f, 0) + 1
    assert dict(fans) == expected
    assert page.get_attribute("#mj-result .mj-win", "data-fan") == str(len(win.fans))
    groups = page.eval_on_selector_all(
        "#mj-result .mj-group[data-type]", "els => els.map(e => e.dataset.tiles)"
    )
    assert groups == [g["tiles"] for g in win.groups]
    rows = page.eval_on_selector_all(
        "#mj-result .mj-pay tbody tr", "els => els.map(e => Number(e.dataset.delta))"
    )
    assert rows == list(win.deltas) == list(plan.state.settlement())
    for p in win.pay:
        text = page.inner_text(f"#mj-result .mj-pay tr[data-seat='{p['seat']}'] .mj-exp")
        assert f"2^{p['fan']} = {p['pay']}" in text, text
    record = check_against_ledger(page, scripted, 0)
    assert record["settlement"] == list(plan.state.settlement())
    problems = layout_problems(page, ["#mj-result h3", "#mj-result .mj-fans"])
    assert not problems, problems
    shoot(page, "majiang-win")
    page.evaluate("() => import('/js/i18n.js').then(m => m.setLang('en'))")
    page.wait_for_function("document.querySelector('#mj-result h3').textContent.includes('won')")
    problems = layout_problems(page, ["#mj-result h3"])
    assert not problems, problems
    shoot(page, "majiang-win-en")
    page.evaluate("() => import('/js/i18n.js').then(m => m.setLang('zh'))")
    # the replay draws every step with the same table
    page.click("#replay-link")
    page.wait_for_selector("#replay-felt .mj-pond")
    assert page.query_selector_all("#replay-felt .mj-tile")


def test_hand_against_the_family_bots(page: Any, server: WebServer) -> None:
    """A whole hand on the ordinary server against the family's bots, whatever is dealt:
    every decision by a tap, the turn bar and hand on screen at both sizes, and the end
    (a win with its fans and payments, or 流局) equal to the server's record."""
    enter(page, "麻将")
    fast_bots(page)
    hold_clock(page)
    room = open_room(page, CODE, hands=1, time_limit=60)
    page.wait_for_selector("#mj-hand .mj-tile")
    seen_turn: list[bool] = []

    def check_turn_layout() -> None:
        if not seen_turn and page.query_selector("#mj-turn"):
            # the seat's clock runs in the bar
            page.wait_for_function(
                "() => /\\d/.test(document.querySelector('.mj-bar .timer .secs').textContent)"
            )
            problems = layout_problems(page, ["#mj-hand", "#mj-turn", "#mj-turn .timer"])
            assert not problems, problems
            shoot(page, "majiang-turn")
            seen_turn.append(True)

    def late_in_the_hand() -> None:
        problems = layout_problems(page, ["#mj-hand", ".mj-bar", ".mj-bar .mj-prompt"])
        assert not problems, problems
        shoot(page, "majiang-late-bots")

    play_hand(
        page, room, MajiangRules(), every=check_turn_layout, late=late_in_the_hand, late_at=60
    )
    assert seen_turn, "the seat never had a turn"
    record = check_against_ledger(page, server, 0)
    result = page.wait_for_selector("#mj-result")
    if result.get_attribute("data-kind") == "win":
        rows = page.eval_on_selector_all(
            "#mj-result .mj-pay tbody tr", "els => els.map(e => Number(e.dataset.delta))"
        )
        assert rows == record["settlement"]
    else:
        assert record["settlement"] == [0, 0, 0, 0]  # 流局: nobody pays
    problems = layout_problems(page, ["#mj-result h3"])
    assert not problems, problems


def test_tiles_are_drawn_not_typed(page: Any, server: WebServer) -> None:
    """Every one of the 34 kinds is an SVG drawing (no text node, no font glyph) with its
    name for screen readers, and the 混 and 枪 marks follow the view."""
    page.goto(server.base + "/")
    got = page.evaluate(
        """() => import('/tables/mjtiles.js').then(m => {
          const kinds = [];
          for (const s of 'mps') for (let n = 1; n <= 9; n++) kinds.push(n + s);
          for (let n = 1; n <= 7; n++) kinds.push(n + 'z');
          return kinds.map(k => {
            const el = m.tileEl(k, {hun: ['5m'], qiang: ['4m']});
            return [k, el.textContent, el.querySelectorAll('svg path, svg circle, svg rect').length,
                    el.getAttribute('aria-label'), el.classList.contains('hun'),
                    el.classList.contains('qiang')];
          });
        })"""
    )
    assert len(got) == 34
    for kind, text, shapes, label, hun, qiang in got:
        assert text == "" and shapes > 0 and label, (kind, text, shapes, label)
        assert hun == (kind == "5m") and qiang == (kind == "4m")
    names = {k: label for k, _, _, label, _, _ in got}
    assert (
        names["8m"] == "八万"
        and names["3p"] == "三筒"
        and names["7z"] == "中"
        and names["1z"] == "东"
    )


def test_strings_exist_in_both_languages(page: Any, server: WebServer) -> None:
    """Every string of the mahjong table exists in Chinese and in English."""
    page.goto(server.base + "/")
    keys = page.evaluate(
        """() => import('/tables/majiang-strings.js').then(m => ({
             zh: Object.keys(m.MJ_STRINGS.zh).sort(), en: Object.keys(m.MJ_STRINGS.en).sort()}))"""
    )
    ones = {k for k in keys["en"] if k.endswith(".one")}  # English words for a count of 1
    assert keys["zh"] == sorted(set(keys["en"]) - ones) and len(keys["zh"]) > 50
    assert {k.removesuffix(".one") for k in ones} <= set(keys["zh"])


def test_room_switches_on_the_lobby_form(page: Any, server: WebServer) -> None:
    """The lobby's form offers the reading's room switches; an 暗枪 room shows no 枪 until
    the win ("turned up after the win") and the room keeps the choice.

    rule (004): 「枪有两种:1)明枪房间:翻混的时候上滚那张就是枪,在胡牌之前就可以看到。
    …2)暗枪房间:胡牌后的下一张牌是枪。」"""
    enter(page, "暗枪")
    page.click(f"[data-create='{CODE}']")
    page.wait_for_selector("#create-room select[name='g.qiang']")
    names = page.eval_on_selector_all(
        "#create-room [name^='g.']", "els => els.map(e => e.name.slice(2))"
    )
    assert set(names) == {
        "qiang",
        "hun",
        "dealer_rotation",
        "zhuang",
        "qionghu",
        "shisanyao",
        "multiple_winners",
        "hun_may_make_dragon_pair",
        "no_258_pair",
    }
    page.select_option("#create-room select[name='g.qiang']", "an")
    page.fill("#create-room input[name=bots]", "3")
    page.fill("#create-room input[name=time_limit]", "0")
    page.fill("#create-room input[name=hands]", "1")
    page.click("#create-submit")
    page.wait_for_selector("#mj-qiang .mj-an")
    assert not page.query_selector("#mj-qiang .mj-tile")
    room = int(page.url.rsplit("/", 1)[1])
    info = server.get(f"/api/rooms/{room}", token(page))
    assert info["game_options"]["qiang"] == "an", info


OTHERS_DISCARDS = """(me) => [...document.querySelectorAll('.mj-pond')]
  .filter((p) => Number(p.dataset.seat) !== me)
  .reduce((n, p) => n + p.querySelectorAll('.mj-tile').length, 0)"""

QUIET = """() => ({
  turn: document.getElementById('turn')?.innerText || '',
  mine: !!document.querySelector('#turn.mine'),
  claim: !!document.getElementById('mj-claim'),
  clocks: document.querySelectorAll('#turn .timer, .seat.me .timer, .mj-bar .timer').length,
  sounds: (window.__paijuSounds || {}).turn || 0,
})"""


def test_a_window_with_nothing_to_claim_shows_nothing(page: Any, server: WebServer) -> None:
    """After another seat's discard every seat is asked (the window hides who could claim),
    but the screen asks only a player who can claim: with 过 alone there is no 轮到你了, no
    clock and no sound, play simply goes on; with a claim the bar asks, with its clock. The
    windows are held open by the test's clock while the screen is read."""
    enter(page, "不能碰")
    fast_bots(page)
    hold_clock(page)
    room = open_room(page, CODE, hands=1, time_limit=60)
    page.wait_for_selector("#mj-hand .mj-tile")
    quiet = 0
    for _ in range(2_000):
        if page.query_selector("#mj-result"):
            break
        if page.query_selector("#mj-turn"):  # one's own turn: discard as a person does
            before = signature(page)
            shown, legal = seen_on_screen(page)
            tap(page, decide(shown, legal, False, MajiangRules()))
            page.wait_for_function(f"({SIGNATURE})() !== {json.dumps(before)}", timeout=30_000)
            continue
        held = clock_state(page, room)
        if not held["window"]:
            page.wait_for_timeout(30)  # a bot's turn
            continue
        if 0 not in held["acting"]:  # the window on one's own discard
            let_time_pass(page, room)
            continue
        # a window on another seat's discard, held open: the screen shows that discard
        others = sum(held["rivers"][1:])
        page.wait_for_function(f"() => ({OTHERS_DISCARDS})(0) >= {others}", timeout=30_000)
        if 0 in held["asks"]:
            page.wait_for_selector("#mj-claim")
            screen = page.evaluate(QUIET)
            assert screen["mine"] and screen["clocks"] >= 1, screen
            page.click("#mj-claim button[data-kind='pass'], #mj-claim .pass")
            decided_in_window(page, room)
            continue
        screen = page.evaluate(QUIET)
        assert not screen["claim"], screen
        assert not screen["mine"] and "轮到你了" not in screen["turn"], screen
        assert screen["clocks"] == 0, screen
        quiet += 1
        if quiet == 2:
            assert page.evaluate(QUIET)["sounds"] <= screen["sounds"]
            break
        let_time_pass(page, room)
    assert quiet == 2, "no window with nothing to claim came"


def test_the_tables_toggles_play_for_the_player(page: Any, server: WebServer) -> None:
    """自动和牌, 不吃碰杠 and 自动摸切, each a toggle on the table (remembered by the
    browser), as 雀魂 has them: with all three on a hand plays itself out - a win taken when
    one comes, every chow, pung and kong let go, each drawn tile discarded - with no tap but
    where the seat has another choice (a concealed kong) on its turn. The record shows every
    decision the player's own (no timeout, no bot)."""
    import httpx

    enter(page, "自动")
    fast_bots(page, claim_window=0.3)
    open_room(page, CODE, hands=1, time_limit=0)
    page.wait_for_selector("#mj-auto")
    for toggle in ("#mj-auto-win", "#mj-no-claims", "#mj-tsumogiri"):
        page.click(toggle)
        assert page.get_attribute(toggle, "aria-pressed") == "true"
    tapped = 0
    for _ in range(60):
        try:
            page.wait_for_selector("#mj-result, #settlement", timeout=15_000)
            break
        except PlaywrightTimeout:  # a turn with a choice of one's own waits for a tap
            if page.query_selector("#mj-turn"):
                drawn = page.get_attribute("#mj-hand .mj-tile.mj-drawn", "data-tile")
                tile = page.locator(f"#mj-hand .mj-tile.playable[data-tile='{drawn}']").last
                tile.click()
                tile.click()
                tapped += 1
    page.wait_for_selector("#settlement", timeout=30_000)
    game = int(page.get_attribute("#settlement", "data-game"))
    record = httpx.get(f"{page.base}/api/games/{game}", timeout=10).json()
    steps = httpx.get(f"{page.base}/api/games/{game}/replay?seat=0", timeout=30).json()["steps"]
    # its decisions (not the windows it could only pass in, which the server passes)
    mine = [
        (i, a)
        for i, a in enumerate(record["actions"])
        if a["seat"] == 0 and not steps[i + 1]["only"]
    ]
    assert mine and all(a["actor"] == "player" for _, a in mine), mine
    kinds = {a["action"]["type"] for _, a in mine}
    assert not kinds & {"chi", "peng", "gang"}, kinds
    discards = [(i, a) for i, a in mine if a["action"]["type"] == "discard"]
    drawn_each = [steps[i]["view"].get("drawn") for i, _ in discards]
    assert [a["action"]["tile"] for _, a in discards] == drawn_each
    assert tapped <= 2
    # remembered by the browser, for its next table
    kept = page.evaluate("JSON.parse(localStorage.getItem('paiju.prefs') || '{}')")
    assert kept["mjAutoWin"] and kept["mjNoClaims"] and kept["mjTsumogiri"], kept
