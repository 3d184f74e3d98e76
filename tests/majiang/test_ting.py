"""听牌 (waits) of 鞍山麻将: real hands pinned, the fast waits against a plain trial of every
kind with the win check, and the ``paiju ting`` contract.

The reading's clauses these hands exercise: R12 「a discarded 混 cannot be claimed」 (so a 混
kind completes a hand on a self-draw only), R14-R18 (碰, 顺子, 幺九, 三门齐, the 混 supplying
neither 门 nor 幺九), R25 七对 (four alike are two pairs), R26 十三幺 (every tile 幺九).
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cli_run import run
from paiju.errors import NotationError
from paiju.games.majiang.hu import parse_melds
from paiju.games.majiang.rules import MajiangRules, hun_kinds, succ
from paiju.games.majiang.ting import _UNIT, _need, ready_discards, ting, waits, waits_by_trial
from paiju.games.majiang.win import C, D, Meld, P, solve_block
from paiju.tiles import format_tiles, parse_tiles


def _waits(hand: str, flip: str, melds: str = "", **options: object) -> list[tuple[str, str]]:
    """(tile, how) per wait: how is 'both' (discard and self-draw) or 'self' (self-draw only)."""
    out = []
    for w in ting(hand, flip=flip, melds=melds, options=options)["waits"]:
        assert w["self_drawn"], "every wait completes the hand on a self-draw"
        out.append((w["tile"], "both" if w["discard"] else "self"))
    return out


def test_a_plain_wait_on_two_sides() -> None:
    """234m 456p 78s 111z 22z waits on 6s and 9s (R14-R17 all met), and on the 混 drawn."""
    got = _waits("234m456p78s11122z", "9p")
    assert got == [("1p", "self"), ("6s", "both"), ("9s", "both")]  # 1p: the 混 (R12)


def test_the_hun_kind_completes_only_on_a_self_draw() -> None:
    """R12 「a discarded 混 cannot be claimed」: flip 2m makes 3m the 混, so 45m waits on 6m
    from anyone but on 3m only by drawing it (then it is a wild)."""
    assert _waits("45m456p789s111z55z", "2m") == [("3m", "self"), ("6m", "both")]


def test_a_held_hun_pairs_with_anything() -> None:
    """R22 「two 混 are a pair」, a 混 and a tile too: 123m 456p 78s 111z + 混(北) + 白 waits
    on 6s/9s (白 + 混 the 中发白 pair), on 白 (a natural pair) and on the 混 itself."""
    got = _waits("123m456p78s11145z", "3z")
    assert got == [("6s", "both"), ("9s", "both"), ("4z", "self"), ("5z", "both")]


def test_three_suits_limit_the_waits() -> None:
    """R17 三门齐: 123m 123m 456m 456m 白 + 白 would have no 条 nor 筒, so the hand waits only
    where 七对 (R25: 「七对可以缺门」) takes it."""
    assert _waits("11223344556m66z", "3z") == [("6m", "both"), ("4z", "self")]
    assert _waits("1112345678999m", "9p") == []  # 九莲宝灯 is one suit: no win here


def test_the_hun_does_not_supply_the_yaojiu() -> None:
    """R18: with no natural 1, 9 or honour, 234m 456p 666s 55p + 78m would win on 6m or 9m,
    and only 9m supplies the 幺九; a 混 (南) drawn does not (「不能单独顶幺九」)."""
    got = _waits("234m456p666s55p78m", "1z")
    assert got == [("9m", "both")]


def test_seven_pairs_count_four_alike_as_two_pairs() -> None:
    """R25: 11 22 33 44 55m 66z 7z waits on 7z (七对); flip 发 makes 白 the 混."""
    assert _waits("1122334455m667z", "6z") == [("5z", "self"), ("7z", "both")]
    # 1111m 22 33p 55 66s 7z: the four 1m are two pairs, 7z completes
    assert ("7z", "both") in _waits("1111m2233p5566s7z", "3z")


def test_shisanyao_every_yaojiu_completes() -> None:
    """R26 (乱幺): thirteen 幺九 tiles wait on every 幺九 kind, and the 混 (6p) drawn."""
    got = _waits("19m19p19s1234567z", "5p")
    assert [t for t, _ in got] == [
        "1m", "9m", "1p", "6p", "9p", "1s", "9s", "1z", "2z", "3z", "4z", "5z", "6z", "7z"
    ]  # fmt: skip
    assert dict(got)["6p"] == "self"
    # the classic option: thirteen orphans wait on all thirteen; with a pair, on the missing one
    classic = {"shisanyao": "thirteen-orphans"}
    assert len(_waits("19m19p19s1234567z", "5p", **classic)) == 14
    assert _waits("19m19p19s1234566z", "5p", **classic) == [("6p", "self"), ("7z", "both")]


def test_a_kind_held_four_times_is_no_wait() -> None:
    """345m 456p 789s 1111z: the fifth 东 cannot come; the 混 (3p) drawn pairs with the 东."""
    assert _waits("345m456p789s1111z", "2p") == [("3p", "self")]


def test_melds_count_for_the_conditions() -> None:
    """A 碰 of 222p and a 吃 of 345s supply 筒 and 条 and the 111z pung the 幺九."""
    got = _waits("1234m", "3z", melds="p:222p c:345s p:111z")
    assert got == [("1m", "both"), ("4m", "both"), ("4z", "self")]


def test_unseen_counts_the_hand_the_melds_and_the_flip() -> None:
    """unseen = 4 less the copies in the hand (混 counted), the melds and the shown flip."""
    w = {
        x["tile"]: x["unseen"]
        for x in ting("1234m", flip="4m", melds="p:222p c:345s p:111z")["waits"]
    }
    # 混 = 5m; 1m: one held; 4m: one held and the flip
    assert w == {"1m": 3, "4m": 2, "5m": 4}


def test_flip_and_next_rooms_have_two_hun_kinds() -> None:
    """hun = flip+next (本溪): the flip kind and the next are both 混, both self-draw only."""
    got = _waits("45m456p789s111z55z", "2m", hun="flip+next")
    assert ("2m", "self") in got and ("3m", "self") in got


def test_ready_discards_name_the_tiles_that_keep_the_hand_ready() -> None:
    """打哪张听哪张: 234m 456p 78s 111z 22z + 9m: discard 9m to wait on 6s/9s."""
    hand = parse_tiles("234m9m456p78s11122z")
    got = ready_discards(hand)
    assert format_tiles(got) == "9m"
    assert [format_tiles([w.kind]) for w in got[parse_tiles("9m")[0]]] == ["6s", "9s"]


def test_bad_input_is_a_notation_error() -> None:
    with pytest.raises(NotationError, match="holds 13"):
        ting("123m", flip="1z")
    with pytest.raises(NotationError, match="more than four"):
        ting("1111m456p789s112z", flip="1m")
    with pytest.raises(NotationError, match="混"):
        ting("1234m", flip="3z", melds="p:222p c:345s p:444z")


# -- the fast waits against the trial of every kind ------------------------------------


@st.composite
def hands(draw: st.DrawFn) -> tuple[list[int], tuple[Meld, ...], frozenset[int], MajiangRules]:
    """A hand one tile short: often near a win (groups and a pair, a tile taken away, some
    tiles swapped), sometimes dealt at random; 0-2 melds, a flip, the room options the fast
    path serves (the two rarer pair rules go by trial, see :func:`waits`)."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    rules = MajiangRules(
        hun=draw(st.sampled_from(["next", "flip+next"])),
        shisanyao=draw(st.sampled_from(["all-yaojiu", "thirteen-orphans"])),
    )
    n_melds = draw(st.integers(0, 2))
    while True:
        pool = Counter({k: 4 for k in range(34)})
        flip = rng.randrange(34)
        pool[flip] -= 1
        hun = hun_kinds(flip, rules)
        melds = []
        for _ in range(n_melds):
            k = rng.randrange(34)
            if rng.random() < 0.5 and k < 27 and k % 9 <= 6:
                tiles = (k, k + 1, k + 2)
                kind = "chi"
            else:
                tiles = (k,) * 3
                kind = "peng"
            melds.append(Meld(kind, tiles))
        size = 13 - 3 * n_melds
        if rng.random() < 0.2:
            hand = [rng.randrange(34) for _ in range(size)]
        else:
            hand = []
            while len(hand) < size + 1:
                s = rng.randrange(27)
                hand += [s, s + 1, s + 2] if s % 9 <= 6 and rng.random() < 0.6 else [s] * 3
                if rng.random() < 0.3:
                    hand[-1] = rng.randrange(27, 34)
            hand = hand[: size - 1] + [rng.randrange(34)] * 2
            hand.pop(rng.randrange(len(hand)))
            for _ in range(rng.randrange(3)):
                hand[rng.randrange(len(hand))] = rng.choice([*hun, rng.randrange(34)])
        used = Counter(hand) + Counter(t for m in melds for t in m.tiles)
        if any(used[k] > pool[k] for k in used):
            continue
        if any(t in hun for m in melds for t in m.tiles):
            continue
        return hand[:size], tuple(melds), hun, rules


