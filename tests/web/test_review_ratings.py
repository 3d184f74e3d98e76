"""复盘 and ratings as a player uses them, at 390x844 and 1280x800, in Chinese and English.

A person plays a 十三张 (1301) hand against two bots, arranging the rows by taps, with the
middle and back rows swapped: a back row weaker than the middle is 倒水, a foul (rule 000:
"头和头比，中和中比，尾和尾比"; 1303's order of hands ends "…>5单张>倒水"). Its
replay offers 复盘: the AI's review of the player's own seat, the marked mistakes first
(the costliest first), each a sentence with the cards drawn as the replay's log draws
them; a tap on a line steps the replay to that move, and a summary line says the share
of decisions that matched the AI and the points lost. A full review queue says when to
come back. The finished room counts for the ratings (a room with bots counts: the bots
carry fixed ratings): the game's leaderboard, reached from its rule page, lists the
player with the rooms behind the rating, the 积分 page lists the player's own ratings, and
another person looking at a waiting room before sitting down sees each seated player's
rating for that game and the bot's fixed rating by its level. The 积分 page also shows the
player's own 复盘 summary over their last hands, and says which hands are still pending.
"""

from __future__ import annotations

import json
import math
import re
import time
from typing import Any

import httpx
import pytest
from test_shisanzhang_table import ROWS, hand_on_screen, place, rows_for
from web_helpers import (
    ARTIFACTS,
    DESKTOP,
    PHONE,
    WebServer,
    enter,
    fast_bots,
    no_overflow,
    open_room,
    token,
)

from paiju.cards import parse_cards
from paiju.catalog import find_variant
from paiju.games.shisanzhang.rows import is_foul
from paiju.games.shisanzhang.spec import params_of

PLAYER = "Lin"
CJK = re.compile(r"[\u3400-\u9fff]")
SIZES = {"phone": PHONE, "desktop": DESKTOP}


def _english_only(text: str) -> None:
    """No Chinese on an English screen, outside the names (the player's is Latin)."""
    assert not CJK.search(text), text


def _player_page(context: Any, server: WebServer, lang: str, errors: list[str]) -> Any:
    """A page of the played player's browser, in language ``lang``, its errors kept."""
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server.base}/")
    page.evaluate(f"localStorage.setItem('paiju.lang', '{lang}')")
    return page


