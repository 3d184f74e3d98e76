"""A whole 宁城打弹子 deal with tribute (进贡/挑选/还贡) in the browser, played by taps as a
person plays, against three server bots through the real server.

The server runs through ``tests/deal_launch.py``: a chosen seed and a room whose first hand
starts from a given match context (the second deal of a match, totals 12:9, the previous
finishing order 甲 0, 1, 3, 2 without 宣战), so the 2/2 tribute (N48) happens on screen: seats
3 and 2 give two cards each to the pool, the player (the previous 头游) picks two by tap, then
returns two cards chosen by tap and confirmed; then 宣战 is offered, and the deal is played to
its end with 提示, 出牌 (cards tapped) and 不出."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from test_climbing_table import (
    HAND,
    accepted,
    check_places,
    hand_on_screen,
    in_viewport,
    layout_ok,
    rank,
    signature,
    tap,
)
from web_helpers import (
    DESKTOP,
    PHONE,
    DealServer,
    check_against_ledger,
    enter,
    fast_bots,
    open_room,
    token,
)

from paiju.games import read_record, replay

SEED = "danzi-web"
CONTEXT = {
    "totals": [12, 9],
    "deal_number": 1,
    "previous": {"finish_order": [0, 1, 3, 2], "declarer": None},
    "match_over": False,
}
ORDER = ["4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "3", "BJ", "RJ"]
"""N5 "大王、小王、3、2、A、K、……、4" (low to high here)."""


def minus(hand: list[str], cards: list[str]) -> list[str]:
    rest = Counter(hand)
    rest.subtract(cards)
    return sorted(rest.elements())


def returned(hand: list[str], received: list[str], n: int) -> list[str]:
    """A person's 还贡: the n lowest cards, no 4 (N55) and none of a received value (N54)."""
    banned = {rank(c) for c in received} | {"4"}
    if banned & {"BJ", "RJ"}:
        banned |= {"BJ", "RJ"}
    ok = sorted((c for c in hand if rank(c) not in banned), key=lambda c: ORDER.index(rank(c)))
    return ok[:n]


def open_hands(page: Any) -> list[int]:
    seats: list[int] = page.eval_on_selector_all(
        ".cl-open-hand", "els => els.map(e => Number(e.dataset.seat))"
    )
    return seats


def tribute_on_screen(page: Any) -> list[tuple[str, int, list[str]]]:
    """The tribute log's lines on the felt: (type, seat, cards shown)."""
    lines: list[list[Any]] = page.eval_on_selector_all(
        "#cl-tribute .cl-tribute-line[data-type]",
        """els => els.map(e => [e.dataset.type, Number(e.dataset.seat),
              [...e.querySelectorAll('.card')].map(c => c.dataset.card)])""",
    )
    return [(t, s, sorted(c)) for t, s, c in lines]


