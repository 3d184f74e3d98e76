"""要不起 (auto-pass) as a player meets it: a 甲乙丙 deal against bots, played with 提示 and
出牌; at a turn where nothing beats the table says so and the seat passes by itself after
a pause drawn as a person's, its clock running as on any turn (the other seats see nothing
else); turned off in the ⚙ menu (remembered after a reload), the next such turn waits for
the player's own 要不起 tap. The pause is held by the test's clock (``hold_clock``) while
the screen is read, and let pass when it has been."""

from __future__ import annotations

import time
from typing import Any

import pytest
from web_helpers import (
    DESKTOP,
    PHONE,
    WebServer,
    clock_state,
    enter,
    fast_bots,
    hold_clock,
    let_time_pass,
    lobby_in,
    open_room,
)

SIZES = {"phone": PHONE, "desktop": DESKTOP}
NOTE = {"zh": "要不起，马上自动不出", "en": "Cannot beat: passing for you"}


def my_seat(page: Any) -> int:
    return int(page.get_attribute("#felt .seat.me", "data-seat"))


def until_cannot_beat(page: Any, timeout: float = 240.0) -> None:
    """Play the hinted play at each own turn until a turn where nothing beats the table;
    a deal that ends first (the seat went out early, or always had something to beat) is
    left with 继续 and the next deal of the room is played the same way."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        left = max(1_000, int((end - time.monotonic()) * 1000))
        # a seat out of cards waits while the others finish: no own turn for a while
        page.wait_for_selector("#turn.mine, #settlement", timeout=left)
        if page.query_selector("#settlement"):
            page.click("#continue")
            page.wait_for_selector("#settlement", state="detached", timeout=left)
            continue
        if page.query_selector("#cl-pass") and not page.query_selector("#cl-hint"):
            return
        if page.query_selector("#cl-hint"):
            before = page.inner_text("#cl-hand")
            page.click("#cl-hint")
            page.wait_for_selector("#cl-hand .card.selected")
            page.click("#cl-play")
            page.wait_for_function(
                "b => !document.querySelector('#cl-hand') ||"
                " document.querySelector('#cl-hand').innerText !== b",
                arg=before,
            )
        else:
            page.wait_for_timeout(100)
    raise AssertionError("no turn with nothing to beat")


@pytest.mark.parametrize(("size", "code"), [("phone", "zh"), ("desktop", "en")])
def test_cannot_beat_passes_by_itself_and_the_option_is_remembered(
    page: Any, server: WebServer, size: str, code: str
) -> None:
    page.set_viewport_size(SIZES[size])
    enter(page, f"要不起{size}")
    lobby_in(page, code)
    fast_bots(page, 0.3, quick_pass=False)  # the table's own way: nothing told
    hold_clock(page)  # the pass waits for the test: the screen is read before it
    room = open_room(page, "anshan-jiayibing", seats=6, bots=5, time_limit=60)
    page.wait_for_selector("#felt .seat.me")
    seat = my_seat(page)
    until_cannot_beat(page)
    # the table says so, the seat's clock runs as on any turn, and nobody taps: the pass
    # comes by itself after a person's pause (held until the screen is read)
    seen = page.evaluate(
        """seat => ({note: document.querySelector('#cl-note')?.innerText || '',
                     pass: !!document.querySelector('#cl-pass'),
                     clock: !!document.querySelector(`[data-timer-seat='${seat}']`)})""",
        seat,
    )
    assert NOTE[code] in seen["note"] and seen["pass"], seen
    assert seen["clock"], seen
    let_time_pass(page, room)  # the pause is up: the server passes for the seat
    page.wait_for_selector(".cl-auto-pass", state="detached", timeout=15_000)
    # turned off in the ⚙ menu: remembered by this browser, also after a reload
    page.click("#prefs-open")
    assert page.is_checked("#pref-auto-pass")
    page.uncheck("#pref-auto-pass")
    page.reload()
    page.wait_for_selector("#felt .seat.me")
    page.click("#prefs-open")
    assert not page.is_checked("#pref-auto-pass")
    page.click("#prefs-open")
    until_cannot_beat(page)
    assert NOTE[code] not in page.inner_text("#cl-note")
    assert page.query_selector(f"[data-timer-seat='{seat}']")  # the clock runs now
    # that clock is all the seat has waiting on the room's clock: no pass is on its way
    assert clock_state(page, room)["due"] == [pytest.approx(60.0, abs=1)]
    assert page.query_selector("#turn.mine") and page.is_visible("#cl-pass")
    page.click("#cl-pass")
    page.wait_for_selector("#turn.mine", state="detached", timeout=8_000)