@pytest.fixture(scope="module")
def played(browser: Any, server: WebServer) -> dict[str, Any]:
    """A person's finished 1301 room of one hand against two bots, played by taps."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.base = server.base
    enter(page, PLAYER)
    fast_bots(page, delay=0)
    room = open_room(page, "1301", seats=3, bots=2, seat=0, hands=1)
    hand = hand_on_screen(page)
    # the middle and back rows swapped: 倒水 (a foul), a mistake the review must mark
    front, middle, back = rows_for(hand)
    rules = params_of(find_variant("1301")).row_rules()
    assert is_foul(*(parse_cards(" ".join(x)) for x in (front, back, middle)), rules)
    for row, cards in zip(ROWS, (front, back, middle), strict=True):
        place(page, row, cards)
    page.wait_for_selector("[data-source='server']")
    page.click("#ssz-submit")
    page.click("#foul-confirm-yes")  # the table asks before a fouled hand is sent
    page.wait_for_selector("#settlement", timeout=60_000)
    games: list[dict[str, Any]] = []
    for _ in range(200):
        games = server.get(f"/api/games?room={room}")
        if games:
            break
        time.sleep(0.3)
    assert games, f"room {room} has no finished hand"
    tok = token(page)
    me = server.get("/api/players/me", tok)
    storage = context.storage_state()
    context.close()
    return {"game": games[-1]["id"], "room": room, "token": tok, "me": me, "storage": storage}


@pytest.mark.parametrize(("size", "lang"), [("phone", "zh"), ("desktop", "en")])
def test_review_lists_mistakes_first_and_a_tap_steps_the_replay(
    browser: Any, server: WebServer, played: dict[str, Any], size: str, lang: str
) -> None:
    context = browser.new_context(viewport=SIZES[size], storage_state=played["storage"])
    errors: list[str] = []
    try:
        page = _player_page(context, server, lang, errors)
        game = played["game"]
        page.goto(f"{server.base}/#/replay/{game}")
        page.wait_for_selector("#action-log li")
        record = httpx.get(f"{server.base}/api/games/{game}", timeout=10).json()
        n = len(record["actions"])
        page.click("#review-open")
        page.wait_for_selector("#review-summary", timeout=180_000)
        answer = server.get(f"/api/games/{game}/review?seat=0")  # kept once made
        decisions = {d["index"]: d for d in answer["decisions"]}
        assert answer["reviewed"] >= 1, answer
        assert answer["mistakes"], answer  # the fouled arrangement
        # the marked mistakes first, the costliest first, then the other decisions
        shown = page.eval_on_selector_all(
            "#review .rv-line",
            "els => els.map(e => [Number(e.dataset.index), e.dataset.mistake, e.innerText])",
        )
        assert [i for i, _, _ in shown] == answer["mistakes"] + [
            i for i in sorted(decisions) if i not in answer["mistakes"]
        ]
        losses = [decisions[i]["loss"] for i in answer["mistakes"]]
        assert losses == sorted(losses, reverse=True)
        step_word = "第 {} 步：" if lang == "zh" else "Move {}: "
        you = "你" if lang == "zh" else "You"
        for index, mistake, text in shown:
            d = decisions[index]
            assert mistake == ("1" if d["mistake"] else "0")
            assert (
                text.replace("失误", "")
                .replace("Mistake", "")
                .strip()
                .startswith(step_word.format(index + 1))
            ), text
            assert you in text
            if d.get("method") == "field":  # the arrangement, settled against the field
                worlds = d["worlds"]
                said = (
                    f"与其他玩家的 {worlds} 副随机牌" if lang == "zh" else f"against {worlds} deals"
                )
                assert said in text, text
            if d["loss"] > 0 and not d["matched"]:
                # one decimal, a half away from zero: the same double arithmetic as the page
                tenths = math.floor(abs(d["loss"]) * 10 + 0.5)
                x = f"−{tenths / 10:.1f}" if tenths else "0"
                assert (f"约 {x} 分" if lang == "zh" else f"about {x} points") in text, text
        # the cards drawn as the replay's log draws them (the arrangement's 13 cards)
        assert page.locator("#review .rv-line .card").count() >= 13 * len(shown)
        summary = page.inner_text("#review-summary")
        m, r = answer["matched"], answer["reviewed"]
        assert f"{m}/{r}" in summary
        assert f"{round(100 * m / r)}%" in summary
        # a tap on a line steps the replay to that move
        page.click("#review .rv-line >> nth=0")
        index = shown[0][0]
        counter = page.inner_text("#replay-step")
        assert str(index + 1) in counter and str(n) in counter, counter
        done = page.locator("#action-log li.done").count()
        assert done == index + 1
        no_overflow(page)
        if lang == "en":
            _english_only(page.inner_text("#review"))
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.locator("#review").screenshot(path=str(ARTIFACTS / f"review-{size}-{lang}.png"))
        assert not errors, errors
    finally:
        context.close()


def test_a_full_review_queue_says_when_to_come_back(
    browser: Any, server: WebServer, played: dict[str, Any]
) -> None:
    """The server's 503 ``server_busy`` (or 429) with Retry-After, answered for this page."""
    context = browser.new_context(viewport=PHONE, storage_state=played["storage"])
    try:
        page = context.new_page()
        page.goto(f"{server.base}/")
        page.evaluate("localStorage.setItem('paiju.lang', 'en')")
        page.route(
            "**/review?seat=*",
            lambda route: route.fulfill(
                status=503,
                headers={"Retry-After": "7", "Content-Type": "application/json"},
                body='{"error": {"code": "server_busy", "message": "busy"}}',
            ),
        )
        page.goto(f"{server.base}/#/replay/{played['game']}")
        page.click("#review-open")
        said = page.wait_for_selector("#review-error").inner_text()
        assert said == "The review queue is full, come back in 7 s"
        assert page.is_enabled("#review-open")  # one may ask again
    finally:
        context.close()


