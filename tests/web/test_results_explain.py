"""Results that explain themselves: the end of a climbing deal drawn by the table as the room
lays it out (the felt, then the player's own area under it), at phone and desktop size, in
Chinese and English, from engine states of the cases players asked about:

* 甲乙丙 "此局算和" says why: the first player out was on the side that did not finish first;
* a side that lost is told "你这一方输" in the losing colour, a win in the winning one, and a
  spectator's verdict is not green on the green felt (it is not on the felt at all);
* 放羊 AABB 亮 shows how 4 each was counted (2 × base × 亮 2); after a 2 对 2 不亮 deal every
  seat is tagged 庄方 or 闲方;
* 打弹子: the deal's points for the side that scored, the running score to 30, and a room cut
  short by its hand count says so.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from web_helpers import (
    DESKTOP,
    PHONE,
    WebServer,
    check_against_ledger,
    enter,
    fast_bots,
    open_room,
)

from paiju.engine import State
from paiju.games import game, make_bot

WIN = "rgb(27, 138, 58)"  # --win
LOSS = "rgb(198, 40, 40)"  # --loss

DRAW = """([view, seat, family, names, handOver]) => Promise.all([
  import('/tables/climbing.js'), import('/js/felt.js')]).then(([m, felt]) => {
  document.getElementById('room')?.remove();
  const room = document.createElement('div');
  room.id = 'room';
  room.className = `room family-${family} phase-over`;
  const n = view.hand_sizes.length;
  const ctx = {view, legal: null, seat, local: {}, events: [], handOver,
               variant: {family}, seatName: (i) => names[i], act: () => {}, rerender: () => {}};
  const parts = m.render(ctx);
  const box = document.createElement('div');
  box.id = 'felt';
  box.className = `felt seats-${n}`;
  const center = document.createElement('div');
  center.className = 'felt-center';
  if (parts.center) center.append(parts.center);
  box.append(center);
  for (let s = 0; s < n; s++) {
    const el = document.createElement('div');
    el.className = `seat${s === seat ? ' me' : ''}`;
    el.dataset.seat = s;
    el.setAttribute('style', felt.seatStyle(s, n, seat ?? 0));
    el.dataset.side = felt.seatSide(s, n, seat ?? 0);
    const name = document.createElement('div');
    name.className = 'seat-name';
    name.textContent = names[s];
    el.append(name, m.seatExtra(ctx, s));
    box.append(el);
  }
  room.append(box);
  if (parts.mine) {
    const mine = document.createElement('section');
    mine.className = 'mine';
    mine.id = 'mine';
    mine.append(parts.mine);
    room.append(mine);
  }
  document.querySelector('main').prepend(room);
  return m.verdictText ? m.verdictText(ctx, handOver) : null;
})"""

READ = """() => {
  const text = (sel) => document.querySelector(sel)?.innerText ?? null;
  const out = document.querySelector('#cl-outcome');
  const result = document.querySelector('#cl-result');
  const r = result?.getBoundingClientRect();
  const seats = [...document.querySelectorAll('#felt .seat')].map(e => e.getBoundingClientRect());
  const overlaps = r ? seats.filter(s => s.left < r.right && r.left < s.right && s.top < r.bottom
                                        && r.top < s.bottom).length : -1;
  return {
    outcome: text('#cl-outcome'), outcomeColor: out ? getComputedStyle(out).color : null,
    why: text('#cl-why'), count: text('#cl-count'), pattern: text('#cl-pattern'),
    points: text('#cl-points'), cut: text('#cl-cut-short'), dealOnly: text('#cl-deal-only'),
    inFelt: !!document.querySelector('#felt #cl-result'), overlaps,
    resultWidth: r ? r.width : 0, pageWidth: document.documentElement.clientWidth,
    overflowX: document.documentElement.scrollWidth > document.documentElement.clientWidth,
    tags: [...document.querySelectorAll('#felt .seat')].map(e =>
      e.querySelector('.cl-team')?.innerText ?? null),
  };
}"""


def finish(code: str, seed: int, policy: Callable[[State, int], Any] | None = None) -> State:
    """A deal of ``code`` played to its end by the family bot (``policy`` first, when it
    returns an action)."""
    g = game(code)
    state = g.new_state(g.seat_count(None), seed=f"results-{seed}")
    bot = make_bot(g, seed)
    while not state.is_over:
        seat = sorted(state.to_act())[0]
        action = policy(state, seat) if policy else None
        state.apply(seat, action if action is not None else bot.act(state, seat))
    return state


def find(code: str, wanted: Callable[[State], bool], policy: Any = None) -> State:
    for seed in range(400):
        state = finish(code, seed, policy)
        if wanted(state):
            return state
    raise AssertionError(f"no {code} deal found")


def shown_call(state: State, seat: int) -> Any:
    """放羊's banker always calls 亮 (a card of another hand): the stakes doubled."""
    if state.phase != "calling":
        return None
    calls = [a for a in state.legal_actions(seat) if getattr(a, "shown", False)]
    partners = [a for a in calls if a.card() not in state.hands[seat]]  # type: ignore[attr-defined]
    return random.Random(0).choice(partners or calls)


