"""Voice, emotes and the 麻将 river at real tables against bots, as a player meets them.

⚙ 语音 is off at first and says nothing; 女声 speaks the plays' names in Mandarin with the
device's female Chinese voice, 男声 with the male one (remembered after a reload); a device
without a Chinese voice says so in the setting. The emotes are pictures drawn by the app
(SVG), not characters of an emoji font. The latest discard stays marked in its river, and
still under reduced motion. Every wait is on what the page shows, never on a clock."""

from __future__ import annotations

from typing import Any

import pytest
from test_sound_motion import play_or_pass
from test_tutorial import VOICES
from web_helpers import DESKTOP, PHONE, WebServer, enter, fast_bots, open_room

SAID = "() => (window.__said || []).length"
EMOJI = "[\U0001f300-\U0001faff\u2600-\u27bf]"


def new_page(browser: Any, server: WebServer, size: str, *, voices: bool, motion: str) -> Any:
    context = browser.new_context(
        viewport=PHONE if size == "phone" else DESKTOP, reduced_motion=motion
    )
    context.add_init_script(
        VOICES
        if voices
        else "Object.defineProperty(window, 'speechSynthesis',"
        " { value: { getVoices: () => [], speak() {}, cancel() {}, addEventListener() {} } });"
    )
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.set_default_timeout(30_000)
    page.base = server.base
    return page


def play_until(page: Any, done: str) -> None:
    """Take one's own turns (提示, 出牌, or 要不起) until ``done`` (a JS expression) holds."""
    for _ in range(40):
        page.wait_for_function(f"({done}) || !!document.querySelector('#turn.mine')")
        if page.evaluate(done):
            return
        play_or_pass(page)
    raise AssertionError(f"never came: {done}")


def choose_voice(page: Any, value: str) -> None:
    page.click("#prefs-open")
    page.select_option("#pref-voice", value)
    page.click("#prefs-open")


@pytest.mark.parametrize(("size", "language"), [("phone", "zh"), ("desktop", "en")])
def test_the_voice_switch_speaks_play_names_in_mandarin(
    browser: Any, server: WebServer, size: str, language: str
) -> None:
    page = new_page(browser, server, size, voices=True, motion="no-preference")
    try:
        enter(page, f"语音{size}")
        page.evaluate(f"localStorage.setItem('paiju.lang', '{language}')")
        page.reload()
        fast_bots(page, 0.3)
        open_room(page, "anshan-jiayibing", seats=6, bots=5)
        page.wait_for_selector("#felt .seat.me")
        page.click("#prefs-open")
        assert page.input_value("#pref-voice") == "off"
        assert not page.is_visible("#pref-voice-none")
        label = page.inner_text("label.feel-voice")
        assert ("语音" in label) == (language == "zh")
        page.click("#prefs-open")
        # off: the bots play and nothing is said
        play_until(page, "((window.__paijuSounds || {}).play || 0) >= 2")
        assert page.evaluate(SAID) == 0
        choose_voice(page, "female")
        play_until(page, f"({SAID})() >= 2")
        said = page.evaluate("window.__said")
        assert {x["voice"] for x in said} == {"Ting-Ting"}
        words = {x["text"] for x in said}
        # every line is Mandarin: a play's name (对三, 三个K, 炸弹 …) or a pass (要不起 …)
        assert all(any("\u4e00" <= ch <= "\u9fff" for ch in w) for w in words), words
        page.reload()
        page.wait_for_selector("#felt .seat.me")
        page.click("#prefs-open")
        assert page.input_value("#pref-voice") == "female"
        page.select_option("#pref-voice", "male")
        page.click("#prefs-open")
        before = page.evaluate(SAID)
        play_until(page, f"({SAID})() > {before}")
        assert page.evaluate("window.__said.at(-1).voice") == "Li-mu"
    finally:
        page.context.close()
    assert not page.errors, page.errors


def test_a_device_without_a_chinese_voice_is_told(browser: Any, server: WebServer) -> None:
    page = new_page(browser, server, "phone", voices=False, motion="no-preference")
    try:
        enter(page, "无语音")
        fast_bots(page, 0.3)
        open_room(page, "anshan-fangyang", seats=4, bots=3)
        page.wait_for_selector("#felt .seat.me")
        page.click("#prefs-open")
        assert page.is_visible("#pref-voice-none")
        right = page.eval_on_selector("#pref-voice-none", "e => e.getBoundingClientRect().right")
        assert right <= PHONE["width"]
    finally:
        page.context.close()
    assert not page.errors, page.errors


@pytest.mark.parametrize(("size", "motion"), [("phone", "reduce"), ("desktop", "no-preference")])
def test_emotes_are_drawn_and_the_latest_discard_is_marked(
    browser: Any, server: WebServer, size: str, motion: str
) -> None:
    page = new_page(browser, server, size, voices=False, motion=motion)
    try:
        enter(page, f"表情{size}")
        fast_bots(page, 0.3)
        open_room(page, "anshan-majiang", seats=4, bots=3)
        page.wait_for_selector("#felt .seat.me")
        # the river: exactly one tile, the latest discard, is marked
        tile = page.wait_for_selector("#felt .mj-pond .mj-tile.latest")
        assert len(page.query_selector_all("#felt .mj-tile.latest")) == 1
        outline = tile.evaluate("e => getComputedStyle(e).outlineStyle")
        assert outline == "solid"
        animation = tile.evaluate("e => getComputedStyle(e).animationName")
        assert animation == ("none" if motion == "reduce" else "feel-drop")
        # the emotes: SVG pictures, no emoji character anywhere in the menu
        page.click("#chat-open")
        buttons = page.query_selector_all("#chat-panel .chat-emote")
        assert len(buttons) == 8
        for b in buttons:
            assert b.query_selector("svg"), b.inner_html()
        text = page.inner_text("#chat-panel")
        assert not page.evaluate(f"(t) => /{EMOJI}/u.test(t)", text), text
        page.click("#chat-panel .chat-emote[data-emote='thumbs']")
        bubble = page.wait_for_selector("#felt .seat.me .chat-bubble.emote")
        assert bubble.query_selector("svg .emote-pic, .emote-pic svg")
        assert not page.evaluate(f"(t) => /{EMOJI}/u.test(t)", bubble.inner_text())
    finally:
        page.context.close()
    assert not page.errors, page.errors


@pytest.mark.parametrize(("size", "motion"), [("phone", "no-preference"), ("desktop", "reduce")])
def test_a_danzi_match_opens_with_its_declaration(
    browser: Any, server: WebServer, size: str, motion: str
) -> None:
    """N41: a match's first deal declares by itself (the first 大王's holder): the table
    shows 宣战 as the deal starts (a banner, none under reduced motion) and says it."""
    page = new_page(browser, server, size, voices=True, motion=motion)
    try:
        enter(page, f"宣战{size}")
        page.evaluate("localStorage.setItem('paiju.prefs', JSON.stringify({voice: 'male'}))")
        fast_bots(page, 0.3)
        open_room(page, "ningcheng-danzi", seats=4, bots=3)
        page.wait_for_function("(window.__paijuMoments || []).some((m) => m.kind === 'declare')")
        still = page.evaluate("window.__paijuMoments.find((m) => m.kind === 'declare').still")
        assert still == (motion == "reduce")
        page.wait_for_function("(window.__said || []).some((x) => x.text === '宣战')")
        assert page.evaluate("window.__said.find((x) => x.text === '宣战').voice") == "Li-mu"
    finally:
        page.context.close()
    assert not page.errors, page.errors