@settings(max_examples=400, deadline=None)
@given(hands())
def test_fast_waits_agree_with_trying_each_kind(
    case: tuple[list[int], tuple[Meld, ...], frozenset[int], MajiangRules],
) -> None:
    """Each of the 34 kinds added and :func:`can_win` asked gives exactly :func:`waits`."""
    hand, melds, hun, rules = case
    assert waits(hand, melds, hun, rules) == waits_by_trial(hand, melds, hun, rules)


def test_fast_waits_agree_on_many_seeded_hands() -> None:
    """The same on 3,000 seeded near-winning hands under the default rules (with 混)."""
    rng = random.Random(2026)
    ready = 0
    for _ in range(3000):
        flip = rng.randrange(34)
        hun = frozenset({succ(flip)})
        tiles: list[int] = []
        for _ in range(4):
            s = rng.randrange(27)
            tiles += [s, s + 1, s + 2] if s % 9 <= 6 and rng.random() < 0.6 else [s] * 3
        p = rng.randrange(34)
        tiles += [p, p]
        tiles.pop(rng.randrange(14))
        for _ in range(rng.randrange(3)):
            tiles[rng.randrange(13)] = next(iter(hun))
        if max(Counter([*tiles, flip]).values()) > 4:
            continue
        fast = waits(tiles, (), hun)
        assert fast == waits_by_trial(tiles, (), hun), format_tiles(sorted(tiles))
        ready += bool(fast)
    assert ready > 1000  # the property is not vacuous: most of these hands are ready


