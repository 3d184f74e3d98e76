"""Sound and motion at a 甲乙丙 table against bots: the plays and one's turn are heard
(WebAudio, no sound file) while ⚙ 声音 is on, and kept quiet once it is off (remembered
after a reload); a play slides in, and not at all under prefers-reduced-motion; the hand
stays tappable meanwhile (nothing blocks input)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from test_climbing_table import accepted, hand_on_screen, signature, tap
from web_helpers import DESKTOP, PHONE, WebServer, enter, fast_bots, open_room

SOUNDS = "kind => ((window.__paijuSounds || {})[kind] || 0)"
MUTED = "kind => ((window.__paijuMuted || {})[kind] || 0)"


def play_or_pass(page: Any) -> None:
    """Play the hint (or pass) and wait until the server has taken it: until then the
    page still shows the turn, and a tap on the hand would be undone by the update."""
    if page.query_selector("#cl-hint"):
        page.click("#cl-hint")
        page.wait_for_selector("#cl-hand .card.selected")
        page.click("#cl-play")
    elif page.query_selector("#cl-pass"):
        page.click("#cl-pass")
    else:
        return
    page.wait_for_selector("#turn.mine", state="detached", timeout=30_000)


@pytest.mark.parametrize(("size", "motion"), [("phone", "no-preference"), ("desktop", "reduce")])
def test_sounds_follow_the_switch_and_motion_follows_the_setting(
    browser: Any, server: WebServer, size: str, motion: str
) -> None:
    context = browser.new_context(
        viewport=PHONE if size == "phone" else DESKTOP, reduced_motion=motion
    )
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.set_default_timeout(20_000)
        page.base = server.base
        enter(page, f"声音{size}")
        fast_bots(page, 0.3)
        open_room(page, "anshan-jiayibing", seats=6, bots=5)
        for _ in range(20):  # play own turns (提示, 出牌) until others' plays were heard
            if page.evaluate(f"({SOUNDS})('play')") >= 2 and page.query_selector("#turn.mine"):
                break
            page.wait_for_selector("#turn.mine", timeout=30_000)
            if page.evaluate(f"({SOUNDS})('play')") >= 2:
                break
            play_or_pass(page)
        assert page.evaluate(f"({SOUNDS})('play')") >= 2
        page.wait_for_function(f"({SOUNDS})('turn') >= 1")
        # a play on the felt: its animation as the setting says
        for _ in range(4):  # a trick may have ended with one's own lead next: lead it
            try:
                page.wait_for_selector("#felt .cl-last .card, #cl-current .card", timeout=10_000)
                break
            except PlaywrightTimeout:
                if page.query_selector("#turn.mine"):
                    play_or_pass(page)
        page.wait_for_selector("#felt .cl-last .card, #cl-current .card", timeout=10_000)
        name = page.eval_on_selector(
            "#felt .cl-last .card, #cl-current .card", "e => getComputedStyle(e).animationName"
        )
        assert name == ("none" if motion == "reduce" else "paiju-in"), name
        # nothing blocks input: no animation or overlay lies over the hand, and a card of
        # the hand takes a tap on its uncovered corner (the next stack may cover its right half).
        # The tap is made on a turn with a play to make: on a 要不起 turn auto-pass (on by
        # default) passes for the player a beat later, and the hand stops taking taps then.
        for _ in range(12):
            page.wait_for_selector("#turn.mine", timeout=30_000)
            if page.query_selector("#cl-hint"):
                break
            page.wait_for_selector("#turn.mine", state="detached", timeout=30_000)
        assert page.query_selector("#cl-hint"), "no turn with a play to make came"
        card = "#cl-hand .cl-stack:first-child .card:last-child"
        over = page.eval_on_selector(
            card,
            "e => { e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect();"
            " const t = document.elementFromPoint(r.left + 8, r.top + 8);"
            " return e.contains(t) ? '' : (t ? t.outerHTML.slice(0, 300) : 'nothing')"
            " + ' at ' + JSON.stringify(r) + ' of ' + innerHeight; }",
        )
        assert not over, f"something lies over the hand: {over}"
        page.click(card, position={"x": 8, "y": 8})
        try:
            page.wait_for_selector(f"{card}.selected")
        except PlaywrightTimeout:
            mine = page.eval_on_selector("#mine", "e => e.outerHTML")
            turn = page.query_selector("#turn.mine") is not None
            raise AssertionError(
                f"the tapped card was not selected (turn: {turn}; page errors: {errors}): {mine}"
            ) from None
        page.click(card, position={"x": 8, "y": 8})
        # the switch off: remembered, and the plays are kept quiet
        page.click("#prefs-open")
        page.uncheck("#pref-sound")
        page.reload()
        page.wait_for_selector("#felt .seat.me")
        page.click("#prefs-open")
        assert not page.is_checked("#pref-sound")
        page.click("#prefs-open")
        before = page.evaluate(f"({SOUNDS})('play')")
        if page.query_selector("#turn.mine"):
            play_or_pass(page)
        page.wait_for_function(f"({MUTED})('play') >= 1", timeout=30_000)
        assert page.evaluate(f"({SOUNDS})('play')") == before
    finally:
        context.close()
    assert not errors, errors


def test_the_turns_pulse_stops_under_reduced_motion(browser: Any, server: WebServer) -> None:
    """轮到你了 pulses while motion is welcome, and stands still under prefers-reduced-motion."""
    for motion in ("no-preference", "reduce"):
        context = browser.new_context(viewport=PHONE, reduced_motion=motion)
        try:
            page = context.new_page()
            page.set_default_timeout(20_000)
            page.base = server.base
            enter(page, f"脉动{motion[:2]}")
            fast_bots(page, 0.3)
            open_room(page, "anshan-jiayibing", seats=6, bots=5)
            page.wait_for_selector("#turn.mine", timeout=30_000)
            name = page.eval_on_selector("#turn.mine", "e => getComputedStyle(e).animationName")
            assert name == ("none" if motion == "reduce" else "pulse"), (motion, name)
        finally:
            context.close()


def test_a_bomb_is_heard_as_a_bomb(page: Any) -> None:
    """宁城打弹子: "3-6张牌点相同的牌" is a 砟子, a bomb kind (N13); playing one by taps
    sounds the bomb, not the sound of a plain play."""
    enter(page, "炸弹声")
    fast_bots(page, 0.05)
    open_room(page, "ningcheng-danzi", seats=4, bots=3)
    bombs = 0
    for _ in range(120):
        page.wait_for_selector("#settlement, #turn.mine", timeout=30_000)
        if page.query_selector("#settlement"):
            break
        before = signature(page)
        stacks = page.eval_on_selector_all(
            "#cl-hand .cl-stack.bomb",
            "els => els.map(e => [Number(e.dataset.count), e.dataset.rank,"
            " [...e.querySelectorAll('.card')].map(c => c.dataset.card)])",
        )
        leading = page.query_selector("#cl-pass") is None
        playable = [s for s in stacks if leading or s[0] >= 4]
        if page.query_selector("button[data-action*='decline']"):
            page.click("button[data-action*='decline']")
        elif playable and page.query_selector("#cl-play"):
            heard = page.evaluate(f"({SOUNDS})('bomb')")
            tap(page, hand_on_screen(page), max(playable)[2])
            page.click("#cl-play")
            try:
                accepted(page, before)
            except PlaywrightTimeout:  # a bigger bomb on the table: take the cards back
                page.click("#cl-pass")
                accepted(page, before)
                continue
            if not page.query_selector("#cl-hand .card.selected"):
                page.wait_for_function(f"({SOUNDS})('bomb') > {heard}")
                bombs += 1
                break
        elif page.query_selector("#cl-hint"):
            page.click("#cl-hint")
            page.wait_for_selector("#cl-hand .card.selected")
            page.click("#cl-play")
            accepted(page, before)
        else:
            page.click("#cl-pass")
            accepted(page, before)
    assert bombs == 1, "no bomb of one's own was played in the deal"
