"""新手教程 as a new player meets it: for every family, a guided hand that shows one move at
a time (what to tap, why it is legal, what the result means), reachable from the rule page,
offered on a player's first room of a game, skippable, in Chinese and in English, at phone
and desktop sizes. Nothing spills out of the page, and the tutorial's moments (a bomb, 王炸,
胡 and its fans, 打枪, 报单) move only while motion is welcome. Every step waits on what the
page shows; no step waits on a clock."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from web_helpers import DESKTOP, PHONE, DealServer, WebServer, enter, fast_bots, open_room

SIZES = {"phone": PHONE, "desktop": DESKTOP, "landscape": {"width": 844, "height": 390}}
FAMILIES = {
    "jiayibing": "anshan-jiayibing",
    "fangyang": "anshan-fangyang",
    "danzi": "ningcheng-danzi",
    "sandaha": "sandaha",
    "shisanzhang": "1301",
    "baozi": "2001",
    "jiajiabao": "2101",
    "majiang": "anshan-majiang",
}
# what each family's guided hand makes happen on the way (moment banners, seat badges)
MOMENTS = {"danzi": ["declare", "rocket"], "majiang": ["hu"], "shisanzhang": ["gun"]}
SPILL = (
    "() => { const w = document.documentElement.clientWidth; const out = [];"
    " for (const e of document.querySelectorAll('#learn *')) { const r = e.getBoundingClientRect();"
    " if (r.width && (r.right > w + 1 || r.left < -1))"
    " out.push(e.className + ' ' + r.left + '..' + r.right); }"
    " return out.slice(0, 5); }"
)
# a device with Mandarin voices: the browser's speechSynthesis, recorded instead of spoken
VOICES = """
(() => {
  const voices = [
    { name: "Ting-Ting", lang: "zh-CN", localService: true, default: true, voiceURI: "tt" },
    { name: "Li-mu", lang: "zh-CN", localService: true, default: false, voiceURI: "lm" },
    { name: "Sin-ji", lang: "zh-HK", localService: true, default: false, voiceURI: "sj" },
  ];
  window.__said = [];
  const synth = {
    getVoices: () => voices, speaking: false, pending: false, paused: false,
    speak: (u) => window.__said.push({ text: u.text, voice: u.voice && u.voice.name }),
    cancel: () => {}, pause: () => {}, resume: () => {},
    addEventListener: () => {}, removeEventListener: () => {},
  };
  Object.defineProperty(window, "speechSynthesis", { value: synth, configurable: true });
  window.SpeechSynthesisUtterance = class { constructor(text) { this.text = text; } };
})();
"""


def new_page(browser: Any, server: WebServer, size: str, motion: str = "no-preference") -> Any:
    context = browser.new_context(viewport=SIZES[size], reduced_motion=motion)
    context.add_init_script(VOICES)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.set_default_timeout(20_000)
    page.base = server.base
    return page


def tap_lit(page: Any) -> None:
    """Tap each lit card of the hand once (each tap redraws the hand)."""
    lit = "#learn-hand .learn-card.learn-target:not(.selected)"
    count = len(page.query_selector_all(lit))
    assert count, "nothing lit to tap"
    for left in range(count, 0, -1):
        page.locator(lit).first.click()
        page.wait_for_function(f"document.querySelectorAll('{lit}').length === {left - 1}")


def walk(page: Any, family: str) -> list[str]:
    """Play the tutorial through as a person does; returns what the coach said, step by step."""
    said: list[str] = []
    for _ in range(20):
        coach = page.wait_for_selector("#learn-coach")
        step = coach.get_attribute("data-step")
        kind = coach.get_attribute("data-do")
        said.append(page.inner_text("#learn-say"))
        assert page.evaluate(SPILL) == [], (family, step, page.evaluate(SPILL))
        if kind == "watch":
            page.click("#learn-next")
        elif kind == "tap":
            # the button waits for the lit cards; a tap on each lights it up
            assert page.is_disabled("#learn-act")
            assert page.is_visible("#learn-why")
            tap_lit(page)
            page.wait_for_selector("#learn-act:not([disabled])")
            page.click("#learn-act")
        elif kind == "choose":
            assert page.is_visible("#learn-why")
            page.click("#learn-act")
        else:
            assert kind == "end"
            return said
        page.wait_for_function(f"document.querySelector('#learn-coach')?.dataset.step !== '{step}'")
    raise AssertionError(f"{family}: the tutorial never ended")


@pytest.mark.parametrize(
    ("size", "language", "motion"),
    [
        ("phone", "zh", "no-preference"),
        ("phone", "en", "reduce"),
        ("desktop", "en", "reduce"),
        ("desktop", "zh", "no-preference"),
        ("landscape", "en", "no-preference"),
    ],
)
def test_every_family_has_a_guided_first_hand_that_can_be_completed(
    browser: Any, server: WebServer, size: str, language: str, motion: str
) -> None:
    page = new_page(browser, server, size, motion)
    try:
        enter(page, f"教程{size}")
        page.evaluate(
            f"localStorage.setItem('paiju.lang', '{language}');"
            " localStorage.setItem('paiju.prefs', JSON.stringify({voice: 'female'}))"
        )
        for family, code in FAMILIES.items():
            # reached from the game's rule page
            page.goto(f"{page.base}/#/rules/{code}")
            page.click("#learn-link")
            page.wait_for_selector(f"#learn[data-family='{family}']")
            assert page.is_visible("#learn-intro")
            assert page.is_visible("#learn-skip")
            said = walk(page, family)
            assert len(said) >= 3
            if language == "en":
                assert all(any("a" <= ch.lower() <= "z" for ch in s) for s in said), said
            shown = page.evaluate("(window.__paijuMoments || []).map((m) => [m.kind, m.still])")
            for kind in MOMENTS.get(family, []):
                assert [kind, motion == "reduce"] in shown, (family, shown)
            if motion == "reduce":
                assert page.query_selector(".feel-moment") is None
            page.click("#learn-done")
            page.wait_for_url(f"**/#/rules/{code}")
            learned = page.evaluate("JSON.parse(localStorage.getItem('paiju.learned'))")
            assert learned[family] == "done"
        # the voice said the plays' names in Mandarin with the female voice, never Cantonese
        # 打枪 is said when its banner comes, after the rows have turned over
        page.wait_for_function("window.__said.some((x) => x.text === '打枪')")
        said_aloud = page.evaluate("window.__said")
        texts = {x["text"] for x in said_aloud}
        wanted = {"对五", "我只剩一张牌了", "王炸", "宣战", "碰", "胡了", "打枪", "80分"}
        assert wanted <= texts, wanted - texts
        assert {x["voice"] for x in said_aloud} == {"Ting-Ting"}
    finally:
        page.context.close()
    assert not page.errors, page.errors


def test_moments_move_while_motion_is_welcome(browser: Any, server: WebServer) -> None:
    """A 王炸 in 打弹子's tutorial: a banner that shakes, on a layer that takes no taps; the
    last-cards badge of 甲乙丙; the latest discard of a 麻将 river marked."""
    page = new_page(browser, server, "phone")
    try:
        page.goto(page.base + "/#/learn/danzi")
        page.wait_for_selector("#learn[data-family='danzi']")
        for step in ("0", "1"):  # the 宣战, the pair of Ks
            page.click(f"#learn-coach[data-step='{step}'] #learn-next")
        tap_lit(page)  # the pair of 3s; then the next seat's 双王
        page.click("#learn-act")
        banner = page.wait_for_selector("#feel-layer .feel-moment.feel-rocket", state="attached")
        name = banner.evaluate("e => getComputedStyle(e).animationName")
        assert name == "feel-boom"
        assert page.eval_on_selector("#feel-layer", "e => getComputedStyle(e).pointerEvents") == (
            "none"
        )
        page.goto(page.base + "/#/learn/jiayibing")
        page.wait_for_selector("#learn[data-family='jiayibing']")
        tap_lit(page)
        page.click("#learn-act")
        badge = page.wait_for_selector("#learn-seats .learn-seat[data-seat='1'] .feel-last")
        assert badge.get_attribute("data-last") == "1"
        assert badge.inner_text() == "报单"
        page.goto(page.base + "/#/learn/majiang")
        page.wait_for_selector("#learn[data-family='majiang']")
        tile = page.wait_for_selector(".learn-river .mj-tile.latest")
        assert tile.evaluate("e => getComputedStyle(e).animationName") == "feel-drop"
    finally:
        page.context.close()
    assert not page.errors, page.errors


@pytest.mark.parametrize(("size", "language"), [("phone", "en"), ("desktop", "zh")])
def test_first_room_offers_the_tutorial_and_it_can_be_skipped(
    browser: Any, server: WebServer, size: str, language: str
) -> None:
    page = new_page(browser, server, size)
    try:
        enter(page, f"新手{size}")
        page.evaluate(f"localStorage.setItem('paiju.lang', '{language}')")
        page.reload()
        fast_bots(page, 0.3)
        room = open_room(page, "2001", seats=4, bots=3)
        # a chip among the table's tools while the hand is played, a note once it is over
        page.wait_for_selector("#learn-offer")
        assert page.is_visible("#learn-offer")
        page.click("#learn-offer-go")
        page.wait_for_selector("#learn[data-family='baozi']")
        page.click("#learn-skip")
        page.wait_for_url(f"**/#/room/{room}")
        page.wait_for_selector("#felt")
        assert page.query_selector("#learn-offer") is None
        learned = page.evaluate("JSON.parse(localStorage.getItem('paiju.learned'))")
        assert learned == {"baozi": "skipped"}
        # another game's first room: 不用了 puts the offer away for good
        page.goto(page.base + "/")
        open_room(page, "1301", seats=4, bots=3)
        page.click("#learn-offer-no")
        page.wait_for_selector("#learn-offer", state="detached")
        page.reload()
        page.wait_for_selector("#felt")
        assert page.query_selector("#learn-offer") is None
        assert json.loads(page.evaluate("localStorage.getItem('paiju.learned')")) == {
            "baozi": "skipped",
            "shisanzhang": "declined",
        }
    finally:
        page.context.close()
    assert not page.errors, page.errors


@pytest.mark.parametrize("size", ["phone", "landscape"])
def test_the_offer_waits_below_a_hand_result(browser: Any, server: WebServer, size: str) -> None:
    """A first room's offer left unanswered through the first hand: a chip among the
    table's tools while the hand is played (the table is where it is without the offer),
    below the settlement once the result is up (the result is where it was without the
    offer, never pushed down the screen by it), and still answerable there (不用了 puts it
    away for good)."""
    page = new_page(browser, server, size)
    try:
        enter(page, f"教程在后{size}")
        fast_bots(page, 0.05)
        open_room(page, "1301", seats=4, bots=3, time_limit=0)
        page.wait_for_selector(".hand-zone .card")
        place = """(s) => { const e = document.querySelector(s); if (!e) return null;
          const r = e.getBoundingClientRect();
          return [r.top + scrollY, r.bottom + scrollY]; }"""
        # while the hand is played: a chip among the table's tools, the felt where it is
        # without the offer
        page.wait_for_selector("#table-tools > #learn-offer.learn-chip")
        felt = page.evaluate(place, "#felt")
        page.evaluate("document.getElementById('learn-offer').style.display = 'none'")
        assert page.evaluate(place, "#felt") == felt
        page.evaluate("document.getElementById('learn-offer').style.display = ''")
        page.click("#suggestions .sugg-card[data-suggestion='0']")
        page.click("#ssz-submit")
        page.wait_for_selector("#settlement .verdict")
        page.wait_for_selector("#learn-offer.after-result")
        settlement = page.evaluate(place, "#settlement")
        offer = page.evaluate(place, "#learn-offer")
        assert offer[0] >= settlement[1] - 1, (offer, settlement)
        verdict = page.evaluate(place, "#settlement .verdict")
        page.evaluate("document.getElementById('learn-offer').style.display = 'none'")
        assert page.evaluate(place, "#settlement .verdict") == verdict  # not moved by it
        page.evaluate("document.getElementById('learn-offer').style.display = ''")
        page.click("#learn-offer-no")
        page.wait_for_selector("#learn-offer", state="detached")
        learned = page.evaluate("JSON.parse(localStorage.getItem('paiju.learned'))")
        assert learned == {"shisanzhang": "declined"}
        assert page.query_selector("#settlement .verdict")  # the result stays
    finally:
        page.context.close()
    assert not page.errors, page.errors


OFFER_SEED = "offer-0"
"""三打哈: seat 0's 21 cards, sorted 按大小 while bidding, lie in three rows on a 390x844
phone, the hand that reached 7 px past the phone's foot with the offer above the felt
(searched over "offer-N")."""

WHOLE_HAND = """() => {
  const at = (r) => [r.left, r.top, r.right, r.bottom].map(Math.round);
  const cards = [...document.querySelectorAll('#sdh-hand .card')]
    .map((c) => c.getBoundingClientRect());
  const el = document.getElementById('learn-offer');
  const offer = el ? el.getBoundingClientRect() : new DOMRect();
  return {
    cards: cards.length,
    rows: new Set(cards.map((r) => Math.round(r.top))).size,
    out: cards.filter((r) => r.top < 0 || r.left < 0 || r.bottom > innerHeight + 1
      || r.right > innerWidth + 1).map(at),
    offer: at(offer),
    offerSeen: offer.width > 0 && offer.top >= 0 && offer.bottom <= innerHeight + 1,
    hand: at(document.getElementById('sdh-hand').getBoundingClientRect()),
  };
}"""


@pytest.mark.parametrize(
    ("size", "language"),
    [("phone", "zh"), ("phone", "en"), ("landscape", "zh"), ("landscape", "en")],
)
def test_the_offer_leaves_the_hand_its_room(
    browser: Any, deal_server: DealServer, size: str, language: str
) -> None:
    """A first-time player at 三打哈, the 新手教程 offered and not yet answered, sees the
    offer and the whole hand without scrolling: on a phone held upright the 21 cards
    sorted 按大小 lie in three rows down to the screen's foot, and held sideways the hand
    runs along the bottom. While the hand is played the offer takes none of its room (a
    chip among the table's tools), and 不用了 (×) there puts it away with the hand where
    it was."""
    page = new_page(browser, deal_server, size)
    try:
        deal_server.choose(OFFER_SEED)
        enter(page, f"第一次{size}{language}")
        page.evaluate(f"localStorage.setItem('paiju.lang', '{language}')")
        page.reload()
        fast_bots(page, 0.05)
        open_room(page, "sandaha", time_limit=0)
        page.wait_for_selector("#turn.mine ~ #mine .legal-actions button")  # one's bid
        page.wait_for_function("document.querySelectorAll('#sdh-hand .card').length === 21")
        page.click("#sdh-sort-rank")
        page.wait_for_selector("#sdh-sort-rank[aria-pressed='true']")
        page.wait_for_selector("#learn-offer")
        page.evaluate("window.scrollTo(0, 0)")
        seen = page.evaluate(WHOLE_HAND)
        if size == "phone":
            assert seen["rows"] == 3, seen  # the hand this test is about
        # what is drawn once the page has settled (a loaded machine paints late)
        try:
            page.wait_for_function(
                f"() => {{ const s = ({WHOLE_HAND})(); return !s.out.length && s.offerSeen; }}",
                timeout=5_000,
            )
        except PlaywrightTimeout:  # the page never showed it: say what it shows
            raise AssertionError(
                f"the hand or the offer is off the {size} screen: {page.evaluate(WHOLE_HAND)}"
            ) from None
        seen = page.evaluate(WHOLE_HAND)
        page.click("#learn-offer-no")
        page.wait_for_selector("#learn-offer", state="detached")
        assert page.evaluate("JSON.parse(localStorage.getItem('paiju.learned'))") == {
            "sandaha": "declined"
        }
        page.evaluate("window.scrollTo(0, 0)")
        assert page.evaluate(WHOLE_HAND)["hand"] == seen["hand"]  # it took none of its room
    finally:
        page.context.close()
    assert not page.errors, page.errors
