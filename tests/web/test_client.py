"""The client around the tables: the English switch, the turn timer and 托管, the replay
viewer's fairness proof, the ledger chart, the generic table, and the client's own
computations (sha256, the 倒水 warning) checked against Python on many inputs."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from web_helpers import (
    WebServer,
    check_against_ledger,
    enter,
    hold_clock,
    let_time_pass,
    open_room,
    shoot,
)

from paiju.cards import deck, format_cards
from paiju.games.shisanzhang.rows import RowRules, is_foul

FIXTURE_OK = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def test_english_switch(page: Any, server: WebServer) -> None:
    """Chinese by default; the switch turns every UI string to English and is kept."""
    enter(page, "lang")
    shoot(page, "lobby")
    assert page.inner_text("[data-create='1301']") == "开房间"
    assert page.inner_text("#nav-ledger") == "积分"
    page.click("#lang-switch")
    page.wait_for_function(
        "document.querySelector(\"[data-create='1301']\")?.textContent === 'New room'"
    )
    assert page.inner_text("#nav-ledger") == "Ledger"
    assert page.inner_text("#lang-switch") == "中文"
    page.reload()
    page.wait_for_selector("[data-create='1301']")
    assert page.inner_text("[data-create='1301']") == "New room"
    open_room(page, "1301")
    page.wait_for_selector("#ssz-submit")
    assert page.inner_text("#ssz-submit") == "Confirm rows"
    assert page.inner_text(".row-zone[data-row='front'] .row-label") == "Front"
    # Switching inside a room re-renders it in place (the socket and the seat stay).
    page.click("#lang-switch")
    page.wait_for_function("document.querySelector('#ssz-submit')?.textContent === '确定摆牌'")
    assert page.inner_text(".row-zone[data-row='front'] .row-label") == "头墩"
    shoot(page, "shisanzhang-zh")


def test_timer_tuoguan_and_cancel(page: Any, server: WebServer) -> None:
    """A decision timer runs on the player's seat, with a beep in its last seconds; one
    timeout lets the bot decide that once and the result stays until 继续; only the second
    timeout in a row puts the seat in 托管 (shown on the seat and in a banner) until the
    player cancels it. The room's clock is the test's (``hold_clock``): the seat's time runs
    out when the test has read the clock."""
    enter(page, "托管")
    hold_clock(page)
    room = open_room(page, "1301", time_limit=2, hands=3)
    page.wait_for_selector("#turn .timer .secs")
    assert page.inner_text("#turn .timer .secs").endswith("秒")
    # the low-time sound: the page's own countdown reaches its last seconds
    page.wait_for_function("(window.__paijuBeeps || 0) >= 1")
    let_time_pass(page, room)  # the seat's time is up
    page.wait_for_selector("#settlement", timeout=30_000)
    assert page.query_selector("#tuoguan") is None  # one timeout is not 托管
    page.wait_for_timeout(1500)
    assert page.is_visible("#settlement") and page.is_visible("#continue")  # still there
    page.click("#continue")
    let_time_pass(page, room)  # the next hand's time is up too
    banner = page.wait_for_selector("#tuoguan", timeout=30_000)
    assert "托管" in banner.inner_text()
    assert page.inner_text(".seat.me .badge.ctl") == "托管中"
    shoot(page, "tuoguan")
    page.click("#tuoguan-cancel")
    page.wait_for_selector("#tuoguan", state="detached")
    assert page.query_selector(".seat.me .badge.ctl") is None


def test_replay_viewer_checks_the_fairness_proof(page: Any, server: WebServer) -> None:
    """After a hand, the replay steps through the log and shows the proof checked."""
    enter(page, "回放")
    open_room(page, "2001", seats=3, bots=0, seat=1)
    page.click("#start-now")
    page.click(".bet-chip[data-bet='2']")
    record = check_against_ledger(page, server, seat=1)
    page.click("#replay-link")
    page.wait_for_selector("#fairness")
    assert page.get_attribute("#hash-check", "data-ok") == "true"
    assert hashlib.sha256(record["seed"].encode()).hexdigest() == record["commitment"]
    assert page.is_visible("#fair-verdict.ok-note")
    # docs/fairness.md: the browser added its own seed to the deal, and re-dealt it
    assert record["client_seeds"] is not None and record["client_seeds"][1]
    assert page.is_visible("#my-seed-check.ok-note")
    assert page.get_attribute("#deal-check", "data-ok") == "true"
    checks = {el.get_attribute("data-check") for el in page.query_selector_all(".checks li.ok")}
    assert {"commitment", "deal", "log", "settlement"} <= checks
    n = len(record["actions"])
    assert page.inner_text("#replay-step") == f"第 {n} / {n} 步"
    page.click("#replay-first")
    assert page.inner_text("#replay-step") == f"第 0 / {n} 步"
    assert len(page.query_selector_all(".action-log li.done")) == 0
    page.click("#replay-next")
    assert len(page.query_selector_all(".action-log li.done")) == 1
    assert page.query_selector("#replay-settlement") is None
    page.click("#replay-last")
    assert page.is_visible("#replay-settlement")
    # The table at each step, as the server's per-step view draws it (宝子's table).
    page.click("[data-viewer='1']")
    page.wait_for_selector("#replay-viewer button.primary[data-viewer='1']")
    assert len(page.query_selector_all("#replay-felt .seat")) == 3
    assert len(page.query_selector_all("#replay-felt .seat[data-seat='0'] .card")) == 2
    page.click("#replay-first")
    assert page.query_selector_all("#replay-felt .card") == []  # nothing dealt before the bets
    shoot(page, "replay")
    # switching the language keeps the seat shown and the step reached
    page.click("#replay-next")
    page.click("#lang-switch")
    page.wait_for_function(
        "(document.getElementById('replay-step')?.innerText || '').startsWith('Step')"
    )
    assert page.inner_text("#replay-step") == f"Step 1 / {n}"
    page.wait_for_selector("#replay-viewer button.primary[data-viewer='1']")
    assert len(page.query_selector_all(".action-log li.done")) == 1
    page.click("#lang-switch")
    page.wait_for_function(
        "(document.getElementById('replay-step')?.innerText || '').startsWith('第')"
    )
    page.click("#nav-ledger")
    page.wait_for_selector("#balance-chart")
    mine = server.get(
        "/api/players/me/ledger", page.evaluate("localStorage.getItem('paiju.token')")
    )
    assert page.get_attribute("#balance", "data-balance") == str(mine["balance"])
    assert len(page.query_selector_all("#balance-chart circle")) == len(mine["entries"]) + 1
    shoot(page, "ledger")


def test_generic_table_lists_the_legal_actions(page: Any, server: WebServer) -> None:
    """The table of a family without its own module: its view, cards drawn, and one
    button per legal action that sends exactly that action."""
    page.goto(page.base + "/")
    result = page.evaluate(
        """() => import('/tables/generic.js').then(m => {
             const sent = [];
             const ctx = {view: {code: 'x', phase: 'playing', seat: 0, to_act: [0],
                                 hand: 'As Td 9c', pot: 3},
                          legal: [{type: 'play', cards: 'As'}, {type: 'pass'}],
                          seat: 0, act: (a) => sent.push(a)};
             const parts = m.render(ctx);
             document.body.append(parts.mine);
             const buttons = [...parts.mine.querySelectorAll('button.action')];
             buttons[1].click();
             const cards = [...parts.mine.querySelectorAll('.card')].map(c => c.dataset.card);
             return {labels: buttons.map(b => b.textContent), sent, cards};
           })"""
    )
    assert result["labels"] == ["play: cards As", "pass"]
    assert result["sent"] == [{"type": "pass"}]
    assert result["cards"] == ["As", "Td", "9c"]


def test_sandaha_bid_bury_name_and_lead(page: Any, server: WebServer) -> None:
    """三打哈 through its table: bid by a button; as the declarer, take the kitty, bury by
    tapping as many cards as it held, name trumps, and lead a card.

    rule (003): "4个玩家各发21牌，剩余8张为底牌" "叫分最低者为庄家，庄家得到底牌"
    "由庄家开始第一轮出牌" - 21 cards on screen, the lowest bid wins the kitty, the
    declarer buries back to 21 and leads."""
    enter(page, "三打哈")
    open_room(page, "sandaha")
    page.wait_for_selector(".sandaha-hand .card")
    assert len(page.query_selector_all(".sandaha-hand .card")) == 21
    page.wait_for_selector(".legal-actions button[data-action*='bid']", timeout=30_000)
    page.click(".legal-actions button:last-child")  # the lowest bid on offer
    declarer = page.wait_for_selector("#bury-submit, .seat:not(.me) .badge.banker", timeout=30_000)
    if declarer.get_attribute("id") != "bury-submit":
        return  # a bot outbid the lowest bid: the table still showed and took the bid
    held = len(page.query_selector_all(".sandaha-hand .card"))
    kitty = held - 21
    assert kitty > 0
    assert page.is_disabled("#bury-submit")
    for i in range(kitty):
        page.click(f".sandaha-hand .card[data-index='{i}']")
    page.click("#bury-submit")
    page.wait_for_selector(".legal-actions button[data-action*='name_trump']")
    assert len(page.query_selector_all(".sandaha-hand .card")) == 21
    page.click(".legal-actions button[data-action*='name_trump']")
    page.wait_for_selector("#play-submit")
    page.click(".sandaha-hand .card[data-index='0']")
    page.click("#play-submit")
    page.wait_for_function("document.querySelectorAll('.sandaha-hand .card').length === 20")
    shoot(page, "sandaha")


@st.composite
def arrangements(draw: st.DrawFn) -> tuple[list[str], list[str], list[str]]:
    cards = format_cards(deck("52")).split()
    rng = random.Random(draw(st.integers(0, 2**32)))
    hand = rng.sample(cards, 13)
    return hand[:3], hand[3:8], hand[8:]


@FIXTURE_OK
@given(rows=arrangements(), order=st.sampled_from(["second", "lowest"]))
def test_foul_warning_agrees_with_the_engine(
    page: Any, rows: tuple[list[str], list[str], list[str]], order: str
) -> None:
    """The client's live 倒水 warning equals paiju's is_foul (codes without suit ties)."""
    if page.url == "about:blank":
        page.goto(page.base + "/")
    front, middle, back = rows
    got = page.evaluate(
        "([rows, order]) => import('/tables/shisanzhang.js').then(m => m.foulsOf(rows, order))",
        [{"front": front, "middle": middle, "back": back}, order],
    )
    from paiju.cards import parse_cards

    rules = RowRules(straight_a2345=order, suit_ties=False)  # type: ignore[arg-type]
    expected = is_foul(
        parse_cards(" ".join(front)),
        parse_cards(" ".join(middle)),
        parse_cards(" ".join(back)),
        rules,
    )
    assert bool(got) == expected, (rows, got)


@FIXTURE_OK
@given(text=st.text(max_size=200))
def test_sha256_in_the_browser_equals_hashlib(page: Any, text: str) -> None:
    """The replay viewer's own sha256 (for the commitment check) is FIPS 180-4 sha256."""
    if page.url == "about:blank":
        page.goto(page.base + "/")
    got = page.evaluate("(t) => import('/js/sha256.js').then(m => m.sha256Hex(t))", text)
    assert got == hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def test_every_playable_code_has_a_table_module(page: Any, server: WebServer) -> None:
    """Each family with an engine resolves to a table module exporting the interface."""
    page.goto(page.base + "/")
    families = sorted({v["family"] for v in server.get("/api/catalog") if v["playable"]})
    shapes = page.evaluate(
        """(fams) => import('/tables/index.js').then(async m => {
             const out = {};
             for (const f of fams) {
               const t = await m.tableFor(f);
               const names = ['render', 'seatExtra', 'createOptions'];
               out[f] = names.filter(k => typeof t[k] === 'function');
             }
             return out;
           })""",
        families,
    )
    assert json.dumps(shapes, sort_keys=True) == json.dumps(
        {f: ["render", "seatExtra", "createOptions"] for f in families}, sort_keys=True
    )


