"""Special 13-card hands checked against independent brute-force definitions.

The brute forces below enumerate what the rule text describes (every split of the hand into
3 + 5 + 5 rows, every choice of the single card …) instead of counting ranks and suits.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.cards import Card, deck, parse_cards
from paiju.catalog import find_variant
from paiju.games.shisanzhang.spec import ShisanzhangParams, params_of
from paiju.games.shisanzhang.specials import (
    Special,
    best_special,
    is_dragon,
    is_five_pairs_trips,
    is_same_suit_dragon,
    is_six_pairs,
    is_three_flushes,
    is_three_straights,
    matches,
)

DECK = deck("52")


def _is_straight(cards: tuple[Card, ...]) -> bool:
    ranks = sorted(c.rank for c in cards)
    if len(set(ranks)) != len(ranks):
        return False
    if ranks[-1] - ranks[0] == len(ranks) - 1:
        return True
    low = sorted(1 if r == 14 else r for r in ranks)  # the ace played low (A23, A2345)
    return low[-1] - low[0] == len(low) - 1


def _every_split_has(cards: tuple[Card, ...], row_ok: Callable[[tuple[Card, ...]], bool]) -> bool:
    """Whether some split of 13 cards into 3 + 5 + 5 rows has ``row_ok`` for all three rows.

    Every row is tested once; the 72,072 splits are then scanned as index sets.
    """
    idx = range(13)
    good3 = {s for s in combinations(idx, 3) if row_ok(tuple(cards[i] for i in s))}
    good5 = {s for s in combinations(idx, 5) if row_ok(tuple(cards[i] for i in s))}
    for front in good3:
        rest = [i for i in idx if i not in front]
        for middle in combinations(rest, 5):
            if middle in good5 and tuple(i for i in rest if i not in middle) in good5:
                return True
    return False


def brute_three_straights(cards: tuple[Card, ...]) -> bool:
    return _every_split_has(cards, _is_straight)


def brute_three_flushes(cards: tuple[Card, ...], distinct: bool = False) -> bool:
    one_suit = _every_split_has(cards, lambda row: len({c.suit for c in row}) == 1)
    return one_suit and (not distinct or len({c.suit for c in cards}) == 3)


def brute_six_pairs(cards: tuple[Card, ...]) -> bool:
    """Some card is the single and the other twelve pair off by rank; no trips anywhere."""
    if 3 in Counter(c.rank for c in cards).values():
        return False
    for single in cards:
        rest = Counter(c.rank for c in cards if c != single)
        if all(n % 2 == 0 for n in rest.values()):
            return True
    return False


def brute_five_pairs_trips(cards: tuple[Card, ...]) -> bool:
    """Three cards of one rank, and the other ten pair off by rank."""
    for three in combinations(cards, 3):
        if len({c.rank for c in three}) != 1:
            continue
        rest = Counter(c.rank for c in cards if c not in three)
        if all(n % 2 == 0 for n in rest.values()):
            return True
    return False


def brute_dragon(cards: tuple[Card, ...]) -> bool:
    return sorted(c.rank for c in cards) == list(range(2, 15))


def _hand(seed: int) -> tuple[Card, ...]:
    return tuple(random.Random(seed).sample(DECK, 13))


def _built_three_straights(rng: random.Random) -> tuple[Card, ...] | None:
    starts5 = [1, *range(2, 11)]
    starts3 = [1, *range(2, 13)]
    rows = [rng.choice(starts3), rng.choice(starts5), rng.choice(starts5)]
    ranks = [14 if r == 1 else r for r in range(rows[0], rows[0] + 3)]
    for s in rows[1:]:
        ranks += [14 if r == 1 else r for r in range(s, s + 5)]
    if max(Counter(ranks).values()) > 4:
        return None
    used: dict[int, list[int]] = {}
    cards = []
    for r in ranks:
        free = [s for s in range(4) if s not in used.setdefault(r, [])]
        suit = rng.choice(free)
        used[r].append(suit)
        cards.append(Card.of(r, suit))
    return tuple(cards)


def _built_three_flushes(rng: random.Random) -> tuple[Card, ...]:
    while True:
        suits = [rng.randrange(4) for _ in range(3)]
        need = Counter({suits[0]: 3}) + Counter({suits[1]: 5}) + Counter({suits[2]: 5})
        if max(need.values()) <= 13:
            break
    cards: list[Card] = []
    for suit, n in need.items():
        cards += rng.sample([c for c in DECK if c.suit == suit], n)
    return tuple(cards)


def _built_pairs(rng: random.Random, trips: bool) -> tuple[Card, ...]:
    while True:
        ranks = [rng.randrange(2, 15) for _ in range(6 if not trips else 5)]
        counts: Counter[int] = Counter()
        for r in ranks:
            counts[r] += 2
        if trips:
            counts[rng.randrange(2, 15)] += 3
        else:
            counts[rng.randrange(2, 15)] += 1
        if max(counts.values()) <= 4 and (trips or 3 not in counts.values()):
            break
    cards: list[Card] = []
    for r, n in counts.items():
        cards += [Card.of(r, s) for s in rng.sample(range(4), n)]
    return tuple(cards)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32))
def test_three_straights_agree_with_every_split(seed: int) -> None:
    """三顺子: the hand splits into a 3-card straight and two 5-card straights."""
    rng = random.Random(seed)
    built = _built_three_straights(rng)
    hand = built if built is not None else tuple(rng.sample(DECK, 13))
    assert is_three_straights(hand) == brute_three_straights(hand)
    if built is not None:
        assert is_three_straights(built)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32))
def test_three_flushes_agree_with_every_split(seed: int) -> None:
    """三花色: the hand splits 3 + 5 + 5 with each part of one suit."""
    rng = random.Random(seed)
    built = _built_three_flushes(rng)
    assert is_three_flushes(built) and brute_three_flushes(built)
    assert is_three_flushes(built, distinct=True) == brute_three_flushes(built, distinct=True)
    other = tuple(rng.sample(DECK, 13))
    assert is_three_flushes(other) == brute_three_flushes(other)
    assert is_three_flushes(other, True) == brute_three_flushes(other, True)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32), st.booleans())
def test_pair_hands_agree_with_brute_force(seed: int, trips: bool) -> None:
    """六对半 and 五对三条 against choosing the single (or the triple) card by card."""
    rng = random.Random(seed)
    for hand in (_built_pairs(rng, trips), tuple(rng.sample(DECK, 13))):
        assert is_six_pairs(hand) == brute_six_pairs(hand)
        assert is_five_pairs_trips(hand) == brute_five_pairs_trips(hand)
    assert (is_five_pairs_trips if trips else is_six_pairs)(_built_pairs(rng, trips))


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32))
def test_dragon_and_colour_and_ranges_agree(seed: int) -> None:
    """一条龙, 全黑一张红, 全红一张黑, 全大, 全小, 半大, 半小 on random and built hands."""
    rng = random.Random(seed)
    params = params_of(find_variant("1304"))
    suits = [rng.randrange(4) for _ in range(13)]
    dragon = tuple(Card.of(r, s) for r, s in zip(range(2, 15), suits, strict=True))
    for hand in (dragon, tuple(rng.sample(DECK, 13))):
        assert is_dragon(hand) == brute_dragon(hand)
        assert is_same_suit_dragon(hand) == (brute_dragon(hand) and len(set(suits)) == 1) or (
            hand is not dragon and not is_same_suit_dragon(hand)
        )
        reds = sum(c.is_red for c in hand)
        assert matches("全黑一张红", hand, params) == (reds == 1)
        assert matches("全红一张黑", hand, params) == (reds == 12)
        ranks = {c.rank for c in hand}
        assert matches("全大", hand, params) == ranks.issubset(range(6, 14))
        assert matches("全小", hand, params) == ranks.issubset(range(2, 11))
        assert matches("半大", hand, params) == ranks.issubset(range(6, 15))
        assert matches("半小", hand, params) == ranks.issubset({14, *range(2, 11)})


def test_one_suit_dragon() -> None:
    """同花十三水: 一条龙 in one suit; a mixed-suit 一条龙 is not one."""
    hearts = tuple(Card.of(r, 1) for r in range(2, 15))
    mixed = (*hearts[:-1], Card.of(14, 0))
    assert is_same_suit_dragon(hearts) and is_dragon(hearts)
    assert is_dragon(mixed) and not is_same_suit_dragon(mixed)


@pytest.mark.parametrize(
    ("text", "code", "name"),
    [
        ("2s 3h 4c 5d 6s 7h 8c 9d Ts Jh Qc Kd Ac", "1303", "一条龙"),
        ("2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah", "1303", "同花十三水"),
        ("2s 2h 5c 5d 7s 7h 9c 9d Js Jh Kc Kd Ac", "1303", "六对半"),
        ("As 2h 3c 4d 5s 6h 7c 8d 4s 5c 6d 7h 8s", "1303", "三顺子"),
        ("2s 5s 9s 3h 6h 8h Th Kh 4c 7c Jc Qc 2c", "1303", "三花色"),
        ("2s 3h 4c 5d 6s 7h 8c 9d Ts 2h 3c 4d 5s", "1303", "全小"),
        ("6s 6h 6c 8d Ts Jh Qc Kd 7h 7c 8c 9s Th", "1303", "全大"),
        ("2s 2c 3s 3c 4s 4c 5s 5c 6s 6c 7s 7c 8h", "1304", "全黑一张红"),
        ("2s 2h 2c 5d 5s 7h 7c 9d 9s Jh Jc Kd Ks", "1304", "五对三条"),
        ("6s 7h 8c 9d Ts Jh Qc Kd As 6h 7c 8d 9h", "1304", "半大"),
        ("4s 2h 3c 4d 5s 6h 7c 8d Ts 2c 3d 9d 9h", "1304", "全小"),
        ("As 2h 3c 4d 5s 6h 7c 8d Ts 2c 3d Ad Ah", "1304", "半小"),
        ("5h 6h 7h 8h 9h 2s 3c Jd Qs Kh Ac 4s 4d", "1304", "同花顺"),
        ("5h 5s 5c 5d 9h 2s 3c Jd Qs Kh Ac 4s 4d", "1304", "炸弹"),
        ("5h 5s 5c 8d 9h 2s 3c Jd Qs Kh Ac 4s 4d", "1304", "三条"),
        ("5h 5s 7c 8d 9h 2s 3c Jd Qs Kh Ac 4s 4d", "1304", "对子"),
        ("5h 6h 7h 8h 9h 2s 3c Jd Qs Kh Ac 4s 4d", "1302", "同花顺"),
        ("5h 5s 5c 5d 9h 2s 3c Jd Qs Kh Ac 4s 4d", "1302", "炸弹"),
        ("5h 5s 5c 5d 9h 9s 9c 9d Qs Kh Ac 4s 4d", "1306", "炸弹"),
    ],
)
def test_real_hands_are_placed(text: str, code: str, name: str) -> None:
    """Real hands land in the tier the rule text names."""
    hand = parse_cards(text)
    assert len(set(hand)) == 13
    special = best_special(hand, params_of(find_variant(code)))
    assert special is not None and special.name_zh == name


def test_no_special_in_plain_hands() -> None:
    """A hand without any special shape declares nothing (and 1301-2 knows none at all)."""
    hand = parse_cards("5h 5s 7c 8d 9h 2s 3c Jd Qs Kh Ac 4s 4d")
    for code in ("1301", "1302", "1303", "1305", "1306", "1301-2", "1301-points"):
        assert best_special(hand, params_of(find_variant(code))) is None
    dragon = parse_cards("2s 3h 4c 5d 6s 7h 8c 9d Ts Jh Qc Kd Ac")
    assert best_special(dragon, params_of(find_variant("1301-2"))) is None
    # 1301 knows 一条龙 only through the points settlement (CATALOG.md §1)
    assert best_special(dragon, params_of(find_variant("1301")), scoring="majority") is None


def test_inner_order_of_tiers() -> None:
    """1302: "同花顺要比炸弹大"; 同花顺 by top card (A2345 second), 炸弹 by rank."""
    params = params_of(find_variant("1302"))
    rest = "2s 3c Jd Qs Kh Ac 4s 4d"

    def sp(text: str) -> Special:
        s = best_special(parse_cards(text), params)
        assert s is not None
        return s

    sf9 = sp("5h 6h 7h 8h 9h " + rest)
    sf_a5 = sp("Ah 2h 3h 4h 5h 2c 3s Jd Qs Kh Ac 4s 4d")
    quad_a = sp("Ah As Ac Ad 9h 2s 3c Jd Qs Kh 7c 4s 4d")
    quad_5 = sp("5h 5s 5c 5d 9h " + rest)
    assert sf9.compare(quad_a) == 1 and quad_a.compare(sf9) == -1
    assert sf_a5.compare(sf9) == 1  # A2345 is second only to TJQKA
    assert quad_a.compare(quad_5) == 1
    assert quad_5.compare(sp("5h 5s 5c 5d Th " + rest)) == 0


def test_params_reject_unknown_special() -> None:
    with pytest.raises(ValueError, match="unknown special"):
        ShisanzhangParams(special_mode="optional", ladder=(("八仙过海",),))


def test_1304_pair_tier_compares_the_best_pair_first() -> None:
    """1304 (绍兴13张1): "七：后面就是对子了" — read (CATALOG.md §1) as "the best pair, then
    the next best pair, … then high cards": one pair of kings beats two pairs of queens
    and fives, and the number of pairs counts only where the pairs so far are equal."""
    params = params_of(find_variant("1304"))

    def sp(text: str) -> Special:
        s = best_special(parse_cards(text), params)
        assert s is not None and s.name_zh == "对子", text
        return s

    kings = sp("Kh Ks 2c 3d 4h 5s 7c 8d 9h Ts Jc Qd Ah")
    queens_fives = sp("Qh Qs 5c 5d 2h 3s 4c 7d 8h 9s Tc Jd Kh")
    assert kings.compare(queens_fives) == 1 and queens_fives.compare(kings) == -1
    # the same best pair: the next pair decides, a third pair beats none
    kings_fives = sp("Kh Ks 5c 5d 2h 3s 4c 7d 8h 9s Tc Jd Ah")
    kings_fours_threes = sp("Kh Ks 4c 4d 3h 3s 2c 7d 8h 9s Tc Jd Ah")
    assert kings_fives.compare(kings_fours_threes) == 1
    kings_fives_twos = sp("Kd Kc 5h 5s 2h 2s 4c 7d 8h 9s Tc Jd Ah")
    assert kings_fives_twos.compare(kings_fives) == 1
    # equal pairs: the single cards from the highest down
    low_single = sp("Kh Ks 2c 3d 4h 5s 7c 8d 9h Ts Jc Qd 6h")
    assert kings.compare(low_single) == 1
    assert kings.compare(sp("Kd Kc 2h 3s 4c 5d 7h 8s 9c Td Jh Qs Ad")) == 0
