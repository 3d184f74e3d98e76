"""三打哈 in the browser: a whole hand against three bots played by clicks only, and the
table's drawing of what the server's view says (must_bid, a failed throw, the end).

The room is opened through the lobby's form; the test only speeds the bots up (it adds
``bot_delay`` to the form's request: the form has no field for it). The server has no
fixed room seed, so the hand is played from whatever is dealt: cards are chosen from what
the page shows (the hand, the trump chip, the lead on the felt) by the engine's own
follow builder, and clicked by their position in the hand (two decks: duplicates)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from web_helpers import WebServer, check_against_ledger, enter, open_room, shoot

from paiju.cards import parse_cards
from paiju.engine import Record, replay
from paiju.games.sandaha import rules
from paiju.games.sandaha.game import is_changzhu

HAND = "#sdh-hand .card"

# what changes on the page when an action of ours is accepted
SIGNATURE = """() => [
  document.querySelectorAll('#sdh-hand .card').length,
  document.getElementById('room').className,
  document.querySelectorAll('#sdh-bids .chip').length,
  !!document.getElementById('settlement'),
].join('|')"""


def fast_bots(page: Any) -> None:
    """Let the room's bots act after 20 ms instead of the default half second."""

    def handle(route: Any) -> None:
        request = route.request
        if request.method != "POST":
            route.continue_()
            return
        body = json.loads(request.post_data or "{}")
        body.setdefault("options", {})["bot_delay"] = 0.02
        route.continue_(post_data=json.dumps(body))

    page.route("**/api/rooms", handle)


def hand_on_screen(page: Any) -> list[str]:
    """The hand as drawn, card text by position (``data-index``)."""
    cards = page.eval_on_selector_all(
        HAND, "els => els.map(e => [Number(e.dataset.index), e.dataset.card])"
    )
    ordered = sorted(cards)
    assert [i for i, _ in ordered] == list(range(len(ordered)))
    return [c for _, c in ordered]


def trump_on_screen(page: Any) -> int:
    name = page.get_attribute("#sdh-trump", "data-trump")
    return rules.TRUMP_NAMES.index(name)


def click_cards(page: Any, hand: list[str], wanted: list[str]) -> None:
    """Tap the wanted cards (a multiset) by position in the hand."""
    todo = Counter(wanted)
    for i, card in enumerate(hand):
        if todo[card] > 0:
            todo[card] -= 1
            page.click(f"{HAND}[data-index='{i}']")
    assert not +todo, todo
    assert page.inner_text("#sdh-count").strip() == f"已选 {len(wanted)} 张"


def accepted(page: Any, before: str) -> None:
    """Wait until the server accepted our action (the page changed)."""
    page.wait_for_function(f"({SIGNATURE})() !== {json.dumps(before)}", timeout=30_000)


def signature(page: Any) -> str:
    value: str = page.evaluate(SIGNATURE)
    return value


def side_throw(hand: list[str], trump: int) -> list[str] | None:
    """Two different cards of one side suit (a throw the rules forbid: 只能甩主牌)."""
    o = rules.order(trump)
    by_suit: dict[int, list[str]] = {}
    for text in sorted(set(hand)):
        card = parse_cards(text)[0]
        if o.suit[card] != rules.TRUMP:
            by_suit.setdefault(o.suit[card], []).append(text)
    for cards in by_suit.values():
        singles = [c for c in cards if hand.count(c) == 1]
        if len(singles) >= 2:
            return singles[:2]
    return None


def follow_for(hand: list[str], lead: str, trump: int) -> list[str]:
    """A legal follow, low cards first (the engine's own builder)."""
    o = rules.order(trump)
    cards = [int(c) for c in parse_cards(" ".join(hand))]
    comps = rules.decompose([int(c) for c in parse_cards(lead)], trump)
    chosen = rules.build_follow(cards, comps, trump, o.strength)
    return str(" ".join(str(c) for c in chosen)).split()


