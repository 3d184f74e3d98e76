"""鞍山麻将 fans (番) and payment (付分).

「种牌面的番数如下：1、庄 2、点炮 3、穷胡 4、站立 5、明(暗)杠 6、大哥大 7、四归一 8、枪 9、二八将
10、十三幺 11、七对 12、杠上开花」, each one fan, plus 三叉 and 闭门 of the notes. The fans of the
hand (:func:`hand_fans`) are the winner's; 庄, 点炮 and 闭门 belong to each loser's payment
(:func:`payments`): 「三家都付给胡牌家应付的分,点炮方会多付一番。自摸为三家点炮。…n番付2的n次方」.

>>> payments(2, winner=1, dealer=0, discarder=2, closed={3})
[-8, 24, -8, -8]
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from paiju.games.majiang.rules import DRAGONS, MajiangRules, pred, succ
from paiju.games.majiang.win import HandShape, Meld, Reading, best_reading

__all__ = [
    "FAN_ORDER",
    "Score",
    "WinContext",
    "hand_fans",
    "payments",
    "qiang_kinds",
    "score",
]

FAN_ORDER = (
    "庄",
    "点炮",
    "穷胡",
    "站立",
    "明杠",
    "暗杠",
    "大哥大",
    "四归一",
    "枪",
    "二八将",
    "三叉",
    "十三幺",
    "七对",
    "杠上开花",
)
"""Every fan name, in the order they are listed."""

FAN_EN = {
    "庄": "dealer",
    "点炮": "discarder / self-draw",
    "穷胡": "no 混 held",
    "站立": "never opened",
    "明杠": "exposed kong",
    "暗杠": "concealed kong",
    "大哥大": "three of a dragon",
    "四归一": "four of a kind, not a kong",
    "枪": "枪 tile",
    "二八将": "pair of 2s or 8s",
    "三叉": "three pungs",
    "十三幺": "all terminals and honours",
    "七对": "seven pairs",
    "杠上开花": "win on a kong replacement",
    "闭门": "loser never opened",
}


def qiang_kinds(flip: int, rules: MajiangRules, reveal: int | None) -> tuple[int, ...]:
    """The 枪 kinds: 明枪 = the kind before the flip (上滚); 暗枪 = the tile turned up after
    the win and the kind after it (none when the wall was empty: ``reveal`` None)."""
    if rules.qiang == "ming":
        return (pred(flip),)
    if reveal is None:
        return ()
    return (reveal, succ(reveal))


@dataclass(frozen=True)
class WinContext:
    """A claimed win: the concealed tiles *before* the winning tile, the melds, the tile."""

    concealed: tuple[int, ...]
    melds: tuple[Meld, ...]
    win_tile: int
    self_drawn: bool
    hun: frozenset[int]
    qiang: tuple[int, ...] = ()
    after_kong: bool = False

    @property
    def shape(self) -> HandShape:
        return HandShape((*self.concealed, self.win_tile), self.melds, self.hun)


@dataclass
class Score:
    """The verdict on a claimed win: the reading and the fans of the hand."""

    win: bool
    reading: Reading
    fans: list[str] = field(default_factory=list)
    """The hand's fans (R25-R35) with repeats, in :data:`FAN_ORDER`; 庄/点炮 not included."""

    @property
    def reason(self) -> str:
        return self.reading.form if self.win else self.reading.reason


def hand_fans(ctx: WinContext, reading: Reading, rules: MajiangRules) -> list[str]:
    """The fans of a winning hand (R27-R35, and the form's own: 二八将 三叉 十三幺 七对)."""
    shape = ctx.shape
    fans: list[str] = []
    tiles = [*shape.concealed, *(t for m in shape.melds for t in m.tiles)]
    held_hun = any(t in ctx.hun for t in tiles)
    if not held_hun or (
        rules.qionghu == "no-wild-use"
        and best_reading(HandShape(shape.concealed, shape.melds, frozenset()), rules).win
    ):
        fans.append("穷胡")
    if not any(m.is_open for m in shape.melds):
        fans.append("站立")
    fans.extend("明杠" for m in shape.melds if m.kind == "minggang")
    fans.extend("暗杠" for m in shape.melds if m.kind == "angang")
    natural = shape.natural_counts()
    fans.extend("大哥大" for d in sorted(DRAGONS) if natural[d] >= 3)
    kongs = {m.tiles[0] for m in shape.melds if m.is_kong}
    fans.extend("四归一" for k in range(34) if natural[k] == 4 and k not in kongs)
    fans.extend("枪" for t in tiles if t in ctx.qiang)
    fans.extend(reading.fans)
    if ctx.after_kong:
        fans.append("杠上开花")
    order = {name: i for i, name in enumerate(FAN_ORDER)}
    fans.sort(key=lambda name: order[name])
    return fans


def score(ctx: WinContext, rules: MajiangRules | None = None) -> Score:
    """Whether the claimed win stands and, if so, its fans (R14-R35)."""
    rules = rules or MajiangRules()
    if not ctx.self_drawn and ctx.win_tile in ctx.hun:
        return Score(False, Reading(False, reason="a discarded 混 cannot be claimed"))
    reading = best_reading(ctx.shape, rules)
    if not reading.win:
        return Score(False, reading)
    return Score(True, reading, hand_fans(ctx, reading, rules))


def loser_fans(
    hand: int,
    loser: int,
    *,
    winner: int,
    dealer: int,
    discarder: int | None,
    closed: Collection[int] = (),
    rules: MajiangRules | None = None,
) -> list[str]:
    """The extra fans of one loser's payment: 庄, 点炮, 闭门 (R37-R39)."""
    rules = rules or MajiangRules()
    extra = []
    if winner == dealer or (loser == dealer and rules.zhuang == "both"):
        extra.append("庄")
    if discarder is None or discarder == loser:
        extra.append("点炮")
    if loser in closed:
        extra.append("闭门")
    return extra


def payments(
    hand: int,
    *,
    winner: int,
    dealer: int,
    discarder: int | None,
    closed: Collection[int] = (),
    seats: int = 4,
    rules: MajiangRules | None = None,
) -> list[int]:
    """Per-seat deltas: each loser pays 2^(hand fans + 庄 + 点炮 + 闭门); ``discarder`` None
    is a self-drawn win (三家点炮). They sum to zero."""
    deltas = [0] * seats
    for loser in range(seats):
        if loser == winner:
            continue
        e = hand + len(
            loser_fans(
                hand,
                loser,
                winner=winner,
                dealer=dealer,
                discarder=discarder,
                closed=closed,
                rules=rules,
            )
        )
        deltas[loser] -= 2**e
        deltas[winner] += 2**e
    return deltas


def payment_table(
    hand: int,
    *,
    winner: int,
    dealer: int,
    discarder: int | None,
    closed: Sequence[int] = (),
    seats: int = 4,
    rules: MajiangRules | None = None,
) -> list[dict[str, object]]:
    """Each loser's payment with its fans, for the win screen and the CLI."""
    rows: list[dict[str, object]] = []
    for loser in range(seats):
        if loser == winner:
            continue
        extra = loser_fans(
            hand,
            loser,
            winner=winner,
            dealer=dealer,
            discarder=discarder,
            closed=closed,
            rules=rules,
        )
        rows.append(
            {
                "seat": loser,
                "extra": extra,
                "fan": hand + len(extra),
                "pay": 2 ** (hand + len(extra)),
            }
        )
    return rows
