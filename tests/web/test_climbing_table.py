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
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from web_helpers import (
    ARTIFACTS,
    DESKTOP,
    PHONE,
    WebServer,
    check_against_ledger,
    enter,
    fast_bots,
    hand_by_index,
    open_room,
    shoot,
)

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


ADVICE = """(room) => fetch(`/api/rooms/${room}/suggestions?limit=10`, {headers:
  {Authorization: `Bearer ${localStorage.getItem('paiju.token')}`}}).then(r => r.json())"""


def signature(page: Any) -> str:
    value: str = page.evaluate(SIGNATURE)
    return value


def accepted(page: Any, before: str) -> None:
    page.wait_for_function(f"({SIGNATURE})() !== {json.dumps(before)}", timeout=30_000)


def hand_on_screen(page: Any) -> list[str]:
    """The hand as the view holds it: card text by position (``data-index``)."""
    return hand_by_index(page, HAND)


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
            card_at = f"{HAND}[data-index='{i}']"
            page.click(card_at, position={"x": 6, "y": 6})
            try:
                page.wait_for_selector(f"{card_at}.selected", timeout=5_000)
            except PlaywrightTimeout:  # a tap lost to a redraw under it: tapped again
                page.click(card_at, position={"x": 6, "y": 6})
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
        try:
            _layout_at_size(page, name, size)
        except AssertionError:
            shoot(page, f"{name}-failed")  # the page as it was, for whoever reads the failure
            raise
    page.set_viewport_size(PHONE)
    shoot(page, name)


def _layout_at_size(page: Any, name: str, size: dict[str, int]) -> None:
    """The checks of :func:`layout_ok` at the current size."""
    acting = [a for a in ("#cl-play", "#cl-call-submit") if page.query_selector(a)]
    for selector in acting + (["#cl-hand"] if acting else []):
        if page.query_selector(selector) is None:
            continue  # the turn went on meanwhile (要不起 passed for the seat)
        assert in_viewport(page, selector), (name, size, selector)
    if page.query_selector(HAND):  # the whole hand without scrolling it sideways
        width = page.eval_on_selector("#cl-hand", "e => [e.scrollWidth, e.clientWidth]")
        assert width[0] <= width[1] + 1, (name, size, width)
    if page.query_selector("#settlement"):
        assert in_viewport(page, "#verdict"), (name, size)
    assert page.evaluate(OVERFLOW) == [], (name, size)


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
            # 要不起: the table says so and passes by itself after a short beat (the
            # player's auto-pass is on by default), no tap needed
            note = page.evaluate(
                "document.querySelector('#turn.mine') ? "
                "document.querySelector('#cl-note')?.innerText || '' : 'passed'"
            )
            if "要不起" not in note and note != "passed":
                # the seat can beat it after all, with a play the plain chooser does not
                # make (a bomb): the table says so, and the player passes by a tap
                assert "管上" in note, note
                page.click("#cl-pass")
        elif not seen["hinted"] and page.query_selector("#cl-hint"):
            seen["hinted"] = True
            page.click("#cl-hint")  # 推荐: the server's advice, a legal play
            page.wait_for_selector(f"{HAND}.selected")
            room = int(page.url.rsplit("/", 1)[1])
            advice = page.evaluate(ADVICE, room)["suggestions"]
            picked = page.eval_on_selector_all(
                f"{HAND}.selected", "els => els.map(e => e.dataset.card)"
            )
            if advice and advice[0]["type"] == "play":
                assert sorted(picked) == sorted(advice[0]["cards"].split())
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


def record_order(record: dict[str, Any]) -> list[int]:
    """The finishing order of a recorded deal, by the engine's replay."""
    final = list(replay(read_record(record)))[-1]
    order: list[int] = final.view(0)["finished"]
    return order


def read_places(page: Any, rows: str) -> list[int]:
    """The seats in the order of the places a result table shows (头游 first)."""
    shown = page.eval_on_selector_all(
        rows, "els => els.map(e => [Number(e.dataset.seat), Number(e.dataset.place)])"
    )
    return [seat for seat, place in sorted(shown, key=lambda x: x[1]) if place >= 0]