def test_fast_waits_agree_with_many_hun_and_melds() -> None:
    """The same on 3,000 seeded hands holding one to six 混 (``flip+next``: two kinds), with
    0-3 melds, near a win or dealt at random: the 混 as a fifth copy, a group of 混 alone,
    a block completed by 混 only."""
    rng = random.Random(7)
    rules = MajiangRules(hun="flip+next")
    ready = 0
    for _ in range(3000):
        flip = rng.randrange(34)
        hun = hun_kinds(flip, rules)
        kinds = sorted(hun)
        n_melds = rng.randrange(4)
        melds: list[Meld] = []
        tiles: list[int] = []
        for n in range(4):
            s = rng.randrange(27)
            chow = s % 9 <= 6 and rng.random() < 0.5
            group = [s, s + 1, s + 2] if chow else [rng.randrange(34)] * 3
            if n < n_melds:
                melds.append(Meld("chi" if chow else "peng", tuple(group)))
            else:
                tiles += group
        p = rng.randrange(34)
        tiles += [p, p]
        if rng.random() < 0.2:
            tiles = [rng.randrange(34) for _ in tiles]
        tiles.pop(rng.randrange(len(tiles)))
        for _ in range(rng.randrange(1, 7)):
            tiles[rng.randrange(len(tiles))] = rng.choice(kinds)
        used = Counter([*tiles, flip, *(t for m in melds for t in m.tiles)])
        if max(used.values()) > 4 or any(t in hun for m in melds for t in m.tiles):
            continue
        fast = waits(tiles, tuple(melds), hun, rules)
        assert fast == waits_by_trial(tiles, tuple(melds), hun, rules), (
            format_tiles(sorted(tiles)),
            melds,
        )
        ready += bool(fast)
    assert ready > 1000


def _projected(features: int) -> int:
    """A block's features as the waits read them: bit 1 a 刻子 or 中发白 pair, bit 2 a 顺子."""
    return (1 if features & (P | D) else 0) | (2 if features & C else 0)


