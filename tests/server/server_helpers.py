"""Real server processes and scripted WebSocket clients for the server tests (loopback only).

:class:`Server` runs ``paiju serve`` (through ``launch.py``, which also registers the toy
game) on a free port with its own database file. :class:`Player` is a scripted client: it
plays its seat from the ``legal`` list the server sends, or - for games whose actions are
too many to list (a 13-card arrangement) - asks :class:`Oracle` for a random legal action
on the state rebuilt from the database (a test device, not something a real client does).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import websockets

from paiju.catalog import catalog
from paiju.engine import State
from paiju.fairness import deal_seed
from paiju.games import FAMILIES
from paiju.games import game as make_game
from paiju.harness import view_items
from paiju.server.client import Bucket
from paiju.server.rows import HandRow
from paiju.server.store import Store
from server_process import ServerProcess

HERE = Path(__file__).resolve().parent
LAUNCH = HERE / "launch.py"
ROOT = HERE.parent.parent

PLAYABLE = [v.code for v in catalog() if FAMILIES[v.family].game is not None]
REAL_CODES = [c for c in ("2001", "1301") if c in PLAYABLE]
"""The real codes the issue names, once their families are registered."""
FAMILY_CODES = {
    v.family: v.code for v in reversed(catalog()) if FAMILIES[v.family].game is not None
}
"""One playable code of every registered family (its first in the catalogue)."""
GAME_CODES = ["toy", *REAL_CODES]
"""The codes the real-process tests play: the toy game, 2001 and 1301 once registered."""

FAST = {
    "time_limit": 0,
    "bot_delay": 0,
    "pause": 0,
    "reconnect_grace": 60,
    "fill_after": None,
    "ready_check": False,
    "claim_window": 0.05,
    "seed_wait": 0,
}


LATE = frozenset({"no_claim_window"})
"""The refusals a scripted player may meet without a fault of the server: a 麻将 claim
window's short time (``FAST``) can close before a busy machine's answer arrives, as it does
for a slow player."""

PACE, PACE_BURST = 15.0, 30
"""A scripted player's own action rate and burst (below the server's default limits)."""


class Server(ServerProcess):
    """A ``paiju serve`` subprocess (through ``launch.py``, which registers the toy game)."""

    def __init__(self, folder: Path, port: int | None = None) -> None:
        super().__init__(folder, port, command=(str(LAUNCH),))
        self._viewer: str | None = None

    def start(self, timeout: float = 90.0) -> Server:
        self.launch(timeout)
        return self

    # -- REST ---------------------------------------------------------------------------

    def register(self, name: str) -> str:
        answer = httpx.post(f"{self.base}/api/players", json={"name": name})
        assert answer.status_code == 201, answer.text
        token: str = answer.json()["token"]
        return token

    @property
    def viewer(self) -> str:
        """A registered player's token for REST calls that need no particular player."""
        if self._viewer is None:
            self._viewer = self.register("viewer")
        return self._viewer

    def call(self, method: str, path: str, token: str | None = "", **kwargs: Any) -> httpx.Response:
        """A REST call as ``token`` (default: the viewer; None: no Authorization header)."""
        if token == "":
            token = self.viewer
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        kwargs.setdefault("timeout", 10)
        return httpx.request(method, f"{self.base}{path}", headers=headers, **kwargs)

    def create_room(
        self, token: str, code: str, seat: int | None = 0, **options: Any
    ) -> dict[str, Any]:
        body = {"code": code, "options": {**FAST, **options}, "seat": seat}
        answer = self.call("POST", "/api/rooms", token, json=body)
        assert answer.status_code == 201, answer.text
        result: dict[str, Any] = answer.json()
        return result

    def table(
        self, code: str, humans: int, seats: int | None = None, **options: Any
    ) -> tuple[int, list[str]]:
        """A room of ``code`` with ``humans`` registered players seated; bots fill the rest."""
        g = make_game(code)
        n = seats or g.default_seats
        tokens = [self.register(f"p{i}") for i in range(humans)]
        room = self.create_room(tokens[0], code, seats=n, bots=n - humans, **options)
        room_id: int = room["room"]["id"]
        for token in tokens[1:]:
            answer = self.call("POST", f"/api/rooms/{room_id}/join", token, json={})
            assert answer.status_code == 200, answer.text
        return room_id, tokens


class Oracle:
    """The test's oracle for games that do not list their legal actions: a random legal
    action (the family's ``random_action``) on the state rebuilt from the server's database."""

    def __init__(self, db: Path) -> None:
        self.store = Store(str(db))

    def action(self, room: int, seat: int) -> dict[str, Any] | None:
        hand = self.store.current_hand(room)
        if hand is None or hand.status != "playing":
            return None
        state = rebuild(hand)
        if seat not in state.to_act():
            return None
        rng = random.Random(hand.id * 16 + seat)
        return state.random_action(seat, rng).to_json()

    def close(self) -> None:
        self.store.close()


