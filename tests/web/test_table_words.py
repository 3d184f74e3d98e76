"""The tables' words as a player reads them, in Chinese and English: 打弹子's room form with
the game's own options (30/60, the tribute choices, the points), 宣战/不宣战 saying the
stakes, the tribute log in sentences (no "进贡给 贡牌"), the cards one received in the
tribute; the jokers read 大王/小王 (the star clear of 王); no raw codes or bare numbers."""

from __future__ import annotations

import json
import re
from typing import Any

from test_climbing_table import FELT, danzi_states, draw
from web_helpers import DESKTOP, PHONE, WebServer, enter, fast_bots, token


def set_language(page: Any, to: str) -> None:
    page.evaluate(f"() => import('/js/i18n.js').then((m) => m.setLang('{to}'))")


def test_danzi_room_form_offers_the_games_options(page: Any, server: WebServer) -> None:
    """The lobby's form for 宁城打弹子 has the reading's room options (§14): the match to
    30 or 60, how the tribute is picked, tribute between partners, who leads, the points;
    a room opened to 60 with 只能挑同一家的两张 plays to 60 (the felt's score says so)."""
    enter(page, "Danzi options")
    fast_bots(page, 0.3)
    for size, language in ((PHONE, "en"), (DESKTOP, "zh")):
        page.set_viewport_size(size)
        set_language(page, language)
        page.goto(f"{page.base}/#/")
        page.click("[data-create='ningcheng-danzi']")
        form = page.wait_for_selector("#create-room")
        text = form.inner_text()
        if language == "zh":
            for label in ("一局打到", "挑贡牌", "同一伙之间也进贡", "宣战成功得分倍数"):
                assert label in text, label
        else:
            for label in ("A match is played to", "Picking the tribute", "partners"):
                assert label in text, label
        choices = page.eval_on_selector_all(
            "#create-room select[name='g.target'] option", "os => os.map(o => o.value)"
        )
        assert choices == ["30", "60"]
    set_language(page, "zh")
    page.set_viewport_size(PHONE)
    page.goto(f"{page.base}/#/")
    page.click("[data-create='ningcheng-danzi']")
    page.select_option("#create-room select[name='g.target']", "60")
    page.select_option("#create-room select[name='g.tribute_pick']", "lots")
    page.fill("#create-room input[name='g.declare_fail_points']", "4")
    page.fill("#create-room input[name=bots]", "3")
    page.fill("#create-room input[name=time_limit]", "0")
    page.click("#create-submit")
    page.wait_for_url(re.compile(r"#/room/\d+$"))
    score = page.wait_for_selector("#cl-score", timeout=30_000)
    assert "打到 60" in score.inner_text()
    room = int(page.url.rsplit("/", 1)[1])
    info = server.get(f"/api/rooms/{room}", token(page))
    options = info.get("game_options") or {}
    if options:  # the room's info carries them where the server lists them
        assert options["target"] == 60 and options["tribute_pick"] == "lots"
        assert options["declare_fail_points"] == 4


def test_declaring_says_the_stakes(page: Any, server: WebServer) -> None:
    """宣战 offered: the note and both buttons say what is at stake, in both languages.

    rule (002): "宣战成功：宣战的玩家必须走第一成为头游 … 宣战失败：… 宣战方自动成为末游" """
    state = next(s for s in danzi_states() if s.phase == "declaring")
    seat = min(state.to_act())
    for language, words in (("zh", ("×2", "3 分", "末游")), ("en", ("×2", "3", "last out"))):
        page.goto(page.base + "/")
        page.wait_for_selector("main")
        set_language(page, language)
        drawn = draw(page, state, seat)
        labels = [text for _, text in drawn["actions"]]
        assert len(labels) == 2, labels
        assert "×2" in labels[0] and "3" in labels[0], labels
        assert "3/2/1" in labels[1], labels
        for word in words:
            assert word in drawn["text"], (language, word)
    set_language(page, "zh")


