"""Helpers of the browser tests: the server subprocess, the browser, and the steps a
player takes in the UI (register, open a room, read the settlement off the screen)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from server_process import ServerProcess

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts" / "web"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
TABLET = {"width": 768, "height": 1024}
"""A tablet held upright (iPad mini's CSS size): between the phone's layout and the desktop's."""


CLOCK_LAUNCH = ROOT / "tests" / "clock_launch.py"


class WebServer(ServerProcess):
    """``paiju serve`` on 127.0.0.1 with its own database file (``web.db``) in ``folder``,
    with the test-only routes that hold a room's claim windows (``clock_launch.py``)."""

    def __init__(self, folder: Path) -> None:
        super().__init__(folder, db="web.db", command=(str(CLOCK_LAUNCH),))

    def start(self, timeout: float = 90.0) -> WebServer:
        self.launch(timeout)
        return self

    def get(self, path: str, token: str | None = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        answer = httpx.get(f"{self.base}{path}", headers=headers, timeout=10)
        assert answer.status_code == 200, answer.text
        return answer.json()


DEAL_LAUNCH = ROOT / "tests" / "deal_launch.py"


class DealServer(WebServer):
    """``paiju serve`` through ``deal_launch.py``: each room's deals from the seed the test
    chose (:meth:`choose`), its first from the match context chosen with it; the clock
    routes as :class:`WebServer` has them. Its process reads ``PAIJU_TEST_DEAL_FILE``."""

    def __init__(self, folder: Path) -> None:
        ServerProcess.__init__(self, folder, db="web.db", command=(str(DEAL_LAUNCH),))
        self.chosen = folder / "chosen.json"

    def choose(self, seed: str, context: dict[str, Any] | None = None) -> None:
        """The seed of the next room's deals and the match context of its first."""
        self.chosen.write_text(
            json.dumps({"seed": seed, "context": context or {}}), encoding="utf-8"
        )


MAJIANG_LAUNCH = ROOT / "tests" / "majiang_launch.py"


class ScriptedServer(WebServer):
    """``paiju serve`` through ``majiang_launch.py``: every hand dealt from the seed in the
    file ``PAIJU_TEST_SEED_FILE`` names, 麻将's bots discarding what they draw and passing
    every claim (``majiang_play.PassiveBot``), the clock routes as :class:`WebServer` has them."""

    def __init__(self, folder: Path) -> None:
        ServerProcess.__init__(self, folder, db="web.db", command=(str(MAJIANG_LAUNCH),))


def launch_browser(pw: Any) -> Any:
    return pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)


@contextmanager
def more_players(browser: Any, page: Any, n: int) -> Iterator[list[Any]]:
    """``n`` more people at phone size, each in a browser context of its own (its own
    localStorage: a new player), on the server of ``page``; closed afterwards."""
    contexts = [browser.new_context(viewport=PHONE) for _ in range(n)]
    try:
        pages = [ctx.new_page() for ctx in contexts]
        for pg in pages:
            pg.set_default_timeout(20_000)
            pg.base = page.base
        yield pages
    finally:
        for ctx in contexts:
            ctx.close()


# ---------------------------------------------------------------- a clock the test holds


def hold_clock(page: Any) -> None:
    """In the rooms this page's player opens from now on, a claim window stays open (and a
    要不起 pass waits) until :func:`let_time_pass` (the test's clock, ``tests/held_clock.py``):
    what is read inside one never races its end."""
    me = httpx.get(
        f"{page.base}/api/players/me", headers={"Authorization": f"Bearer {token(page)}"}
    ).json()
    answer = httpx.post(f"{page.base}/test/players/{me['id']}/hold-clock", timeout=10)
    assert answer.status_code == 200 and answer.json()["held"], answer.text


def let_time_pass(page: Any, room: int) -> None:
    """The room's held window reaches its end now, or its 要不起 pass is made (waiting for
    one to be due if none is)."""
    answer = httpx.post(f"{page.base}/test/rooms/{room}/clock/advance", timeout=40)
    assert answer.status_code == 200 and answer.json()["advanced"], answer.text


def clock_state(page: Any, room: int) -> dict[str, Any]:
    """The calls waiting on the room's held clock (``pending``), whether a window is open,
    and the seats it asks for more than 过."""
    answer = httpx.get(f"{page.base}/test/rooms/{room}/clock", timeout=10)
    assert answer.status_code == 200, answer.text
    state: dict[str, Any] = answer.json()
    return state


# ---------------------------------------------------------------- steps in the UI


def enter(page: Any, name: str = "Tester") -> None:
    """Open the client and register a display name through the welcome form."""
    page.goto(page.base + "/")
    page.fill("#name-input", name)
    page.click("#welcome-go")
    page.wait_for_selector("[data-create='1301']")


def fast_bots(
    page: Any, delay: float = 0.02, claim_window: float = 1.0, **options: float | int
) -> None:
    """Let the rooms this page opens have bots that act after ``delay`` seconds instead of
    the default half second, 麻将's claim windows last ``claim_window`` seconds, 要不起
    pass after the short beat (``quick_pass``: a test of the table need not wait out a
    person's pause), and the first hand deal at once from the server's seed alone
    (``seed_wait`` 0: the scripted deals of the tests stay as chosen). The lobby's form
    has no field for these: the request gets them in ``options``, with any other room
    ``options`` given here."""

    def handle(route: Any) -> None:
        request = route.request
        if request.method != "POST":
            route.continue_()
            return
        body = json.loads(request.post_data or "{}")
        body["options"] = {
            **body.get("options", {}),
            "bot_delay": delay,
            "claim_window": claim_window,
            "seed_wait": 0,
            "quick_pass": True,
            **options,
        }
        route.continue_(post_data=json.dumps(body))

    page.route("**/api/rooms", handle)


def hand_by_index(page: Any, selector: str) -> list[str]:
    """The hand as the view holds it: the ``data-card`` of the cards matched by ``selector``
    in the order of their ``data-index`` (which must run 0, 1, 2 … without a gap)."""
    cards = page.eval_on_selector_all(
        selector, "els => els.map(e => [Number(e.dataset.index), e.dataset.card])"
    )
    ordered = sorted(cards)
    assert [i for i, _ in ordered] == list(range(len(ordered)))
    return [c for _, c in ordered]


def open_room(
    page: Any,
    code: str,
    *,
    seats: int = 4,
    bots: int = 3,
    seat: int = 0,
    stake: int = 1,
    time_limit: float = 0,
    hands: int | None = None,
    fill_after: str | None = None,
) -> int:
    """Open a room with the lobby's form; returns its id (from the address). A game the
    lobby folds away (past a family's first rows) is found with the search box first."""
    button = f"[data-create='{code}']"
    page.wait_for_selector(button, state="attached")  # the lobby drawn (a loaded machine is slow)
    if not page.is_visible(button):
        page.fill("#game-search", code)
    page.click(button)
    page.fill("#create-room input[name=seats]", str(seats))
    page.fill("#create-room input[name=bots]", str(bots))
    page.fill("#create-room input[name=seat]", str(seat + 1))  # the form counts seats from 1
    page.fill("#create-room input[name=stake]", str(stake))
    page.fill("#create-room input[name=time_limit]", str(time_limit))
    if hands is not None:
        page.fill("#create-room input[name=hands]", str(hands))
    if fill_after is not None:  # "" : the room waits for players (no bots fill in)
        page.fill("#create-room input[name=fill_after]", fill_after)
    page.click("#create-submit")
    page.wait_for_url(re.compile(r"#/room/\d+$"))
    match = re.search(r"#/room/(\d+)$", page.url)
    assert match, page.url
    page.wait_for_selector("#room")
    return int(match.group(1))


def token(page: Any) -> str:
    value = page.evaluate("localStorage.getItem('paiju.token')")
    assert isinstance(value, str) and value
    return value


def screen_settlement(page: Any) -> tuple[int, dict[int, int], dict[int, int]]:
    """(game id, scores by seat, 积分 deltas by seat) as the settlement panel shows them."""
    first = page.wait_for_selector("#settlement, #open-all", timeout=30_000)
    if first.get_attribute("id") == "open-all":  # 宝子's 搓牌: open one's own cards first
        first.click()
    panel = page.wait_for_selector("#settlement", timeout=30_000)
    game = int(panel.get_attribute("data-game"))
    scores: dict[int, int] = {}
    deltas: dict[int, int] = {}
    for row in page.query_selector_all("#settlement tbody tr"):
        seat = int(row.get_attribute("data-seat"))
        cell = row.query_selector("td.score")  # 打弹子 shows deal points instead
        score_text = cell.inner_text() if cell else row.get_attribute("data-score")
        delta_text = row.query_selector(".delta").inner_text()
        scores[seat] = int(score_text.replace("+", ""))
        deltas[seat] = int(delta_text.replace("+", ""))
    return game, scores, deltas


def check_against_ledger(page: Any, server: WebServer, seat: int) -> dict[str, Any]:
    """Assert the settlement on screen equals the server's record and ledger."""
    game, scores, deltas = screen_settlement(page)
    record = server.get(f"/api/games/{game}")
    stake = record["stake"]
    assert [scores[s] for s in range(record["seats"])] == record["settlement"]
    assert [deltas[s] for s in range(record["seats"])] == [x * stake for x in record["settlement"]]
    entries = {e["seat"]: e["delta"] for e in record["ledger"]}
    assert seat in entries, record["ledger"]
    for s, delta in entries.items():
        assert deltas[s] == delta
    mine = server.get("/api/players/me/ledger", token(page))
    assert mine["entries"][-1]["game"] == game
    assert mine["entries"][-1]["delta"] == deltas[seat]
    return record


def shoot(page: Any, name: str) -> None:
    """Screenshots at phone and desktop sizes: artifacts/web/NAME-phone.png, -desktop.png."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size(PHONE)
    page.screenshot(
        path=str(ARTIFACTS / f"{name}-phone.png"), full_page=True, animations="disabled"
    )
    page.set_viewport_size(DESKTOP)
    page.screenshot(
        path=str(ARTIFACTS / f"{name}-desktop.png"), full_page=True, animations="disabled"
    )
    page.set_viewport_size(PHONE)


def no_overflow(page: Any) -> None:
    """Nothing on the page reaches past the screen's right edge (named when it does)."""
    wide = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    wider = page.evaluate(
        "[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right"
        " > document.documentElement.clientWidth + 1).slice(0, 6).map((e) => e.tagName + '.'"
        " + e.className + ' ' + (e.innerText || '').slice(0, 30))"
    )
    assert wide <= 0, f"the page is {wide}px wider than the screen: {wider}"


TOOLS_OVER_SEATS = """() => {
  const at = (r) => `[${[r.left, r.top, r.right, r.bottom].map(Math.round)}]`;
  const meet = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
    && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const seats = [...document.querySelectorAll('#felt .seat')];
  const out = [];
  for (const tool of document.querySelectorAll('#felt .table-tools > *')) {
    const t = tool.getBoundingClientRect();
    if (!t.width || !t.height) continue;
    for (const seat of seats) {
      const r = seat.getBoundingClientRect();
      if (meet(t, r))
        out.push(`${tool.id || tool.className} ${at(t)} over seat ${seat.dataset.seat} ${at(r)}`);
    }
  }
  return out;
}"""


def tools_over_seats(page: Any) -> list[str]:
    """Where the table's tools in the felt's corner (⚙, 快捷语) cover a seat's box: a
    player reads every seat whole, and a tap meant for a seat never opens a menu."""
    found: list[str] = page.evaluate(TOOLS_OVER_SEATS)
    return found


def set_lang(page: Any, to: str) -> None:
    """Show the page in language ``to`` ("zh", "en") as the language switch does, and
    wait until it is drawn so (nothing if it is already)."""
    if page.evaluate("document.documentElement.lang || ''").startswith(to):
        return
    page.evaluate(f"() => import('/js/i18n.js').then((m) => m.setLang('{to}'))")
    page.wait_for_function(f"document.documentElement.lang.startsWith('{to}')")


def lobby_in(page: Any, code: str) -> None:
    """Switch the lobby to English by its button, as a person does ("zh": stay)."""
    if code == "en":
        page.click("#lang-switch")
        page.wait_for_function(
            "document.querySelector(\"[data-create='1301']\")?.textContent === 'New room'"
        )