def check_places(page: Any, record: dict[str, Any]) -> None:
    """The places on screen (头游, 二游, …) are the engine's finishing order."""
    order = record_order(record)
    page.wait_for_selector("#cl-result")
    assert read_places(page, "#cl-order tr") == order
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
    # the replay draws the same table from the recorded steps: the end shows the places
    page.click("#replay-link")
    # (under the felt, not inside it where the seats would cover it)
    page.wait_for_selector(".step-view #cl-result")
    assert page.query_selector("#replay-felt #cl-result") is None
    order = read_places(page, ".step-view #cl-order tr")
    assert order == list(record_order(record))
    page.click("#replay-first")
    assert page.query_selector(".step-view #cl-result") is None


# ------------------------------------------------- the table's drawing of engine views

DRAW = """([view, legal, seat, family, clicks]) => import('/tables/climbing.js').then(m => {
  const sent = [];
  document.getElementById('probe')?.remove();
  const box = document.createElement('div');
  box.id = 'probe';
  box.className = `room family-${family}`;
  document.body.append(box);
  const ctx = {view, legal, seat, local: {}, events: [], handOver: null, variant: {family},
               seatName: (i) => `S${i}`, act: (a) => sent.push(a), rerender: () => {}};
  const n = view.hand_sizes.length;
  const draw = () => {
    const parts = m.render(ctx);
    const seats = [...Array(n).keys()].map((s) => {
      const el = document.createElement('div');
      el.className = 'seat';
      el.dataset.seat = s;
      el.append(m.seatExtra(ctx, s));
      return el;
    });
    box.replaceChildren(...[parts.center, parts.mine].filter(Boolean), ...seats);
  };
  ctx.rerender = draw;
  draw();
  for (const sel of clicks) box.querySelector(sel).click();
  const text = (sel) => box.querySelector(sel)?.textContent ?? null;
  const cards = (sel) => [...box.querySelectorAll(sel)].map((c) => c.dataset.card);
  return {
    sent,
    text: box.textContent,
    hand: cards('#cl-hand .card'),
    dim: cards('#cl-hand .card.dim'),
    stacks: [...box.querySelectorAll('.cl-stack')]
      .map((s) => [s.dataset.rank, Number(s.dataset.count)]),
    callCards: cards('#cl-call .card'),
    callMode: text('#cl-call-mode'),
    called: text('#cl-called'),
    jiefeng: text('#cl-jiefeng'),
    current: text('#cl-current'),
    seats: [...box.querySelectorAll('.seat')].map((s) => ({
      team: s.querySelector('.cl-team')?.textContent ?? null,
      place: s.querySelector('.cl-place')?.textContent ?? null,
      size: s.querySelector('.cl-size')?.textContent ?? null,
      last: [...s.querySelectorAll('.cl-last .card')].map((c) => c.dataset.card),
      passed: !!s.querySelector('.cl-pass'),
    })),
    buttons: [...box.querySelectorAll('button')].map((b) => b.id || b.textContent),
    actions: [...box.querySelectorAll('button[data-action]')]
      .map((b) => [JSON.parse(b.dataset.action), b.textContent]),
    bombs: [...box.querySelectorAll('.cl-stack.bomb')].map((s) => s.dataset.rank),
    open: [...box.querySelectorAll('.cl-open-hand')].map((o) =>
      [Number(o.dataset.seat), [...o.querySelectorAll('.card')].map((c) => c.dataset.card)]),
    note: text('#cl-note'),
    tribute: text('#cl-tribute'),
    score: text('#cl-score'),
    declaration: text('#cl-declaration'),
  };
})"""


def draw(page: Any, state: Any, seat: int | None, clicks: tuple[str, ...] = ()) -> dict[str, Any]:
    """Render the climbing table for ``state.view(seat)`` (with the seat's legal actions)
    in the page, click ``clicks`` (selectors, in order) and read what it shows."""
    view = json.loads(json.dumps(state.view(seat)))
    legal = None
    if seat is not None and seat in state.to_act():
        acts = state.legal_actions(seat)
        legal = None if acts is None else [a.to_json() for a in acts]
    if not page.url.startswith(page.base):
        page.goto(page.base + "/")
        page.wait_for_selector("#app, main")
    result: dict[str, Any] = page.evaluate(
        DRAW, [view, legal, seat, state.game.variant.family, list(clicks)]
    )
    return result


