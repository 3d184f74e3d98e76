"""The English UI speaks English: a hand of every family played through in English (the
seat played by 托管 after its first timeout), every screen the table goes through read as
it is drawn, then the hand's replay; no Chinese is left on them but in the names players
chose and in glosses, a Chinese term in parentheses after its English ("a gun (打枪)").

What is not text is left out: the cards' and tiles' faces (drawings: a joker's 大王 corner,
a tile's 万) and the language switch (中文). The player's name and the bots' (Bot N) are
Latin here, so any other Chinese is the engine's or a string's that the UI did not put in
English."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from web_helpers import DealServer, enter, fast_bots, lobby_in, open_room

FAMILIES = {
    "1301": 4,
    "2001": 4,
    "2101": 4,
    "sandaha": 4,
    "anshan-jiayibing": 6,
    "anshan-fangyang": 4,
    "anshan-majiang": 4,
    "ningcheng-danzi": 4,
}

WATCH = r"""() => {
  const CJK = /[\u3400-\u9fff\u3000-\u303f\uff00-\uffef]/;
  const SKIP = '.card, .mj-tile, .mj-tiles, #lang-switch, script, style';
  window.__cjk = window.__cjk || {};
  const textOf = (box) => {  // its text, the faces of cards and tiles left out
    let out = '';
    const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.parentElement.closest(SKIP)) out += n.textContent;
    }
    return out.replace(/\s+/g, ' ').trim();
  };
  const scan = () => {
    if (!(document.documentElement.lang || '').startsWith('en')) return;
    if (!/^#\/(room|replay)\//.test(location.hash)) return;
    const root = document.querySelector('main') || document.body;
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || el.closest(SKIP) || !CJK.test(n.textContent)) continue;
      const box = el.closest('li, p, td, th, button, h1, h2, h3, h4, label') || el;
      const text = textOf(box);
      // a gloss: the Chinese term in parentheses after its English
      if (CJK.test(text.replace(/\([^()]*\)/g, ''))) window.__cjk[text.slice(0, 160)] = 1;
    }
  };
  let queued = false;
  new MutationObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; scan(); });
  }).observe(document, { childList: true, subtree: true, characterData: true });
  window.__cjkScan = scan;
}"""


def read_a_hand(
    page: Any, code: str, seats: int, at_result: Callable[[Any], None] | None = None
) -> list[str]:
    """Play a hand of ``code`` in English (托管 playing the player's seat after its first
    timeout), then its replay; every text with Chinese left in it that was drawn.
    ``at_result``: what to check on the hand's result before the replay."""
    page.add_init_script(f"({WATCH})()")
    enter(page, "Reader")
    lobby_in(page, "en")
    fast_bots(page, 0.01, claim_window=0.3, time_limit=0.2, tuoguan_after=1)
    open_room(page, code, seats=seats, bots=seats - 1, hands=1)
    first = page.wait_for_selector("#settlement, #open-all", timeout=90_000)
    if first.get_attribute("id") == "open-all":  # 宝子's 搓牌: one's own cards first
        first.click()
    page.wait_for_selector("#settlement", timeout=90_000)
    page.wait_for_selector("#result-why, #cl-result, #mj-result, .why-head", timeout=10_000)
    page.evaluate("window.__cjkScan()")
    if at_result:
        at_result(page)
    game = page.get_attribute("#settlement", "data-game")
    page.goto(f"{page.base}/#/replay/{game}")
    page.wait_for_selector("#action-log li")
    page.evaluate("window.__cjkScan()")
    page.click("#replay-first")
    page.evaluate("window.__cjkScan()")
    found: list[str] = sorted(page.evaluate("Object.keys(window.__cjk)"))
    return found


@pytest.mark.parametrize("code", list(FAMILIES))
def test_every_english_screen_of_a_hand_is_english(page: Any, code: str) -> None:
    found = read_a_hand(page, code, FAMILIES[code])
    assert not found, f"{code}: Chinese on English screens:\n" + "\n".join(found)


BONUS_SEED = "en-4"
"""十三张 1301: a deal whose back row of four of a kind (四梅) earns a row bonus against
every other seat, the players' rows set by the bots and by 托管 (searched over "en-N")."""


def test_a_row_bonus_reads_in_english(page: Any, deal_server: DealServer) -> None:
    """十三张's row bonuses (冲三, 四梅, 同花顺), which the engine names in Chinese, are
    in English in the result's explanation and in 比牌明细: "Back: four of a kind (四梅)
    +8", not "四梅 (ssz.尾墩)". A random deal has one about one time in three, so the
    hand here is chosen.

    rule (001): "四梅：不论哪一墩只要与其他玩家相比后为胜，自己另加8注，对手另扣8注。" """
    page.base = deal_server.base
    deal_server.choose(BONUS_SEED)

    def bonus_in_english(page: Any) -> None:
        # 比牌明细 and the result's explanation
        page.wait_for_selector(".pairs-box .tag.bonus", state="attached")
        assert page.text_content(".pairs-box .tag.bonus") == "four of a kind (四梅) +8"
        assert "Back: four of a kind (四梅) +8" in page.text_content(".result-why")

    found = read_a_hand(page, "1301", 4, bonus_in_english)
    assert not found, "1301: Chinese on English screens:\n" + "\n".join(found)