def test_a_whole_danzi_deal_with_tribute_by_taps(page: Any, deal_server: DealServer) -> None:
    """The second deal of a match at seat 0 (the previous 头游) against three bots, every
    decision a tap: 挑选 from the pool, 还贡 chosen and confirmed, 宣战 declined, the play to
    the end; the tribute log, the hand, the partner's open hand, the places, points and match
    score on screen equal the server's record.

    rule (002): "三游和末游自动各拿出两张最大的牌给头游和二游挑选，头游有优先选择权";
    "进贡方得到贡牌之后，须拿出同样张数的牌作为还贡"; "互为一伙的玩家可以互相看到对方的牌" """
    page.base = deal_server.base
    deal_server.choose(SEED, CONTEXT)
    enter(page, "打弹子")
    fast_bots(page, delay=0)
    open_room(page, "ningcheng-danzi", seats=4, bots=3, hands=1)
    page.wait_for_selector(HAND)
    first = hand_on_screen(page)
    assert len(first) == 27
    expected = sorted(first)
    seen: dict[str, Any] = {"picked": None, "returned": None, "log": None, "tapped": False}
    phones: set[str] = set()
    for _ in range(400):
        page.wait_for_selector("#settlement, #turn.mine", timeout=30_000)
        if page.query_selector("#settlement"):
            break
        before = signature(page)
        # 明牌: the partner's hand (seat 2) is open, no opponent's ever
        assert open_hands(page) in ([2], []), open_hands(page)
        hand = hand_on_screen(page)
        if page.query_selector("#cl-pick"):  # 挑选 from the shown pool (N48)
            assert sorted(hand) == expected
            if "pick" not in phones:
                phones.add("pick")
                assert in_viewport(page, "#cl-pick button")
                layout_ok(page, "ningcheng-danzi-pick")
            button = page.query_selector("#cl-pick button")
            assert button is not None
            action = json.loads(button.get_attribute("data-action"))
            seen["picked"] = sorted(action["cards"].split())
            button.click()
            expected = sorted(expected + seen["picked"])
        elif page.query_selector("#cl-give"):  # 还贡: as many cards as received (N53)
            assert sorted(hand) == expected
            received = seen["picked"] or []
            give = returned(hand, received, len(received))
            tap(page, hand, give)
            assert in_viewport(page, "#cl-give") and in_viewport(page, "#cl-hand")
            layout_ok(page, "ningcheng-danzi-return")
            page.click("#cl-give")
            seen["returned"] = sorted(give)
            expected = minus(expected, give)
        elif page.query_selector("button[data-action*='decline']"):  # 宣战 offered (N42)
            if seen["log"] is None:  # every tribute step is done: the whole log is shown
                assert sorted(hand) == expected, "the hand after 挑选 and 还贡"
                seen["log"] = tribute_on_screen(page)
                layout_ok(page, "ningcheng-danzi-declare")
            page.click("button[data-action*='decline']")
        else:
            assert page.query_selector("#cl-play")
            if "play" not in phones:  # the first turn of play
                phones.add("play")
                assert sorted(hand) == expected, "the hand after 挑选 and 还贡"
                if seen["log"] is None:  # the log stays until the first card is played
                    seen["log"] = tribute_on_screen(page)
                assert open_hands(page) == [2]
                layout_ok(page, "ningcheng-danzi-playing")
            current = page.get_attribute("#cl-current", "data-cards")
            can_pass = page.query_selector("#cl-pass") is not None
            if can_pass and page.inner_text("#cl-pass") == "要不起":
                page.click("#cl-pass")
            elif not current and not seen["tapped"]:
                low = min(hand, key=lambda c: ORDER.index(rank(c)))
                tap(page, hand, [low])  # a single, tapped
                seen["tapped"] = True
                page.click("#cl-play")
            elif can_pass and current and not seen.get("passed"):
                seen["passed"] = True
                page.click("#cl-pass")  # 不出 while a play is possible
            else:
                page.click("#cl-hint")
                page.wait_for_selector(f"{HAND}.selected")
                page.click("#cl-play")
        accepted(page, before)
    else:
        raise AssertionError("the deal did not end")
    assert seen["picked"] and seen["returned"] and seen["log"] is not None, seen

    record = check_against_ledger(page, deal_server, 0)
    assert record["context"] == CONTEXT
    states = list(replay(read_record(record)))
    final = states[-1]
    view = final.view(0)
    # the tribute log on screen: who gave what to the pool, what the player picked and
    # returned, as the server recorded it (a face-down return has no cards)
    log = view["tribute"]["log"]
    wanted = [
        (e["type"], e["seat"], sorted((e.get("cards") or "").split()))
        for e in log
        if e["type"] in ("tribute_given", "picked", "return_given")
    ]
    assert seen["log"] == wanted
    mine = [e for e in log if e["seat"] == 0]
    assert any(e["type"] == "picked" and sorted(e["cards"].split()) == seen["picked"] for e in mine)
    (back,) = [e for e in mine if e["type"] == "return_given"]
    # the two returns are shown as a pool, and the givers (seats 3 and 2) take them (N48)
    takers = [e for e in log if e["type"] == "picked" and e["seat"] in (2, 3)]
    assert any(
        seen["returned"] in (sorted(e["cards"].split()), sorted(e.get("rest", "").split()))
        for e in takers
    ), takers
    assert back.get("cards") is None or sorted(back["cards"].split()) == seen["returned"]
    # the hand the deal started with (the record's deal) is the one first shown
    assert sorted(states[0].view(0)["hand"].split()) == sorted(first)
    # places, points and the match score to 30 on screen are the record's
    check_places(page, record)
    result = view["result"]
    points = page.get_attribute("#cl-points", "data-points")
    totals = page.get_attribute("#cl-points", "data-totals")
    assert points == ",".join(map(str, result["points"]))
    assert totals == ",".join(map(str, result["totals"]))
    assert [t - c for t, c in zip(result["totals"], CONTEXT["totals"], strict=True)] == list(
        result["points"]
    )
    # the deal's box says which side scored and how, and what the 30 decides: the room's
    # verdict is the deal's points, not "不输不赢" (the 积分 come with the match)
    b = result["breakdown"]
    side = "我方" if b["team"] == 0 else "对方"
    assert page.inner_text("#cl-outcome") == f"本盘 {side} 得 {b['points']} 分"
    assert f"{b['points']} 分" in page.inner_text("#cl-why")
    verdict = page.inner_text("#verdict")
    assert "不输不赢" not in verdict
    if page.query_selector("#cl-cut-short"):  # the room's hand count ended it before 30
        assert "不计积分" in verdict and "没打到 30 分" in page.inner_text("#cl-cut-short")
    else:
        assert verdict == page.inner_text("#cl-outcome")
    assert open_hands(page) == [] or 2 in open_hands(page)
    if page.query_selector("#learn-offer-no"):  # a first room's 新手教程 offer: a whole
        page.click("#learn-offer-no")  # deal played, the player puts it away
        page.wait_for_selector("#learn-offer", state="detached")
    layout_ok(page, "ningcheng-danzi-end")