def test_sandaha_whole_hand_through_the_ui(page: Any, server: WebServer) -> None:
    """A whole 三打哈 hand at seat 0 against three bots, every decision by a click: the bid,
    the kitty buried and trumps named (when we are declarer), every trick, until the
    settlement is on screen; it equals the server's record and ledger, and the table's
    result (kitty, multiplier, tier) equals the engine's replay of the recorded hand.

    rule (003): "所有牌发完之后开始叫分 … 叫分最低者为庄家，庄家得到底牌" "4个玩家各发21牌，
    剩余8张为底牌" "每轮各玩家必须出牌且与第一个出牌玩家所出牌张数、花色相同" "注：只能甩主牌，
    不能甩副牌" - a side-suit throw is refused with the rule's reason shown on the table."""
    enter(page, "三打哈")
    fast_bots(page)
    open_room(page, "sandaha", stake=2)
    page.wait_for_selector(HAND)
    assert len(hand_on_screen(page)) == 21
    tried_throw = False
    shot_playing = False
    tricks_played = 0
    for _ in range(200):
        page.wait_for_selector("#settlement, #turn.mine", timeout=30_000)
        if page.query_selector("#settlement"):
            break
        before = signature(page)
        room_class = page.get_attribute("#room", "class") or ""
        if "phase-bidding" in room_class:
            page.wait_for_selector(".legal-actions button")
            labels = page.eval_on_selector_all(
                ".legal-actions button", "els => els.map(e => JSON.parse(e.dataset.action))"
            )
            note = page.inner_text("#sdh-changzhu")
            if "不能不叫" in note:  # the 7-常主 duty: no pass button on offer
                assert {"type": "pass"} not in labels
            # the lowest bid on offer: nobody can go under it, we become declarer
            page.click(".legal-actions button:last-child")
        elif "phase-burying" in room_class:
            hand = hand_on_screen(page)
            assert len(hand) == 29
            assert page.is_disabled("#bury-submit")
            # bury the last 8 side cards as drawn (常主 are drawn first)
            side = [i for i, c in enumerate(hand) if not is_changzhu(parse_cards(c)[0])]
            for i in side[-8:]:
                page.click(f"{HAND}[data-index='{i}']")
            # a ninth card cannot be picked
            extra = next(i for i in range(len(hand)) if i not in side[-8:])
            page.click(f"{HAND}[data-index='{extra}']")
            assert len(page.query_selector_all(f"{HAND}.selected")) == 8
            assert "blocked" in (page.get_attribute(f"{HAND}[data-index='{extra}']", "class") or "")
            page.click("#bury-submit")
        elif "phase-naming" in room_class:
            hand = hand_on_screen(page)
            assert len(hand) == 21
            counts = Counter(c[1] for c in hand if not is_changzhu(parse_cards(c)[0]))
            suit = max("shcd", key=lambda s: counts[s])
            page.click(f'.legal-actions button[data-action*=\'"trump":"{suit}"\']')
        else:
            assert "phase-playing" in room_class, room_class
            hand = hand_on_screen(page)
            trump = trump_on_screen(page)
            lead = page.eval_on_selector_all(
                "#sdh-trick .trick-play", "els => els.map(e => e.dataset.cards)"
            )
            if not lead:
                throw = None if tried_throw else side_throw(hand, trump)
                if throw is not None:
                    tried_throw = True
                    click_cards(page, hand, throw)
                    page.click("#play-submit")
                    reason = page.wait_for_selector("#sdh-reason", timeout=20_000)
                    assert "甩主牌" in reason.inner_text()
                    assert len(hand_on_screen(page)) == len(hand)  # nothing was played
                    page.click("#sdh-clear")
                    assert not page.query_selector("#sdh-reason")
                # lead the lowest single of the hand as drawn
                click_cards(page, hand, [hand[-1]])
            else:
                chosen = follow_for(hand, lead[0], trump)
                click_cards(page, hand, chosen)
                assert page.is_enabled("#play-submit")
            page.click("#play-submit")
            tricks_played += 1
        accepted(page, before)
        if tricks_played == 3 and not shot_playing:
            shot_playing = True
            shoot(page, "sandaha-playing")
    else:
        raise AssertionError("the hand did not end")
    assert hand_on_screen(page) == []
    record = check_against_ledger(page, server, seat=0)
    mine = [a["action"] for a in record["actions"] if a["seat"] == 0]
    assert all(a["actor"] == "player" for a in record["actions"] if a["seat"] == 0)
    assert len([a for a in mine if a["type"] == "play"]) == tricks_played
    assert record["code"] == "sandaha" and record["stake"] == 2
    final = list(replay(Record.from_json(record)))[-1]
    result = final.view(0)["result"]
    page.wait_for_selector("#sdh-result")
    assert page.get_attribute("#sdh-result", "data-tier") == result["tier"]
    assert page.get_attribute("#sdh-result", "data-multiplier") == str(result["multiplier"])
    assert page.inner_text("#sdh-kitty-points") == str(result["kitty_points"])
    assert page.inner_text("#sdh-card-points") == str(result["card_points"])
    assert page.inner_text("#sdh-kitty-bonus") == str(result["kitty_bonus"])
    kitty = page.eval_on_selector_all("#sdh-result .card", "els => els.map(e => e.dataset.card)")
    assert sorted(kitty) == sorted(final.view(0)["kitty"].split())
    shown = page.eval_on_selector_all(
        "#sdh-settlement tr", "els => els.map(e => Number(e.dataset.score))"
    )
    assert shown == record["settlement"]
    shoot(page, "sandaha-over")