@pytest.mark.parametrize(("size", "lang"), [("desktop", "zh"), ("phone", "en")])
def test_leaderboard_and_my_ratings_show_the_finished_room(
    browser: Any, server: WebServer, played: dict[str, Any], size: str, lang: str
) -> None:
    context = browser.new_context(viewport=SIZES[size], storage_state=played["storage"])
    errors: list[str] = []
    try:
        page = _player_page(context, server, lang, errors)
        page.goto(f"{server.base}/#/rules/1301")
        page.click("#rules-leaderboard")
        page.wait_for_selector("#leaderboard")
        me = played["me"]["id"]
        row = page.wait_for_selector(f"#leaderboard tr.me[data-player='{me}']")
        board = server.get("/api/ratings/1301", played["token"])["players"]
        mine = next(p for p in board if p["player"] == me)
        assert mine["rooms"] >= 1
        cells = [c.inner_text() for c in row.query_selector_all("td")]
        assert cells == [str(mine["rank"]), PLAYER, f"{mine['rating']:.1f}", str(mine["rooms"])]
        title = page.inner_text("#leaderboard h1")
        assert title.startswith("排行榜" if lang == "zh" else "Leaderboard")
        no_overflow(page)
        if lang == "en":  # (the server is shared: other tests' players may have Chinese names)
            text = page.inner_text("#leaderboard")
            for other in board:
                text = text.replace(other["name"], "")
            _english_only(text)
        # the player's own ratings on the 积分 page, with the way back to the leaderboard
        page.click("#nav-ledger")
        own = page.wait_for_selector("#my-ratings tr[data-code='1301']")
        assert own.get_attribute("data-rooms") == str(mine["rooms"])
        assert f"{mine['rating']:.1f}" in own.inner_text()
        no_overflow(page)
        if lang == "en":
            _english_only(page.inner_text("#my-ratings"))
        own.query_selector(".ra-link").click()
        page.wait_for_selector(f"#leaderboard tr.me[data-player='{me}']")
        assert not errors, errors
    finally:
        context.close()


@pytest.mark.parametrize(("size", "lang"), [("phone", "zh"), ("desktop", "en")])
def test_a_waiting_room_shows_the_seated_players_ratings(
    browser: Any, server: WebServer, played: dict[str, Any], size: str, lang: str
) -> None:
    """Another person, before sitting down, sees the player's 1301 rating and the bot's."""
    board = server.get("/api/ratings/1301", played["token"])["players"]  # counts the room
    mine = next(p for p in board if p["player"] == played["me"]["id"])
    owner = browser.new_context(viewport=PHONE, storage_state=played["storage"])
    other = browser.new_context(viewport=SIZES[size])
    try:
        page = owner.new_page()
        page.set_default_timeout(30_000)
        page.goto(f"{server.base}/")
        page.wait_for_selector("[data-create='1301']")
        # the lobby's form: 3 seats, one bot at the 困难 level, the others wait for people
        page.click("[data-create='1301']")
        page.fill("#create-room input[name=seats]", "3")
        page.fill("#create-room input[name=bots]", "1")
        page.fill("#create-room input[name=fill_after]", "")
        page.select_option("#create-room select[name=level]", "hard")
        page.click("#create-submit")
        page.wait_for_url(re.compile(r"#/room/\d+$"))
        room = int(page.url.rsplit("/", 1)[1])
        guest = other.new_page()
        guest.set_default_timeout(30_000)
        guest.base = server.base
        guest.goto(f"{server.base}/")
        guest.evaluate(f"localStorage.setItem('paiju.lang', '{lang}')")
        enter(guest, "Guest")
        guest.goto(f"{server.base}/#/room/{room}")
        guest.wait_for_selector("#waiting .seat-list")
        info = server.get(f"/api/rooms/{room}", played["token"])
        human = info["seat_players"].index(played["me"]["id"])
        bot = info["players"].index("bot")
        level = info["options"]["level"]
        assert level == "hard"
        bots = server.get("/api/ratings/bots")
        mark = guest.wait_for_selector(
            f"#waiting li[data-seat='{human}'] .ra-seat:not([data-rating=''])"
        )
        assert float(mark.get_attribute("data-rating")) == mine["rating"]
        rooms = f"{mine['rooms']} 个房间" if lang == "zh" else f"{mine['rooms']} room"
        assert rooms in mark.inner_text()
        bot_mark = guest.wait_for_selector(
            f"#waiting li[data-seat='{bot}'] .ra-seat:not([data-rating=''])"
        )
        assert float(bot_mark.get_attribute("data-rating")) == bots[level]["rating"]
        assert f"{bots[level]['rating']:.1f}" in bot_mark.inner_text()
        no_overflow(guest)
        if lang == "en":
            text = guest.inner_text("#waiting .seat-list")
            _english_only(text)
    finally:
        other.close()
        owner.close()