SAOGONG_SEED = "saogong-2085"
"""A deal in which seat 0 holds no 王, no 3 and no 2 (found with ``DanziGame.new_state``)."""
SAOGONG_CONTEXT = {
    "totals": [9, 12],
    "deal_number": 1,
    "previous": {"finish_order": [1, 2, 3, 0], "declarer": None},
    "match_over": False,
}


def test_saogong_free_tribute_by_taps(page: Any, deal_server: DealServer) -> None:
    """骚贡: the player (the previous 末游) holds no 王/3/2 and chooses the two cards it gives;
    a 4 is refused with the server's reason, then two cards are tapped and confirmed, the
    felt's log shows them given to the pool and the hand is two cards shorter.

    rule (002): "在手中没有王，3，2的时候，进贡方可以自主选择需要进贡的牌。" (N51; 4s
    excepted, N52)"""
    page.base = deal_server.base
    deal_server.choose(SAOGONG_SEED, SAOGONG_CONTEXT)
    enter(page, "骚贡")
    fast_bots(page, delay=0)
    open_room(page, "ningcheng-danzi", seats=4, bots=3, hands=1)
    page.wait_for_selector("#turn.mine")
    page.wait_for_selector("#cl-give")
    hand = hand_on_screen(page)
    assert len(hand) == 27
    assert not {rank(c) for c in hand} & {"BJ", "RJ", "3", "2"}
    assert "2 张" in page.inner_text("#cl-note")
    fours = [c for c in hand if rank(c) == "4"]
    others = sorted((c for c in hand if rank(c) != "4"), key=lambda c: ORDER.index(rank(c)))
    assert fours, hand
    tap(page, hand, [fours[0], others[0]])
    page.click("#cl-give")
    reason = page.wait_for_selector("#cl-reason", timeout=20_000)
    assert "4" in reason.inner_text(), reason.inner_text()
    assert hand_on_screen(page) == hand
    layout_ok(page, "ningcheng-danzi-saogong")
    page.click("#cl-clear")
    give = others[-2:]  # two cards of the player's choice (here its biggest but one)
    before = signature(page)
    tap(page, hand, give)
    page.click("#cl-give")
    accepted(page, before)
    page.wait_for_function(
        "document.querySelector(\"#cl-tribute .cl-tribute-line[data-seat='0']\") !== null"
    )
    assert ("tribute_given", 0, sorted(give)) in tribute_on_screen(page)
    # the hand is two cards shorter; the bots act at once, so a 还贡 of two may be back already
    now = Counter(hand_on_screen(page))
    left = Counter(minus(hand, give))
    assert not left - now and sum((now - left).values()) in (0, 2), (now, left)


