"""十三张 in the browser: a whole 1301 hand against three bots, arranged by clicks."""

from __future__ import annotations

import re
from typing import Any

import pytest
from web_helpers import WebServer, check_against_ledger, enter, open_room, shoot

from paiju.cards import format_cards, parse_cards
from paiju.catalog import find_variant
from paiju.games.shisanzhang.game import greedy_arrangement
from paiju.games.shisanzhang.rows import is_foul
from paiju.games.shisanzhang.spec import ShisanzhangParams, params_of

ROWS = ("front", "middle", "back")


def hand_on_screen(page: Any) -> list[str]:
    page.wait_for_selector(".hand-zone .card")
    return [el.get_attribute("data-card") for el in page.query_selector_all(".hand-zone .card")]


def place(page: Any, row: str, cards: list[str]) -> None:
    """Tap each card in the hand, then tap the row (the client's tap-to-place)."""
    placed = {
        el.get_attribute("data-card")
        for el in page.query_selector_all(f".row-zone[data-row='{row}'] .card")
    }
    todo = [c for c in cards if c not in placed]
    if not todo:
        return  # the client filled the last row by itself
    for card in todo:
        page.click(f".hand-zone .card[data-card='{card}']")
    page.click(f".row-zone[data-row='{row}'] .row-label")
    got = [
        el.get_attribute("data-card")
        for el in page.query_selector_all(f".row-zone[data-row='{row}'] .card")
    ]
    assert sorted(got) == sorted(cards)


def rows_for(hand: list[str]) -> tuple[list[str], list[str], list[str]]:
    params: ShisanzhangParams = params_of(find_variant("1301"))
    front, middle, back = greedy_arrangement(parse_cards(" ".join(hand)), params.row_rules())
    return (
        format_cards(front).split(),
        format_cards(middle).split(),
        format_cards(back).split(),
    )


def test_1301_full_hand_through_the_ui(page: Any, server: WebServer) -> None:
    """A 1301 hand against three bots, every card placed by a click; the settlement on the
    screen equals the server's record and the player's ledger (stake 2: 积分 = 2 x score).

    rule (000, 1301): "52张牌，每家13张，头墩三张牌，接著中墩、底墩各为五张牌" - the
    UI's three rows hold exactly 3, 5 and 5 cards."""
    enter(page, "十三张玩家")
    open_room(page, "1301", stake=2)
    hand = hand_on_screen(page)
    assert len(hand) == 13
    params: ShisanzhangParams = params_of(find_variant("1301"))
    rules = params.row_rules()
    front, middle, back = rows_for(hand)
    # The 倒水 warning agrees with the engine on a swapped arrangement: once the 13 cards
    # are placed it is the server's exact verdict (POST /api/rooms/{id}/check).
    place(page, "front", front)
    place(page, "middle", back)
    place(page, "back", middle)
    engine_foul = is_foul(
        parse_cards(" ".join(front)),
        parse_cards(" ".join(back)),
        parse_cards(" ".join(middle)),
        rules,
    )
    page.wait_for_selector("[data-source='server']")
    assert page.is_visible("#foul-warning") == engine_foul
    page.click("#ssz-clear")
    assert len(hand_on_screen(page)) == 13
    for row, cards in zip(ROWS, (front, middle, back), strict=True):
        place(page, row, cards)
    verdict = page.wait_for_selector("#foul-ok[data-source='server']")
    assert verdict is not None
    # the verdict names the rows' categories (a front is 散牌, 对子 or 三条)
    assert any(c in (verdict.text_content() or "") for c in ("散牌", "对子", "三条"))
    assert not page.is_visible("#foul-warning")
    shoot(page, "shisanzhang-arranging")
    page.click("#ssz-submit")
    record = check_against_ledger(page, server, seat=0)
    assert record["code"] == "1301" and record["stake"] == 2
    # The showdown shows every seat's three rows and the pair results.
    page.wait_for_selector("#showdown .pair")
    assert len(page.query_selector_all("#showdown .pair")) == 6
    mine = record["actions"]
    arranged = [a["action"] for a in mine if a["seat"] == 0]
    assert arranged == [
        {
            "type": "arrange",
            "front": format_cards(parse_cards(" ".join(front))),
            "middle": format_cards(parse_cards(" ".join(middle))),
            "back": format_cards(parse_cards(" ".join(back))),
        }
    ]
    shoot(page, "shisanzhang-showdown")
    # A reload after the end shows the same settlement again (from the game's record).
    page.reload()
    page.wait_for_selector("#settlement")
    assert check_against_ledger(page, server, seat=0)["id"] == record["id"]