def names_of(n: int, seat: int | None, lang: str) -> list[str]:
    you = "你" if lang == "zh" else "You"
    bot = "机器人" if lang == "zh" else "Bot"
    return [you if s == seat else f"{bot} {s + 1}" for s in range(n)]


def draw(
    page: Any,
    state: State,
    seat: int | None,
    lang: str,
    size: dict[str, int],
    hand_over: dict[str, Any] | None = None,
) -> dict[str, Any]:
    page.set_viewport_size(size)
    if page.evaluate("localStorage.getItem('paiju.lang') || 'zh'") != lang:
        page.evaluate(f"localStorage.setItem('paiju.lang', '{lang}')")
        page.reload()
        page.wait_for_selector("[data-create='1301']")
    view = json.loads(json.dumps(state.view(seat)))
    family = state.game.family
    n = len(view["hand_sizes"])
    verdict = page.evaluate(DRAW, [view, seat, family, names_of(n, seat, lang), hand_over])
    page.wait_for_timeout(20)
    found: dict[str, Any] = page.evaluate(READ)
    found["verdict"] = verdict
    # the result block lies under the felt, inside the screen's width, covered by no seat
    assert not found["inFelt"] and found["overlaps"] == 0, found
    assert found["resultWidth"] <= found["pageWidth"] and not found["overflowX"], found
    return found


@pytest.fixture
def ready(page: Any, server: WebServer) -> Any:
    enter(page, "结果")
    return page


