"""Every family's table, its replay and its room summary (总结算), at a phone's size in
Chinese and a desktop's in English, as a player meets them: the screenshots are kept in
artifacts/web/gallery-FAMILY-{table,summary,replay}-{phone,desktop}.png, and each page is
checked for what a person would see at once - nothing wider than the screen, the summary's
winner and the replay's settlement in view.

One room of one hand per family against fast bots: one's own first turn waits long enough
for the table's pictures, then times out, and the server's bot plays the seat (托管) to the
end of the hand."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from web_helpers import (
    ARTIFACTS,
    DESKTOP,
    PHONE,
    WebServer,
    enter,
    fast_bots,
    open_room,
    set_lang,
)

FAMILIES = [
    ("shisanzhang", "1301", 4),
    ("baozi", "2001", 4),
    ("jiajiabao", "2101", 4),
    ("sandaha", "sandaha", 4),
    ("danzi", "ningcheng-danzi", 4),
    ("jiayibing", "anshan-jiayibing", 6),
    ("fangyang", "anshan-fangyang", 4),
    ("majiang", "anshan-majiang", 4),
]

WIDE = """() => {
  const vw = document.documentElement.clientWidth;
  return [...document.querySelectorAll('body *')].filter((e) => {
    const r = e.getBoundingClientRect();
    if (!r.width || getComputedStyle(e).position === 'fixed') return false;
    // inside a box that scrolls sideways on purpose (a long hand) is not wider than the page
    for (let p = e.parentElement; p; p = p.parentElement) {
      if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(p).overflowX)) return false;
    }
    return r.right > vw + 1 || r.left < -1;
  }).slice(0, 5).map((e) => {
    const r = e.getBoundingClientRect();
    return `${e.tagName}#${e.id}.${e.className} ${Math.round(r.left)}..${Math.round(r.right)}`;
  });
}"""

THIRD_PERSON = re.compile(
    r"\bYou (is|has|was|leads|plays|passes|wins|bets|declares|calls|picks|discards|takes"
    r"|gives|buries|names|bids|groups|sets|makes)\b"
)

ONE_MANY = re.compile(r"(?<![\d.])1 (hands|deals|cards|tiles|points|matches)\b")

IN_VIEW = """(sel) => {
  const e = document.querySelector(sel);
  if (!e) return false;
  e.scrollIntoView({block: 'center'});
  const r = e.getBoundingClientRect();
  return r.top >= 0 && r.bottom <= innerHeight && r.height > 0;
}"""


TURN_COLOURS = """() => {
  const e = document.querySelector('#turn.mine');
  if (!e || !e.isConnected) return null;
  const s = getComputedStyle(e);
  return [s.color, s.backgroundColor];
}"""
"""The ink and paper of one's own turn line, or null when it is not one's turn."""

TURN_INK = f"() => {{ const c = ({TURN_COLOURS})(); return c === null || c[0] !== c[1]; }}"
"""True unless one's own turn line is drawn in the colour of its background."""


TOASTS = """document.addEventListener('DOMContentLoaded', () => {
  const el = document.getElementById('toast');
  new MutationObserver(() => {
    if (/\berror\b/.test(el.className) && el.textContent) {
      (window.__errorToasts = window.__errorToasts || []).push(el.textContent);
    }
  }).observe(el, {attributes: true, childList: true, characterData: true, subtree: true});
});"""
"""Every error shown to the player (the toast), kept in ``window.__errorToasts``."""


def pictures(page: Any, name: str, in_view: str | None = None) -> None:
    """The page at a phone's size in Chinese, then a desktop's in English: saved, nothing
    wider than the screen, and ``in_view`` (once scrolled to) wholly on the screen."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for size, lang, label in ((PHONE, "zh", "phone"), (DESKTOP, "en", "desktop")):
        page.set_viewport_size(size)
        set_lang(page, lang)
        if in_view is not None:
            # scrolled to and looked at in one step of the page, and again until it is seen
            # (a turn can pass between two steps of a loaded machine, and come round again)
            try:
                page.wait_for_function(IN_VIEW, arg=in_view, timeout=30_000)
            except PlaywrightTimeout:
                raise AssertionError(f"{in_view} is not on the {label} screen") from None
        # 轮到你了 in a colour of its own, not white on white: looked at in one step of the
        # page, on the line as drawn (a re-render between two steps is not the line's colour)
        try:
            page.wait_for_function(TURN_INK, timeout=10_000)
        except PlaywrightTimeout:
            colours = page.evaluate(TURN_COLOURS)
            raise AssertionError(f"the turn line is {colours} on the {label} screen") from None
        wide = page.evaluate(WIDE)
        assert not wide, f"wider than the {label} screen: {wide}"
        if lang == "en":  # "You" is never said of in the third person, nor "1 hands"
            text = page.inner_text("body")
            assert not THIRD_PERSON.search(text), THIRD_PERSON.search(text)
            assert not ONE_MANY.search(text), ONE_MANY.search(text)
        page.screenshot(path=str(ARTIFACTS / f"{name}-{label}.png"), animations="disabled")
    set_lang(page, "zh")
    page.set_viewport_size(PHONE)


@pytest.mark.parametrize(("family", "code", "seats"), FAMILIES, ids=[f for f, _, _ in FAMILIES])
def test_the_table_its_replay_and_its_summary(
    page: Any, server: WebServer, family: str, code: str, seats: int
) -> None:
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.add_init_script(TOASTS)
    enter(page, "画廊")
    fast_bots(page, 0.05, claim_window=0.5, tuoguan_after=1)
    open_room(page, code, seats=seats, bots=seats - 1, hands=1, time_limit=6)
    # one's turn; a 宝子/佳佳宝 banker has no bet to make, and meets its cards to open (搓牌)
    moment = "#turn.mine, #open-all"
    page.wait_for_selector(moment, timeout=60_000)
    pictures(page, f"gallery-{family}-table", in_view=moment)
    # 托管 plays the seat from its first timeout; the room of one hand then sums up (宝子's
    # own cards wait face down until they are opened)
    first = page.wait_for_selector("#match-summary, #open-all", timeout=180_000)
    if first.get_attribute("id") == "open-all":
        first.click()
    page.wait_for_selector("#match-summary", timeout=60_000)
    pictures(page, f"gallery-{family}-summary", in_view="#summary-winner")
    page.click("#replay-link")
    page.wait_for_selector("#replay-board")
    page.click("#replay-last")
    pictures(page, f"gallery-{family}-replay", in_view="#replay-settlement")
    assert not errors, errors
    # nothing went wrong in a hand played to its end: no error was shown to the player
    assert page.evaluate("window.__errorToasts || []") == []
