"""The 鞍山麻将 bot: wins, keeps the 混, efficient discards, helpful claims, defence; and
random playouts with it in every seat through the harness."""

from __future__ import annotations

from mj_helpers import stacked
from test_game import HANDS_B

from paiju.games import game, make_bot
from paiju.games.majiang.bot import MajiangBot, ShantenOnlyBot, WorthBot
from paiju.games.majiang.distance import Stakes, evaluate, steps, worth
from paiju.games.majiang.game import Discard, MajiangState, MeldRecord, Pass, Peng, Win
from paiju.games.majiang.rules import kind_counts
from paiju.games.majiang.shanten import counts_of, shanten
from paiju.games.majiang.ting import waits
from paiju.games.majiang.win import Meld
from paiju.harness import check_game
from paiju.search import Budget, SearchBot
from paiju.tiles import Tile, parse_tiles


def T(text: str) -> Tile:
    return Tile.parse(text)


def test_shanten_counts_the_hun() -> None:
    """A 混 takes one step off: 听 with 13 tiles, complete with 14."""
    assert shanten(counts_of(parse_tiles("123m456p789s11z5z")), 0) == 1
    assert shanten(counts_of(parse_tiles("123m456p789s11z5z")), 1) == 0
    assert shanten(counts_of(parse_tiles("1133557799m11p2z")), 1) == -1  # 七对 with the 混


def test_evaluate_charges_a_missing_suit() -> None:
    """「三门齐」: a hand with no 条 is a step further than its shape says."""
    full = counts_of(parse_tiles("123m456p789s11z55z"))
    no_tiao = counts_of(parse_tiles("123m456p789p11z55z"))
    assert evaluate(full, 0, 0, []) < evaluate(no_tiao, 0, 0, [])


def test_bot_declares_a_win_on_a_discard() -> None:
    state = stacked(HANDS_B)
    state.apply(0, Discard(T("5z")))
    assert MajiangBot(state.game, 1).act(state, 1) == Win()


def test_bot_keeps_the_hun_and_drops_the_isolated_tile() -> None:
    hands = [
        "",  # 混 4z; 9m 1z 6z 7z 5p isolated
        "234m111m456p789s5z",
        "6m8m1p3p6p8p1s3s7s9s7z2p3z",
        "456m999p234p567s5z",
    ]
    hands[0] = "123m456p78s4z9m1z6z7z5p"  # 14 tiles
    state = stacked(hands)
    action = MajiangBot(state.game, 1).act(state, 0)
    assert isinstance(action, Discard)
    assert action.tile != T("4z")
    assert action.tile in parse_tiles("9m1z6z7z5p")


def test_bot_pengs_when_it_helps_and_passes_when_not() -> None:
    hands = [
        "5z6z6z7z9m5p7p2s4s6s8s1z2z3z",
        "234m456p789s55z19p",  # 碰 5z: three groups + 碰, a 听 on 1p/9p pair... helps
        "6m8m1p3p6p8p1s3s7s9s7z2p3z",
        "123m999p234p567s1s",
    ]
    state = stacked(hands)
    state.apply(0, Discard(T("5z")))
    assert state.to_act() == {1, 2, 3}
    assert MajiangBot(state.game, 1).act(state, 1) == Peng()
    assert MajiangBot(state.game, 1).act(state, 2) == Pass()  # nothing to claim


def test_bot_defends_against_three_melds() -> None:
    """An opponent showing three melds is 听: a far-off bot discards that seat's own discards."""
    hands = [
        "1m4m7m2p5p8p3s6s9s1z2z3z5z7z",  # far from 听
        "234m456p789s55z19p",
        "6m8m1p3p6p8p1s3s7s9s7z2p3z",
        "123m999p234p567s1s",
    ]
    state = stacked(hands)
    state.melds[2] = [MeldRecord("peng", (T("6z"),) * 3, 1, T("6z"))] * 3
    state.river[2] = [(T("5p"), False)]
    action = MajiangBot(state.game, 3).act(state, 0)
    assert action == Discard(T("5p"))