SIZES = [("phone", PHONE), ("desktop", DESKTOP)]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_jiayibing_draw_says_why_and_a_lost_side_is_told_in_red(ready: Any, lang: str) -> None:
    """J12 (our reading of anshan-shedding): "C ≠ F: the other team completed while a partner
    of the first finisher still held cards. The deal is 和 (a draw)"."""
    drawn = find("anshan-jiayibing", lambda s: s.outcome()["result"] == "draw")
    out = drawn.outcome()
    lost = find(
        "anshan-jiayibing",
        lambda s: s.outcome()["result"] == "win" and s.outcome()["deltas"][0] < 0,
    )
    won = find(
        "anshan-jiayibing",
        lambda s: s.outcome()["result"] == "win" and s.outcome()["deltas"][0] > 0,
    )
    for _, size in SIZES:
        seen = draw(ready, drawn, 0, lang, size)
        assert seen["outcome"] == ("此局算和" if lang == "zh" else "A draw (和)")
        teams = ["甲乙丙", "ACB"] if lang == "zh" else ["Jia-Yi-Bing", "ACB"]
        first = teams[out["first_team"]]
        done = teams[out["completed"]]
        if lang == "zh":
            assert (
                f"是 {first} 一方" in seen["why"] and f"却是 {done} 三人先全部出完" in seen["why"]
            )
            assert "算和" in seen["why"]
        else:
            assert (
                "first out" in seen["why"] and f"all three of {done} went out first" in seen["why"]
            )
        assert seen["outcomeColor"] not in (WIN, LOSS)

        seen = draw(ready, lost, 0, lang, size)
        assert seen["outcomeColor"] == LOSS, seen
        assert ("你这一方输" if lang == "zh" else "your side loses") in seen["outcome"]
        caught = lost.outcome()["caught"]
        each = lost.outcome()["breakdown"]["each"]
        assert f"= {each}" in seen["count"] and str(caught) in seen["why"]

        seen = draw(ready, won, 0, lang, size)
        assert seen["outcomeColor"] == WIN
        assert ("你这一方胜" if lang == "zh" else "your side wins") in seen["outcome"]

        # a spectator: the verdict under the felt, not green on green
        seen = draw(ready, won, None, lang, size)
        assert seen["outcomeColor"] not in (WIN, LOSS)
        assert seen["outcome"].endswith("胜" if lang == "zh" else "win")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_fangyang_liang_aabb_shows_the_count_and_every_seat_its_side(ready: Any, lang: str) -> None:
    """F15 "亮 2v2 AABB: B伙每人输4倍的基础分"; F16: the sides, once the deal is over."""
    aabb = find(
        "anshan-fangyang",
        lambda s: s.shown and s.outcome()["pattern"] == "AABB",  # type: ignore[attr-defined]
        shown_call,
    )
    hidden = find(
        "anshan-fangyang",
        lambda s: not s.shown and s.mode == "2v2" and not s.revealed,  # type: ignore[attr-defined]
    )
    for _, size in SIZES:
        seen = draw(ready, aabb, 0, lang, size)
        assert "AABB" in seen["pattern"]
        if lang == "zh":
            assert "每人输 2 倍基础分 × 亮 2 = 4 分" in seen["count"], seen["count"]
            assert "每人赢 4 分" in seen["count"]
        else:
            assert "each loses 2 × base × 2 (亮) = 4" in seen["count"], seen["count"]
        me = aabb.outcome()["deltas"][0]
        assert seen["outcomeColor"] == (WIN if me > 0 else LOSS)

        viewer = next(s for s in range(4) if s not in (hidden.banker, hidden.partner))  # type: ignore[attr-defined]
        seen = draw(ready, hidden, viewer, lang, size)
        sides = ("庄方", "闲方") if lang == "zh" else ("Banker's side", "Others")
        tags = seen["tags"]
        assert None not in tags, tags
        teams = hidden.view(viewer)["teams"]
        assert [sides[t] for t in teams] == tags, tags


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_danzi_deal_shows_its_points_the_score_to_30_and_a_room_cut_short(
    ready: Any, lang: str
) -> None:
    """N59 "3/2/1 by where the 头游's partner finished" and N61 "一方总分达到30分及以上就可
    结束一局游戏": a deal scores points for a side, the match to 30 decides the 积分."""
    state = finish("ningcheng-danzi", 1)
    result = state.view(0)["result"]
    b = result["breakdown"]
    ours = b["team"] == 0
    for _, size in SIZES:
        seen = draw(ready, state, 0, lang, size, {"room_finished": False})
        if lang == "zh":
            assert seen["outcome"] == f"本盘 {'我方' if ours else '对方'} 得 {b['points']} 分"
            assert f"{b['points']} 分" in seen["why"]
            assert "先到 30 分赢整局" in seen["points"]
            assert "不输不赢" not in (seen["verdict"] or "") and "得" in seen["verdict"]
        else:
            assert (
                seen["outcome"] == f"This deal: {b['points']} points to {'Us' if ours else 'Them'}"
            )
        totals = result["totals"]
        assert f"{totals[0]} : {totals[1]}" in seen["points"]
        assert seen["dealOnly"] and seen["cut"] is None
        cut = draw(ready, state, 0, lang, size, {"room_finished": True})
        assert cut["cut"] and cut["dealOnly"] is None
        assert ("不分胜负" if lang == "zh" else "no winner") in cut["cut"]
        assert cut["verdict"] == (
            "整局没打到 30 分：不计积分"
            if lang == "zh"
            else "Match unfinished (not to 30): no points"
        )


# ---------------------------------------------------------------- hands against bots
# The other families: a hand of one room played to its end by the bots (the player's seat
# goes 托管 after its first timeout), the sentence on screen read against the engine's
# report of the game the server recorded, in Chinese and in English, at phone size.


def autoplay(page: Any) -> None:
    """Rooms this page opens: fast bots, short claim windows, and a seat of one's own that
    the server's bot plays (托管 after one timeout), so the hand plays out by itself."""
    fast_bots(page, 0.01, claim_window=0.3, time_limit=0.2, tuoguan_after=1)


WHY = """() => {
  const box = document.querySelector('#result-why');
  if (!box) return null;
  const r = box.getBoundingClientRect();
  const overflowing = [box, ...box.querySelectorAll('*')].filter(
    (e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'auto');
  return {
    head: box.querySelector('#why-head').innerText,
    lines: [...box.querySelectorAll('li')].map((e) => e.innerText),
    right: r.right, left: r.left, pageWidth: document.documentElement.clientWidth,
    overflowing: overflowing.length,
    wide: overflowing.map((e) => `${e.tagName}.${e.className} ${e.scrollWidth}/${e.clientWidth}`),
    names: Object.fromEntries([...document.querySelectorAll('#settlement tbody tr')].map(
      (e) => [e.dataset.seat, e.querySelector('td').innerText])),
  };
}"""