def bot_until(state: Any, done: Any, seed: int = 1, limit: int = 400) -> Any:
    """Let the family bot play every seat until ``done(state)`` (or the deal ends)."""
    from paiju.games import make_bot

    bot = make_bot(state.game, seed)
    for _ in range(limit):
        if done(state) or state.is_over:
            return state
        (seat,) = state.to_act()
        state.apply(seat, bot.act(state, seat))
    return state


def test_the_hand_is_drawn_by_the_games_order_with_only_legal_cards_lit(
    page: Any, server: WebServer
) -> None:
    """The hand is drawn big cards first in each game's own order, grouped by rank with
    its count (two decks), and the cards that belong to no legal play are dimmed.

    rule (004): "大王、小王、2、A、K、Q、J、10、9、8、7、6、5、4、3" (甲乙丙) and
    "大王、小王、3、2、A、K、Q、J、10、9、8、7、6、5、4" (放羊);
    "后一家打出的牌必须比前一家打出的牌大" """
    from paiju.games import game

    for code, seats in (("anshan-jiayibing", 6), ("anshan-fangyang", 4)):
        g = game(code)
        state = g.new_state(seats, seed=f"order-{code}")
        state = bot_until(state, lambda s: s.phase == "playing" and s.table is not None)
        seat = state.turn
        drawn = draw(page, state, seat)
        hand = state.view(seat)["hand"].split()
        order = ORDER[code]
        assert sorted(drawn["hand"]) == sorted(hand)
        levels = [order.index(rank(c)) for c in drawn["hand"]]
        assert levels == sorted(levels, reverse=True), drawn["hand"]
        if code == "anshan-jiayibing":
            counts = Counter(rank(c) for c in hand)
            assert (
                drawn["stacks"] == [[r, counts[r]] for r in sorted(counts, key=order.index)][::-1]
            )
        plays = [a.to_json() for a in state.legal_actions(seat) if a.type == "play"]
        legal_cards = {c for a in plays for c in a["cards"].split()}
        assert set(drawn["dim"]) == set(hand) - legal_cards
        # the play to beat and who made it
        table = state.view(seat)["table"]
        assert drawn["current"] is not None and f"S{table['seat']}" in drawn["current"]
        assert table["kind_zh"] in drawn["current"]


def test_the_bankers_call_offers_a_or_below_and_sends_the_legal_call(
    page: Any, server: WebServer
) -> None:
    """放羊's call panel: the 44 cards of A or below (never 3, 2 or a joker), the mode it
    makes (a card of the banker's own hand: 1 对 3), 亮 as a choice; what it sends is one of
    the engine's legal calls.

    rule (004): "发完牌后,由庄家选择一张A以下的牌,庄家与手中有庄家要的牌的玩家一伙(如果要自己
    手里没有的牌,那就是2对2,如果要自己手里的牌,那就是1对3,可以选择亮出来,也可以不亮" """
    from paiju.games import game

    state = game("anshan-fangyang").new_state(4, seed="call")
    banker = state.banker
    drawn = draw(page, state, banker)
    assert len(drawn["callCards"]) == 44
    assert {rank(c) for c in drawn["callCards"]} == set("456789TJQKA")
    hand = state.view(banker)["hand"].split()
    own = next(c for c in drawn["callCards"] if c in hand)
    other = next(c for c in drawn["callCards"] if c not in hand)
    legal = [a.to_json() for a in state.legal_actions(banker)]
    for card, mode, shown in ((own, "1 对 3", True), (other, "2 对 2", False)):
        clicks = [f"#cl-call .card[data-card='{card}']"]
        if shown:
            clicks.append("#cl-liang")
        clicks.append("#cl-call-submit")
        drawn = draw(page, state, banker, tuple(clicks))
        assert mode in (drawn["callMode"] or ""), drawn["callMode"]
        (sent,) = drawn["sent"]
        assert sent in legal
        rank_text = "10" if card[0] == "T" else card[0]
        assert sent == {"type": "call", "rank": rank_text, "suit": card[1], "shown": shown}
    # the other seats wait for the banker: no call panel, the banker named
    waiting = draw(page, state, (banker + 1) % 4)
    assert waiting["callCards"] == []
    assert f"S{banker}" in waiting["text"]