def test_the_tribute_is_told_in_sentences_with_the_cards_received(
    page: Any, server: WebServer
) -> None:
    """The 2/2 tribute's log ("机器人 2 亮出贡牌", not "进贡给 贡牌"), and in one's own area the
    cards one received: picked from the pool, left by the 头游's pick, returned."""
    state = next(s for s in danzi_states() if s.phase == "picking_returns")
    log = state.view(None)["tribute"]["log"]
    page.goto(page.base + "/")
    page.wait_for_selector("main")
    for language in ("zh", "en"):
        set_language(page, language)
        for seat in range(4):
            drawn = draw(page, state, seat)
            assert "给 贡牌" not in drawn["text"] and "to Tribute" not in drawn["text"]
            got = page.eval_on_selector_all(
                "#probe .cl-received-line",
                "els => els.map(e => [e.dataset.type, e.dataset.cards, e.textContent])",
            )
            view_log = state.view(seat)["tribute"]["log"]
            expected = []
            for e in view_log:
                if e["type"] == "picked" and e["seat"] == seat:
                    expected.append(("got_picked", e["cards"]))
                if e["type"] == "picked" and e.get("rest_to") == seat:
                    expected.append(("got_rest", e["rest"]))
            assert [(k, c) for k, c, _ in got] == expected, (seat, got, log)
            for _, _, text in got:
                assert ("你" in text or "贡牌" in text) if language == "zh" else "ou" in text
    set_language(page, "zh")


JOKERS = """() => [...document.querySelectorAll('#felt .card.joker')].map((c) => {
  const corner = c.querySelector('.corner').getBoundingClientRect();
  const star = c.querySelector('.joker-star');
  const s = star.getBoundingClientRect();
  const shown = getComputedStyle(star).display !== 'none' && s.width > 0;
  const apart = !shown || s.top >= corner.bottom - 0.5 || s.left >= corner.right - 0.5;
  return {card: c.dataset.card, label: c.getAttribute('aria-label'),
          corner: c.querySelector('.corner').innerText.replace(/\\s+/g, ''), apart};
})"""


def test_jokers_read_big_and_small_wang(page: Any, server: WebServer) -> None:
    """Jokers on the felt (the play to beat, a seat's play) at both sizes: the corner reads
    大王 / 小王 and the star is drawn clear of the 王 (no 玉)."""
    state = next(s for s in danzi_states() if s.phase == "playing" and s.view(0)["table"])
    view = json.loads(json.dumps(state.view(0)))
    view["table"] = {**view["table"], "cards": "RJ RJ BJ", "kind_zh": "三王", "rank": "RJ"}
    view["trick"] = [{"seat": 1, "cards": "RJ BJ"}, {"seat": 2, "pass": True}]
    page.goto(page.base + "/")
    page.wait_for_selector("main")
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        page.evaluate(FELT, [view, 0, "danzi", ["你", "机器人 2", "机器人 3", "机器人 4"]])
        jokers = page.evaluate(JOKERS)
        assert len(jokers) == 5, jokers
        for j in jokers:
            assert j["corner"] == ("大王" if j["card"] == "RJ" else "小王"), j
            assert j["apart"], (size, j)
    page.set_viewport_size(PHONE)


MJ_DRAW = """([steps, seat]) => import('/tables/majiang.js').then((m) => {
  document.getElementById('probe')?.remove();
  const box = document.createElement('div');
  box.id = 'probe';
  box.className = 'room family-majiang';
  document.querySelector('main').prepend(box);
  const local = {};
  const seen = [];
  for (const [view, legal, events, click] of steps) {
    const ctx = {view, legal, seat, local, events, handOver: null, game: 1,
                 variant: {family: 'majiang'}, seatName: (i) => `机器人 ${i + 1}`,
                 act: () => {}, rerender: () => {}, info: null};
    const parts = m.render(ctx);
    box.replaceChildren(...[parts.center, parts.mine].filter(Boolean));
    if (click) box.querySelector(click)?.click();
    seen.push({sent: box.querySelector('#mj-sent')?.textContent ?? null,
               lost: box.querySelector('#mj-lost')?.textContent ?? null,
               chi: box.querySelectorAll('.mj-chi').length});
  }
  return seen;
})"""