def reading_text(reading: str, lang: str) -> str:
    """A 宝子 reading as the English screen says it (``7点`` 7 points, ``1点`` 1 point,
    ``对K`` pair of Ks, ``散牌`` high card, 佳佳宝's ``前 A 后 B`` front A, back B)."""
    if lang == "zh":
        return reading
    if groups := re.fullmatch(r"前 (.+) 后 (.+)", reading):
        a, b = (reading_text(g, lang) for g in groups.groups())
        return f"front {a}, back {b}"
    if points := re.fullmatch(r"(\d+)点", reading):
        n = points.group(1)
        return "1 point" if n == "1" else f"{n} points"  # i18n.js: bz.read.points.one
    if reading == "散牌":
        return "high card"
    one = {"王": "joker"}
    if pair := re.fullmatch(r"对(.+)", reading):
        return f"pair of {one.get(pair.group(1), pair.group(1))}s"
    return "+".join(one.get(x, x) for x in reading.split("+"))


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def play_out(page: Any, server: WebServer, code: str) -> tuple[dict[str, Any], Any]:
    """One hand of ``code`` against bots; returns the server's record and the engine's
    final state replayed from it."""
    from paiju.games import read_record, replay

    enter(page, "为什么")
    autoplay(page)
    open_room(page, code, hands=1, time_limit=0)
    record = check_against_ledger(page, server, 0)
    *_, final = replay(read_record(record))
    return record, final


def read_why(page: Any, lang: str) -> dict[str, Any]:
    page.evaluate(f"() => import('/js/i18n.js').then((m) => m.setLang('{lang}'))")
    word = {"zh": "积分", "en": "Points"}[lang]
    page.wait_for_function(
        "(w) => document.querySelector('#settlement')?.innerText.includes(w)"
        " && document.querySelector('#result-why')",
        arg=word,
    )
    found: dict[str, Any] = page.evaluate(WHY)
    assert found, "no #result-why on screen"
    assert found["left"] >= 0 and found["right"] <= found["pageWidth"], found
    # the sentence stays inside its box and the box inside the screen (the felt's own seats
    # are the layout tests' business)
    assert found["overflowing"] == 0, found["wide"]
    return found


def test_shisanzhang_says_who_won_the_most_and_why(page: Any, server: WebServer) -> None:
    """The 十三张 showdown's headline: the seat with the most points, then its pairs row by
    row (打枪, bonuses, 倒水, special hands) and the score times the stake."""
    record, final = play_out(page, server, "1301")
    sd = final.view(0)["showdown"]
    scores = sd["scores"]
    best = max(scores)
    top = scores.index(best)
    stake = record["stake"]
    for lang in ("zh", "en"):
        seen = read_why(page, lang)
        text = "\n".join(seen["lines"])
        if best <= 0:
            assert seen["head"] == (
                "不输不赢：每家 0 分" if lang == "zh" else "Nobody wins or loses: 0 each"
            )
            continue
        name = seen["names"][str(top)]
        assert name in seen["head"] and signed(best) in seen["head"], seen
        assert ("赢得最多" if lang == "zh" else "won the most") in seen["head"]
        pairs = [p for p in sd["pairs"] if top in p["seats"]]
        assert len(seen["lines"]) >= len(pairs)
        for p in pairs:
            side = p["seats"].index(top)
            opp = seen["names"][str(p["seats"][1 - side])]
            assert any(
                opp in line and f"→ {signed(p['scores'][side])}" in line for line in seen["lines"]
            ), (p, seen)
            if p["gun"] is not None:
                assert "打枪" in text
        for s, fouled in enumerate(sd["fouls"]):
            if fouled:
                assert seen["names"][str(s)] in text and "倒水" in text
        for s in sd["homeruns"]:
            assert "全垒打" in text and seen["names"][str(s)] in text
        assert f"× {stake} = {signed(best * stake)}" in text, text