def test_the_sides_appear_as_each_seat_learns_them(page: Any, server: WebServer) -> None:
    """不亮: the holder of the called card sees the sides at once, the others only the
    called card and themselves, until the card is played; then every seat sees them. 亮:
    everyone sees the sides from the first lead.

    rule (004): "当有抓到庄家要的牌的玩家把那张牌打出来的时候,也就是大家都已经互相知道谁和谁是
    一伙的时候" """
    from paiju.cards import parse_cards
    from paiju.games import game
    from paiju.games.climbing.fangyang import Call

    g = game("anshan-fangyang")
    for i in range(40):
        state = g.new_state(4, seed=f"sides-{i}")
        banker = state.banker
        card = next(
            c for c in parse_cards("Ah Ad As Ac Kh Kd Ks Kc") if c not in state.hands[banker]
        )
        state.apply(banker, Call.of(card, shown=False))
        holder = state.partner
        if holder is not None and holder != banker:
            break
    else:
        raise AssertionError("no 2 对 2 call in 40 deals")
    others = [s for s in range(4) if s not in (banker, holder)]
    knows = draw(page, state, holder)
    assert [x["team"] for x in knows["seats"]].count(None) == 0
    assert "不亮" in (knows["called"] or "")
    for s in others:
        drawn = draw(page, state, s)
        teams = [x["team"] for x in drawn["seats"]]
        assert teams[holder] is None and teams[banker] is not None
        assert "不亮" in (drawn["called"] or "")
        assert f"S{holder}" not in (drawn["called"] or "")
    state = bot_until(state, lambda st: st.revealed)
    assert state.revealed
    for s in range(4):
        drawn = draw(page, state, s)
        assert all(x["team"] is not None for x in drawn["seats"]), s
        if not state.is_over:  # the partner named, or told it is the partner itself
            said = drawn["called"] or ""
            assert (f"S{holder}" in said) if s != holder else ("你是庄家的伙伴" in said), said


def test_jiefeng_is_announced_and_places_are_drawn(page: Any, server: WebServer) -> None:
    """When a player goes out with a play nobody beats, the table says who 接风 leads; the
    seats that are out show their place (头游 …), the others their card count.

    rule (004): "当一家出去的时候接风(坐车)要给下家" """
    from paiju.games import game

    g = game("anshan-jiayibing")
    for i in range(30):
        state = g.new_state(6, seed=f"jiefeng-{i}")
        state = bot_until(state, lambda s: s.jiefeng_from is not None, seed=i)
        if state.jiefeng_from is not None and not state.is_over:
            break
    else:
        raise AssertionError("no 接风 in 30 deals")
    seat = state.turn
    drawn = draw(page, state, seat)
    assert drawn["jiefeng"] is not None
    assert f"S{state.jiefeng_from}" in drawn["jiefeng"] and f"S{state.leader}" in drawn["jiefeng"]
    for s, shown in enumerate(drawn["seats"]):
        if s in state.finished:
            assert (
                shown["place"] == ["头游", "二游", "三游", "四游", "五游"][state.finished.index(s)]
            )
            assert shown["size"] is None
        else:
            assert shown["place"] is None
            assert shown["size"] == f"{len(state.hands[s])} 张"
    # English: the same table in the player's other language
    page.evaluate("() => import('/js/i18n.js').then(m => m.setLang('en'))")
    english = draw(page, state, seat)
    page.evaluate("() => import('/js/i18n.js').then(m => m.setLang('zh'))")
    assert "the lead passes on" in (english["jiefeng"] or "")
    assert "cl-play" in english["buttons"]
    assert "Hint" in english["text"] or "Play" in english["text"]
    if state.finished:
        assert "1st out" in english["text"]


