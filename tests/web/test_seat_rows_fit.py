"""A 十三张 seat's shown rows fit its box: five small cards and the longest name of a row
(同花顺, 三同花 …) on one line, in a side seat of the desktop's table and of the phone's.

The rows are drawn by the table's own ``seatExtra`` into a real room's seats at the end of
a hand, so that what is measured is what a player sees; a random hand met this only now
and then (the 下家's seat, whose room to the felt's edge is narrow, was drawn as narrow as
its rows could break, and a back row named 同花顺 stuck out of it by four pixels)."""

from __future__ import annotations

from typing import Any

from test_tables_people_choose import one_line
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


def _shown(front: str, middle: str, back: str, *names: str) -> dict[str, Any]:
    """A hand as the showdown's view shows it."""
    return {"front": front, "middle": middle, "back": back, "categories": list(names)}


# the widest rows there are: a ten in every row, a three-character name in every seat
# (seat 0, the viewer's, shows its rows elsewhere)
HANDS = [
    _shown("Td Tc Ts", "Kh Qh Jh Th 9h", "Ks Qs Js Ts 9s", "三条", "同花顺", "同花顺"),
    _shown("Qd Jd 9c", "Tc Tc Td 8h 8s", "Ac Kc Qc Jc Tc", "散牌", "葫芦", "同花顺"),
    _shown("Ad Ah Ac", "Ts Td Th Tc 2d", "Kd Qd Jd Td 9d", "三条", "铁支", "同花顺"),
    _shown("Kh Kc Qc", "As Ac Ts 5s 5c", "Th 9h 8h 7h 6h", "对子", "两对", "同花顺"),
]

SHOW = """(hands) => import('/tables/shisanzhang.js').then((table) => {
  // the hand's real seats (placed and sized as the room does), their rows these hands'
  const showdown = { hands, scores: [-2, 58, 0, -56], pairs: [] };
  const ctx = { seat: 0, view: { phase: 'over', showdown } };
  document.querySelectorAll('#room .felt .seat').forEach((seat) => {
    const i = Number(seat.dataset.seat);
    const old = seat.querySelector('.seat-extra');
    if (old && i !== 0) old.replaceWith(table.seatExtra(ctx, i));
  });
})"""

STICKING_OUT = """() => [...document.querySelectorAll('#room .seat')].flatMap((seat) => {
  const r = seat.getBoundingClientRect();
  const rows = [...seat.querySelectorAll('.shown-row')].map((row) => row.getBoundingClientRect());
  const out = [];
  if (seat.scrollWidth > seat.clientWidth + 1) {
    out.push(`scroll ${seat.scrollWidth} > ${seat.clientWidth}`);
  }
  rows.forEach((row, k) => {
    if (row.right > r.right + 0.5 || row.left < r.left - 0.5) out.push(`row ${k} sticks out`);
  });
  if (r.left < -1 || r.right > innerWidth + 1) out.push('off the screen');
  return out.map((why) => `${seat.dataset.place} seat: ${why}`);
})"""


def test_a_seats_rows_fit_its_box(page: Any, server: WebServer) -> None:
    """At the end of a hand (a real room, one hand against fast bots), the other seats show
    the widest rows there are: each seat is as wide as its rows, at both sizes."""
    enter(page, "比牌")
    fast_bots(page)
    open_room(page, "1301", hands=1)
    page.wait_for_selector("#suggestions .sugg-card")
    page.click("#suggestions .sugg-card[data-suggestion='0']")
    page.click("#ssz-submit")
    page.wait_for_selector("#settlement", timeout=30_000)
    small_desktop = {"width": 1024, "height": 700}
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP), ("small", small_desktop)):
        page.set_viewport_size(viewport)
        page.evaluate(SHOW, HANDS)
        page.wait_for_timeout(1600)  # the rows turned over (their reveal ends by 1.4 s)
        cats = page.evaluate(
            "[...document.querySelectorAll('#room .felt .seat .shown-row .cat')]"
            ".map((c) => c.textContent)"
        )
        assert cats.count("同花顺") == 3, f"the rows shown are not these hands': {cats}"
        stuck = page.evaluate(STICKING_OUT)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        felt = page.locator("#room .felt")
        felt.screenshot(path=str(ARTIFACTS / f"seat-rows-{size}.png"), animations="disabled")
        assert not stuck, f"{size}: {stuck}"
        if size != "phone":  # (the phone's seats leave the names out)
            assert one_line(page, "#room .felt .seat .shown-row .cat")


def test_a_bots_seat_says_bot_once(page: Any, server: WebServer) -> None:
    """A bot's seat reads "机器人 2", not "机器人 2 / 机器人": its name says what it is; a
    person's seat keeps its badge when a bot plays it (托管中)."""
    enter(page, "座位名")
    fast_bots(page)
    open_room(page, "1301", hands=1)
    page.wait_for_selector("#room .felt .seat[data-seat='3']")
    for lang, word in (("zh", "机器人"), ("en", "Bot")):
        set_lang(page, lang)
        page.wait_for_function(
            f"document.querySelector(\"#room .seat[data-seat='1'] .seat-name\")"
            f"?.innerText.includes({word!r})"
        )
        for seat in (1, 2, 3):
            text = page.inner_text(f"#room .seat[data-seat='{seat}']")
            assert text.count(word) == 1, (lang, text)
            assert f"{word} {seat + 1}" in text, (lang, text)
    set_lang(page, "zh")
