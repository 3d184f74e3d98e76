"""The 鞍山麻将 table for ``paiju play anshan-majiang``: tiles in Chinese text (5万, 中; the
Unicode tiles 🀋 🀄 with ``PAIJU_TILES=unicode``), the 混 marked, the drawn tile apart,
every river and meld, and the claim prompts.

Type a tile (``5m``, ``五万``, ``中``) to discard it, or the number of a choice; ``h`` / ``胡``
wins, ``p`` / ``碰``, ``g`` / ``杠``, ``c`` / ``吃`` (the first chow), ``k 5m`` kongs, ``过`` /
``pass`` passes; Enter takes the 推荐 (the bot's choice).

It speaks Chinese, or English with ``PAIJU_LANG=en`` (:func:`paiju.reasons.terminal_lang`),
one language at a time; seats are counted from 1 (1号位). The tiles are written as the
game writes them (5万, 中) in both; the game's own words (混, 枪, the fans) keep their
Chinese beside the English.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import cast

import click
from rich.console import Console

from paiju.engine import Action, Event, Game, State
from paiju.errors import PaijuError
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
from paiju.games.majiang.score import FAN_EN
from paiju.reasons import Lang, explain, say, seat_label, terminal_lang
from paiju.tiles import HONOR_NAMES, Tile, format_tiles, parse_tiles

__all__ = ["MajiangTable", "action_label", "tile_text"]

_SUIT = ("万", "筒", "条")
_MELD: dict[str, tuple[str, str]] = {
    "chi": ("吃", "chow"),
    "peng": ("碰", "pung"),
    "minggang": ("明杠", "open kong"),
    "angang": ("暗杠", "concealed kong"),
}
_HOW: dict[str, tuple[str, str]] = {
    "zimo": ("自摸", "self-drawn"),
    "dianpao": ("点炮", "on a discard"),
    "qianggang": ("抢杠", "robbing a kong"),
}


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


def action_label(action: Action, hun: frozenset[int] = frozenset(), lang: Lang = "zh") -> str:
    """A choice as players say it: ``碰`` / ``pung``, ``吃 3万 4万 5万`` / ``chow 3万 4万 5万``."""
    if isinstance(action, Win):
        return say(lang, "胡", "win")
    if isinstance(action, Peng):
        return say(lang, "碰", "pung")
    if isinstance(action, Gang):
        return say(lang, "杠", "kong")
    if isinstance(action, Pass):
        return say(lang, "过", "pass")
    if isinstance(action, Chi):
        return say(lang, "吃 ", "chow ") + tiles_text(action.chow)
    if isinstance(action, Kong):
        return say(lang, "杠 ", "kong ") + tile_text(action.tile)
    assert isinstance(action, Discard)
    return say(lang, "打 ", "discard ") + tile_text(action.tile, hun)


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
        self.lang: Lang = terminal_lang()

    def say(self, zh: str, en: str) -> str:
        return say(self.lang, zh, en)

    def show(self, state: State, seat: int) -> None:
        assert isinstance(state, MajiangState)
        c = self.console
        tell, lang = self.say, self.lang
        hun = state.hun
        qiang = " ".join(tile_text(k) for k in state.qiang) or "—"
        flip, wild, wall = (
            tile_text(state.flip),
            " ".join(tile_text(k) for k in hun),
            len(state.wall),
        )
        dealer = seat_label(state.dealer, lang, seat)
        ming = state.rules.qiang == "ming"
        name = self.game.variant.name_zh if lang == "zh" else self.game.variant.name_en
        c.print(
            tell(
                f"[bold]{name}[/bold]  揭 {flip} · 混 {wild} · 枪 {qiang}"
                f"（{'明枪' if ming else '暗枪'}） · 牌墙 {wall} · 庄家 {dealer}",
                f"[bold]{name}[/bold]  flip {flip} · wild (混) {wild} · 枪 {qiang}"
                f" ({'open' if ming else 'hidden'}) · wall {wall} · dealer {dealer}",
            )
        )
        for s in range(state.seats):
            me = seat_label(s, lang, seat)
            melds = "  ".join(
                f"{say(lang, *_MELD[m.kind])} "
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
            banker = tell(" 庄", " (dealer)") if s == state.dealer else ""
            c.print(f"  {me}{banker}: {melds or ''}")
            c.print(tell(f"     河：{river or '—'}", f"     discards: {river or '—'}"), style="dim")
        hand = list(state.hands[seat])
        drawn = state.drawn if state.turn == seat and state.phase == "play" else None
        if drawn is not None and drawn in hand:
            hand.remove(drawn)
        held = tiles_text(sorted(hand), hun)
        line = tell(f"手牌：{held}", f"hand: {held}")
        if drawn is not None:
            line += tell("   摸到：", "   drew: ") + f"[bold]{tile_text(drawn, hun)}[/bold]"
        c.print(line)
        if state.phase in ("claim", "rob") and state.last is not None:
            who, tile = state.last
            rob = state.phase == "rob"
            what = tell("补杠", "adds to a kong:") if rob else tell("打出", "discards")
            c.print(f"{seat_label(who, lang, seat)} {what} [bold]{tile_text(tile)}[/bold]")
        if state.is_over:
            self._result(state)

    def _result(self, state: MajiangState) -> None:
        c = self.console
        tell, lang = self.say, self.lang
        if not state.wins:
            c.print(
                tell("[bold]流局：谁也不付[/bold]", "[bold]drawn hand (流局): nobody pays[/bold]")
            )
            return
        for w in state.wins:
            who = seat_label(w.seat, lang)
            how = say(lang, *_HOW[w.how])
            source = None if w.source is None else seat_label(w.source, lang)
            zh_how = how if source is None else f"{how}，{source}"
            en_how = how if source is None else f"{how} from {source}"
            tile = tile_text(w.tile)
            c.print(
                tell(
                    f"[bold]{who} 胡[/bold]（{zh_how}）：{tile}",
                    f"[bold]{who} wins[/bold] ({en_how}): {tile}",
                )
            )
            groups = "  ".join(_group_text(g) for g in w.groups)
            c.print(tell(f"  牌型 {w.form}：{groups}", f"  form {w.form}: {groups}"))
            fans = tell("、", ", ").join(self._fan(f) for f in w.fans) or "—"
            c.print(tell(f"  番：{fans} = {len(w.fans)}", f"  fans: {fans} = {len(w.fans)}"))
            for row in w.pay:
                extra = " ".join(self._fan(str(x)) for x in cast(list[str], row["extra"])) or "—"
                payer = seat_label(int(str(row["seat"])), lang)
                pay = f"2^{row['fan']} = {row['pay']}"
                c.print(tell(f"  {payer} 付 {pay}（+{extra}）", f"  {payer} pays {pay} (+{extra})"))
        if state.reveal is not None:
            turned = tile_text(state.reveal)
            c.print(tell(f"  暗枪翻出：{turned}", f"  hidden 枪 turned up: {turned}"))

    def _fan(self, name: str) -> str:
        """A fan (番) by its name, with its English beside it in English."""
        return name if self.lang == "zh" or name not in FAN_EN else f"{name} ({FAN_EN[name]})"

    def event(self, state: State, seat: int, event: Event) -> None:
        assert isinstance(state, MajiangState)
        kind = event.type
        body = event.to_json()
        who = body.get("seat")
        tell = self.say
        name = seat_label(who, self.lang, seat) if isinstance(who, int) else "?"
        if kind == "discarded":
            tile = tile_text(Tile.parse(body["tile"]), state.hun)
            self.console.print(tell(f"  {name} 打 {tile}", f"  {name} discards {tile}"))
        elif kind == "tile_drawn":
            tile = tile_text(Tile.parse(body["tile"]), state.hun)
            self.console.print(tell(f"  你摸到 {tile}", f"  you drew {tile}"))
        elif kind == "melded" and body["kind"] in _MELD:
            tiles = tiles_text(parse_tiles(body["tiles"])) if body["tiles"] else "■■■■"
            self.console.print(f"  {name} {say(self.lang, *_MELD[body['kind']])} {tiles}")
        elif kind == "melded":
            tiles = tiles_text(parse_tiles(body["tiles"]))
            self.console.print(tell(f"  {name} 补杠 {tiles}", f"  {name} adds to a kong: {tiles}"))
        elif kind == "drawn_hand":
            self.console.print(tell("  流局：牌墙摸完了", "  drawn hand (流局): the wall is empty"))

    def ask(self, state: State, seat: int) -> Action:
        assert isinstance(state, MajiangState)
        legal = list(state.legal_actions(seat) or [])
        if legal == [Pass()]:
            return Pass()  # a window with nothing to claim: nothing to ask
        advice = self.advisor.act(state, seat)
        choices = [a for a in legal if not isinstance(a, Discard)]
        tell = self.say
        for i, action in enumerate(choices):
            self.console.print(f"  [{i}] {action_label(action, state.hun, self.lang)}")
        advised = action_label(advice, state.hun, self.lang)
        play = state.phase == "play"
        question = tell(
            f"{'打哪张？' if play else '要吗？'}（推荐 {advised}，直接回车采用）",
            f"{'discard which tile?' if play else 'claim?'} (suggested: {advised}; Enter takes it)",
        )
        while True:
            answer = click.prompt(question, default="", show_default=False).strip()
            if not answer:
                return advice
            try:
                action = self._parse(answer, choices, legal)
                state.check(seat, action)
                return action
            except PaijuError as exc:
                self.console.print(f"[red]{explain(exc, self.lang)}[/red]")
            except ValueError as exc:
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
            raise ValueError(self.say(f"现在不能{answer}", f"{answer} is not a choice now"))
        if word.startswith("k "):
            return Kong(Tile.parse(word[2:]))
        tiles = parse_tiles(answer)
        if len(tiles) == 1:
            return Discard(tiles[0])
        if len(tiles) == 3:
            return Chi(tuple(sorted(tiles)))
        raise ValueError(
            self.say(
                f"看不懂 {answer!r}：写一张牌如 5m 或 五万，或序号",
                f"{answer!r}: type a tile such as 5m or 五万, or a number",
            )
        )