def test_a_club_leaderboard_lists_its_members_only(
    browser: Any, server: WebServer, played: dict[str, Any]
) -> None:
    """The leaderboard's club buttons (the clubs one belongs to) narrow it to the members:
    the player, a member, is listed; a rated player outside the club is not."""
    # another rated player, outside the club: a finished 1301 room of one hand with bots
    outsider = httpx.post(f"{server.base}/api/players", json={"name": "Outsider"}, timeout=10)
    out_token = outsider.json()["token"]
    options = {"seats": 3, "bots": 2, "time_limit": 0.5, "hands": 1, "bot_delay": 0}
    body = {"code": "1301", "seat": 0, "options": options}
    made = httpx.post(
        f"{server.base}/api/rooms",
        json=body,
        headers={"Authorization": f"Bearer {out_token}"},
        timeout=10,
    )
    assert made.status_code == 201, made.text
    out_id = server.get("/api/players/me", out_token)["id"]
    for _ in range(300):
        board = server.get("/api/ratings/1301", out_token)["players"]
        if any(p["player"] == out_id for p in board):
            break
        time.sleep(0.5)
    else:
        raise AssertionError("the outsider's room was not counted")
    club = httpx.post(
        f"{server.base}/api/clubs",
        json={"name": "Tuesday club"},
        headers={"Authorization": f"Bearer {played['token']}"},
        timeout=10,
    )
    assert club.status_code == 201, club.text
    club_id = club.json()["id"]
    context = browser.new_context(viewport=PHONE, storage_state=played["storage"])
    try:
        page = context.new_page()
        page.set_default_timeout(30_000)
        page.goto(f"{server.base}/")
        page.evaluate("localStorage.setItem('paiju.lang', 'en')")
        page.goto(f"{server.base}/#/ratings/1301")
        page.wait_for_selector(f"#leaderboard tr[data-player='{out_id}']")
        page.click(f"#leaderboard-clubs [data-club='{club_id}']")
        page.wait_for_selector(f"#leaderboard[data-club='{club_id}']")
        listed = page.eval_on_selector_all(
            "#leaderboard tbody tr", "els => els.map(e => Number(e.dataset.player))"
        )
        assert listed == [played["me"]["id"]]
        title = page.inner_text("#leaderboard h1")
        assert title.startswith("Leaderboard · ") and title.endswith(" · Tuesday club"), title
        no_overflow(page)
    finally:
        context.close()