def rebuild(hand: HandRow, upto: int | None = None) -> State:
    """The hand's state after ``upto`` actions of its log (all of them by default)."""
    g = make_game(hand.code, **hand.game_options)
    seed = deal_seed(hand.seed, hand.client_seeds)
    state = g.new_state(hand.seats, seed=seed, context=hand.context)
    for seat, action, _ in hand.actions[:upto]:
        state.apply(seat, g.parse_action(action))
    return state


def acts(view: dict[str, Any], seat: int | None) -> bool:
    """Whether the view shows ``seat`` to act: ``to_act`` lists the seats, or (a game that
    hides who else acts, as mahjong's claim windows do) says whether the viewer acts."""
    acting = view.get("to_act")
    if isinstance(acting, bool):
        return acting and seat == view.get("seat")
    return seat in (acting or [])


class Player:
    """A scripted client holding one seat (or a spectator's socket)."""

    def __init__(
        self, server: Server, token: str, room: int, seed: int = 0, oracle: Oracle | None = None
    ) -> None:
        self.server, self.token, self.room = server, token, room
        self.rng = random.Random(seed)
        self.oracle = oracle
        self.messages: list[dict[str, Any]] = []
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.seat: int | None = None
        self.sent = 0
        self.pending: int | None = None
        self.late = 0
        """Own actions refused as late (``LATE``): counted, not failed."""
        self.ws: Any = None
        self._reader: asyncio.Task[None] | None = None
        self.closed = asyncio.Event()
        self.pace = Bucket(PACE, PACE_BURST)
        """The client's own bucket for actions, under the server's default limit (20 a
        second, burst 40): a scripted seat answering instant bots could exceed it over a
        long room, as no person does."""

    async def connect(self, how: str = "header") -> Player:
        url = f"{self.server.ws_base}/ws/rooms/{self.room}"
        headers = {}
        if how == "header":
            headers["Authorization"] = f"Bearer {self.token}"
        self.ws = await websockets.connect(url, additional_headers=headers, max_size=1 << 22)
        if how == "hello":
            await self.ws.send(json.dumps({"type": "hello", "token": self.token}))
        self.closed.clear()
        self._reader = asyncio.create_task(self._read())
        welcome = await self.expect("welcome")
        self.seat = welcome["seat"]
        return self

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                msg = json.loads(text)
                self.messages.append(msg)
                self.inbox.put_nowait(msg)
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed.set()

    async def send(self, obj: Any) -> None:
        await self.ws.send(obj if isinstance(obj, str | bytes) else json.dumps(obj))

    async def next(self, timeout: float = 10.0) -> dict[str, Any]:
        return await asyncio.wait_for(self.inbox.get(), timeout)

    async def expect(self, kind: str, timeout: float = 10.0, **fields: Any) -> dict[str, Any]:
        """The next message of ``kind`` (with these field values); earlier ones are skipped."""
        end = time.monotonic() + timeout
        while True:
            msg = await self.next(max(0.01, end - time.monotonic()))
            if msg["type"] == kind and all(msg.get(k) == v for k, v in fields.items()):
                return msg

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            with contextlib.suppress(Exception):
                await self._reader

    def latest(self, kinds: tuple[str, ...] = ("state", "update")) -> dict[str, Any] | None:
        for msg in reversed(self.messages):
            if msg["type"] in kinds:
                return msg
        return None

    async def decide(self, msg: dict[str, Any]) -> bool:
        """Send an action if ``msg`` shows this seat to act; True if one was sent."""
        if self.seat is None or self.pending is not None:
            return False
        if msg["type"] not in ("state", "update") or not acts(msg["view"], self.seat):
            return False
        while not self.pace.take():
            await asyncio.sleep(1 / PACE)
        if msg.get("legal"):
            action = self.rng.choice(msg["legal"])
        elif self.oracle is not None:
            found = self.oracle.action(self.room, self.seat)
            if found is None:
                return False
            action = found
        else:
            return False
        self.sent += 1
        self.pending = self.sent
        await self.send({"type": "action", "action": action, "id": self.sent, "game": msg["game"]})
        return True

    async def play(
        self,
        stop_after: int | None = None,
        timeout: float = 60.0,
        until: Callable[[dict[str, Any]], bool] | None = None,
    ) -> None:
        """Play until the room is finished, or - once its own action is answered - after
        ``stop_after`` own actions or a message for which ``until`` is true."""
        last = self.latest()
        if last is not None:
            await self.decide(last)
        end = time.monotonic() + timeout
        stopping = False
        while True:
            if stop_after is not None and self.sent >= stop_after:
                stopping = True
            if stopping and self.pending is None:
                return
            msg = await self.next(max(0.01, end - time.monotonic()))
            if msg.get("ref") is not None and msg.get("ref") == self.pending:
                self.pending = None
            if msg["type"] == "error":
                if msg.get("reason") in LATE and msg.get("ref") is not None:
                    self.late += 1  # its answer came after the window had closed
                    continue
                raise AssertionError(f"seat {self.seat} got an error: {msg}")
            if msg["type"] == "hand_over" and msg["room_finished"]:
                return
            if until is not None and until(msg):
                stopping = True
            if not stopping:
                await self.decide(msg)


