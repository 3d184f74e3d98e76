"""听牌 help and 提示 on the 麻将 table, as a player meets them: in the scripted hand (the seat
claims and wins, so its hand is ready before it wins), at every decision the table's 听牌
panel and the 听 marks on the hand are checked against the engine's waits of what is on the
screen, and each wait's count against the tiles one can count on the felt (4 less those in
one's hand, every meld, every discard not claimed, the flip; 混 counted). The panel is in
view and its text inside its box at 390x844 and 1280x800, in Chinese and in English; 提示
picks a tile the way a first tap does.
"""

from __future__ import annotations

import json
from typing import Any

from test_majiang_table import (
    CODE,
    SIGNATURE,
    decided_in_window,
    layout_problems,
    seen_on_screen,
    shoot,
    signature,
    tap,
    until_asked,
)
from web_helpers import ScriptedServer, enter, fast_bots, hold_clock, open_room, set_lang

from majiang_play import decide, tiles_of
from paiju.games.majiang.rules import MajiangRules
from paiju.games.majiang.ting import ready_discards, waits
from paiju.games.majiang.win import Meld
from paiju.tiles import format_tiles

SCREEN = """() => {
  const tiles = (sel) => [...document.querySelectorAll(sel)].map((e) => e.dataset.tile).join('');
  return {
    hand: document.getElementById('mj-hand').dataset.tiles,
    mine: [...document.querySelectorAll('.mj-mymelds .mj-meld')]
      .map((m) => [m.dataset.kind, m.dataset.tiles]),
    melds: [...document.querySelectorAll('.mj-meld')].map((m) => m.dataset.tiles).join(''),
    ponds: tiles('.mj-pond .mj-tile:not(.claimed-away)'),
    flip: (document.getElementById('mj-flip') || {dataset: {}}).dataset.tile || '',
    hun: (document.getElementById('mj-hun') || {dataset: {tiles: ''}}).dataset.tiles,
    turn: !!document.getElementById('mj-turn'),
    panel: !!document.getElementById('mj-ting'),
    waits: [...document.querySelectorAll('#mj-ting .mj-wait')]
      .map((e) => [e.dataset.tile, Number(e.dataset.unseen), e.dataset.discard === '1']),
    marked: [...new Set(tiles('#mj-hand .mj-tile.mj-ting-ok').match(/../g) || [])],
  };
}"""

_KINDS = {"chi": "chi", "peng": "peng", "minggang": "minggang", "angang": "angang"}


def _check_screen(page: Any, seen: list[str]) -> None:
    s = page.evaluate(SCREEN)
    hand = list(tiles_of(s["hand"]))
    melds = tuple(Meld(_KINDS[k], tuple(sorted(tiles_of(t)))) for k, t in s["mine"] if t)
    hun = frozenset(tiles_of(s["hun"]))
    visible = [*hand, *tiles_of(s["melds"]), *tiles_of(s["ponds"]), *tiles_of(s["flip"])]
    left = {k: 4 - visible.count(k) for k in range(34)}
    if len(hand) + 3 * len(melds) == 14 and s["turn"]:
        ready = ready_discards(hand, melds, hun)
        assert s["marked"] == [format_tiles([t]) for t in sorted(ready)], s
        if ready:
            seen.append("turn")
        return
    if len(hand) + 3 * len(melds) == 13:
        expected = [
            (format_tiles([w.kind]), left[w.kind], w.discard) for w in waits(hand, melds, hun)
        ]
        assert [tuple(x) for x in s["waits"]] == expected, s
        assert s["panel"] == bool(expected)
        if expected:
            seen.append("waits")


def test_ting_panel_and_marks_follow_the_hand(page: Any, scripted: ScriptedServer) -> None:
    """The whole scripted hand by taps; at every decision the panel and the marks equal the
    engine's waits of what is on screen. The first time a discard would leave the hand ready,
    the player taps that (marked) tile once, reads what it would wait on, and taps it again.
    The claim windows are held open by the test's clock while the panel is read in them."""
    page.base = scripted.base
    enter(page, "听牌")
    fast_bots(page)
    hold_clock(page)  # the panel is read in both languages inside a claim window
    room = open_room(page, CODE, hands=1)
    page.wait_for_selector("#mj-hand .mj-tile")
    seen: list[str] = []
    shots: list[str] = []
    rules = MajiangRules()
    claimed = False
    for _ in range(200):
        until_asked(page, room)
        if page.query_selector("#mj-result") or page.query_selector("#settlement"):
            break
        _check_screen(page, seen)
        before = signature(page)
        in_window = page.query_selector("#mj-claim") is not None
        if "waits" in seen and "ting" not in shots and in_window:
            # read in a claim window of the others' discards, held open meanwhile
            for lang, word in (("zh", "听牌"), ("en", "Ready")):
                set_lang(page, lang)
                page.wait_for_function(
                    "(w) => (document.getElementById('mj-ting')?.textContent || '').includes(w)",
                    arg=word,
                )
                problems = layout_problems(page, ["#mj-ting", "#mj-ting .mj-wait", "#mj-hand"])
                assert not problems, problems
            shoot(page, "majiang-ting-en")
            shots.append("ting")
            set_lang(page, "zh")
            assert page.query_selector("#mj-claim"), "the held window closed"
        marked = page.locator("#mj-hand .mj-tile.mj-ting-ok")
        if page.query_selector("#mj-turn") and marked.count() and "mark" not in shots:
            shots.append("mark")
            tile = marked.last
            tile.click()  # a first tap picks it: the panel tells what it would wait on
            page.wait_for_selector("#mj-hand .mj-tile.picked")
            for lang, words in (("zh", ("打", "听", "剩")), ("en", ("Discard", "left"))):
                set_lang(page, lang)
                page.wait_for_function(
                    f"document.getElementById('mj-ting').textContent.includes('{words[-1]}')"
                )
                text = page.inner_text("#mj-ting")
                assert all(x in text for x in words), text
                problems = layout_problems(page, ["#mj-ting", "#mj-turn", "#mj-hand"])
                assert not problems, problems
                shoot(page, f"majiang-ting-discard-{lang}")
            set_lang(page, "zh")
            page.locator("#mj-hand .mj-tile.picked").click()  # the second tap discards it
        else:
            hand_seen, legal = seen_on_screen(page)
            action = decide(hand_seen, legal, claimed, rules)
            claimed = claimed or action["type"] in ("peng", "chi")
            tap(page, action)
            if in_window:
                decided_in_window(page, room)
        page.wait_for_function(f"({SIGNATURE})() !== {json.dumps(before)}", timeout=30_000)
    assert "waits" in seen and {"ting", "mark"} <= set(shots), (seen, shots)


def test_hint_picks_the_advised_tile(page: Any, scripted: ScriptedServer) -> None:
    """提示 on one's turn picks the tile the server advises (as one tap does), in both
    languages, and the 打出 button names it."""
    page.base = scripted.base
    enter(page, "提示")
    fast_bots(page)
    open_room(page, CODE, hands=1)
    page.wait_for_selector("#mj-turn")
    for lang, label in (("zh", "提示"), ("en", "Hint")):
        set_lang(page, lang)
        button = page.locator("#mj-hint-btn")
        page.wait_for_function(f"document.getElementById('mj-hint-btn').textContent === '{label}'")
        button.click()
        page.wait_for_selector("#mj-hand .mj-tile.picked")
        assert page.locator("#mj-discard").is_visible()
        problems = layout_problems(page, ["#mj-hint-btn", "#mj-discard", "#mj-hand"])
        assert not problems, problems
    set_lang(page, "zh")
