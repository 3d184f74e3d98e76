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

from web_helpers import (
    WebServer,
    check_against_ledger,
    enter,
    fast_bots,
    hand_by_index,
    lobby_in,
    open_room,
    shoot,
)

from paiju.cards import parse_cards
from paiju.games import read_record, replay
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


def hand_on_screen(page: Any) -> list[str]:
    """The hand as drawn, card text by position (``data-index``)."""
    return hand_by_index(page, HAND)


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
    looked_back = False
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
                    shoot(page, "sandaha-refused")
                    assert len(hand_on_screen(page)) == len(hand)  # nothing was played
                    page.click("#sdh-clear")
                    assert not page.query_selector("#sdh-reason")
                # lead the lowest single of the hand as drawn
                click_cards(page, hand, [hand[-1]])
            else:
                if not looked_back and page.query_selector("#sdh-show-last"):
                    # the last trick, viewable while a new one is on the felt
                    looked_back = True
                    page.click("#sdh-show-last")
                    assert len(page.query_selector_all("#sdh-last .trick-play")) == 4
                    assert len(page.query_selector_all("#sdh-last .trick-play.winner")) == 1
                    page.click("#sdh-show-last")
                    assert not page.query_selector("#sdh-last")
                chosen = follow_for(hand, lead[0], trump)
                click_cards(page, hand, chosen)
                assert page.is_enabled("#play-submit")
            page.click("#play-submit")
            tricks_played += 1
        accepted(page, before)
        if tricks_played == 3 and not shot_playing:
            shot_playing = True
            # the trick fits the felt's middle on a phone: nothing cut off or scrolled away
            clipped = page.evaluate(
                """() => { const c = document.querySelector('.felt-center');
                   return c.scrollHeight > c.clientHeight + 1
                     || c.scrollWidth > c.clientWidth + 1; }"""
            )
            assert not clipped, "the trick does not fit the middle of the table"
            shoot(page, "sandaha-playing")
    else:
        raise AssertionError("the hand did not end")
    assert hand_on_screen(page) == []
    assert looked_back
    record = check_against_ledger(page, server, seat=0)
    mine = [a["action"] for a in record["actions"] if a["seat"] == 0]
    assert all(a["actor"] == "player" for a in record["actions"] if a["seat"] == 0)
    assert len([a for a in mine if a["type"] == "play"]) == tricks_played
    assert record["code"] == "sandaha" and record["stake"] == 2
    final = list(replay(read_record(record)))[-1]
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
    # the replay draws the same table: the last step shows the kitty and the tier
    page.click("#replay-link")
    # (under the felt, where no seat covers it)
    page.wait_for_selector(".step-view #sdh-result")
    assert page.query_selector("#replay-felt #sdh-result") is None
    assert page.get_attribute(".step-view #sdh-result", "data-tier") == result["tier"]
    page.click("#replay-first")
    assert page.query_selector(".step-view #sdh-result") is None


# ------------------------------------------------- the table's drawing of engine views

DRAW = """([view, legal, seat, mode]) => import('/tables/sandaha.js').then(m => {
  const sent = [];
  const box = document.createElement('div');
  box.id = 'probe';
  document.getElementById('probe')?.remove();
  document.body.append(box);
  const ctx = {view, legal, seat, local: {}, events: [], handOver: null,
               seatName: (i) => `S${i}`, act: (a) => sent.push(a), rerender: () => {}};
  const draw = () => {
    const parts = m.render(ctx);
    box.replaceChildren(...[parts.center, parts.mine].filter(Boolean));
    for (let s = 0; s < 4; s++) box.append(m.seatExtra(ctx, s));
  };
  ctx.rerender = draw;
  draw();
  const text = (sel) => box.querySelector(sel)?.textContent ?? null;
  const out = {
    sent,
    buttons: [...box.querySelectorAll('.legal-actions button')]
      .map(b => JSON.parse(b.dataset.action)),
    changzhu: text('#sdh-changzhu'),
    groups: [...box.querySelectorAll('.sdh-group')].map(g =>
      [g.dataset.group, [...g.querySelectorAll('.card')].map(c => c.dataset.card)]),
    throwFailed: box.querySelector('#sdh-throw-failed') && {
      seat: Number(box.querySelector('#sdh-throw-failed').dataset.seat),
      forced: box.querySelector('#sdh-throw-failed').dataset.forced,
      text: text('#sdh-throw-failed'),
    },
    trick: [...box.querySelectorAll('#sdh-trick .trick-play')].map(p =>
      [Number(p.dataset.seat), p.dataset.cards, p.style.gridArea]),
    points: box.querySelector('#sdh-points')?.dataset.points ?? null,
    result: box.querySelector('#sdh-result') && {
      tier: box.querySelector('#sdh-result').dataset.tier,
      multiplier: Number(box.querySelector('#sdh-result').dataset.multiplier),
      tierText: text('#sdh-tier'),
      kitty: [...box.querySelectorAll('#sdh-result .cards .card')].map(c => c.dataset.card),
      scores: [...box.querySelectorAll('#sdh-settlement tr')].map(r => Number(r.dataset.score)),
    },
    blocked: [],
  };
  if (mode === 'follow') {
    // tap every card once, in order: which ones the table refuses to add
    for (const el of [...box.querySelectorAll('#sdh-hand .card')]) {
      const i = Number(el.dataset.index);
      const before = box.querySelector(`#sdh-hand .card[data-index='${i}']`);
      const wasBlocked = before.classList.contains('blocked');
      before.click();
      const now = box.querySelector(`#sdh-hand .card[data-index='${i}']`);
      out.blocked.push([i, wasBlocked, now.classList.contains('selected')]);
    }
    box.querySelector('#play-submit').click();
  }
  return out;
})"""


