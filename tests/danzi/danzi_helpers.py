"""Helpers of the 宁城打弹子 tests: write cards as the rule text does (``KKKKAAAA``)."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from paiju.cards import Card, deck, parse_cards
from paiju.engine import Deal
from paiju.games import game
from paiju.games.danzi.combos import Combo, Verdict, beats, classify, counts_of
from paiju.games.danzi.game import DanziState

_TOKEN = re.compile(r"10|RJ|BJ|大王|小王|[2-9TJQKA]")


def ranks(text: str) -> tuple[Card, ...]:
    """Cards from ranks as the text writes them (``3344557788991010``, ``大王大王``).

    Copies of a rank get suits s h c d s h c d in turn (two decks, N1).
    """
    seen: dict[str, int] = {}
    out: list[Card] = []
    for token in _TOKEN.findall(text.replace(" ", "")):
        if token in ("RJ", "BJ", "大王", "小王"):
            out.extend(parse_cards(token))
            continue
        rank = "T" if token == "10" else token
        n = seen.get(rank, 0)
        seen[rank] = n + 1
        out.extend(parse_cards(rank + "shcd"[n % 4]))
    return tuple(out)


def combo(text: str) -> Combo | None:
    """The combination of cards written as ranks, None when they form none."""
    return classify(counts_of(ranks(text)))


def kind(text: str) -> str | None:
    c = combo(text)
    return None if c is None else c.kind


def verdict(table: str, play: str) -> Verdict:
    t, p = combo(table), combo(play)
    assert t is not None and p is not None, (table, play)
    return beats(t, p)


def beat(table: str, play: str) -> bool:
    return verdict(table, play).beats


def make_deal(spec: dict[int, str], start: int = 0) -> Deal:
    """A legal 108-card deal: ``spec`` gives some seats' cards (card text, dealing order
    first); every other card fills the hands in deck order up to 27 each."""
    pool = Counter(deck("108"))
    hands: list[list[int]] = [[] for _ in range(4)]
    for seat, text in spec.items():
        for c in parse_cards(text):
            assert pool[c] > 0, f"{Card(c)} used more than twice"
            pool[c] -= 1
            hands[seat].append(c)
    rest = sorted(pool.elements())
    for seat in range(4):
        while len(hands[seat]) < 27:
            hands[seat].append(rest.pop(0))
    assert not rest
    return Deal(tuple(tuple(h) for h in hands), {}, {"start": start})


def new_deal(
    spec: dict[int, str] | None = None,
    context: dict[str, Any] | None = None,
    start: int = 0,
    **options: Any,
) -> DanziState:
    """A 宁城打弹子 deal from a given deal (``spec``) and match context."""
    g = game("ningcheng-danzi", **options)
    state = g.new_state(4, deal=make_deal(spec or {}, start), context=context or {})
    assert isinstance(state, DanziState)
    return state


def later(
    order: list[int], declarer: int | None = None, totals: tuple[int, int] = (0, 0)
) -> dict[str, Any]:
    """The context of a later deal: the previous finishing order and declarer."""
    return {
        "totals": list(totals),
        "deal_number": 1,
        "previous": {"finish_order": order, "declarer": declarer},
    }


def set_hands(state: DanziState, hands: dict[int, str]) -> None:
    """Scenario set-up for trick tests: replace some hands (cards need not be conserved)."""
    for seat, text in hands.items():
        state.hands[seat] = list(parse_cards(text))
