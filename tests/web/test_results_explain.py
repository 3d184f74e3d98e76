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
from collections.abc import Callable
from typing import Any

import pytest
from web_helpers import DESKTOP, PHONE, WebServer, enter

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
        first = ["甲乙丙", "ACB"][out["first_team"]]
        done = ["甲乙丙", "ACB"][out["completed"]]
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
