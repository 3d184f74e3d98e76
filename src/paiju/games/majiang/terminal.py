"""The 鞍山麻将 table for ``paiju play anshan-majiang``: tiles in Chinese text (5万, 中; the
Unicode tiles 🀋 🀄 with ``PAIJU_TILES=unicode``), the 混 marked, the drawn tile apart,
every river and meld, and the claim prompts.

Type a tile (``5m``, ``五万``, ``中``) to discard it, or the number of a choice; ``h`` / ``胡``
wins, ``p`` / ``碰``, ``g`` / ``杠``, ``c`` / ``吃`` (the first chow), ``k 5m`` kongs, ``过`` /
``pass`` passes; Enter takes the 推荐 (the bot's choice).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import cast

import click
from rich.console import Console

from paiju.engine import Action, Event, Game, State
from paiju.errors import IllegalAction, PaijuError
from paiju.games.majiang.bot import MajiangBot
from paiju.games.majiang.game import (
    Chi,
    Discard,
    Gang,
    Kong,
    MajiangState,
    Pass,
    Peng,
    Win,
)
from paiju.games.majiang.messages import render
from paiju.games.majiang.score import FAN_EN
from paiju.tiles import HONOR_NAMES, Tile, format_tiles, parse_tiles

__all__ = ["MajiangTable", "action_label", "tile_text"]

_SUIT = ("万", "筒", "条")
_MELD = {"chi": "吃", "peng": "碰", "minggang": "明杠", "angang": "暗杠"}
_HOW = {"zimo": "自摸 self-drawn", "dianpao": "点炮 on a discard", "qianggang": "抢杠 robbed kong"}


_GLYPH_SUIT = (0x1F007, 0x1F019, 0x1F010)  # 🀇 一万, 🀙 一筒, 🀐 一条
_GLYPH_HONOR = "🀀🀁🀂🀃🀆🀅🀄"  # 东 南 西 北 白 发 中
UNICODE = os.environ.get("PAIJU_TILES", "").lower() == "unicode"
"""``PAIJU_TILES=unicode`` shows the Unicode mahjong tiles (🀇 🀙 🀐 🀄) instead of 5万 text."""


def tile_text(tile: int, hun: frozenset[int] = frozenset(), glyphs: bool | None = None) -> str:
    """``5万``, ``中`` (or the Unicode tile, 🀋 🀄); a 混 is marked ``[混]`` after the tile.

    >>> tile_text(4), tile_text(33, frozenset({33})), tile_text(4, glyphs=True)
    ('5万', '中[混]', '🀋')
    """
    t = Tile(tile)
    if glyphs if glyphs is not None else UNICODE:
        text = _GLYPH_HONOR[t - 27] if t.is_honor else chr(_GLYPH_SUIT[t.suit] + t.number - 1)
    else:
        text = HONOR_NAMES[t - 27] if t.is_honor else f"{t.number}{_SUIT[t.suit]}"
    return f"{text}[混]" if t in hun else text


def tiles_text(tiles: Sequence[int], hun: frozenset[int] = frozenset()) -> str:
    return " ".join(tile_text(t, hun) for t in tiles) or "—"


def action_label(action: Action, hun: frozenset[int] = frozenset()) -> str:
    """A choice as players say it, Chinese then English."""
    if isinstance(action, Win):
        return "胡 win"
    if isinstance(action, Peng):
        return "碰 pung"
    if isinstance(action, Gang):
        return "杠 kong"
    if isinstance(action, Pass):
        return "过 pass"
    if isinstance(action, Chi):
        return f"吃 chow {tiles_text(action.chow)}"
    if isinstance(action, Kong):
        return f"杠 kong {tile_text(action.tile)}"
    assert isinstance(action, Discard)
    return f"打 discard {tile_text(action.tile, hun)}"


def _group_text(group: dict[str, object]) -> str:
    """``78s+混(6s)``: a group's natural tiles, then its 混 and the tiles they play."""
    tiles = str(group["tiles"])
    hun = int(str(group["hun"]))
    kinds = group.get("hun_as") or []
    assert isinstance(kinds, list)
    faces = format_tiles(int(k) for k in kinds)
    wild = "混" * hun + (f"({faces})" if faces else "")
    if not tiles:
        return wild
    return f"{tiles}+{wild}" if hun else tiles