FELT = """([view, seat, family, names]) => Promise.all([
  import('/tables/climbing.js'), import('/js/felt.js')]).then(([m, felt]) => {
  document.getElementById('room')?.remove();
  const room = document.createElement('div');
  room.id = 'room';
  room.className = `room family-${family}`;
  const n = view.hand_sizes.length;
  const ctx = {view, legal: null, seat, local: {}, events: [], handOver: null,
               variant: {family}, seatName: (i) => names[i], act: () => {},
               rerender: () => {}};
  const box = document.createElement('div');
  box.id = 'felt';
  box.className = `felt seats-${n}`;
  const center = document.createElement('div');
  center.className = 'felt-center';
  const parts = m.render(ctx);
  if (parts.center) center.append(parts.center);
  box.append(center);
  for (let s = 0; s < n; s++) {
    const el = document.createElement('div');
    el.className = `seat ctl-${s === seat ? 'player' : 'bot'}${s === seat ? ' me' : ''}`;
    el.dataset.seat = s;
    el.setAttribute('style', felt.seatStyle(s, n, seat));
    el.dataset.side = felt.seatSide(s, n, seat);
    const name = document.createElement('div');
    name.className = 'seat-name';
    name.textContent = names[s];
    el.append(name);
    if (s !== seat) {
      const badge = document.createElement('span');
      badge.className = 'badge ctl bot';
      badge.textContent = '机器人';
      el.append(badge);
    }
    el.append(m.seatExtra(ctx, s));
    box.append(el);
  }
  room.append(box);
  document.querySelector('main').prepend(room);
})"""


def felt_layout(page: Any, view: dict[str, Any], seat: int, family: str) -> dict[str, Any]:
    """Draw the climbing felt (its seats placed as the room places them) for ``view`` at
    both sizes; the overflow problems found at each size, and the seats' heights."""
    if not page.url.startswith(page.base):
        page.goto(page.base + "/")
        page.wait_for_selector("#app, main")
    names = [f"机器人 {i}" if i != seat else "我" for i in range(len(view["hand_sizes"]))]
    found: dict[str, Any] = {}
    for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(size)
        page.evaluate(FELT, [view, seat, family, names])
        page.wait_for_timeout(30)
        found[label] = page.evaluate(OVERFLOW)
        found[f"{label}-heights"] = page.eval_on_selector_all(
            "#felt .seat", "els => els.map(e => e.getBoundingClientRect().height)"
        )
        found[f"{label}-cards"] = page.eval_on_selector_all(
            "#felt .seat .cl-last .card", "els => els.length"
        )
        if label == "phone":
            shoot(page, f"{family}-long-seat-lists")
    page.evaluate("() => document.getElementById('room')?.remove()")
    page.set_viewport_size(PHONE)
    return found


def test_long_card_lists_stay_inside_the_seats(page: Any, server: WebServer) -> None:
    """A seat showing many cards - the hand a seat kept at the end of 甲乙丙 (up to 18), or
    a 27-card 打弹子 hand's long 龙 - wraps and overlaps its small cards inside the seat at
    phone and desktop sizes, a few rows high, nothing sticking out of the seat or the page."""
    from paiju.games import game

    g = game("anshan-jiayibing")
    start = g.new_state(6, seed="long-lists")
    dealt = [" ".join(str(c) for c in hand) for hand in start.hands]
    over = bot_until(g.new_state(6, seed="long-lists"), lambda s: False, seed=3)
    assert over.is_over
    view = json.loads(json.dumps(over.view(0)))
    view["hands"] = [view["hands"][0], *dealt[1:]]  # the worst case: the others kept 18 each
    found = felt_layout(page, view, 0, "jiayibing")
    assert found["phone-cards"] == 5 * 18 and found["desktop-cards"] == 5 * 18
    assert found["phone"] == [] and found["desktop"] == [], found
    assert max(found["phone-heights"]) < 0.2 * PHONE["height"], found["phone-heights"]

    d = game("ningcheng-danzi")
    state = bot_until(d.new_state(4, seed="long-lists"), lambda s: bool(s.view(0)["trick"]))
    view = json.loads(json.dumps(state.view(0)))
    full = [" ".join(str(c) for c in hand) for hand in d.new_state(4, seed="long-lists").hands]
    view["trick"] = [{"seat": s, "cards": full[s]} for s in range(4)]  # 27 cards each
    found = felt_layout(page, view, 0, "danzi")
    assert found["phone-cards"] == 4 * 27 and found["desktop-cards"] == 4 * 27
    assert found["phone"] == [] and found["desktop"] == [], found
    assert max(found["phone-heights"]) < 0.25 * PHONE["height"], found["phone-heights"]


