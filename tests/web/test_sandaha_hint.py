"""三打哈's 提示 in the browser: the player becomes declarer, then buries the kitty and plays
the first tricks by tapping 提示 (which picks the cards the server advises, as taps would)
and the submit button; the button is in view at 390x844 and 1280x800, in Chinese and in
English, and what it picks the server accepts (the burial of exactly 8 cards, each play)."""

from __future__ import annotations

import json
from typing import Any

from web_helpers import DESKTOP, PHONE, WebServer, enter, fast_bots, open_room, shoot

HAND = "#sdh-hand .card"

SIGNATURE = """() => [
  document.querySelectorAll('#sdh-hand .card').length,
  document.getElementById('room').className,
  document.querySelectorAll('#sdh-bids .chip').length,
  !!document.getElementById('settlement'),
].join('|')"""

IN_VIEW = """(sel) => {
  const r = document.querySelector(sel).getBoundingClientRect();
  return r.width > 0 && r.top >= 0 && r.left >= 0
    && r.bottom <= innerHeight && r.right <= innerWidth;
}"""


def _hint(page: Any, submit: str) -> None:
    page.click("#sdh-hint")
    page.wait_for_function(f"!document.querySelector('{submit}').disabled", timeout=20_000)


def test_hint_buries_and_plays_for_the_player(page: Any, server: WebServer) -> None:
    enter(page, "提示")
    fast_bots(page)
    open_room(page, "sandaha", stake=2)
    page.wait_for_selector(HAND)
    plays = 0
    checked_sizes = False
    for _ in range(200):
        page.wait_for_selector("#settlement, #turn.mine", timeout=30_000)
        if page.query_selector("#settlement") or plays >= 4:
            break
        before = page.evaluate(SIGNATURE)
        room_class = page.get_attribute("#room", "class") or ""
        if "phase-bidding" in room_class:
            page.wait_for_selector(".legal-actions button")
            page.click(".legal-actions button:last-child")  # the lowest bid: we declare
        elif "phase-naming" in room_class:
            page.click(".legal-actions button")
        elif "phase-burying" in room_class:
            assert page.is_disabled("#bury-submit")
            _hint(page, "#bury-submit")
            assert len(page.query_selector_all(f"{HAND}.selected")) == 8
            page.click("#bury-submit")
        else:
            assert "phase-playing" in room_class, room_class
            if not checked_sizes:
                checked_sizes = True
                for lang, label in (("zh", "提示"), ("en", "Hint")):
                    page.evaluate(f"() => import('/js/i18n.js').then(m => m.setLang('{lang}'))")
                    page.wait_for_function(
                        f"document.getElementById('sdh-hint').textContent === '{label}'"
                    )
                    for size, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
                        page.set_viewport_size(size)
                        page.locator("#sdh-hint").scroll_into_view_if_needed()
                        assert page.evaluate(IN_VIEW, "#sdh-hint"), (lang, name)
                    shoot(page, f"sandaha-hint-{lang}")
                    page.set_viewport_size(PHONE)
                page.evaluate("() => import('/js/i18n.js').then(m => m.setLang('zh'))")
            _hint(page, "#play-submit")
            count = page.inner_text("#sdh-count")
            assert len(page.query_selector_all(f"{HAND}.selected")) >= 1, count
            page.click("#play-submit")
            plays += 1
        page.wait_for_function(f"({SIGNATURE})() !== {json.dumps(before)}", timeout=30_000)
    assert plays >= 1
