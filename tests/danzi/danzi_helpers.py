"""Helpers of the 宁城打弹子 tests: write cards as the rule text does (``KKKKAAAA``)."""

from __future__ import annotations

import re

from paiju.cards import Card, parse_cards
from paiju.games.danzi.combos import Combo, Verdict, beats, classify, counts_of

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