def test_a_spectator_sees_no_hidden_card_and_a_reload_keeps_the_seat(
    browser: Any, page: Any, server: WebServer
) -> None:
    """A 甲乙丙 table watched from the lobby's 观战 link: the spectator's page holds no hand
    and shows exactly the public cards the player's felt shows; the player reloads mid-deal
    and gets the same hand and the turn back, and plays on."""
    enter(page, "重连")
    fast_bots(page)
    room = open_room(page, "anshan-jiayibing", seats=6, bots=5)
    page.wait_for_selector("#cl-play", timeout=30_000)
    watcher = browser.new_context(viewport=PHONE)
    errors: list[str] = []
    spy = watcher.new_page()
    spy.on("pageerror", lambda exc: errors.append(str(exc)))
    spy.base = page.base
    try:
        enter(spy, "观战者")
        spy.click(f"#rooms a[href='#/room/{room}']")
        spy.wait_for_selector("#felt .cl-seat")
        assert spy.query_selector("#cl-hand") is None
        assert spy.query_selector("#cl-play") is None
        felt = "els => els.map(e => e.dataset.card).sort()"
        mine = page.eval_on_selector_all("#felt .card", felt)
        compact = json.dumps(mine, separators=(",", ":"))
        spy.wait_for_function(
            f"JSON.stringify([...document.querySelectorAll('#felt .card')]"
            f".map(e => e.dataset.card).sort()) === {json.dumps(compact)}"
        )
        shown = spy.eval_on_selector_all("#room .card", felt)
        assert shown == mine  # the public plays only: nothing of any hand
        spy.screenshot(path=str(ARTIFACTS / "anshan-jiayibing-spectator-phone.png"))
    finally:
        watcher.close()
    assert not errors, errors
    hand = sorted(hand_on_screen(page))
    page.reload()
    page.wait_for_selector("#cl-play")
    assert sorted(hand_on_screen(page)) == hand
    assert page.inner_text("#turn") == "轮到你了"
    before = signature(page)
    if page.query_selector("#cl-hint"):
        page.click("#cl-hint")
        page.wait_for_selector(f"{HAND}.selected")
        page.click("#cl-play")
        accepted(page, before)
        assert len(hand_on_screen(page)) < len(hand)
    else:
        page.click("#cl-pass")
        accepted(page, before)


def danzi_states() -> Iterator[Any]:
    """打弹子 states of a match played by the family bot: every state before each action,
    from the first deal on (N62: no tribute) into the later deals (tribute, 宣战)."""
    from paiju.games import game, make_bot

    g = game("ningcheng-danzi")
    bot = make_bot(g, 3)
    state = g.new_state(4, seed="danzi-table")
    for deal in range(4):
        while not state.is_over:
            yield state
            seat = min(state.to_act())
            state.apply(seat, bot.act(state, seat))
        state = g.new_state(4, seed=f"danzi-table-{deal}", context=state.next_context())