def draw(page: Any, state: Any, seat: int | None, mode: str = "") -> dict[str, Any]:
    """Render the 三打哈 table module in the page for ``state.view(seat)``."""
    view = json.loads(json.dumps(state.view(seat)))
    legal = None
    if seat is not None and seat in state.to_act():
        acts = state.legal_actions(seat)
        legal = None if acts is None else [a.to_json() for a in acts]
    if not page.url.startswith(page.base):
        page.goto(page.base + "/")
    result: dict[str, Any] = page.evaluate(DRAW, [view, legal, seat, mode])
    return result


def bot_step(state: Any, bot: Any) -> None:
    (seat,) = state.to_act()
    state.apply(seat, bot.act(state, seat))


def sandaha_game() -> Any:
    from paiju.games import game

    return game("sandaha")


def test_must_bid_offers_no_pass(page: Any, server: WebServer) -> None:
    """A bidder holding 7 常主 sees the duty and no pass button; the buttons are the
    server's legal bids.

    rule (003): "有7张常主（王、2和7）必须叫到70分或者以下" - the table says so and offers
    only bids (from the engine's legal actions)."""
    g = sandaha_game()
    for i in range(400):
        state = g.new_state(4, seed=f"must-bid-{i}")
        seat = state.turn
        if state.must_bid(seat) is not None:
            break
    else:
        raise AssertionError("no 7-常主 hand in 400 deals")
    drawn = draw(page, state, seat)
    assert {"type": "pass"} not in drawn["buttons"]
    assert drawn["buttons"] == [a.to_json() for a in state.legal_actions(seat)]
    assert drawn["changzhu"] is not None
    assert f"{state.changzhu(seat)} 张常主" in drawn["changzhu"]
    assert f"须叫 {state.must_bid(seat)} 分" in drawn["changzhu"]
    # the English switch: the same note in English
    page.evaluate("() => import('/js/i18n.js').then(m => m.setLang('en'))")
    english = draw(page, state, seat)
    page.evaluate("() => import('/js/i18n.js').then(m => m.setLang('zh'))")
    assert english["changzhu"] is not None
    assert f"bid {state.must_bid(seat)} or lower" in english["changzhu"]
    # before trumps are named the hand is grouped 常主 first, then by suit
    hand = state.view(seat)["hand"].split()
    assert [c for _, cards in drawn["groups"] for c in cards] == hand
    assert drawn["groups"][0][0] == "T"
    assert all(is_changzhu(parse_cards(c)[0]) for c in drawn["groups"][0][1])


def play_to_first_lead(seed: str) -> tuple[Any, Any]:
    from paiju.games.sandaha.bot import SandahaBot

    g = sandaha_game()
    state = g.new_state(4, seed=seed)
    bot = SandahaBot(g, 7)
    while state.phase != "playing":
        bot_step(state, bot)
    return state, bot