def leaks(message: dict[str, Any], state: State, seat: int | None) -> list[str]:
    """Cards a message names although every copy is hidden from ``seat`` in ``state``."""
    copies = Counter(state.game.full_set())
    hidden = state.hidden_from(seat)
    shown = view_items(message, state.game.items)
    return [str(c) for c in shown if hidden.get(c, 0) >= copies[c]]


def check_messages(store: Store, player: Player) -> tuple[int, list[str]]:
    """Check every state/update message a client got against the replayed hand.

    Returns how many messages were checked and the problems found: a hidden card named,
    or a view that differs from the in-process replay's view at that version.
    """
    problems: list[str] = []
    hands: dict[int, HandRow] = {}
    checked = 0
    for msg in player.messages:
        if msg["type"] not in ("state", "update"):
            continue
        game_id = msg["game"]
        if game_id not in hands:
            found = store.hand(game_id)
            assert found is not None, f"game {game_id} is not in the database"
            hands[game_id] = found
        state = rebuild(hands[game_id], msg["version"])
        found_leaks = leaks(msg, state, player.seat)
        if found_leaks:
            problems.append(
                f"game {game_id} v{msg['version']}: seat {player.seat} saw {found_leaks}"
            )
        if json.loads(json.dumps(state.view(player.seat))) != msg["view"]:
            problems.append(f"game {game_id} v{msg['version']}: view differs from the replay")
        checked += 1
    return checked, problems


class Relay:
    """A TCP relay (a thread of its own) between the nodes and a server (Redis or
    PostgreSQL): :meth:`down` cuts every connection and refuses new ones until :meth:`up`
    - the server away for a while, as a restart or a network fault makes it."""

    def __init__(self, target_port: int) -> None:
        import socket
        import threading

        self.target = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        self.pairs: list[Any] = []
        self.refusing = False
        threading.Thread(target=self._accept, daemon=True).start()

    def url(self, url: str) -> str:
        return url.replace(f":{self.target}/", f":{self.port}/")

    def _accept(self) -> None:
        import socket
        import threading

        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.refusing:
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target), 5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)  # an idle connection stays open
            self.pairs += [client, upstream]
            for one, other in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(one, other), daemon=True).start()

    @staticmethod
    def _pump(one: Any, other: Any) -> None:
        try:
            while data := one.recv(65536):
                other.sendall(data)
        except OSError:
            pass
        finally:
            for s in (one, other):
                Relay._cut(s)

    @staticmethod
    def _cut(s: Any) -> None:
        """End a connection at once: shut down first (a close alone waits for the other
        direction's thread, blocked reading it, and the server's session lives on)."""
        import socket

        with contextlib.suppress(OSError):
            s.shutdown(socket.SHUT_RDWR)
        with contextlib.suppress(OSError):
            s.close()

    def down(self) -> None:
        self.refusing = True
        pairs, self.pairs = self.pairs, []
        for s in pairs:
            self._cut(s)

    def up(self) -> None:
        self.refusing = False


STAFF_PASSWORD = "lantern-drum-93"


def staff_on(dsn: str, server: Server, role: str = "admin", name: str = "mei") -> str:
    """A staff member of ``role`` made in the database ``dsn`` (a cluster's shared one),
    signed in through ``server``: their console token."""
    import pyotp

    from paiju.server.accounts.logins import Passwords
    from paiju.server.admin.staff import Staff

    store = Store(dsn)
    try:
        made = Staff(store, Passwords(time_cost=1, memory_cost=1024)).add(
            name, role, STAFF_PASSWORD
        )
    finally:
        store.close()
    body = {"name": name, "password": STAFF_PASSWORD, "code": pyotp.TOTP(made.secret).now()}
    answer = server.call("POST", "/api/admin/sessions", None, json=body)
    assert answer.status_code == 201, answer.text
    token: str = answer.json()["token"]
    return token