CONTEXT_4_2 = {
    "totals": [6, 15],
    "deal_number": 1,
    "previous": {"finish_order": [0, 1, 2, 3], "declarer": 0},
    "match_over": False,
}
"""The deal after seat 0 declared (宣战) and went out first: the 4/2 form (N49)."""


def test_the_4_2_tribute_after_a_declaration_by_taps(page: Any, deal_server: DealServer) -> None:
    """After a 宣战 the tribute is 4 and 2 cards (N49): 末游 (seat 3) gives the player, the
    previous 头游, four cards and 三游 (seat 2) gives 二游 two, all shown (N56); the player
    returns four cards chosen by tap, no 4 and none of a received value (N54, N55), and the
    returns are shown too; then the deal is played to its end and matches the record.

    rule (002): "进贡牌当有人宣战时（贡牌为4、2）为明牌"; "作为还贡的牌不能与进贡的牌数值相同";
    "4同样不能作为还贡的牌" """
    page.base = deal_server.base
    deal_server.choose(SEED + "-42", CONTEXT_4_2)
    enter(page, "打弹子")
    fast_bots(page, delay=0)
    open_room(page, "ningcheng-danzi", seats=4, bots=3, hands=1)
    page.wait_for_selector(HAND)
    gave: list[str] | None = None
    log: list[tuple[str, int, list[str]]] | None = None
    for _ in range(400):
        page.wait_for_selector("#settlement, #turn.mine", timeout=30_000)
        if page.query_selector("#settlement"):
            break
        before = signature(page)
        hand = hand_on_screen(page)
        if page.query_selector("#cl-give"):
            shown = tribute_on_screen(page)
            (received,) = [c for t, s, c in shown if t == "tribute_given" and s == 3]
            assert len(received) == 4 and all(c in hand for c in received)
            gave = returned(hand, received, 4)
            tap(page, hand, gave)
            assert in_viewport(page, "#cl-give") and in_viewport(page, "#cl-hand")
            layout_ok(page, "ningcheng-danzi-4-2-return")
            page.click("#cl-give")
        elif page.query_selector("button[data-action*='decline']"):
            if log is None:
                log = tribute_on_screen(page)
            page.click("button[data-action*='decline']")
        else:
            if page.query_selector("#cl-pass") and page.inner_text("#cl-pass") == "要不起":
                page.click("#cl-pass")
            else:
                page.click("#cl-hint")
                page.wait_for_selector(f"{HAND}.selected")
                page.click("#cl-play")
        accepted(page, before)
    else:
        raise AssertionError("the deal did not end")
    assert gave is not None and log is not None
    record = check_against_ledger(page, deal_server, 0)
    assert record["context"] == CONTEXT_4_2
    final = list(replay(read_record(record)))[-1]
    entries = final.view(0)["tribute"]["log"]
    wanted = [
        (e["type"], e["seat"], sorted((e.get("cards") or "").split()))
        for e in entries
        if e["type"] in ("tribute_given", "return_given")
    ]
    assert [x for x in log if x[0] in ("tribute_given", "return_given")] == wanted
    givers = {(e["type"], e["seat"], e.get("to")) for e in entries}
    assert {("tribute_given", 3, 0), ("tribute_given", 2, 1)} <= givers
    assert {("return_given", 0, 3), ("return_given", 1, 2)} <= givers
    (mine,) = [e for e in entries if e["type"] == "return_given" and e["seat"] == 0]
    assert sorted(mine["cards"].split()) == sorted(gave)  # shown to all in the 4/2 form
    check_places(page, record)