def test_failed_throw_is_shown_to_everyone(page: Any, server: WebServer) -> None:
    """A trump throw that another hand can beat: every seat and the spectator see the
    failed throw, the cards tried and the smaller part actually played, and the lead on
    the felt is that forced part.

    rule (003): "若首家试图联出的牌并非都是大牌时，则其必须出欲联出的牌中的最小牌（并提示甩牌
    失败）" - the table shows the 甩牌失败 notice with what was forced."""
    from paiju.games.sandaha.game import Play

    for i in range(200):
        state, _ = play_to_first_lead(f"throw-{i}")
        leader = state.turn
        trumps = [c for c in state.hands[leader] if rules.order(state.trump_index).suit[c] == 4]
        if len(rules.decompose(trumps, state.trump_index)) < 2:
            continue
        events = state.apply(leader, Play(tuple(trumps)))
        if any(e.type == "throw_failed" for e in events):
            break
    else:
        raise AssertionError("no failed throw in 200 deals")
    failed = state.view(None)["throw_failed"]
    for seat in (None, 0, 1, 2, 3):
        drawn = draw(page, state, seat)
        assert drawn["throwFailed"] is not None, seat
        assert drawn["throwFailed"]["seat"] == leader
        assert drawn["throwFailed"]["forced"] == failed["forced"]
        assert drawn["trick"][0][:2] == [leader, state.view(seat)["trick"][0]["cards"]]
        # the 下家 on the right, the 上家 on the left (counter-clockwise, as at every table)
        place = ["bottom", "right", "top", "left"][(leader - (seat or 0)) % 4]
        assert drawn["trick"][0][2].startswith(place)


def test_following_keeps_to_the_led_suit(page: Any, server: WebServer) -> None:
    """Following a lead, the table lets a card of another suit be picked only when the
    led suit is spent, and never more cards than the lead; what it sends follows suit.

    rule (003): "每轮各玩家必须出牌且与第一个出牌玩家所出牌张数、花色相同，在没有第一个出牌玩家
    所出牌的花色时，可以用主牌毙或垫其他花色的牌" """
    from paiju.games.sandaha.game import Play

    def side_lead(state: Any) -> Any:
        """A side-suit pair (or single) of the leader whose suit the next seat holds
        longer, while it holds trumps too."""
        o = rules.order(state.trump_index)
        nxt = state.hands[(state.turn + 1) % 4]
        if not any(o.suit[c] == rules.TRUMP for c in nxt):
            return None
        hand = state.hands[state.turn]
        for size in (2, 1):  # a side pair if there is one, else a single
            for card in hand:
                same = sum(1 for c in nxt if o.suit[c] == o.suit[card])
                if o.suit[card] != rules.TRUMP and hand.count(card) >= size and same > size:
                    return (card,) * size
        return None

    for i in range(50):
        state, _ = play_to_first_lead(f"follow-{i}")
        card = side_lead(state)
        if card is not None:
            break
    else:
        raise AssertionError("no side-suit lead to follow in 50 deals")
    state.apply(state.turn, Play(card))  # a side pair or single led
    seat = state.turn
    lead = state.trick[0][1]
    o = rules.order(state.trump_index)
    suit = o.suit[lead[0]]
    held = [c for c in state.hands[seat] if o.suit[c] == suit]
    hand = state.view(seat)["hand"].split()
    drawn = draw(page, state, seat, "follow")
    n = len(lead)
    suits = [o.suit[parse_cards(c)[0]] for c in hand]
    picked = [i for i, _, selected in drawn["blocked"] if selected]
    need = min(len(held), n)
    in_suit = [i for i in picked if suits[i] == suit]
    assert len(picked) == n
    assert len(in_suit) == need
    # tapped in hand order: an off-suit card was refused while the led suit was not spent
    chosen: list[int] = []
    for i, was_blocked, selected in drawn["blocked"]:
        assert was_blocked == (not selected), (i, was_blocked, selected)
        off = sum(1 for j in chosen if suits[j] != suit)
        allowed = len(chosen) < n and (suits[i] == suit or off < n - need)
        assert selected == allowed, (i, hand[i], chosen)
        if selected:
            chosen.append(i)
    first_in_suit = suits.index(suit)
    assert first_in_suit > 0
    # the cards drawn before the led suit are all off-suit: none could be picked
    assert all(b for _, b, _ in drawn["blocked"][:first_in_suit])
    (sent,) = drawn["sent"]
    assert sent["type"] == "play"
    assert sorted(sent["cards"].split()) == sorted(hand[i] for i in picked)