def test_reload_mid_hand_keeps_the_seat(page: Any, server: WebServer) -> None:
    """Reloading the page in the middle of a hand reconnects to the same seat and hand."""
    enter(page, "重连")
    room = open_room(page, "1301", seats=3, bots=0, seat=1)
    page.click("#start-now")
    before = hand_on_screen(page)
    page.reload()
    after = hand_on_screen(page)
    assert sorted(after) == sorted(before)
    assert page.get_attribute(".seat.me", "data-seat") == "1"
    assert page.url.endswith(f"#/room/{room}")
    front, middle, back = rows_for(after)
    for row, cards in zip(ROWS, (front, middle, back), strict=True):
        place(page, row, cards)
    page.click("#ssz-submit")
    check_against_ledger(page, server, seat=1)


SHOWDOWN_HANDS = [
    "As Ah Ad / Ks Kh Kd Kc 2c / Qs Js Ts 9s 8s",
    "2s 3h 5d / 4c 6d 7h 8c 9d / Jc Qd 3c 5c 7d",
    "2h 3d 4h / 6s 6c 8d 9c Td / Tc Jd Qh 4d 5h",
    "3s 4s 5s / 6h 7s 7c 8h 9h / 2d Th Jh Qc Ac",
]


def test_showdown_shows_guns_home_run_fouls_and_bonuses(page: Any, server: WebServer) -> None:
    """The 十三张 table draws an engine showdown: 打枪 on every pair swept (by its
    shooter), seat 0's 全垒打, the 倒水 tags of the fouled hands, the row bonuses and
    every seat's score.

    rule (000, 1301): "头和头比，中和中比，尾和尾比" - each pair shows three row marks."""
    from paiju.games.shisanzhang.showdown import showdown

    result = showdown("1301", SHOWDOWN_HANDS)
    assert result["homeruns"] == [0]
    view = {
        "code": "1301",
        "phase": "over",
        "seat": 1,
        "to_act": [],
        "seats": 4,
        "scoring": "points",
        "stake": 1,
        "banker": None,
        "ready": [True] * 4,
        "hand": result["hands"][1]["back"],
        "showdown": result,
    }
    page.goto(page.base + "/")
    drawn = page.evaluate(
        """(view) => import('/tables/shisanzhang.js').then(m => {
             const ctx = {view, legal: null, seat: 1, local: {}, events: [],
                          seatName: (i) => `S${i}`, act: () => {}, rerender: () => {}};
             const parts = m.render(ctx);
             const box = document.createElement('div');
             box.append(parts.center, parts.mine);
             for (let s = 0; s < 4; s++) box.append(m.seatExtra(ctx, s));
             document.body.append(box);
             return {
               guns: [...box.querySelectorAll('.tag.gun')].map(e => e.textContent),
               homerun: box.querySelector('.homerun')?.textContent,
               fouls: box.querySelectorAll('.tag.foul').length,
               bonuses: box.querySelectorAll('.tag.bonus').length,
               marks: box.querySelectorAll('#showdown .pair .rows-result b').length,
               scores: [...box.querySelectorAll('.seat-score')].map(e => e.textContent),
             };
           })""",
        view,
    )
    guns = [p for p in result["pairs"] if p["gun"] is not None]
    assert [g.rsplit(" +", 1)[0] for g in drawn["guns"]] == [f"打枪 S{p['gun']}" for p in guns]
    assert drawn["homerun"] and "S0" in drawn["homerun"]
    # seat 1 (the viewer) shows its own rows in its area, the others on their seats
    assert drawn["fouls"] == sum(result["fouls"])
    assert drawn["bonuses"] == sum(len(p["bonuses"]) for p in result["pairs"])
    assert drawn["marks"] == 3 * len(result["pairs"])
    assert drawn["scores"] == [f"{x:+d}" if x else "0" for x in result["scores"]]


def test_a_hand_that_must_declare_sends_declare(page: Any, server: WebServer) -> None:
    """A 免摆 hand (must_declare) gets only the declare button, which sends declare."""
    page.goto(page.base + "/")
    sent = page.evaluate(
        """() => import('/tables/shisanzhang.js').then(m => {
             const sent = [];
             const view = {code: '1302', phase: 'arranging', seat: 0, to_act: [0], seats: 2,
                           scoring: 'majority', stake: 1, banker: null, ready: [false, true],
                           hand: 'As Ks Qs Js Ts 2h 3h 4h 5h 6d 7d 8d 9c',
                           special: '同花顺', must_declare: true, mine: null};
             const parts = m.render({view, legal: [{type: 'declare'}], seat: 0, local: {},
                                     events: [], seatName: String, act: (a) => sent.push(a),
                                     rerender: () => {}, roomId: 0});
             document.body.append(parts.mine);
             if (parts.mine.querySelector('.row-zone')) return 'rows shown';
             parts.mine.querySelector('#declare').click();
             return sent;
           })"""
    )
    assert sent == [{"type": "declare"}]