def claim_race() -> tuple[Any, int, int]:
    """A 麻将 claim window (state before it, the seat that may 吃, the seat that may 碰)."""
    import random

    from paiju.games import game

    g = game("anshan-majiang")
    for i in range(400):
        state = g.new_state(4, seed=f"race-{i}")
        rng = random.Random(i)
        for _ in range(300):
            if state.is_over:
                break
            if state.phase == "claim":
                acting = sorted(state.to_act())
                kinds = {s: {a.to_json()["type"] for a in state.legal_actions(s)} for s in acting}
                chi = [s for s in acting if "chi" in kinds[s]]
                peng = [s for s in acting if "peng" in kinds[s] and s not in chi]
                if chi and peng:
                    return state, chi[0], peng[0]
            seat = min(state.to_act())
            acts = state.legal_actions(seat)
            passes = [a for a in acts if a.to_json()["type"] == "pass"]
            state.apply(seat, passes[0] if passes else rng.choice(acts))
    raise AssertionError("no 吃 / 碰 race in 400 deals")


def test_a_chow_taken_by_a_pung_is_said_and_no_stale_choice_shows(
    page: Any, server: WebServer
) -> None:
    """The player may 吃 the discard, another seat 碰s it (碰 comes before 吃): the 吃 buttons
    go and the bar says who took the tile and why, in both languages. Once another seat's
    discard is up, "你选了…" of the earlier window is not shown.

    rule (麻将 reading): priority 胡 > 杠 = 碰 > 吃."""
    state, me, rival = claim_race()
    legal = [a.to_json() for a in state.legal_actions(me)]
    before = json.loads(json.dumps(state.view(me)))
    chi = next(a for a in state.legal_actions(me) if a.to_json()["type"] == "chi")
    state.apply(me, chi)
    decided = json.loads(json.dumps(state.view(me)))
    peng = next(a for a in state.legal_actions(rival) if a.to_json()["type"] == "peng")
    events = [e.to_json() for e in state.apply(rival, peng)]
    while state.phase == "claim":  # the others pass
        seat = min(state.to_act())
        passes = [a for a in state.legal_actions(seat) if a.to_json()["type"] == "pass"]
        events += [e.to_json() for e in state.apply(seat, passes[0])]
    after = json.loads(json.dumps(state.view(me)))
    # the 碰 seat discards: another window, on another seat's tile (the player may have
    # nothing to claim in it)
    rival_discards = [a for a in state.legal_actions(rival) if a.to_json()["type"] == "discard"]
    state.apply(rival, rival_discards[0])
    later = json.loads(json.dumps(state.view(me)))
    assert any(e["type"] == "melded" and e["seat"] == rival for e in events), events
    page.goto(page.base + "/")
    page.wait_for_selector("main")
    for language, words in (("zh", ("碰", "吃")), ("en", ("Pung", "Chow"))):
        set_language(page, language)
        steps = [
            [before, legal, [], ".mj-chi"],
            [decided, None, [], None],
            [after, None, events, None],
            [later, None, [], None],
        ]
        seen = page.evaluate(MJ_DRAW, [steps, me])
        assert seen[0]["chi"] >= 1 and seen[0]["lost"] is None
        assert seen[1]["sent"] is not None  # the choice made in this window, while others decide
        assert seen[2]["chi"] == 0 and seen[2]["sent"] is None
        lost = seen[2]["lost"]
        assert lost is not None and f"机器人 {rival + 1}" in lost, seen
        for word in words:
            assert word in lost, (language, lost)
        assert seen[3]["sent"] is None, seen  # no stale "你选了吃" under another discard
    set_language(page, "zh")


