"""Mahjong tile notation, and the seeded randomness and commit-reveal of fair deals."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paiju.errors import FairnessError, NotationError
from paiju.fairness import DealRng, commitment, new_seed, verify_commitment
from paiju.tiles import WALL, Tile, format_tiles, parse_tiles

tiles = st.integers(min_value=0, max_value=33).map(Tile)


@given(st.lists(tiles, max_size=20))
def test_tile_format_then_parse_is_identity(hand: list[Tile]) -> None:
    assert parse_tiles(format_tiles(hand)) == tuple(hand)


@given(st.lists(tiles, max_size=14))
def test_chinese_tile_names_parse(hand: list[Tile]) -> None:
    assert parse_tiles(" ".join(t.zh() for t in hand)) == tuple(hand)


def test_tile_properties_and_input_forms() -> None:
    assert format_tiles(parse_tiles("1万 9筒 5条 东 红中 发财 白板")) == "1m9p5s1765z"
    east, red = parse_tiles("1z 7z")
    assert east.is_honor and east.is_yaojiu and not east.is_terminal
    assert red.zh() == "中"
    nine = Tile.parse("9s")
    assert (nine.suit, nine.number, nine.is_terminal) == (2, 9, True)
    assert Counter(WALL) == Counter({Tile(i): 4 for i in range(34)})


@pytest.mark.parametrize("bad", ["8z", "0p", "12x", "m"])
def test_bad_tiles_name_the_token(bad: str) -> None:
    with pytest.raises(NotationError, match="bad tile"):
        parse_tiles(bad)


def _reference_words(seed: str, blocks: int = 64) -> list[int]:
    """The stream's first words (256 unless told), by the documented construction."""
    key = hashlib.sha256(seed.encode()).digest()
    stream = b"".join(hashlib.sha256(key + i.to_bytes(8, "big")).digest() for i in range(blocks))
    return [int.from_bytes(stream[i : i + 8], "big") for i in range(0, len(stream), 8)]


def _reference_shuffle(seed: str, n: int, words: list[int] | None = None) -> list[int]:
    """The documented construction, written out independently of paiju.fairness."""
    if words is None:
        words = _reference_words(seed, max(64, n // 4 + 2))
    items = list(range(n))
    pos = 0
    for i in range(n - 1, 0, -1):
        bound = i + 1
        limit = 2**64 - 2**64 % bound
        while words[pos] >= limit:
            pos += 1
        j = words[pos] % bound
        pos += 1
        items[i], items[j] = items[j], items[i]
    return items


@pytest.mark.parametrize("seed", ["example", "0", "a" * 64])
def test_the_rng_follows_its_documented_construction(seed: str) -> None:
    assert DealRng(seed).shuffled(range(52)) == _reference_shuffle(seed, 52)


@pytest.mark.parametrize("at", [0, 3, 47])
def test_a_rejected_draw_is_drawn_again(at: int) -> None:
    """docs/fairness.md: a word at or above the largest multiple of ``i + 1`` is rejected
    and the next word drawn (a true stream almost never holds one: here one is put in)."""
    words = _reference_words("rejected")
    words[at] = 2**64 - 1  # rejected by every bound but a power of two (52 - at is none)
    rng = DealRng("rejected")
    rng._fill(len(words))
    rng._words[:] = words[::-1]  # the next word is held last
    assert rng.shuffled(range(52)) == _reference_shuffle("", 52, words)
    assert rng._words == words[::-1][: len(words) - 52]  # 51 draws and one drawn again


@pytest.mark.parametrize("at", [0, 3, 47])
def test_a_high_draw_its_own_bound_keeps_is_kept(at: int) -> None:
    """A word at or above some larger bound's limit, but below its own, is not rejected."""
    words = _reference_words("kept")
    bound = 52 - at
    words[at] = 2**64 - 2**64 % bound - 1  # the highest word its own bound keeps
    assert words[at] >= min(2**64 - 2**64 % b for b in range(2, 53))  # a larger one rejects
    rng = DealRng("kept")
    rng._fill(len(words))
    rng._words[:] = words[::-1]
    assert rng.shuffled(range(52)) == _reference_shuffle("", 52, words)
    assert rng._words == words[::-1][: len(words) - 51]  # 51 draws, none again


@pytest.mark.parametrize("n", [2, 3, 13, 36, 52, 54, 108, 136, 300])
def test_shuffles_of_every_size_follow_the_construction(n: int) -> None:
    for k in range(20):
        rng = DealRng(f"size-{k}")
        assert rng.shuffled(range(n)) == _reference_shuffle(f"size-{k}", n)
        after = _reference_words(f"size-{k}", n // 4 + 2)[n - 1]  # the stream's next word
        assert rng.randbelow(2**63) == after % 2**63


def test_int_and_text_seeds_agree_and_shuffles_are_permutations() -> None:
    assert DealRng(42).shuffled(range(108)) == DealRng("42").shuffled(range(108))
    assert sorted(DealRng(1).shuffled(range(108))) == list(range(108))
    assert DealRng(1).shuffled(range(108)) != DealRng(2).shuffled(range(108))


def test_randbelow_is_roughly_uniform() -> None:
    rng = DealRng("uniform")
    counts = Counter(rng.randbelow(6) for _ in range(6000))
    assert set(counts) == set(range(6))
    assert all(800 < n < 1200 for n in counts.values())
    with pytest.raises(ValueError, match="n > 0"):
        rng.randbelow(0)


def test_commit_reveal() -> None:
    seed = new_seed()
    assert len(seed) == 64 and seed != new_seed()
    promised = commitment(seed)
    assert promised == hashlib.sha256(seed.encode()).hexdigest()
    verify_commitment(seed, promised)
    verify_commitment(seed, promised.upper())
    with pytest.raises(FairnessError, match="does not match the commitment"):
        verify_commitment(seed + "0", promised)
    with pytest.raises(FairnessError, match="a seed is an int or a text"):
        commitment(1.5)  # type: ignore[arg-type]