def test_danzi_hand_partner_bombs_and_tribute_steps(page: Any, server: WebServer) -> None:
    """打弹子 on the climbing table: 27 cards by rank with counts and the 砟子 (three or more
    of a rank) and jokers drawn as bombs; the partner's open hand (明牌) beside one's own and
    no opponent's; the 宣战 offer as two buttons; 还贡 by choosing as many cards as were
    received, sent as the engine checks it; 挑选 from the shown tribute.

    rule (002): "互为一伙的玩家可以互相看到对方的牌"; "3-6张牌点相同的牌"; "进贡方得到贡牌之后，
    须拿出同样张数的牌作为还贡" """
    from paiju.games import game

    g = game("ningcheng-danzi")
    seen: set[str] = set()
    for state in danzi_states():
        phase = state.phase
        seat = min(state.to_act())
        if phase == "playing" and "playing" not in seen:
            seen.add(phase)
            drawn = draw(page, state, seat)
            hand = state.view(seat)["hand"].split()
            assert len(hand) == 27
            counts = Counter(rank(c) for c in hand)
            plain = {r for r, n in counts.items() if n >= 3 and r not in ("BJ", "RJ")}
            jokers = {r for r in counts if r in ("BJ", "RJ")}
            if sum(counts[j] for j in jokers) < 2:
                jokers = set()
            assert set(drawn["bombs"]) == plain | jokers
            partner = (seat + 2) % 4
            ((shown_seat, shown_cards),) = drawn["open"]  # the partner's only
            assert shown_seat == partner
            assert sorted(shown_cards) == sorted(state.view(seat)["hands"][partner].split())
            assert drawn["score"] is not None and "30" in drawn["score"]
        elif phase == "declaring" and phase not in seen:
            seen.add(phase)
            drawn = draw(page, state, seat, ("button[data-action*='declare']",))
            labels = {a["type"]: text for a, text in drawn["actions"]}
            # each button says what is at stake (the room's default points)
            assert labels == {
                "declare": "宣战（成功 ×2，失败对方得 3 分）",
                "decline": "不宣战（照常 3/2/1 分）",
            }
            assert drawn["sent"] == [{"type": "declare"}]
        elif phase == "returning" and phase not in seen:
            seen.add(phase)
            received = state.view(seat)["tribute"]["received"][str(seat)].split()
            legal = state.random_action(seat, random.Random(1)).to_json()
            hand = state.view(seat)["hand"].split()
            todo = Counter(legal["cards"].split())
            clicks = []
            for i, card in enumerate(hand):
                if todo[card] > 0:
                    todo[card] -= 1
                    clicks.append(f"#cl-hand .card[data-index='{i}']")
            drawn = draw(page, state, seat, (*clicks, "#cl-give"))
            assert f"{len(received)} 张" in (drawn["note"] or "")
            (sent,) = drawn["sent"]
            assert sent["type"] == "return"
            assert sorted(sent["cards"].split()) == sorted(legal["cards"].split())
            state.clone().check(seat, g.parse_action(sent))
            assert drawn["tribute"] is not None and "进贡" in drawn["tribute"]
        elif phase in ("picking", "picking_returns") and "picking" not in seen:
            seen.add("picking")
            drawn = draw(page, state, seat, ("#cl-pick button",))
            legal = [a.to_json() for a in state.legal_actions(seat)]
            assert [a for a, _ in drawn["actions"]] == legal
            assert drawn["sent"] == [legal[0]]
        if {"playing", "declaring", "returning", "picking"} <= seen:
            break
    assert seen == {"playing", "declaring", "returning", "picking"}, seen


def test_danzi_table_through_the_ui(page: Any, server: WebServer) -> None:
    """A 宁城打弹子 room at seat 0 against three bots: the 27-card hand by rank, the partner's
    open hand (明牌) and the action fit a phone and a desktop screen; 提示 and 出牌 play a
    legal combination through the server. (Whole deals and matches of 打弹子 are played
    through the server by its own tests; a deal by taps here would take a minute.)

    rule (002): "互为一伙的玩家可以互相看到对方的牌" """
    enter(page, "打弹子")
    fast_bots(page)
    open_room(page, "ningcheng-danzi", seats=4, bots=3, hands=1)
    page.wait_for_selector(HAND)
    assert len(hand_on_screen(page)) == 27
    page.wait_for_selector("#cl-open-hand-2 .card")
    # the partner's cards, as many as its seat holds (it may have played already)
    page.wait_for_function(
        "document.querySelectorAll('#cl-open-hand-2 .card').length + ' 张' === "
        "document.querySelector(\"#felt .seat[data-seat='2'] .cl-size\")?.textContent"
    )
    assert page.query_selector("#cl-open-hand-1") is None  # an opponent's hand: never
    for _ in range(20):
        page.wait_for_selector("#turn.mine", timeout=30_000)
        if page.query_selector("#cl-hint"):
            break
        before = signature(page)
        page.click("#cl-pass, button[data-action*='decline']")
        accepted(page, before)
    layout_ok(page, "ningcheng-danzi-playing")
    hand = hand_on_screen(page)
    before = signature(page)
    page.click("#cl-hint")
    page.wait_for_selector(f"{HAND}.selected")
    page.click("#cl-play")
    accepted(page, before)
    assert len(hand_on_screen(page)) < len(hand)
