"""The replay as a player reads it: one finished hand of every family, its log in Chinese and
in English, at phone and desktop size.

Every action is a sentence that starts with the seat's name (the player's display name, a
bot's 机器人 N), its cards or tiles drawn as that family's table draws them (tiles for 麻将,
cards otherwise), and no engine name is left: no ``discard``/``chi``/``shown false``, no tile
text like ``5p``, no ``1号位``.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

import httpx
import pytest
from web_helpers import DESKTOP, PHONE, WebServer, enter

FAMILIES = {
    "1301": 4,
    "2001": 4,
    "2101": 4,
    "sandaha": 4,
    "anshan-jiayibing": 6,
    "anshan-fangyang": 4,
    "anshan-majiang": 4,
    "ningcheng-danzi": 4,
}
PLAYER = "小明"

# engine words a sentence must never show (action types, argument names, JSON values)
ENGINE_WORDS = re.compile(
    r"\b(discard|chi|peng|gang|kong|chow|rank|suit|shown|true|false|decline|return|"
    r"declare|name_trump|amount)\b"
)
TILE_TEXT = re.compile(r"\b\d+[mpsz]\b")
LATIN_WORD = re.compile(r"[a-z_]{3,}")


def _finished_games(server: WebServer) -> dict[str, int]:
    """One finished hand of every family: the test's player in seat 1 (who never connects,
    so the seat times out and then 托管 plays it), bots in the others."""
    tok = httpx.post(f"{server.base}/api/players", json={"name": PLAYER}, timeout=10).json()
    headers = {"Authorization": f"Bearer {tok['token']}"}
    rooms: dict[str, int] = {}
    for code, seats in FAMILIES.items():
        options = {"seats": seats, "bots": seats - 1, "time_limit": 1, "hands": 1, "bot_delay": 0}
        body = {"code": code, "seat": 0, "options": options}
        answer = httpx.post(f"{server.base}/api/rooms", json=body, headers=headers, timeout=10)
        assert answer.status_code == 201, answer.text
        rooms[code] = answer.json()["room"]["id"]
    games: dict[str, int] = {}
    deadline = time.monotonic() + 240
    while len(games) < len(rooms) and time.monotonic() < deadline:
        for code, room in rooms.items():
            if code in games:
                continue
            finished = server.get(f"/api/games?room={room}")
            if finished:
                games[code] = finished[-1]["id"]
        time.sleep(1)
    assert len(games) == len(rooms), f"unfinished: {set(rooms) - set(games)}"
    return games


@pytest.fixture(scope="module")
def games(server: WebServer) -> dict[str, int]:
    return _finished_games(server)


def _open_replay(page: Any, game: int, lang: str, size: dict[str, int]) -> None:
    page.set_viewport_size(size)
    page.goto(page.base + "/")
    page.evaluate(f"localStorage.setItem('paiju.lang', '{lang}')")
    if not page.evaluate("localStorage.getItem('paiju.token')"):
        enter(page, "Reader")
    page.goto(f"{page.base}/#/replay/{game}")
    page.wait_for_selector("#action-log li")


def _no_line(page: Any, game: int, record: dict[str, Any]) -> set[int]:
    """The actions (by index) the log leaves out: a 麻将 pass in a window where the seat
    could do nothing else (no decision of its own; the replay's steps say ``only``)."""
    if record["code"] != "anshan-majiang":
        return set()
    steps = httpx.get(f"{page.base}/api/games/{game}/replay", timeout=30).json()["steps"]
    return {
        i
        for i, (a, step) in enumerate(zip(record["actions"], steps[1:], strict=True))
        if a["action"]["type"] == "pass" and step["only"]
    }


def _seat_names(seats: int, lang: str) -> list[str]:
    bot = "机器人" if lang == "zh" else "Bot"
    return [PLAYER] + [f"{bot} {i + 1}" for i in range(1, seats)]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_family_replay_log_is_sentences(page: Any, games: dict[str, int], lang: str) -> None:
    for code, game in games.items():
        for size in (PHONE, DESKTOP):
            _open_replay(page, game, lang, size)
            names = _seat_names(FAMILIES[code], lang)
            record = httpx.get(f"{page.base}/api/games/{game}", timeout=10).json()
            assert record["names"][0] == PLAYER
            lines = page.eval_on_selector_all(
                "#action-log li",
                "els => els.map(e => [Number(e.dataset.seat), e.innerText.trim()])",
            )
            quiet = _no_line(page, game, record)
            assert len(lines) == len(record["actions"]) - len(quiet)
            for seat, text in lines:
                where = f"{code} {lang}: {text!r}"
                assert text.startswith(names[seat]), where
                said = text[len(names[seat]) :]
                assert not ENGINE_WORDS.search(said), where
                assert not TILE_TEXT.search(said), where
                assert "号位" not in text and "Seat " not in text, where
                if lang == "zh":
                    assert not LATIN_WORD.search(said), where
            # the human seat, played at its timeouts: said once per line, not by a bare id
            mine = [text for seat, text in lines if seat == 0]
            marks = ("超时", "托管") if lang == "zh" else ("time ran out", "auto-play")
            assert all(any(m in t for m in marks) for t in mine), mine
            # drawn by the family's table: tiles for 麻将, cards for every other game
            deal_tiles = page.locator("#replay-deal .mj-tile").count()
            deal_cards = page.locator("#replay-deal .card").count()
            log_tiles = page.locator("#action-log .mj-tile").count()
            log_cards = page.locator("#action-log .card").count()
            if code == "anshan-majiang":
                assert deal_tiles >= 13 * 4 and deal_cards == 0
                assert log_tiles > 0 and log_cards == 0
            else:
                assert deal_cards > 0 and deal_tiles == 0
                assert log_tiles == 0
            # the seats of the felt and the deal carry the same names
            deal_names = page.eval_on_selector_all(
                "#replay-deal .deal-seat[data-seat] .who", "els => els.map(e => e.innerText)"
            )
            assert deal_names == names


def test_majiang_claims_say_whose_tile(page: Any, games: dict[str, int]) -> None:
    """Each claim names whose tile it took; a pass in a window the seat had nothing to do in
    has no line (it was no decision), and no pass of that kind reads 超时."""
    game = games["anshan-majiang"]
    _open_replay(page, game, "zh", PHONE)
    record = httpx.get(f"{page.base}/api/games/{game}", timeout=10).json()
    quiet = _no_line(page, game, record)
    assert quiet, "no window without a choice in a whole hand"
    kept = [i for i in range(len(record["actions"])) if i not in quiet]
    types = [record["actions"][i]["action"]["type"] for i in kept]
    indexes = page.eval_on_selector_all("#action-log li", "els => els.map(e => +e.dataset.index)")
    assert indexes == kept
    lines = page.eval_on_selector_all("#action-log li", "els => els.map(e => e.innerText)")
    for kind, text in zip(types, lines, strict=True):
        if kind == "discard":
            assert "打出" in text
        if kind in ("chi", "peng", "gang"):
            assert "打出的" in text, text
        if kind == "pass":
            assert "过" in text
    if types[-1] == "win":
        assert "胡" in lines[-1], lines[-1]


def test_fangyang_call_of_a_ten_shows_a_ten(page: Any, games: dict[str, int]) -> None:
    """放羊 "叫牌": the banker names a card, 4 up to A; a call of a 10 is drawn as the card
    10 of its suit (the record names it rank "10", not card text). The record of the room's
    hand is shown with its call made a 10 of hearts."""
    game = games["anshan-fangyang"]
    record = httpx.get(f"{page.base}/api/games/{game}", timeout=10).json()
    calls = [a for a in record["actions"] if a["action"]["type"] == "call"]
    assert calls, record["actions"][:3]
    for a in calls:
        a["action"].update(rank="10", suit="h")

    def answer(route: Any) -> None:
        route.fulfill(status=200, content_type="application/json", body=json.dumps(record))

    page.route(re.compile(rf".*/api/games/{game}$"), answer)
    _open_replay(page, game, "zh", PHONE)
    index = next(i for i, a in enumerate(record["actions"]) if a["action"]["type"] == "call")
    line = page.locator("#action-log li").nth(index)
    assert "叫" in line.inner_text()
    card = line.locator(".card")
    assert card.count() == 1
    assert card.get_attribute("data-card") == "Th"
    assert card.locator(".corner b").first.inner_text() == "10"


ORDERS = {"jiayibing": "3456789TJQKA2", "fangyang": "456789TJQKA23", "danzi": "456789TJQKA23"}
"""Ranks low to high: 甲乙丙 "2最大", 放羊 and 打弹子 with 3 above 2; A high elsewhere."""


def test_the_deal_shows_each_hand_sorted(page: Any, games: dict[str, int]) -> None:
    """The replay's deal shows every hand as a player holds it: big cards first (the game's
    own order, jokers on top), then by suit; 麻将's tiles by suit and number."""
    for code, game in games.items():
        _open_replay(page, game, "zh", PHONE)
        record = httpx.get(f"{page.base}/api/games/{game}", timeout=10).json()
        shown = page.eval_on_selector_all(
            "#replay-deal .deal-seat[data-seat]",
            "els => els.map(e => [...e.querySelectorAll('.card, .mj-tile')].map("
            "c => c.dataset.card || c.dataset.tile))",
        )
        assert len(shown) == len(record["deal"]["hands"]), code
        if code == "anshan-majiang":
            for hand in shown:
                assert hand == sorted(hand, key=lambda x: ("mpsz".index(x[-1]), x[:-1])), hand
            continue
        family = {"anshan-jiayibing": "jiayibing", "anshan-fangyang": "fangyang"}.get(
            code, "danzi" if code == "ningcheng-danzi" else ""
        )
        order = ORDERS.get(family, "23456789TJQKA")

        def key(card: str, order: str = order) -> int:
            if card in ("BJ", "RJ"):
                return 100 + (card == "RJ")
            return order.index(card[0]) * 4 + 3 - "shcd".index(card[1])

        for hand, dealt in zip(shown, record["deal"]["hands"], strict=True):
            assert sorted(hand) == sorted(dealt.split()), code
            assert hand == sorted(hand, key=key, reverse=True), (code, hand)