def test_no_raw_codes_or_bare_numbers_in_the_chinese_ui(page: Any, server: WebServer) -> None:
    """A named game's title is its name (鞍山甲乙丙, not "anshan-jiayibing 鞍山甲乙丙"); "4 人",
    not "4-4人"; "108 张"; the rule text's **KA2** in bold, no asterisks; the recent games
    with each seat's name (a bot's 机器人 N) and one's own result; the long hash one tap
    away under the table; the 积分 tables' headers on one line on a phone. Both languages,
    both sizes."""
    enter(page, "Raw text")
    fast_bots(page, 0.02)
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        page.goto(f"{page.base}/#/rules/ningcheng-danzi")
        title = page.wait_for_selector("h1").inner_text()
        assert "ningcheng-danzi" not in title and "宁城打弹子" in title
        meta = page.inner_text(".rules p.muted")
        assert "4 人" in meta and "4-4" not in meta and "108 张" in meta, meta
        text = page.inner_text("#rules-zh")
        assert "**" not in text and "KA2" in text
        assert page.eval_on_selector_all("#rules-zh b", "bs => bs.map(b => b.textContent)")[:1] == [
            "KA2"
        ]
        set_language(page, "en")
        page.reload()
        meta = page.wait_for_selector(".rules p.muted").inner_text()
        assert "4 players" in meta and "108 cards" in meta, meta
        set_language(page, "zh")
    page.set_viewport_size(PHONE)
    page.goto(f"{page.base}/#/")
    page.click("[data-create='1301']")
    page.fill("#create-room input[name=bots]", "3")
    page.fill("#create-room input[name=time_limit]", "1")
    page.fill("#create-room input[name=hands]", "1")
    page.select_option("#create-room select[name=tuoguan]", "off")
    page.click("#create-submit")
    page.wait_for_url(re.compile(r"#/room/\d+$"))
    head = page.wait_for_selector(".room-title").inner_text()
    assert head.startswith("1301 "), head  # a numbered code keeps its number
    details = page.wait_for_selector("#commitment")
    assert details.evaluate("d => d.tagName") == "DETAILS"
    assert not details.evaluate("d => d.open")
    assert len(details.inner_text()) < 30  # the hash is not spelled out until tapped
    page.click("#commitment summary")
    assert details.get_attribute("data-commitment") in details.inner_text()
    game = page.wait_for_selector("#settlement", timeout=60_000).get_attribute("data-game")
    for size, language, seat_word, mine_word in (
        (PHONE, "zh", "Raw text", "你"),
        (DESKTOP, "en", "Raw text", "you"),
    ):
        page.set_viewport_size(size)
        set_language(page, language)
        page.goto(f"{page.base}/#/")
        line = page.wait_for_selector(f"#recent li:has(a[href='#/replay/{game}'])").inner_text()
        assert page.inner_text("#recent li") == line  # one's own hand comes first
        assert seat_word in line and mine_word in line, line
        # the seats by the names the table showed: a bot by its seat, never "1号位"
        bot = "机器人 2" if language == "zh" else "Bot 2"
        assert bot in line and "号位" not in line and "Seat " not in line, line
        assert f"#{game}" not in line, line
        assert not re.search(r"\d+ / -?\d+", line), line
    set_language(page, "zh")
    page.set_viewport_size(PHONE)
    page.goto(f"{page.base}/#/ledger")
    page.wait_for_selector("table th")
    wraps = page.eval_on_selector_all(
        "table th",
        """ths => ths.filter(th => th.textContent.trim().length > 1).map(th => {
             const line = parseFloat(getComputedStyle(th).lineHeight) || 20;
             return [th.textContent.trim(), th.getBoundingClientRect().height > 1.8 * line];
           }).filter(([, tall]) => tall)""",
    )
    assert wraps == [], wraps


def test_the_clients_hand_words_are_the_engines() -> None:
    """The lobby and the replay, which have no room to ask, call a hand by the family's
    word as the engine does (``Game.hand_words``: 打弹子's 盘, 局 elsewhere), and the room
    form names the engine's whole match (``match_option``, ``match_default``)."""
    from pathlib import Path

    from paiju.games import FAMILIES, resolve

    source = (Path(__file__).parents[2] / "src/paiju/web/js/i18n.js").read_text("utf-8")
    found = re.search(r"export const HAND_WORDS = (\{.*?\});", source)
    assert found, "HAND_WORDS is missing from i18n.js"
    client = json.loads(re.sub(r"(\w+):", r'"\1":', found.group(1)))
    found = re.search(r"export const MATCHES = (\{.*?\});", source)
    assert found, "MATCHES is missing from i18n.js"
    matches = json.loads(re.sub(r"(\w+):", r'"\1":', found.group(1)))
    for name, family in FAMILIES.items():
        if family.game is None:
            continue
        cls = resolve(family.game)
        assert client.get(name, ["局", "hand"]) == list(cls.hand_words), name
        default = cls.match_default if cls.match_option else None
        assert matches.get(name, ["hands", 8]) == [cls.match_option, default], name