def test_shanten_only_bot_never_claims_but_wins() -> None:
    state = stacked(HANDS_B)
    state.apply(0, Discard(T("5z")))
    bot = ShantenOnlyBot(state.game, 1)
    assert bot.act(state, 1) == Win()
    state = stacked(HANDS_B)
    state.apply(0, Discard(T("5z")))
    state.apply(1, Pass())
    assert isinstance(state, MajiangState)


def test_playouts_with_the_bot_keep_every_invariant() -> None:
    """Tiles conserved, zero sum, replay, hidden tiles, clean rejections, JSON round-trips."""
    g = game("anshan-majiang")
    assert check_game(g, range(3)) == []
    assert check_game(game("anshan-majiang", qiang="an", multiple_winners=True), range(2)) == []


def test_every_room_option_plays() -> None:
    """Each §6 switch away from its default still keeps the invariants (quick checks)."""
    for options in (
        {"hun": "flip+next"},
        {"shisanyao": "thirteen-orphans", "no_258_pair": True},
        {"hun_may_make_dragon_pair": False, "qionghu": "no-wild-use"},
        {"zhuang": "winner-only", "dealer_rotation": "next"},
    ):
        g = game("anshan-majiang", **options)
        assert check_game(g, range(2), deep=False) == [], options


def test_a_won_hand_does_not_name_the_faces_its_hun_play_as_tiles() -> None:
    """At the end every hand is shown, but a tile a 混 stood for is no tile anyone holds:
    a deal in which the winner's 混 plays 6s while every 6s is still in the wall must show
    the face as a kind (``hun_as``), so no view names a tile hidden from everyone."""
    from paiju.games import make_bot
    from paiju.harness import view_items

    g = game("anshan-majiang")
    state = g.new_state(4, seed="leak-27")
    bots = [make_bot(g, 27 * 4 + i) for i in range(4)]
    while not state.is_over:
        seat = min(state.to_act())
        state.apply(seat, bots[seat].act(state, seat))
    assert isinstance(state, MajiangState)
    (win,) = state.view(0)["result"]["wins"]
    six = parse_tiles("6s")[0]
    assert any(six in g_["hun_as"] for g_ in win["groups"]), win["groups"]
    assert state.hidden_from(0)[six] == 4  # every 6s is in the wall
    for seat in (None, 0, 1, 2, 3):
        assert view_items(state.view(seat), g.items)[six] == 0


def test_steps_count_a_pung_and_a_chow() -> None:
    """「有碰牌(或有中发白一对)」: four 顺子 and a single are 听 in shape but win on nothing,
    so :func:`steps` puts them a step short of 听, where the rule bot's 向听 says 听."""
    no_pung = parse_tiles("234m456p789s234s1z")
    with_pung = parse_tiles("234m456p789s222s1z")
    assert evaluate(counts_of(no_pung), 0, 0, []) == 0
    assert steps(counts_of(no_pung), 0, []) == 1
    assert waits(no_pung) == []
    assert steps(counts_of(with_pung), 0, []) == 0
    assert waits(with_pung)
    chows_only = parse_tiles("345m")
    peng = Meld("peng", (T("2p"),) * 3)
    melds = [Meld("chi", tuple(parse_tiles("234m"))), Meld("chi", tuple(parse_tiles("456p")))]
    rest = parse_tiles("789s1z")
    assert steps(counts_of([*chows_only, *rest]), 0, melds) == 1  # no 刻子 anywhere
    assert steps(counts_of([*chows_only, *rest]), 0, [melds[0], peng]) == 0  # the 碰 is one


