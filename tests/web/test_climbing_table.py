"""The climbing (出牌) table in the browser: whole deals of 鞍山甲乙丙 and 鞍山放羊 against bots
through the real server, played by taps as a person plays (the cards, 提示, 出牌, 不出); a
refused play showing the server's reason; what is on screen at phone and desktop sizes
(the hand and the main action without scrolling, no text overflowing its box); the
spectator and a reload.

The room is opened through the lobby's form; the test only speeds the bots up (it adds
``bot_delay`` to the form's request). The server deals from a fresh seed, so the test plays
whatever it is dealt, choosing its cards from what the page shows: the hand (``data-card``
by position) and the play to beat on the felt."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from web_helpers import DESKTOP, PHONE, WebServer, check_against_ledger, enter, open_room, shoot

from paiju.games import read_record, replay

HAND = "#cl-hand .card"
ORDER = {
    "anshan-jiayibing": [
        "3",
        "4",
        "5",
        "6",
        "7",
        "8",
        "9",
        "T",
        "J",
        "Q",
        "K",
        "A",
        "2",
        "BJ",
        "RJ",
    ],
    "anshan-fangyang": [
        "4",
        "5",
        "6",
        "7",
        "8",
        "9",
        "T",
        "J",
        "Q",
        "K",
        "A",
        "2",
        "3",
        "BJ",
        "RJ",
    ],
}
"""J4 "大王、小王、2、A、K、Q、J、10、9、8、7、6、5、4、3"; F8 "大王、小王、3、2、A、K、…、5、4"
(low to high here)."""

SIGNATURE = """() => [
  document.querySelectorAll('#cl-hand .card').length,
  document.getElementById('room').className,
  document.getElementById('felt')?.innerText,
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


def signature(page: Any) -> str:
    value: str = page.evaluate(SIGNATURE)
    return value


def accepted(page: Any, before: str) -> None:
    page.wait_for_function(f"({SIGNATURE})() !== {json.dumps(before)}", timeout=30_000)


def hand_on_screen(page: Any) -> list[str]:
    """The hand as the view holds it: card text by position (``data-index``)."""
    cards = page.eval_on_selector_all(
        HAND, "els => els.map(e => [Number(e.dataset.index), e.dataset.card])"
    )
    ordered = sorted(cards)
    assert [i for i, _ in ordered] == list(range(len(ordered)))
    return [c for _, c in ordered]


def drawn_order(page: Any) -> list[str]:
    """The hand in the order it is drawn on screen."""
    cards: list[str] = page.eval_on_selector_all(HAND, "els => els.map(e => e.dataset.card)")
    return cards


def rank(card: str) -> str:
    return card if card in ("BJ", "RJ") else card[0]


def tap(page: Any, hand: list[str], wanted: list[str]) -> None:
    """Tap the wanted cards (a multiset) by their position in the hand."""
    todo = Counter(wanted)
    for i, card in enumerate(hand):
        if todo[card] > 0:
            todo[card] -= 1
            # the top-left corner: the part of a card a stack or a fan leaves in sight
            page.click(f"{HAND}[data-index='{i}']", position={"x": 6, "y": 6})
    assert not +todo, todo
    assert len(page.query_selector_all(f"{HAND}.selected")) == len(wanted)


def choose(code: str, hand: list[str], lead: list[str]) -> list[str] | None:
    """A person's plain play: lead the lowest rank (up to four of it); follow with the
    lowest rank above the play that has as many cards; None: pass."""
    order = ORDER[code]
    by_rank: dict[str, list[str]] = {}
    for card in hand:
        by_rank.setdefault(rank(card), []).append(card)
    ranks = sorted(by_rank, key=order.index)
    if not lead:
        return by_rank[ranks[0]][:4]
    need, top = len(lead), order.index(rank(lead[0]))
    for r in ranks:
        if order.index(r) > top and len(by_rank[r]) >= need:
            return by_rank[r][:need]
    return None


def mixed(code: str, hand: list[str]) -> list[str] | None:
    """Two cards of different ranks: no combination (J3 "单张,对,三同张,四同张")."""
    ranks = sorted({rank(c) for c in hand}, key=ORDER[code].index)
    if len(ranks) < 2:
        return None
    return [
        next(c for c in hand if rank(c) == ranks[0]),
        next(c for c in hand if rank(c) == ranks[1]),
    ]


def in_viewport(page: Any, selector: str) -> bool:
    box = page.eval_on_selector(
        selector,
        """el => { const r = el.getBoundingClientRect();
                  return [r.top, r.bottom, r.left, r.right, innerHeight, innerWidth]; }""",
    )
    top, bottom, left, right, height, width = box
    return bool(top >= 0 and bottom <= height and left >= 0 and right <= width + 0.5)


OVERFLOW = """() => {
  const bad = [];
  const boxes = document.querySelectorAll([
    '#room .seat', '#room .seat *', '#room button', '#room .chip', '#cl-current',
    '#cl-reason', '#cl-note', '#cl-result td', '#settlement td'].join(', '));
  const visible = (el, axis) => getComputedStyle(el)[axis] === 'visible';
  for (const el of boxes) {
    if (!el.offsetParent || el.closest('.card')) continue;
    const overX = el.scrollWidth > el.clientWidth + 1 && visible(el, 'overflowX');
    const overY = el.scrollHeight > el.clientHeight + 1 && visible(el, 'overflowY');
    if ((overX || overY) && el.clientWidth > 0) {
      bad.push(`${el.tagName}.${el.className}: ${el.textContent.slice(0, 40)}`);
    }
  }
  // a seat's contents stay inside the seat's box; the seats stay on the page
  for (const seat of document.querySelectorAll('#felt .seat')) {
    const r = seat.getBoundingClientRect();
    const name = `seat ${seat.dataset.seat}`;
    if (r.left < -1 || r.right > innerWidth + 1) bad.push(`${name} off the page`);
    for (const el of seat.querySelectorAll('*')) {
      const c = el.getBoundingClientRect();
      const out = c.left < r.left - 1 || c.right > r.right + 1;
      if (c.width && out) bad.push(`${name}: ${el.className} sticks out`);
    }
  }
  return bad;
}"""


def layout_ok(page: Any, name: str) -> None:
    """At both sizes: the hand and the main action in view without scrolling, nothing
    sticking out of its box; screenshots kept in artifacts/web/."""
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(50)
        acting = [a for a in ("#cl-play", "#cl-call-submit") if page.query_selector(a)]
        for selector in acting + (["#cl-hand"] if acting else []):
            assert in_viewport(page, selector), (name, size, selector)
        if page.query_selector("#settlement"):
            assert in_viewport(page, "#verdict"), (name, size)
        assert page.evaluate(OVERFLOW) == [], (name, size)
    page.set_viewport_size(PHONE)
    shoot(page, name)


def play_deal(page: Any, code: str) -> dict[str, Any]:
    """Play one deal by taps until the settlement; returns what the test saw."""
    seen: dict[str, Any] = {"refused": None, "hinted": False, "passed": False, "plays": 0}
    shot = False
    for _ in range(300):
        page.wait_for_selector("#settlement, #turn.mine", timeout=30_000)
        if page.query_selector("#settlement"):
            break
        before = signature(page)
        if page.query_selector("#cl-call"):
            # the banker's call (F4): a card of A or below, 亮 (F6) on
            page.click("#cl-call .cl-call-suit .card >> nth=0")
            if page.query_selector("#cl-liang"):
                page.check("#cl-liang")
            page.click("#cl-call-submit")
            accepted(page, before)
            continue
        if not page.query_selector("#cl-play"):
            page.click(".legal-actions button >> nth=0")
            accepted(page, before)
            continue
        hand = hand_on_screen(page)
        current = page.get_attribute("#cl-current", "data-cards")
        lead = current.split() if current else []
        if seen["refused"] is None and not lead and mixed(code, hand):
            # a refused play: the server's reason is shown and nothing is played
            tap(page, hand, mixed(code, hand) or [])
            page.click("#cl-play")
            reason = page.wait_for_selector("#cl-reason", timeout=20_000)
            seen["refused"] = reason.inner_text()
            # J3 "单张,对,三同张,四同张": the server's reason, in the player's language
            assert "不成牌型" in seen["refused"], seen["refused"]
            layout_ok(page, f"{code}-playing")
            shot = True
            assert hand_on_screen(page) == hand
            page.click("#cl-clear")
            assert not page.query_selector("#cl-reason")
            assert not page.query_selector(f"{HAND}.selected")
        if not shot:
            shot = True
            layout_ok(page, f"{code}-playing")
        chosen = choose(code, hand, lead)
        if lead and chosen and not seen["passed"]:
            seen["passed"] = True
            page.click("#cl-pass")  # J7: a player may always pass
        elif chosen is None:
            assert page.inner_text("#cl-pass") in ("要不起", "不出")
            page.click("#cl-pass")
        elif not seen["hinted"] and page.query_selector("#cl-hint"):
            seen["hinted"] = True
            page.click("#cl-hint")
            assert page.query_selector_all(f"{HAND}.selected")
            page.click("#cl-play")
            seen["plays"] += 1
        else:
            tap(page, hand, chosen)
            page.click("#cl-play")
            seen["plays"] += 1
        accepted(page, before)
    else:
        raise AssertionError("the deal did not end")
    return seen


def check_places(page: Any, record: dict[str, Any]) -> None:
    """The places on screen (头游, 二游, …) are the engine's finishing order."""
    final = list(replay(read_record(record)))[-1]
    order = final.view(0)["finished"]
    page.wait_for_selector("#cl-result")
    rows = page.eval_on_selector_all(
        "#cl-order tr", "els => els.map(e => [Number(e.dataset.seat), Number(e.dataset.place)])"
    )
    shown = [seat for seat, place in sorted(rows, key=lambda x: x[1]) if place >= 0]
    assert shown == list(order)
    first = page.inner_text(f"#cl-order tr[data-seat='{order[0]}'] td >> nth=0")
    assert first == "头游"


def test_jiayibing_whole_deal_through_the_ui(page: Any, server: WebServer) -> None:
    """A whole 鞍山甲乙丙 deal at seat 0 against five bots, every decision a tap, until the
    settlement; it equals the server's record and ledger, and the places are the engine's.

    rule (004): "两副牌游戏,共108张牌,6位玩家,每位游戏者18张牌" - 18 cards in the hand;
    "后一家打出的牌必须比前一家打出的牌大,如没有可以弃权(Pass)" - plays and passes by tap;
    "直到其中一伙三个玩家的牌全部出完,那么此局结束" - the deal ends on screen."""
    enter(page, "甲乙丙")
    fast_bots(page)
    open_room(page, "anshan-jiayibing", seats=6, bots=5)
    page.wait_for_selector(HAND)
    assert len(hand_on_screen(page)) == 18
    seen = play_deal(page, "anshan-jiayibing")
    assert seen["plays"] > 0
    record = check_against_ledger(page, server, seat=0)
    assert all(a["actor"] == "player" for a in record["actions"] if a["seat"] == 0)
    check_places(page, record)
    layout_ok(page, "anshan-jiayibing-over")
    assert seen["refused"] is not None and "不能这样出" in seen["refused"]


def test_fangyang_whole_deal_through_the_ui(page: Any, server: WebServer) -> None:
    """A whole 鞍山放羊 deal at seat 0 against three bots, every decision a tap (the call
    when seat 0 is banker), until the settlement, checked against the record and ledger.

    rule (004): "一副牌游戏,共54张,4位玩家,两个人是13张,两个人是14张"; "由庄家先出,游戏依次
    轮流出牌" """
    enter(page, "放羊")
    fast_bots(page)
    open_room(page, "anshan-fangyang", seats=4, bots=3)
    page.wait_for_selector(HAND)
    assert len(hand_on_screen(page)) in (13, 14)
    play_deal(page, "anshan-fangyang")
    record = check_against_ledger(page, server, seat=0)
    check_places(page, record)
    layout_ok(page, "anshan-fangyang-over")