MATCH_POINT = {
    "totals": [29, 29],
    "deal_number": 5,
    "previous": {"finish_order": [0, 1, 3, 2], "declarer": None},
    "match_over": False,
}
"""A match at 29:29: whichever side scores in the deal reaches 30 and wins the 局."""


def play_by_taps(page: Any) -> None:
    """One deal as a person plays it: 挑选 the first pair offered, 还贡 the lowest cards
    allowed, 不宣战, then 提示 and 出牌 (要不起 passes by itself) until the result."""
    picked: list[str] = []
    for _ in range(400):
        page.wait_for_selector("#settlement, #turn.mine", timeout=30_000)
        if page.query_selector("#settlement"):
            return
        before = signature(page)
        if page.query_selector("#cl-pick"):
            button = page.query_selector("#cl-pick button")
            assert button is not None
            picked = json.loads(button.get_attribute("data-action"))["cards"].split()
            button.click()
        elif page.query_selector("#cl-give"):
            tap(page, hand_on_screen(page), returned(hand_on_screen(page), picked, len(picked)))
            page.click("#cl-give")
        elif page.query_selector("button[data-action*='decline']"):
            page.click("button[data-action*='decline']")
        elif page.query_selector("#cl-hint"):
            page.click("#cl-hint")
            page.wait_for_selector(f"{HAND}.selected")
            page.click("#cl-play")
        else:
            page.click("#cl-pass")
        accepted(page, before)
    raise AssertionError("the deal did not end")


def side_of(points: list[int], zh: bool) -> str:
    team = 0 if points[0] > points[1] else 1
    return ("我方" if team == 0 else "对方") if zh else ("Us" if team == 0 else "Them")


def box(page: Any) -> dict[str, str]:
    """The deal's result box and the room's lines under it, as the page shows them."""
    found: dict[str, str] = page.evaluate(
        """() => Object.fromEntries(['cl-outcome', 'cl-why', 'cl-points', 'cl-match-over',
             'cl-cut-short', 'cl-deal-only', 'verdict', 'session-total', 'next-hand',
             'summary-cut'].map(id => [id, document.getElementById(id)?.innerText ?? null]))"""
    )
    found["points"] = page.get_attribute("#cl-points", "data-points") or ""
    found["totals"] = page.get_attribute("#cl-points", "data-totals") or ""
    return found


def settlement_columns(page: Any) -> dict[str, list[str]]:
    """The room's settlement table as shown: its headers, and each seat's row of cells."""
    return page.evaluate(
        """() => {
          const texts = (els) => [...els].map(e => e.innerText);
          const rows = [...document.querySelectorAll('#settlement tbody tr')];
          return {head: texts(document.querySelectorAll('#settlement thead th')),
                  ...Object.fromEntries(rows.map(
                    r => [r.dataset.seat, texts(r.querySelectorAll('td')).slice(1)]))};
        }"""
    )


