"""理牌 in a climbing game as a player does it: at one's turn in 甲乙丙 (phone, Chinese)
and 放羊 (desktop, English), tap cards, 理牌 puts them in a group apart at the front of the
hand; the group stays through the bots' turns and a reload, 选这组 picks it, playing it
empties it; 还原 ungroups. The hand on screen stays the same cards throughout."""

from __future__ import annotations

from typing import Any

import pytest
from web_helpers import DESKTOP, PHONE, WebServer, enter, fast_bots, open_room

SIZES = {"phone": PHONE, "desktop": DESKTOP}
GROUP = {"zh": "理牌：选中的放一组", "en": "Group the chosen cards"}


def hand(page: Any) -> list[str]:
    return sorted(
        page.eval_on_selector_all("#cl-hand .card", "els => els.map(e => e.dataset.card)")
    )


def my_turn(page: Any) -> None:
    """Wait for a turn of play (the banker's call of 放羊 made first, by its first offer)."""
    for _ in range(40):
        page.wait_for_selector("#turn.mine", timeout=30_000)
        if page.query_selector("#cl-call"):
            page.click("#cl-call .cl-call-suit .card >> nth=0")
            page.click("#cl-call-submit")
            page.wait_for_selector("#cl-call", state="detached")
            continue
        if page.query_selector("#cl-play"):
            return
        page.wait_for_timeout(100)
    raise AssertionError("no turn of play")


@pytest.mark.parametrize(
    ("code", "seats", "size", "lang"),
    [("anshan-jiayibing", 6, "phone", "zh"), ("anshan-fangyang", 4, "desktop", "en")],
)
def test_group_cards_keep_the_group_and_ungroup(
    page: Any, server: WebServer, code: str, seats: int, size: str, lang: str
) -> None:
    page.set_viewport_size(SIZES[size])
    enter(page, f"理牌{size}")
    if lang == "en":
        page.click("#lang-switch")
        page.wait_for_function(
            "document.querySelector(\"[data-create='1301']\")?.textContent === 'New room'"
        )
    fast_bots(page, 0.2)
    open_room(page, code, seats=seats, bots=seats - 1)
    my_turn(page)
    before = hand(page)
    # the hint's play (a legal play) chosen by taps, then made a group
    page.click("#cl-hint")
    page.wait_for_selector("#cl-hand .card.selected")
    chosen = sorted(
        page.eval_on_selector_all("#cl-hand .card.selected", "els => els.map(e => e.dataset.card)")
    )
    assert page.inner_text("#cl-group") == GROUP[lang]
    page.click("#cl-group")
    group = page.wait_for_selector("#cl-groups .cl-group")
    assert sorted(group.get_attribute("data-cards").split()) == chosen
    assert hand(page) == before  # the same cards, only arranged
    assert not page.query_selector("#cl-hand .card.selected")
    # the group sits before the rest of the hand
    first = page.query_selector("#cl-groups").bounding_box()
    rest = page.query_selector("#cl-hand-rest").bounding_box()
    assert first["y"] + first["height"] <= rest["y"] + 1 or first["x"] < rest["x"]
    page.reload()
    page.wait_for_selector("#cl-groups .cl-group")  # kept for the hand
    assert sorted(page.get_attribute("#cl-groups .cl-group", "data-cards").split()) == chosen
    page.screenshot(path=f"/work/shots/helpers/lipai-{size}-{lang}.png", full_page=True)
    # 选这组 picks it, and playing it empties the group
    page.click("#cl-groups .cl-group-pick")
    picked = sorted(
        page.eval_on_selector_all("#cl-hand .card.selected", "els => els.map(e => e.dataset.card)")
    )
    assert picked == chosen
    page.click("#cl-play")
    page.wait_for_selector("#cl-groups", state="detached", timeout=20_000)
    # a second group, then 还原
    my_turn(page)
    if page.query_selector("#cl-hint"):
        page.click("#cl-hint")
    else:
        page.click("#cl-hand .card >> nth=-1")
    page.wait_for_selector("#cl-hand .card.selected")
    page.click("#cl-group")
    page.wait_for_selector("#cl-groups .cl-group")
    page.click("#cl-ungroup")
    page.wait_for_selector("#cl-groups", state="detached")


SUITS = "shcd"


def drawn(page: Any) -> list[str]:
    cards: list[str] = page.eval_on_selector_all(
        "#cl-hand .card", "els => els.map(e => e.dataset.card)"
    )
    return cards


def test_one_tap_sorting_by_suit_and_by_count(page: Any, server: WebServer) -> None:
    """按花色 and 按张数 beside 理牌, as the usual apps have them: one tap lays the hand out
    by suit (♠ ♥ ♣ ♦, big cards first in each) or with the ranks held most often first;
    按大小 brings the game's order back; the choice is remembered. The cards stay the same."""
    enter(page, "排序")
    fast_bots(page, 0.2)
    open_room(page, "anshan-jiayibing", seats=6, bots=5)
    my_turn(page)
    before = hand(page)
    page.click("#cl-sort-suit")
    page.wait_for_selector("#cl-sort-suit[aria-pressed='true']")
    cards = drawn(page)
    suits = [SUITS.index(c[1]) for c in cards if c not in ("BJ", "RJ")]
    assert suits == sorted(suits), cards
    assert sorted(cards) == before
    page.click("#cl-sort-count")
    page.wait_for_selector("#cl-sort-count[aria-pressed='true']")
    counts = page.eval_on_selector_all(
        "#cl-hand .cl-stack", "els => els.map(e => Number(e.dataset.count))"
    )
    assert counts == sorted(counts, reverse=True) and len(counts) > 1, counts
    assert hand(page) == before
    page.reload()
    page.wait_for_selector("#cl-sort-count[aria-pressed='true']")
    page.click("#cl-sort-rank")
    page.wait_for_selector("#cl-sort-rank[aria-pressed='true']")


def test_the_bombs_go_into_groups_in_one_tap(page: Any, server: WebServer) -> None:
    """打弹子: "3-6张牌点相同的牌" is a 砟子 (a bomb); 炸弹成组 puts every bomb of the hand
    in a group of its own at the front (理牌's groups), in one tap."""
    enter(page, "炸弹成组")
    fast_bots(page, 0.2)
    open_room(page, "ningcheng-danzi", seats=4, bots=3)
    page.wait_for_selector("#cl-hand .card")
    bombs = page.eval_on_selector_all(
        "#cl-hand .cl-stack.bomb",
        "els => els.map(e => [...e.querySelectorAll('.card')].map(c => c.dataset.card).sort())",
    )
    assert bombs, "a 27-card hand without a 砟子"
    # the jokers (drawn a stack of each) make one bomb together: 双王, 三王, 四王 (N14)
    jokers = sorted(c for b in bombs for c in b if c in ("BJ", "RJ"))
    bombs = [b for b in bombs if b[0] not in ("BJ", "RJ")] + ([jokers] if jokers else [])
    page.click("#cl-group-bombs")
    page.wait_for_selector("#cl-groups .cl-group")
    groups = page.eval_on_selector_all(
        "#cl-groups .cl-group", "els => els.map(e => e.dataset.cards.split(' ').sort())"
    )
    assert sorted(groups) == sorted(bombs)