@pytest.mark.parametrize(("size", "lang"), [("phone", "zh"), ("desktop", "en")])
def test_my_review_summary_on_the_ledger_page(
    browser: Any, server: WebServer, played: dict[str, Any], size: str, lang: str
) -> None:
    """The 积分 page shows the player's own 复盘 summary over their last hands: per game the
    share of decisions that matched the AI, the points lost per hand to the marked
    mistakes (the fouled arrangement), and the hands reviewed of those played."""
    game, tok, me = played["game"], played["token"], played["me"]["id"]
    made = httpx.get(
        f"{server.base}/api/games/{game}/review?seat=0",
        headers={"Authorization": f"Bearer {tok}"},
        timeout=300,
    )  # the hand's review, made (or read) before the page asks
    assert made.status_code == 200, made.text
    summary = server.get(f"/api/players/{me}/review-summary?n=20", tok)
    assert summary["pending"] == 0, summary
    figures = summary["games"]["1301"]
    assert figures["mistake_loss_per_hand"] > 0, figures  # 倒水 is a marked mistake
    context = browser.new_context(viewport=SIZES[size], storage_state=played["storage"])
    errors: list[str] = []
    try:
        page = _player_page(context, server, lang, errors)
        page.goto(f"{server.base}/#/")
        page.click("#nav-ledger")
        row = page.wait_for_selector("#my-review tr[data-code='1301']")
        assert page.inner_text("#my-review h2") == ("我的复盘" if lang == "zh" else "My reviews")
        heads = page.eval_on_selector_all("#my-review th", "els => els.map(e => e.innerText)")
        if lang == "zh":
            assert heads == ["游戏", "一致率", "失误损失/手", "已复盘"], heads
        else:
            assert heads[1:] == ["Same as AI", "Lost/hand", "Reviewed"], heads
        cells = [c.inner_text() for c in row.query_selector_all("td")]
        assert cells[1] == f"{round(100 * figures['matched_share'])}%", cells
        # one decimal, a half away from zero, as the page rounds
        shown = math.floor(abs(figures["mistake_loss_per_hand"]) * 10 + 0.5) / 10
        assert cells[2] == f"−{shown:.1f}", cells
        assert cells[3] == f"{figures['reviewed_hands']}/{figures['hands']}", cells
        assert page.locator("#my-review-pending").count() == 0
        # the whole section in view across the screen, nothing past its right edge
        box = page.locator("#my-review").bounding_box()
        assert box is not None and box["x"] >= 0
        assert box["x"] + box["width"] <= SIZES[size]["width"]
        row.scroll_into_view_if_needed()
        assert row.is_visible()
        no_overflow(page)
        # fewer hands asked: the same one hand is the last of them
        page.select_option("#my-review-n", "10")
        page.wait_for_selector("#my-review tr[data-code='1301']")
        assert page.get_attribute("#my-review", "data-hands") == "1"
        if lang == "en":
            _english_only(page.inner_text("#my-review"))
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.locator("#my-review").screenshot(path=str(ARTIFACTS / f"my-review-{size}-{lang}.png"))
        assert not errors, errors
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_my_review_summary_says_what_is_pending(
    browser: Any, server: WebServer, played: dict[str, Any], lang: str
) -> None:
    """Hands without a review yet are pending (the server starts them): the page says how
    many, and its button asks again, then shows them counted; with more than one game a
    last row gives the figures over all of them."""
    answers = [
        {"hands": 3, "pending": 2, "reviewed_hands": 1, "matched_share": 0.5},
        {"hands": 3, "pending": 0, "reviewed_hands": 3, "matched_share": 0.75},
    ]

    def summary(route: Any) -> None:
        a = answers.pop(0) if len(answers) > 1 else answers[0]
        game = {
            "hands": a["hands"],
            "reviewed_hands": a["reviewed_hands"],
            "matched_share": a["matched_share"],
            "mistake_loss_per_hand": 1.26,
        }
        other = {"hands": 1, "reviewed_hands": 1, "matched_share": 1.0, "mistake_loss_per_hand": 0}
        every = {
            "hands": a["hands"] + 1,
            "reviewed_hands": a["reviewed_hands"] + 1,
            "matched_share": 0.6,
            "mistake_loss_per_hand": 0.9,
        }
        games = {"1301": game, "2001": other}
        body = {"hands": a["hands"] + 1, "pending": a["pending"], "games": games, "all": every}
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    context = browser.new_context(viewport=PHONE, storage_state=played["storage"])
    try:
        page = context.new_page()
        page.set_default_timeout(30_000)
        page.route("**/review-summary?*", summary)
        page.goto(f"{server.base}/")
        page.evaluate(f"localStorage.setItem('paiju.lang', '{lang}')")
        page.goto(f"{server.base}/#/ledger")
        said = page.wait_for_selector("#my-review-pending").inner_text()
        if lang == "zh":
            assert said == "还有 2 手正在复盘，过一会儿点“刷新”再看。"
        else:
            assert said == "2 hands are still being reviewed: press Refresh in a little while."
        row = page.locator("#my-review tr[data-code='1301'] td")
        assert row.all_inner_texts()[1:] == ["50%", "−1.3", "1/3"]
        page.click("#my-review-again")
        page.wait_for_selector("#my-review tr[data-reviewed='3']")
        assert page.locator("#my-review-pending").count() == 0
        assert row.all_inner_texts()[1:] == ["75%", "−1.3", "3/3"]
        other_row = page.locator("#my-review tr[data-code='2001'] td").all_inner_texts()
        assert other_row[1:] == ["100%", "0", "1/1"]
        # more than one game: a last row adds them up
        every = page.locator("#my-review tbody tr").last.locator("td").all_inner_texts()
        assert every == ["全部游戏" if lang == "zh" else "All games", "60%", "−0.9", "4/4"]
        no_overflow(page)
    finally:
        context.close()