@settings(max_examples=300, deadline=None)
@given(
    st.booleans(),
    st.lists(st.integers(0, 4), min_size=9, max_size=9).filter(lambda c: sum(c) <= 14),
)
def test_the_hun_a_block_lacks_agrees_with_the_block_solver(honor: bool, counts: list[int]) -> None:
    """Per block, the fewest 混 that complete it with features holding a mask (with the pair
    or without) is exactly what :func:`~paiju.games.majiang.win.solve_block` finds with 0-8
    混: completing with ``j`` and a feature set holding the mask iff ``j`` is at least that."""
    counts = counts[:7] if honor else counts
    need = _need(sum(c * _UNIT[k] for k, c in enumerate(counts)), honor)
    for j in range(9):
        size = sum(counts) + j
        if size % 3 == 1:
            continue
        pair = size % 3 == 2
        found = solve_block(honor, tuple(counts), j)
        for mask in range(4):
            holds = any(_projected(f) & mask == mask for f in found)
            assert holds == (need[4 * pair + mask] <= j), (counts, j, mask, need)


# -- the command line ------------------------------------------------------------------

TING = ("ting", "anshan-majiang")


def test_ting_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *TING, "--hand", "45m456p789s111z55z", "--flip", "2m", "--json")
    assert code == 0, err
    assert json.loads(out) == {
        "waits": [
            {"tile": "3m", "discard": False, "self_drawn": True, "unseen": 4},
            {"tile": "6m", "discard": True, "self_drawn": True, "unseen": 4},
        ]
    }


def test_ting_with_melds_and_an_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        *TING,
        "--hand",
        "1234m",
        "--melds",
        "p:222p c:345s p:111z",
        "--flip",
        "3z",
        "--option",
        "hun=flip+next",
        "--json",
    )
    assert code == 0
    tiles = [w["tile"] for w in json.loads(out)["waits"]]
    assert tiles == ["1m", "4m", "3z", "4z"]


def test_ting_not_ready_has_no_waits(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, *TING, "--hand", "1357m2468p1357s1z", "--flip", "3z", "--json")
    assert code == 0 and json.loads(out) == {"waits": []}


def test_ting_table_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, *TING, "--hand", "45m456p789s111z55z", "--flip", "2m")
    assert code == 0
    assert "听牌" in out and "6m" in out and "unseen" in out


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("--hand", "45m456p789s111z5z", "--flip", "2m"), "holds 13"),
        (("--hand", "45m456p789s111z55z", "--flip", "2x"), "bad tile"),
        (("--hand", "1234m", "--melds", "p:223p", "--flip", "2m"), "bad meld"),
        (("--hand", "45m456p789s111z55z", "--flip", "2m", "--option", "hun=all"), "hun"),
        (("--hand", "45m456p789s111z55z", "--flip", "2m", "--option", "hun"), "NAME=VALUE"),
    ],
)
def test_ting_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], says: str
) -> None:
    code, out, err = run(capsys, *TING, *args, "--json")
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and says in err


def test_ting_refuses_another_family(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "ting", "1301", "--hand", "45m456p789s111z55z", "--flip", "2m")
    assert code == 2 and "mahjong" in err


def test_parse_melds_is_shared_with_hu() -> None:
    assert parse_melds("p:222p")[0].tiles == (10, 10, 10)


def test_a_kind_whose_four_copies_are_the_hand_and_the_flip_is_no_wait() -> None:
    """R5: the flip 「is set aside, face up, out of play」, so with 999m in the hand and 9m
    flipped no 9m is left to come: 9m is no wait (``paiju hu`` refuses a fifth 9m), while
    the other kinds the three 混 (1m, R9: 「如果揭的是8万，那么9万是混」, 9 → 1) complete stay."""
    got = ting("111999m88p11567s", flip="9m")["waits"]
    tiles = [w["tile"] for w in got]
    assert "9m" not in tiles
    assert "8m" in tiles and "8p" in tiles
    assert all(w["unseen"] > 0 for w in got)
    with pytest.raises(NotationError):  # and hu agrees: a fifth 9m is bad input
        from paiju.games.majiang.hu import hu

        hu("111999m88p11567s", win="9m", flip="9m")


def test_a_kind_seen_elsewhere_stays_a_wait_with_none_unseen() -> None:
    """空听: a wait whose copies are all seen on the table (not the seat's own) is still a
    wait in form, shown with 0 unseen, as 雀魂 shows it."""
    from paiju.games.majiang.ting import can_come, waits_json

    hand = parse_tiles("234m456p78s11122z")
    ws = can_come(waits(hand, (), hun_kinds(parse_tiles("9p")[0], MajiangRules())), hand, (), 0)
    unseen = [4] * 34
    unseen[parse_tiles("9s")[0]] = 0  # every 9s in the discards
    shown = {w["tile"]: w["unseen"] for w in waits_json(ws, unseen)}
    assert shown["9s"] == 0 and shown["6s"] == 4
