"""The 鞍山麻将 bot: wins, keeps the 混, efficient discards, helpful claims, defence; and
random playouts with it in every seat through the harness."""

from __future__ import annotations

from mj_helpers import stacked
from test_game import HANDS_B

from paiju.games import game
from paiju.games.majiang.bot import MajiangBot, ShantenOnlyBot, evaluate
from paiju.games.majiang.game import Discard, MajiangState, MeldRecord, Pass, Peng, Win
from paiju.games.majiang.shanten import counts_of, shanten
from paiju.harness import check_game
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


def test_distance_takes_less_than_a_step_off_for_more_waits() -> None:
    """A search's leaf: two 听 hands are both within a step of 0, the one with the wider
    wait (两面 1m-4m against 嵌张 3m) nearer."""
    from paiju.games.majiang.distance import distance

    def far(text: str) -> float:
        tiles = parse_tiles(text)
        unseen = [4 - n for n in counts_of(tiles)]
        return distance(tiles, (), 0, [], unseen)

    wide, narrow = far("123m456p789s11z23m"), far("123m456p789s11z24m")
    assert -1 < wide < narrow < 1
    assert evaluate(counts_of(parse_tiles("123m456p789s11z23m")), 0, 0, []) == 0