def test_majiang_says_who_won_how_and_with_which_fans(page: Any, server: WebServer) -> None:
    """The 麻将 result: who won, how (自摸, whose 点炮, 抢杠), the fans, each loser's 2^fan;
    a 流局 says the wall ran out and nobody pays."""
    record, final = play_out(page, server, "anshan-majiang")
    result = final.view(0)["result"]
    wins = result["wins"] if result else []
    for lang in ("zh", "en"):
        seen = read_why(page, lang)
        text = "\n".join(seen["lines"])
        if not wins:
            assert record["settlement"] == [0, 0, 0, 0]
            assert ("流局" in seen["head"]) and (
                "谁都不付分" if lang == "zh" else "nobody pays"
            ) in seen["head"]
            continue
        for win in wins:
            name = seen["names"][str(win["seat"])]
            how = {"zimo": "自摸", "dianpao": "点炮", "qianggang": "抢杠"}[win["how"]]
            assert name in seen["head"] and how in seen["head"], seen
            if win["from"] is not None:
                assert seen["names"][str(win["from"])] in seen["head"]
            for pay in win["pay"]:
                assert f"2^{pay['fan']} = {pay['pay']}" in text, text
            assert signed(win["deltas"][win["seat"]]) in text
            assert (f"共 {win['fan']} 番" if lang == "zh" else f"{win['fan']} fan") in text


@pytest.mark.parametrize("code", ["2001", "2101"])
def test_baozi_says_why_each_player_won_or_lost_and_the_bankers_total(
    page: Any, server: WebServer, code: str
) -> None:
    """宝子 / 佳佳宝: each player's readings against the banker's, the verdict and amount,
    the tie rule where the points are the same (佳佳宝: each group), the banker's total."""
    record, final = play_out(page, server, code)
    view = final.view(None)
    banker = view["banker"]
    readings = {s["seat"]: s["reading"] for s in view["seats"]}
    for lang in ("zh", "en"):
        seen = read_why(page, lang)
        total = signed(record["settlement"][banker])
        assert seen["names"][str(banker)] in seen["head"] and total in seen["head"], seen
        for r in view["results"]:
            name = seen["names"][str(r["seat"])]
            line = next(x for x in seen["lines"] if x.startswith(name))
            mine, theirs = (reading_text(readings[x], lang) for x in (r["seat"], banker))
            assert mine in line and theirs in line, line
            # the verdict names who won: the amount it moved has no sign ("庄家赢 7")
            amount = str(abs(r["amount"]))
            assert line.endswith(f" {amount}") or f" {amount} (" in line, line
            assert not re.search(r" -\d", line), line
            if (
                code == "2001"
                and readings[r["seat"]] == readings[banker]
                and r["winner"] != "player"
            ):
                assert ("点数相同" if lang == "zh" else "same points") in line
        if code == "2101":
            assert ("一赢一输算和" if lang == "zh" else "one each is a push") in "\n".join(
                seen["lines"]
            )
        assert total in seen["lines"][-1]


def test_sandaha_says_whether_the_contract_was_made_and_how_it_was_counted(
    page: Any, server: WebServer
) -> None:
    """三打哈: the 庄分 against the defenders' points, the 抠底 bonus with its multiplier,
    the tier and each defender's amount as multiples of the stake."""
    record, final = play_out(page, server, "sandaha")
    view = final.view(None)
    r = view["result"]
    made = r["tier"].startswith("declarer")
    stake = view["stake"]
    defender = next(s for s in range(4) if s != view["declarer"])
    each = r["settlement"][defender]
    for lang in ("zh", "en"):
        seen = read_why(page, lang)
        text = "\n".join(seen["lines"])
        head = seen["head"]
        assert seen["names"][str(view["declarer"])] in head
        assert str(view["bid"]) in head and str(view["defenders_points"]) in head
        if lang == "zh":
            assert ("打成了" if made else "没打成") in head
            assert f"× 底注 {stake}" in text and f"每位闲家 {signed(each)}" in text
        else:
            assert ("made it" if made else "went down") in head
            assert f"× stake {stake}" in text and f"each defender {signed(each)}" in text
        if r["multiplier"]:
            kou = (
                f"{r['kitty_points']} 分 × {r['multiplier']} 倍 = {r['kitty_bonus']}"
                if lang == "zh"
                else f"{r['kitty_points']} × {r['multiplier']} = {r['kitty_bonus']}"
            )
            assert kou in text, text
        assert f"= {abs(each) // stake} ×" in text
        assert record["settlement"] == r["settlement"]