def test_a_room_of_deals_says_each_deals_points_the_match_and_its_words(
    page: Any, deal_server: DealServer
) -> None:
    """A room of two 盘 at 29:29: the first deal's box gives its points, how they were
    counted, the score reaching 30 and the 局 won (the 积分 settled), the room's lines say
    盘 (下一盘, 1 盘); the second deal starts a new 局 and the room's count cuts it short; the
    总结算 counts each deal for the side that scored more in it. Chinese on a phone, then
    English on a desktop."""
    page.base = deal_server.base
    deal_server.choose(SEED, MATCH_POINT)
    enter(page, "打弹子")
    fast_bots(page, delay=0)
    room = open_room(page, "ningcheng-danzi", seats=4, bots=3, hands=2)
    page.set_viewport_size(PHONE)
    page.wait_for_selector(HAND)
    play_by_taps(page)
    page.wait_for_function("(document.getElementById('next-hand')?.innerText || '') !== ''")
    first = box(page)
    points = [int(p) for p in first["points"].split(",")]
    totals = [int(t) for t in first["totals"].split(",")]
    assert [t - p for t, p in zip(totals, points, strict=True)] == [29, 29]
    winner = side_of(points, zh=True)
    assert first["cl-outcome"] == f"本盘 {winner} 得 {max(points)} 分"
    assert f"{max(points)} 分" in (first["cl-why"] or "")
    assert "头游" in (first["cl-why"] or "") or "宣战" in (first["cl-why"] or "")
    assert first["cl-points"] == f"总分 我方 {totals[0]} : {totals[1]} 对方（先到 30 分赢整局）"
    assert f"{winner} 先到 30 分，赢得整局" in (first["cl-match-over"] or "")
    mine = 1 if points[0] > points[1] else -1  # the 局's stake, 1 积分 to each winner
    assert first["verdict"] == ("你赢了 1 积分" if mine > 0 else "你输了 1 积分")
    # the settlement table: each seat's side's points of the deal and the match score
    table = settlement_columns(page)
    assert table["head"] == ["座位", "本盘得分", "总分", "积分"]
    for s in range(4):
        assert table[str(s)] == [
            str(points[s % 2]),
            f"{totals[s % 2]}/30",
            f"{mine if s % 2 == 0 else -mine:+d}",
        ]
    assert "局" not in first["next-hand"] and first["next-hand"].endswith("秒后开始下一盘")
    page.wait_for_selector("#session-total")
    assert page.inner_text("#session-total") == f"本场累计 {mine:+d}（1 盘）"
    assert in_viewport(page, "#cl-result") and in_viewport(page, "#next-hand")
    # in English, on a desktop
    page.click("#lang-switch")
    page.set_viewport_size(DESKTOP)
    page.wait_for_function("document.getElementById('cl-points')?.innerText.startsWith('Match')")
    english = box(page)
    assert english["cl-outcome"] == f"This deal: {max(points)} points to {side_of(points, False)}"
    assert english["cl-points"] == (
        f"Match score Us {totals[0]} : {totals[1]} Them (first to 30 wins the match)"
    )
    assert "win the match" in (english["cl-match-over"] or "")
    assert page.inner_text("#session-total") == f"This room so far: {mine:+d} (1 deal)"
    page.wait_for_function("document.getElementById('next-hand')?.innerText.startsWith('Next')")
    assert page.inner_text("#next-hand").startswith("Next deal in ")
    assert in_viewport(page, "#cl-result") and in_viewport(page, "#next-hand")
    # the second deal: a new 局 from 0:0, cut short by the room's two deals
    page.click("#continue")
    page.wait_for_selector(HAND)
    play_by_taps(page)
    page.wait_for_selector("#match-summary")
    second = box(page)
    points2 = [int(p) for p in second["points"].split(",")]
    assert second["totals"] == second["points"]  # a new match: the deal's points are its score
    assert second["cl-cut-short"] == (
        "The room's deals are played out before either side reached 30: no winner, no points"
    )
    assert second["summary-cut"] == "Ended early by the room's deal count"
    table = settlement_columns(page)
    assert table["head"] == ["Seat", "Deal points", "Match score", "Points"]
    for s in range(4):  # cut short: the deal's points on screen, no 积分
        assert table[str(s)] == [str(points2[s % 2]), f"{points2[s % 2]}/30", "0"]
    summary = deal_server.get(f"/api/rooms/{room}/summary", token(page))
    won = [
        int(points[s % 2] > points[1 - s % 2]) + int(points2[s % 2] > points2[1 - s % 2])
        for s in range(4)
    ]
    assert [line["won"] for line in summary["seats"]] == won
    assert sum(won) == 4
    text = page.inner_text("#match-summary")
    assert "2 deals" in text and "Deals won" in text and "hand" not in text.lower()
    shown = page.eval_on_selector_all(
        "#match-summary tbody tr",
        "rows => rows.map(r => Number(r.querySelector('.won').innerText))",
    )
    assert shown == won
    assert in_viewport(page, "#match-summary h2")
    # and in Chinese on a phone
    page.click("#lang-switch")
    page.set_viewport_size(PHONE)
    page.wait_for_function("document.getElementById('summary-cut')?.innerText.includes('盘')")
    text = page.inner_text("#match-summary")
    assert "共 2 盘" in text and "胜盘" in text
    assert page.inner_text("#summary-cut") == "按房间设定的盘数提前结束"
    assert (
        page.inner_text("#cl-cut-short") == "房间的盘数打完了，整局没打到 30 分：不分胜负，不计积分"
    )
    assert page.inner_text("#session-total") == f"本场累计 {mine:+d}（2 盘）"
    # 战绩: two deals, one 局 decided (the second, cut short, settled nothing): the win rate
    # is of that 局, not of the deals; no raw code; on a phone, on one line
    page.goto(f"{page.base}/#/ledger")
    row = "#rec-stats tr[data-code='ningcheng-danzi']"
    page.wait_for_selector(row)
    won = 1 if mine > 0 else 0
    assert page.inner_text(f"{row} .rec-played") == f"2 盘 · 1 局 · 胜 {won}"
    assert page.inner_text(f"{row} td >> nth=2") == f"{won * 100}%"
    assert "ningcheng-danzi" not in page.inner_text("#record")
    assert page.inner_text(f"{row} td >> nth=0") == "宁城打弹子"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    box_text = page.inner_text("#record .rec-room > summary")
    assert "2 盘" in box_text and "局" not in box_text.replace("2 盘", ""), box_text
    page.click("#lang-switch")
    page.wait_for_function(
        f"document.querySelector(\"{row} .rec-played\")?.innerText.includes('deals')"
    )
    assert page.inner_text(f"{row} .rec-played") == f"2 deals · 1 match · won {won}"
    assert page.inner_text("#record .rec-hands th >> nth=0") == "Deal"
    page.click("#lang-switch")


