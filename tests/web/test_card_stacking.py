"""Cards drawn on one another (a climbing hand's stacks of one rank, each stack half under
the next): every point of a card that shows is that card's, so a tap there takes it.

A joker's corner (小/王 in a column) is lifted above the joker's own star; it must not
be lifted above the card laid on the joker too, or the top of that card belongs to the
joker beneath (a tap on it then selects nothing, or the wrong card)."""

from __future__ import annotations

from typing import Any

import pytest
from web_helpers import DESKTOP, PHONE, WebServer

STACKS = [["BJ", "BJ"], ["RJ", "BJ", "BJ"], ["Kc", "Kd"], ["RJ"], ["2h"]]

LAY_OUT = """(stacks) => Promise.all([import('/js/cards.js'), import('/tables/climbing.js')])
  .then(([cards, table]) => {
    table.ensureStyle();
    document.querySelector('#stack-test')?.remove();
    const hand = document.createElement('div');
    hand.className = 'cl-hand stacks';
    hand.id = 'stack-test';
    stacks.forEach((stack, s) => {
      const el = document.createElement('div');
      el.className = 'cl-stack';
      if (stack.length > 1) {
        const count = document.createElement('span');
        count.className = 'cl-count';
        count.textContent = `×${stack.length}`;
        el.append(count);
      }
      stack.forEach((card, i) => {
        const c = cards.cardEl(card);
        c.classList.add('pick');
        c.dataset.at = `${s}-${i}`;
        el.append(c);
      });
      hand.append(el);
    });
    document.body.prepend(hand);
  })"""

WRONG_POINTS = """() => {
  // every card's part that shows: its own box less the next card of its stack (below it)
  // and the next stack (to its right); a grid of points there must hit the card itself
  const wrong = [];
  const stacks = [...document.querySelectorAll('#stack-test .cl-stack')];
  stacks.forEach((stack, s) => {
    const right = s + 1 < stacks.length ? stacks[s + 1].getBoundingClientRect().left : Infinity;
    const cards = [...stack.querySelectorAll('.card')];
    cards.forEach((card, i) => {
      const r = card.getBoundingClientRect();
      const bottom = i + 1 < cards.length ? cards[i + 1].getBoundingClientRect().top : r.bottom;
      for (let x = r.left + 2; x < Math.min(r.right, right) - 2; x += 3) {
        for (let y = r.top + 2; y < bottom - 2; y += 3) {
          const hit = document.elementFromPoint(x, y);
          if (!card.contains(hit)) {
            const other = hit && hit.closest('.card');
            wrong.push(`${card.dataset.at} at (${Math.round(x - r.left)}, ${Math.round(y - r.top)})`
              + ` is ${other ? other.dataset.at : hit && hit.className}`);
          }
        }
      }
    });
  });
  return wrong;
}"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_every_point_of_a_card_that_shows_is_the_cards_own(
    page: Any, server: WebServer, size: str
) -> None:
    page.set_viewport_size(PHONE if size == "phone" else DESKTOP)
    page.goto(page.base + "/")
    page.evaluate(LAY_OUT, STACKS)
    wrong = page.evaluate(WRONG_POINTS)
    assert not wrong, wrong[:12]
    # with the pointer resting on a card (a hovered card is lifted a little: drawn apart,
    # with a stacking context of its own), the top one of a stack or one beneath
    for at in ("0-1", "0-0", "1-2", "1-1", "2-1"):
        box = page.eval_on_selector(
            f"#stack-test [data-at='{at}']",
            "e => { const r = e.getBoundingClientRect(); return [r.left, r.top]; }",
        )
        page.mouse.move(box[0] + 6, box[1] + 6)
        wrong = page.evaluate(WRONG_POINTS)
        assert not wrong, (at, wrong[:12])