def test_banker_game_with_bets(page: Any, server: WebServer) -> None:
    """1301-payout (the 赔率 banker game): the player bets first, then arranges; the
    settlement on screen equals the ledger."""
    enter(page, "赔率")
    open_room(page, "1301-payout", seats=3, bots=0, seat=1)
    page.click("#start-now")
    page.wait_for_selector(".bet-chip[data-bet='2']")
    assert len(page.query_selector_all("#bet-panel .card")) == 13  # the hand is seen first
    page.click(".bet-chip[data-bet='2']")
    # the bet is taken, then every other bet is in and the arranging begins (a loaded
    # machine may take a while over either step: each is waited for, not assumed)
    page.wait_for_selector("#bet-panel", state="detached", timeout=30_000)
    page.wait_for_selector("#ssz-submit", timeout=60_000)
    hand = hand_on_screen(page)
    params: ShisanzhangParams = params_of(find_variant("1301-payout"))
    rows = greedy_arrangement(parse_cards(" ".join(hand)), params.row_rules())
    for row, cards in zip(ROWS, rows, strict=True):
        place(page, row, format_cards(cards).split())
    page.click("#ssz-submit")
    record = check_against_ledger(page, server, seat=1)
    assert {"seat": 1, "action": {"type": "bet", "amount": 2}, "actor": "player"} in record[
        "actions"
    ]


PAIR_DRAW = """(view) => import('/tables/shisanzhang.js').then(m => {
  const ctx = {view, legal: null, seat: 0, local: {}, events: [],
               seatName: (i) => `S${i}`, act: () => {}, rerender: () => {}};
  const box = document.createElement('div');
  box.append(m.render(ctx).mine);
  document.body.append(box);
  const out = [...box.querySelectorAll('#showdown .pair')].map((e) => e.innerText);
  box.remove();
  return out;
})"""


@pytest.mark.parametrize(
    ("hands", "line"),
    [
        (
            # two rows lost, the back won: 1 + 2 lost, 3 won, "0 / 0" adds up on screen
            [
                "2s 3h 4d / 5s 5h 7d 8d Ts / 2c 6c 9c Tc Kc",
                "As Ah 6d / Ks Kh 3d 3c 4s / 8h 9h Td Js Qs",
            ],
            "头▼-1 中▼-2 尾▲+3",
        ),
        (
            # the back's 同花顺 brings its bonus: 3 + 10
            [
                "2s 3h 4d / 5s 5h 7d 8d Ts / 7c 8c 9c Tc Jc",
                "As Ah 6d / Ks Kh Kd 3c 4s / Qs Qh Qd 2c 2h",
            ],
            "头▼-1 中▼-2 尾▲+13",
        ),
        (
            # 打枪: three rows, then what the gun adds
            [
                "2s 3h 4d / 5s 5h 7d 8d Ts / 2c 6c 9c Tc Kc",
                "Ks Kh 6d / As Ah Ad 3c 4s / Qs Qh Qd 2h 2d",
            ],
            "头▼-1 中▼-2 尾▼-3",
        ),
    ],
)
def test_a_pairs_rows_add_up_to_its_score(page: Any, hands: list[str], line: str) -> None:
    """比牌明细 "头▼中▼尾▲ 0 / 0" hid what each row was worth: 1301's points settlement
    counts the rows 1, 2 and 3 with their bonuses, so each row's mark says what it moved and
    the pair's score adds up on screen (打枪 says what it added)."""
    from paiju.games.shisanzhang.showdown import showdown

    result = showdown("1301", hands)
    view = {
        "code": "1301",
        "phase": "over",
        "seat": 0,
        "to_act": [],
        "seats": 2,
        "scoring": "points",
        "stake": 1,
        "banker": None,
        "ready": [True, True],
        "hand": None,
        "showdown": result,
    }
    page.goto(page.base + "/")
    (text,) = page.evaluate(PAIR_DRAW, view)
    assert line.replace(" ", "") in text.replace("\n", "").replace(" ", ""), text
    pair = result["pairs"][0]
    shown = [int(x) for x in re.findall(r"[▲▼=]([+-]\d+)", text)]
    gun = re.search(r"打枪 S\d \+(\d+)", text)
    extra = (int(gun.group(1)) if gun else 0) * (1 if pair["scores"][0] > 0 else -1)
    assert sum(shown) + extra == pair["scores"][0], (text, pair)
    score = f"{pair['scores'][0]:+d}" if pair["scores"][0] else "0"
    assert score in text