class MajiangTable:
    """Shows a seat's table and asks for its action."""

    def __init__(self, game: Game, console: Console) -> None:
        self.game = game
        self.console = console
        self.advisor = MajiangBot(game, 7)

    def show(self, state: State, seat: int) -> None:
        assert isinstance(state, MajiangState)
        c = self.console
        hun = state.hun
        qiang = " ".join(tile_text(k) for k in state.qiang) or "—"
        c.print(
            f"揭 flip {tile_text(state.flip)}  混 wild {' '.join(tile_text(k) for k in hun)}  "
            f"枪 {qiang} ({'明枪' if state.rules.qiang == 'ming' else '暗枪'})  "
            f"牌墙 wall {len(state.wall)}  庄 dealer: 座{state.dealer}"
        )
        for s in range(state.seats):
            me = "你 you" if s == seat else f"座{s}"
            melds = "  ".join(
                f"{_MELD[m.kind]} "
                + (
                    tiles_text(m.tiles)
                    if m.kind != "angang" or s == seat or state.is_over
                    else "■■■■"
                )
                for m in state.melds[s]
            )
            river = " ".join(
                f"({tile_text(t)})" if taken else tile_text(t) for t, taken in state.river[s]
            )
            c.print(f"  {me}{' 庄' if s == state.dealer else ''}: {melds or ''}")
            c.print(f"     河 discards: {river or '—'}", style="dim")
        hand = list(state.hands[seat])
        drawn = state.drawn if state.turn == seat and state.phase == "play" else None
        if drawn is not None and drawn in hand:
            hand.remove(drawn)
        line = f"手牌 hand: {tiles_text(sorted(hand), hun)}"
        if drawn is not None:
            line += f"   摸 drew: [bold]{tile_text(drawn, hun)}[/bold]"
        c.print(line)
        if state.phase in ("claim", "rob") and state.last is not None:
            who, tile = state.last
            what = "补杠" if state.phase == "rob" else "打出"
            c.print(f"座{who} {what} [bold]{tile_text(tile)}[/bold]")
        if state.is_over:
            self._result(state)

    def _result(self, state: MajiangState) -> None:
        c = self.console
        if not state.wins:
            c.print("[bold]流局 drawn hand: nobody pays[/bold]")
            return
        for w in state.wins:
            src = "" if w.source is None else f" 座{w.source}"
            c.print(f"[bold]座{w.seat} 胡 wins[/bold] {_HOW[w.how]}{src}: {tile_text(w.tile)}")
            groups = "  ".join(_group_text(g) for g in w.groups)
            c.print(f"  牌型 {w.form}: {groups}")
            c.print(
                "  番 fans: "
                + ", ".join(f"{f} ({FAN_EN[f]})" for f in w.fans)
                + f" = {len(w.fans)}"
            )
            for row in w.pay:
                extra = " ".join(str(x) for x in cast(list[str], row["extra"])) or "—"
                c.print(f"  座{row['seat']} 付 pays 2^{row['fan']} = {row['pay']}  (+{extra})")
        if state.reveal is not None:
            c.print(f"  暗枪 翻出 turned up: {tile_text(state.reveal)}")

    def event(self, state: State, seat: int, event: Event) -> None:
        assert isinstance(state, MajiangState)
        kind = event.type
        body = event.to_json()
        who = body.get("seat")
        name = "你 you" if who == seat else f"座{who}"
        if kind == "discarded":
            self.console.print(f"  {name} 打 {tile_text(Tile.parse(body['tile']), state.hun)}")
        elif kind == "tile_drawn":
            self.console.print(
                f"  你摸到 you drew {tile_text(Tile.parse(body['tile']), state.hun)}"
            )
        elif kind == "melded" and body["kind"] in _MELD:
            tiles = tiles_text(parse_tiles(body["tiles"])) if body["tiles"] else "■■■■"
            self.console.print(f"  {name} {_MELD[body['kind']]} {tiles}")
        elif kind == "melded":
            self.console.print(f"  {name} 补杠 {tiles_text(parse_tiles(body['tiles']))}")
        elif kind == "drawn_hand":
            self.console.print("  流局 the wall is empty")

    def ask(self, state: State, seat: int) -> Action:
        assert isinstance(state, MajiangState)
        legal = list(state.legal_actions(seat) or [])
        advice = self.advisor.act(state, seat)
        choices = [a for a in legal if not isinstance(a, Discard)]
        for i, action in enumerate(choices):
            self.console.print(f"  [{i}] {action_label(action, state.hun)}")
        prompt = "打哪张? discard which tile" if state.phase == "play" else "要吗? claim"
        while True:
            answer = click.prompt(
                f"{prompt} (推荐 {action_label(advice, state.hun)}; Enter takes it)",
                default="",
                show_default=False,
            ).strip()
            if not answer:
                return advice
            try:
                action = self._parse(answer, choices, legal)
                state.check(seat, action)
                return action
            except IllegalAction as exc:
                text = render(exc.reason, exc.params) if exc.reason else str(exc)
                self.console.print(f"[red]{text}[/red]")
            except (PaijuError, ValueError) as exc:
                self.console.print(f"[red]{exc}[/red]")

    def _parse(self, answer: str, choices: list[Action], legal: list[Action]) -> Action:
        word = answer.lower()
        if word.isdigit() and int(word) < len(choices):
            return choices[int(word)]
        shortcuts: dict[str, type[Action]] = {
            "h": Win,
            "胡": Win,
            "p": Peng,
            "碰": Peng,
            "g": Gang,
            "杠": Gang,
            "过": Pass,
            "pass": Pass,
            "c": Chi,
            "吃": Chi,
        }
        if word in shortcuts:
            for a in choices:
                if isinstance(a, shortcuts[word]):
                    return a
            if shortcuts[word] is Pass:
                return Pass()
            raise ValueError(f"{answer} is not a choice now 现在不能这样做")
        if word.startswith("k "):
            return Kong(Tile.parse(word[2:]))
        tiles = parse_tiles(answer)
        if len(tiles) == 1:
            return Discard(tiles[0])
        if len(tiles) == 3:
            return Chi(tuple(sorted(tiles)))
        raise ValueError(f"{answer!r}: type a tile such as 5m or 五万, or a number")
