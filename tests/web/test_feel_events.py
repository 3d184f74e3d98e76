"""The engines' own events through the table's voice and motion (js/feel.js), as a room
hands them over from an update: a 打弹子 bomb, a 麻将 胡 with its fans, a 十三张 打枪 read
off the showdown, a 甲乙丙 seat down to two cards. Each deal is played by bots in this
process from a fixed seed until the moment comes; the page gets the update's events and
view as the socket would bring them, and shows the banner (none under reduced motion) and
says the lines. Nothing waits on a clock."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from web_helpers import DESKTOP, PHONE, WebServer

from paiju.games import game, make_bot

FEEL = """async ([family, events, view]) => {
  const m = await import('/js/feel.js');
  window.__paijuMoments = [];
  const moments = m.momentsOf(family, events, view);
  m.showMoments(moments, (s) => 'S' + s);
  const layer = document.getElementById('feel-layer');
  const shown = layer ? [...layer.querySelectorAll('.feel-moment')].map((e) => ({
    kind: e.dataset.kind, text: e.innerText, animation: getComputedStyle(e).animationName,
    fans: [...e.querySelectorAll('.feel-fans li')].map((li) => li.textContent) })) : [];
  const badges = (view.hand_sizes || []).map((_, i) => {
    const b = m.lastCardsBadge(family, view, i, 'S' + i);
    return b ? b.textContent : null;
  });
  return { moments, shown, lines: m.spokenLines(family, events, view), badges };
}"""


def moment_of(
    code: str, seats: int, want: Callable[[list[dict[str, Any]], Any], bool]
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Bots play seeded deals until an update's events are what ``want`` looks for;
    returns those events and seat 0's view after them, as JSON."""
    g = game(code)
    for seed in range(20):
        state = g.new_state(seats, seed=f"feel-{seed}")
        bots: dict[int, Any] = {}
        while not state.is_over:
            seat = min(state.to_act())
            bot = bots.setdefault(seat, make_bot(g, seed=seat))
            events = [
                e.to_json()
                for e in state.apply(seat, bot.act(state, seat))
                if e.audience() is None or 0 in (e.audience() or ())
            ]
            if want(events, state):
                return events, json.loads(json.dumps(state.view(0)))
    raise AssertionError(f"no such moment in 20 deals of {code}")


def played(kinds: set[str]) -> Callable[[list[dict[str, Any]], Any], bool]:
    return lambda evs, _: any(e["type"] == "played" and e["kind"] not in kinds for e in evs)


PLAIN = {"single", "pair", "dragon", "double_dragon"}


@pytest.mark.parametrize(("size", "motion"), [("phone", "no-preference"), ("desktop", "reduce")])
def test_the_engines_moments_move_and_speak(
    browser: Any, server: WebServer, size: str, motion: str
) -> None:
    context = browser.new_context(
        viewport=PHONE if size == "phone" else DESKTOP, reduced_motion=motion
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(server.base + "/")
        page.wait_for_selector("#app")
        # the module and its style sheet loaded, as they are long before a room's first update
        page.evaluate("import('/js/feel.js')")
        page.wait_for_function("!!document.getElementById('feel-style')?.sheet")
        still = motion == "reduce"

        # 打弹子: a bomb (砟子, 真7 …) or 王炸 (N26: every bomb kind beats every plain play)
        events, view = moment_of("ningcheng-danzi", 4, played(PLAIN))
        got = page.evaluate(FEEL, ["danzi", events, view])
        bomb = next(e for e in events if e["type"] == "played" and e["kind"] not in PLAIN)
        jokers = bomb["kind"].endswith("_jokers")
        assert [m["kind"] for m in got["moments"]] == ["rocket" if jokers else "bomb"]
        assert ("王炸" if jokers else "炸弹") in got["lines"]
        if still:
            assert got["shown"] == []
        else:
            assert [s["kind"] for s in got["shown"]] == ["rocket" if jokers else "bomb"]
            assert got["shown"][0]["animation"] == "feel-boom"
            assert f"S{bomb['seat']}" in got["shown"][0]["text"]

        # 打弹子's first deal declares by itself (N41): no event, the deal's first view shows it
        state = game("ningcheng-danzi").new_state(4, seed="feel-0")
        view = json.loads(json.dumps(state.view(0)))
        got = page.evaluate(
            "async ([view]) => { const m = await import('/js/feel.js');"
            " return m.dealMoments('danzi', view); }",
            [view],
        )
        assert got == [{"kind": "declare", "seat": view["declarer"], "say": "宣战"}]

        # 麻将: 胡 with its fans (R27-R39), 胡了 or 自摸 aloud
        events, view = moment_of(
            "anshan-majiang", 4, lambda evs, _: any(e["type"] == "won" for e in evs)
        )
        won = next(e for e in events if e["type"] == "won")
        got = page.evaluate(FEEL, ["majiang", events, view])
        assert got["moments"][0]["fans"] == won["fans"]
        assert ("自摸" if won["how"] == "zimo" else "胡了") in got["lines"]
        if not still:
            assert len(got["shown"][0]["fans"]) == len(won["fans"])
            assert got["shown"][0]["animation"] == "feel-pop"

        # 十三张: 打枪 read off the showdown the reveal brings
        def shot(evs: list[dict[str, Any]], state: Any) -> bool:
            if not any(e["type"] == "revealed" for e in evs):
                return False
            pairs = (state.view(0).get("showdown") or {}).get("pairs", [])
            return any(p.get("gun") is not None for p in pairs)

        events, view = moment_of("1301", 4, shot)
        got = page.evaluate(FEEL, ["shisanzhang", events, view])
        guns = [p for p in view["showdown"]["pairs"] if p.get("gun") is not None]
        assert [m["kind"] for m in got["moments"] if m["kind"] == "gun"] == ["gun"] * len(guns)
        assert {m.get("say") for m in got["moments"] if m["kind"] == "gun"} == {"打枪"}
        assert (got["shown"] == []) == still

        # 甲乙丙: a seat down to two cards gets 报双 and says so
        def two_left(evs: list[dict[str, Any]], _: Any) -> bool:
            return any(e["type"] == "played" and e["left"] == 2 for e in evs)

        events, view = moment_of("anshan-jiayibing", 6, two_left)
        got = page.evaluate(FEEL, ["jiayibing", events, view])
        seat = next(e["seat"] for e in events if e["type"] == "played" and e["left"] == 2)
        assert got["badges"][seat] == "报双"
        assert "我只剩两张牌了" in got["lines"]
        assert got["moments"] == []
        # and the same view in 三打哈 terms has no badge: only the climbing games race out
        got = page.evaluate(FEEL, ["sandaha", events, view])
        assert got["badges"] == [None] * len(got["badges"])
    finally:
        context.close()
    assert not errors, errors