def test_both_languages_have_every_string(page: Any, server: WebServer) -> None:
    """Every UI string exists in Chinese and in English (one dictionary per language); a
    language may word a count of one apart (``KEY.one``: "1 point"), of a key both have."""
    page.goto(page.base + "/")
    keys = page.evaluate(
        """() => import('/js/i18n.js').then(m => ({
             zh: Object.keys(m.STRINGS.zh).sort(), en: Object.keys(m.STRINGS.en).sort()}))"""
    )
    ones = {k for k in keys["zh"] + keys["en"] if k.endswith(".one")}
    assert set(keys["zh"]) ^ set(keys["en"]) == ones
    assert {k.removesuffix(".one") for k in ones} <= set(keys["zh"]) & set(keys["en"])
    assert len(keys["zh"]) > 150
    # the count of one in English: "You won 1 point", and 2 points
    words = page.evaluate(
        """() => import('/js/i18n.js').then(m => { m.setLang('en');
             const out = [m.t('settle.you_win', {n: 1}), m.t('settle.you_win', {n: 2})];
             m.setLang('zh'); return out; })"""
    )
    assert words == ["You won 1 point", "You won 2 points"]


def test_the_browsers_re_deal_equals_the_engine_for_every_family(
    page: Any, server: WebServer
) -> None:
    """docs/fairness.md: the replay page re-shuffles and re-deals a hand itself
    (js/fairness.js); for every playable variant, with and without client seeds and a
    carried context, its deal is the engine's."""
    from paiju.fairness import deal_seed
    from paiju.games import game

    page.goto(page.base + "/")
    contexts = {
        "baozi": {"banker": 1},
        "jiajiabao": {"banker": 1},
        "sandaha": {"first_bidder": 3},
        "danzi": {"previous": {"finish_order": [2, 0, 3, 1]}},
        "jiayibing": {"leader": 4},
        "fangyang": {"banker": 2},
        "majiang": {"dealer": 3},
    }
    cases = []
    for i, variant in enumerate(v for v in server.get("/api/catalog") if v["playable"]):
        g = game(variant["code"])
        seats = g.max_seats
        for trial in range(2):
            seed = hashlib.sha256(f"{variant['code']} {trial}".encode()).hexdigest()
            seeds = [f"s{i}-{k}" if k % 2 == trial else "" for k in range(seats)]
            context = contexts.get(variant["family"], {}) if trial else {}
            state = g.new_state(seats, seed=deal_seed(seed, seeds), context=context)
            record = {
                "seed": seed,
                "client_seeds": seeds,
                "seats": seats,
                "context": context,
                "options": dict(g.options),
                "deal": state.deal.to_json(g.items),
            }
            cases.append({"record": record, "variant": variant})
    verdicts = page.evaluate(
        """(cases) => import('/js/fairness.js').then(m =>
             cases.map(c => [c.variant.code, m.redeal(c.record, c.variant).ok]))""",
        cases,
    )
    assert verdicts and all(ok is True for _, ok in verdicts), [
        v for v in verdicts if v[1] is not True
    ]