def test_steps_never_call_ready_a_hand_that_waits_on_nothing() -> None:
    """Over the hands of a few rule-bot playouts: every hand :func:`steps` calls 听 waits
    on a tile, while the rule bot's 向听 calls many 听 that wait on nothing."""
    g = game("anshan-majiang")
    fooled = ready = 0
    for h in range(6):
        state = g.new_state(4, seed=f"steps/{h}")
        assert isinstance(state, MajiangState)
        bots = [MajiangBot(g, s) for s in range(4)]
        while not state.is_over:
            seat = min(state.to_act())
            state.apply(seat, bots[seat].act(state, seat))
            for s in range(4):
                if state.is_over or len(state.hands[s]) + 3 * len(state.melds[s]) != 13:
                    continue
                counts, wilds = kind_counts(state.hands[s], state.hun)
                melds = [m.meld() for m in state.melds[s]]
                found = waits(state.hands[s], melds, state.hun, state.rules)
                if steps(counts, wilds, melds) <= 0:
                    assert found, (state.hands[s], melds)
                    ready += 1
                shape = evaluate(counts, wilds, len(melds), [t for m in melds for t in m.tiles])
                fooled += shape <= 0 and not found
    assert ready and fooled


def test_worth_orders_hands() -> None:
    """A hand's worth (the 困难 bot's measure): 听 beats a step off, more ways on beat
    fewer, and a 枪 tile held doubles what a win pays."""
    stakes = Stakes(win=3.0, loss=1.0)
    unseen = [4] * 34

    def value(text: str) -> float:
        return worth(parse_tiles(text), frozenset({30}), [], (28,), unseen, stakes)

    ready_wide = value("234m456p789s55z78m")  # 6m-9m, the 白 pair meets condition 1
    ready_narrow = value("234m456p789s55z79m")  # 8m only
    one_off = value("234m456p789s55z7m1s")
    assert ready_wide > ready_narrow > one_off
    assert value("123m456p789s55z7m2z") > value("123m456p789s55z7m3z")  # 2z: the 枪


QIANG_HANDS = [
    "123m456p789s55z7m2z9p",
    "1m4m7m2p5p8p3s6s9s1z3s7z6z",
    "2m5m8m3p6p9p1s4s7s2s6z7z1z",
    "3m6m9m1p4p7p2s5s8s6z1z7z4m",
]
"""Seat 0 one from 听 holding the 枪 南 (2z); the flip is 西."""


def test_estimate_values_the_best_discard_and_a_ready_hand_above_a_far_one() -> None:
    state = stacked(QIANG_HANDS)
    assert isinstance(state, MajiangState)
    best = max(state.worth(0, [t for t in state.hands[0] if t != T(x)]) for x in ("9p", "2z"))
    assert state.estimate(0) == best
    state.apply(0, Discard(T("9p")))
    near = state.estimate(0)
    far = stacked(["1m4m7m2p5p8p3s6s9s1z3s7z6z5z", *QIANG_HANDS[1:]])
    far.apply(0, Discard(T("5z")))
    assert near > far.estimate(0)


def test_hard_bot_keeps_the_qiang_tile_the_rule_bot_lets_go() -> None:
    """明枪 南 (flip 西): the rule bot lets the lone 2z go (an honour first); the 困难 bot
    lets 9p go instead, as near to 听, and every win with the 2z pays twice as much."""
    state = stacked(QIANG_HANDS)
    assert state.qiang == (T("2z"),)
    assert MajiangBot(state.game, 1).act(state, 0) == Discard(T("2z"))
    assert WorthBot(state.game, 1).act(state, 0) == Discard(T("9p"))
    hard = make_bot(state.game, 1, "困难")
    assert isinstance(hard, SearchBot) and isinstance(hard.policy, WorthBot)
    hard.budget = Budget(ms=1e9, samples=8)
    assert hard.act(state, 0) == Discard(T("9p"))


def test_hard_bot_takes_every_win_it_is_offered() -> None:
    """What a hand is worth waiting on stays below a win on offer (自摸 or 点炮, however
    wide the wait), so the search never lets one go by."""
    g = game("anshan-majiang")
    offered = 0
    for h in range(12):
        state = g.new_state(4, seed=f"wins/{h}")
        bots = [MajiangBot(g, s) for s in range(4)]
        while not state.is_over:
            seat = min(state.to_act())
            if Win() in (state.legal_actions(seat) or []):
                hard = SearchBot(g, h, WorthBot, Budget(ms=1e9, samples=6))
                assert hard.act(state, seat) == Win()
                offered += 1
            state.apply(seat, bots[seat].act(state, seat))
    assert offered >= 10