def test_the_returns_are_picked_under_their_own_words_and_a_deal_is_a_pan(
    page: Any, deal_server: DealServer
) -> None:
    """N48: "在不宣战的情况下，三游优先选择还贡牌": the player, 三游 of the previous deal, is
    asked to pick two of the returned cards (挑两张还贡牌), not the tribute. Once the deal is
    over, the replay's title and the lobby's recent games call it a 盘 (a deal, in English),
    by its number in the room, not by the server's game id."""
    page.base = deal_server.base
    deal_server.choose(
        SEED,
        {**CONTEXT, "previous": {"finish_order": [1, 3, 0, 2], "declarer": None}},
    )
    enter(page, "三游")
    fast_bots(page, delay=0)
    open_room(page, "ningcheng-danzi", seats=4, bots=3, hands=1)
    page.wait_for_selector("#cl-pick", timeout=30_000)
    assert page.inner_text("#cl-pick .cl-note") == "挑两张还贡牌"
    play_by_taps(page)
    game = int(page.wait_for_selector("#settlement").get_attribute("data-game"))
    for language, title, word in (
        ("zh", "回放：宁城打弹子 第 1 盘", "第 1 盘"),
        ("en", "Replay: Ningcheng Danzi, Deal 1", "Deal 1"),
    ):
        page.evaluate(f"localStorage.setItem('paiju.lang', '{language}')")
        page.goto(f"{page.base}/#/replay/{game}")
        page.reload()
        assert page.wait_for_selector(".replay h1").inner_text() == title
        page.goto(f"{page.base}/#/")
        line = page.wait_for_selector(f"#recent a[href='#/replay/{game}']").inner_text()
        assert word in line and f"#{game}" not in line and "局" not in line, line
        assert "Hand" not in line and "hand" not in line, line
    page.evaluate("localStorage.setItem('paiju.lang', 'zh')")
