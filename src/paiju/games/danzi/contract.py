"""The command-line answers of 宁城打弹子 (the reading's §15): combo, beats, tribute, settle.

Each function takes the command's text arguments and returns its JSON answer, or raises a
:class:`~paiju.errors.PaijuError` (exit status 2 at the command line).

>>> combo_json("Ks Kh Kc Kd As Ah Ac Ad")["kind_zh"]
'假8'
>>> beats_json("5s 5h 5c", "4s 4h")
{'beats': True, 'take': True, 'reason': 'take'}
>>> settle_json({"finish_order": [0, 2, 1, 3], "declarer": 0, "totals": [27, 10]})
{'points': [6, 0], 'totals': [33, 10], 'match_over': True, 'winner': 0}
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from paiju.cards import Card, format_cards, parse_cards
from paiju.errors import IllegalAction, NotationError, PaijuError, ProtocolError
from paiju.games.danzi.combos import Combo, beats, classify, counts_of
from paiju.games.danzi.scoring import settle
from paiju.games.danzi.tribute import auto_tribute, check_return, check_tribute, is_free

__all__ = ["beats_json", "combo_json", "settle_json", "tribute_json"]

JSON = dict[str, Any]


def _cards(text: str, what: str) -> tuple[Card, ...]:
    cards = parse_cards(text)
    over = [c for c, n in Counter(cards).items() if n > 2]
    if over:
        raise NotationError(
            f"{what}: {format_cards(over)} more than twice; the game has two decks of each card"
        )
    return cards


def _combo(text: str, what: str) -> Combo | None:
    cards = _cards(text, what)
    if not cards:
        raise NotationError(f"{what}: no cards")
    return classify(counts_of(cards))


def combo_json(text: str) -> JSON:
    """``paiju combo ningcheng-danzi CARDS``: the combination's kind (``kind_zh``) and order."""
    combo = _combo(text, "cards")
    if combo is None:
        raise IllegalAction(f"{text!r} is no combination of 打弹子", reason="not_a_combination")
    return combo.to_json()


def beats_json(lead: str, play: str) -> JSON:
    """``paiju beats ningcheng-danzi LEAD PLAY``: may PLAY go on LEAD, is it a 取牌, why."""
    table = _combo(lead, "lead")
    if table is None:
        raise IllegalAction(f"the lead {lead!r} is no combination of 打弹子")
    combo = _combo(play, "play")
    if combo is None:
        return {"beats": False, "take": False, "reason": "not_a_combination"}
    verdict = beats(table, combo)
    return {"beats": verdict.beats, "take": verdict.take, "reason": verdict.reason}


def tribute_json(
    hand: str, count: int | None = None, give: str | None = None, received: str | None = None
) -> JSON:
    """``paiju tribute ningcheng-danzi HAND`` in its three forms (§15)."""
    if (count is None) == (received is None):
        raise ProtocolError("give either --count N (进贡) or --received CARDS (还贡), not both")
    cards = _cards(hand, "hand")
    if received is not None:
        if give is None:
            raise ProtocolError("a return (--received) needs the returned cards (--give)")
        return _verdict(check_return, cards, _cards(received, "received"), _cards(give, "give"))
    assert count is not None
    if count < 1 or count > len(cards):
        raise ProtocolError(f"--count must be 1..{len(cards)} (the hand's size), got {count}")
    if give is None:
        return {"free": is_free(cards), "cards": format_cards(auto_tribute(cards, count))}
    return _verdict(check_tribute, cards, count, _cards(give, "give"))


def _verdict(check: Any, *args: Any) -> JSON:
    try:
        check(*args)
    except IllegalAction as exc:
        return {"legal": False, "reason": exc.reason or str(exc), "message": str(exc)}
    return {"legal": True, "reason": "ok"}


def settle_json(obj: object) -> JSON:
    """``paiju settle ningcheng-danzi``: a deal's points and the match from the JSON on stdin."""
    if not isinstance(obj, Mapping):
        raise ProtocolError("settle reads one JSON object on stdin")
    order = obj.get("finish_order")
    if not isinstance(order, list):
        raise ProtocolError('settle needs "finish_order": the four seats, 头游 first')
    declarer = obj.get("declarer")
    if declarer is not None and (type(declarer) is not int or not 0 <= declarer < 4):
        raise ProtocolError(f"declarer must be a seat 0-3 or null, got {declarer!r}")
    totals = obj.get("totals", [0, 0])
    target = obj.get("target", 30)
    if target not in (30, 60):
        raise ProtocolError(f"target is 30 or 60, got {target!r}")
    if not isinstance(totals, list):
        raise ProtocolError(f"totals are two team scores, got {totals!r}")
    try:
        return settle(order, declarer, totals, target)
    except PaijuError as exc:
        raise ProtocolError(str(exc)) from None