def test_the_end_shows_kitty_multiplier_tier_and_settlement(page: Any, server: WebServer) -> None:
    """At the end every seat sees the kitty, its multiplier (抠底倍数), the tier (小光/大光)
    and the settlement, exactly as the engine's view says.

    rule (003): "抠底倍数:1、双扣扣底底分*2 …" "闲家得分<庄分 且 5 <= 闲家得分< = 30，（小光）" """
    from paiju.games.sandaha.bot import SandahaBot

    g = sandaha_game()
    seen: set[str] = set()
    kou = False
    for i in range(60):
        state = g.new_state(4, seed=f"end-{i}")
        bot = SandahaBot(g, i)
        while state.phase != "over":
            bot_step(state, bot)
        result = state.view(0)["result"]
        if result["tier"] in seen and (kou or not result["multiplier"]):
            continue
        seen.add(result["tier"])
        kou = kou or bool(result["multiplier"])
        for seat in (None, 0, state.declarer):
            drawn = draw(page, state, seat)
            assert drawn["result"] is not None
            assert drawn["result"]["tier"] == result["tier"]
            assert drawn["result"]["multiplier"] == result["multiplier"]
            assert drawn["result"]["scores"] == list(state.settlement())
            assert sorted(drawn["result"]["kitty"]) == sorted(state.view(seat)["kitty"].split())
            small = result["tier"].endswith("_small")
            big = result["tier"].endswith("_big")
            assert ("小光" in drawn["result"]["tierText"]) == small
            assert ("大光" in drawn["result"]["tierText"]) == big
            assert drawn["points"] == str(state.defenders_points)
        if len(seen) >= 3 and kou:
            break
    assert len(seen) >= 2, seen


UNDER_SEATS = """(boxes) => {
  const seats = [...document.querySelectorAll('#felt .seat')].map(
    (s) => [s.dataset.seat, s.getBoundingClientRect()]);
  const out = [];
  for (const sel of boxes) {
    for (const el of document.querySelectorAll(sel)) {
      // what is in sight of it: the felt's middle scrolls what does not fit
      const box = el.getBoundingClientRect();
      const clip = document.querySelector('#felt .felt-center').getBoundingClientRect();
      const r = {
        left: Math.max(box.left, clip.left), right: Math.min(box.right, clip.right),
        top: Math.max(box.top, clip.top), bottom: Math.min(box.bottom, clip.bottom),
      };
      if (r.right - r.left < 1 || r.bottom - r.top < 1) continue;
      for (const [seat, s] of seats) {
        const w = Math.min(r.right, s.right) - Math.max(r.left, s.left);
        const h = Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top);
        if (w > 1 && h > 1) out.push(`${sel} under seat ${seat}`);
      }
    }
  }
  const head = document.querySelector('.room-head');
  const tops = [...head.children].map((c) => Math.round(c.getBoundingClientRect().top / 8));
  if (new Set(tops).size > 1 && head.getBoundingClientRect().height > 48) {
    out.push('the header wraps');
  }
  return out;
}"""
IN_FELT = ["#sdh-contract", "#sdh-trump", "#sdh-points", ".sdh-table .trick-play", "#sdh-show-last"]


def test_the_felt_keeps_its_chips_and_tricks_clear_of_the_seats_on_a_phone(page: Any) -> None:
    """三打哈 on a phone in English, the hand played by 托管: the "Contract" chip, the trumps,
    the defenders' points and the trick (the last one too) lie clear of every seat's box,
    and the room's header is one line."""
    enter(page, "Phone Player")
    lobby_in(page, "en")
    fast_bots(page, 0.3, time_limit=0.2, tuoguan_after=1)
    open_room(page, "sandaha", hands=1)
    seen = 0
    for _ in range(60):
        page.wait_for_selector("#sdh-contract, #settlement", timeout=60_000)
        if page.query_selector("#settlement"):
            break
        if page.query_selector("#sdh-show-last"):
            page.click("#sdh-show-last")
        found = page.evaluate(UNDER_SEATS, [*IN_FELT, "#sdh-last .trick-play"])
        assert not found, found
        if page.query_selector(".sdh-table"):
            seen += 1
        if seen >= 4:
            break
        page.wait_for_timeout(400)  # the next play (not a wait for a window: the bots' pace)
    assert seen >= 4, "no trick was seen on the felt"
