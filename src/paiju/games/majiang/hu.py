"""``paiju hu``: the verdict on one claimed win, from text (the command-line contract).

>>> r = hu("234m456p789s111m5z", win="5z", flip="3z")
>>> r["win"], r["reason"], r["fans"]
(True, 'standard', ['穷胡', '站立'])
>>> hu("234m456p789s111m5z", win="5z", flip="3z", seat=1, dealer_seat=0, from_seat=2,
...    closed="3")["pay"]
[-8, 24, -8, -8]
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from paiju.errors import NotationError
from paiju.games.majiang.rules import MajiangRules, hun_kinds
from paiju.games.majiang.score import FAN_ORDER, WinContext, payment_table, payments, qiang_kinds
from paiju.games.majiang.score import score as score_win
from paiju.games.majiang.win import Meld
from paiju.tiles import Tile, format_tiles, parse_tiles

__all__ = ["check_melds_without_hun", "hu", "parse_melds"]

_MELD_KINDS = {"c": "chi", "p": "peng", "k": "minggang", "a": "angang"}


def parse_melds(text: str) -> tuple[Meld, ...]:
    """``"c:123m p:555p k:1111z a:2222s"`` -> melds; raises NotationError naming the bad one."""
    melds = []
    for token in text.split():
        kind, sep, tiles_text = token.partition(":")
        if not sep or kind not in _MELD_KINDS:
            raise NotationError(
                f"bad meld {token!r}: write KIND:TILES with KIND c (吃), p (碰), k (明杠) "
                "or a (暗杠), e.g. 'p:555p'"
            )
        tiles = tuple(sorted(parse_tiles(tiles_text)))
        name = _MELD_KINDS[kind]
        if name == "chi":
            ok = (
                len(tiles) == 3
                and tiles[0] < 27
                and tiles[0] // 9 == tiles[2] // 9
                and tiles[1] == tiles[0] + 1
                and tiles[2] == tiles[0] + 2
            )
            if not ok:
                raise NotationError(f"bad meld {token!r}: a 吃 is three in a row of one suit")
        else:
            n = 3 if name == "peng" else 4
            if len(tiles) != n or len(set(tiles)) != 1:
                raise NotationError(f"bad meld {token!r}: a {kind}: meld is {n} of one tile")
        melds.append(Meld(name, tiles))
    return tuple(melds)


def check_melds_without_hun(melds: tuple[Meld, ...], hun: frozenset[int]) -> None:
    """Raise ``NotationError`` for a meld of the command line that holds a 混 (a 混 is
    never part of a 吃, 碰 or 杠)."""
    for m in melds:
        if any(t in hun for t in m.tiles):
            raise NotationError(
                f"meld {m.text()} holds a 混 ({format_tiles(sorted(hun))}): "
                "a 混 is never part of a 吃, 碰 or 杠"
            )


def _seat(value: int | None, what: str) -> int | None:
    if value is not None and not 0 <= value <= 3:
        raise NotationError(f"{what} must be a seat 0-3, got {value}")
    return value


def hu(
    hand: str,
    *,
    win: str,
    flip: str,
    melds: str = "",
    self_drawn: bool = False,
    qiang: str = "ming",
    reveal: str | None = None,
    after_kong: bool = False,
    dealer: bool = False,
    seat: int | None = None,
    dealer_seat: int | None = None,
    from_seat: int | None = None,
    closed: str = "",
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The verdict ``{"win", "fan", "fans", "reason", "pay"}`` on a claimed win (§8).

    Raises NotationError for bad input: a bad tile, a wrong tile count, five of a kind
    (counting the flip and the reveal), a 混 inside a meld, ``after_kong`` without a kong.
    """
    rules = MajiangRules.from_options({**(options or {}), "qiang": qiang})
    concealed = parse_tiles(hand)
    win_tile = Tile.parse(win)
    flip_tile = Tile.parse(flip)
    reveal_tile = None if reveal is None else Tile.parse(reveal)
    if reveal_tile is not None and qiang != "an":
        raise NotationError("--reveal is the 暗枪 tile: it needs --qiang an")
    meld_list = parse_melds(melds)
    want = 13 - 3 * len(meld_list)
    if len(concealed) != want:
        raise NotationError(
            f"--hand has {len(concealed)} tiles; with {len(meld_list)} meld(s) it holds "
            f"{want} before the winning tile"
        )
    hun = hun_kinds(flip_tile, rules)
    check_melds_without_hun(meld_list, hun)
    every = Counter([*concealed, win_tile, flip_tile, *(t for m in meld_list for t in m.tiles)])
    if reveal_tile is not None:
        every[reveal_tile] += 1
    five = sorted(t for t, n in every.items() if n > 4)
    if five:
        raise NotationError(
            f"more than four {format_tiles(five)} (hand, melds, winning tile, flip and reveal)"
        )
    if after_kong and not self_drawn:
        raise NotationError("--after-kong is a kong replacement draw: it needs --self-drawn")
    if after_kong and not any(m.is_kong for m in meld_list):
        raise NotationError("--after-kong needs a kong among --melds (k: or a:)")
    payment_mode = seat is not None or dealer_seat is not None
    closed_seats: list[int] = []
    if payment_mode:
        if seat is None or dealer_seat is None:
            raise NotationError("payment mode needs both --seat and --dealer-seat")
        _seat(seat, "--seat")
        _seat(dealer_seat, "--dealer-seat")
        _seat(from_seat, "--from")
        if self_drawn and from_seat is not None:
            raise NotationError("--from names the discarder: a self-drawn win has none")
        if not self_drawn and from_seat is None:
            raise NotationError("--from (the discarder) is required unless --self-drawn")
        if from_seat == seat:
            raise NotationError("--from must be another seat than --seat")
        try:
            closed_seats = [int(x) for x in closed.split()]
        except ValueError:
            raise NotationError(f"--closed takes seat numbers like '0 3', got {closed!r}") from None
        for c in closed_seats:
            _seat(c, "--closed")
            if c == seat:
                raise NotationError("--closed names losers; the winner's closed hand is 站立")
        dealer = seat == dealer_seat
    elif closed or from_seat is not None:
        raise NotationError("--from and --closed need payment mode (--seat and --dealer-seat)")
    ctx = WinContext(
        concealed,
        meld_list,
        win_tile,
        self_drawn,
        hun,
        qiang_kinds(flip_tile, rules, reveal_tile),
        after_kong,
    )
    verdict = score_win(ctx, rules)
    hand_fans = list(verdict.fans)
    fans = list(hand_fans)
    if verdict.win:
        if dealer:
            fans.append("庄")
        if self_drawn:
            fans.append("点炮")
    order = {name: i for i, name in enumerate(FAN_ORDER)}
    fans.sort(key=lambda name: order[name])
    out: dict[str, Any] = {
        "win": verdict.win,
        "fan": len(fans),
        "fans": fans,
        "reason": verdict.reason,
        "pay": None,
    }
    if verdict.win:
        out["groups"] = [g.to_json() for g in verdict.reading.groups]
        out["hun"] = format_tiles(sorted(hun))
        out["qiang"] = format_tiles(ctx.qiang)
    if payment_mode:
        assert seat is not None and dealer_seat is not None
        if verdict.win:
            discarder = None if self_drawn else from_seat
            out["pay"] = payments(
                len(hand_fans),
                winner=seat,
                dealer=dealer_seat,
                discarder=discarder,
                closed=closed_seats,
                rules=rules,
            )
            out["payments"] = payment_table(
                len(hand_fans),
                winner=seat,
                dealer=dealer_seat,
                discarder=discarder,
                closed=closed_seats,
                rules=rules,
            )
        else:
            out["pay"] = [0, 0, 0, 0]
    return out
