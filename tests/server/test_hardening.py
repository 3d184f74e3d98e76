"""The attacks of the server's hardening issue, each reproduced against a real server
process on loopback (bounded loops, small limits), and what the server does instead.

docs/protocol.md, "Limits": "Every limit below has its error code"; "a rejected request
changes nothing and the socket stays open".
"""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets
from server_helpers import LAUNCH, Player, Server

from paiju.server.store import Store

LIMITS: dict[str, object] = {
    "registrations_per_address": 12,
    "rooms_per_address": 4,
    "bot_rooms_per_player": 1,
    "min_bot_delay": 0.5,
    "sockets_per_player": 2,
    "messages_per_second": 1,
    "burst": 5,
    "max_body_bytes": 4096,
    "header_timeout": 1,
    "connections_per_address": 40,
}
"""A server whose operator keeps most limits small, so that each attack hits one."""

WAIT = {"time_limit": 0, "bot_delay": 0.5, "claim_window": 0.5, "pause": 1, "fill_after": None}


@pytest.fixture(scope="module")
def tight(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("tight"))
    srv.limits = LIMITS
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def open_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server with the test operator's permissive limits (bots flat out)."""
    srv = Server(tmp_path_factory.mktemp("open")).start()
    yield srv
    srv.stop()


def _code(answer: httpx.Response) -> str:
    code: str = answer.json()["error"]["code"]
    return code


# -- 3. free resources are bounded ----------------------------------------------------------


def test_registrations_per_address_are_limited(tmp_path: Path) -> None:
    """The attack: 256 registrations a second from one client. The limit: a few an hour."""
    srv = Server(tmp_path)
    srv.limits = {"registrations_per_address": 3}
    srv.start()
    try:
        answers = [httpx.post(f"{srv.base}/api/players", json={"name": f"n{i}"}) for i in range(6)]
        assert [a.status_code for a in answers] == [201, 201, 201, 429, 429, 429]
        assert _code(answers[3]) == "too_many_registrations"
        assert "in the last hour" in answers[3].json()["error"]["message"]
    finally:
        srv.stop()


def test_rooms_per_address_and_bot_only_rooms_are_limited(tight: Server) -> None:
    """The attacks: 2,000 waiting rooms from 100 free accounts; bot-only rooms dealing
    36,434 hands in 50 s. Rooms are counted per address too, bot-only rooms per player,
    and bots play at a human pace unless the operator allows otherwise."""
    tokens = [tight.register(f"r{i}") for i in range(5)]
    made = []
    for token in tokens:
        body = {"code": "toy", "options": {**WAIT, "seats": 2}, "seat": 0}
        made.append(tight.call("POST", "/api/rooms", token, json=body))
    assert [a.status_code for a in made] == [201, 201, 201, 201, 429]
    assert _code(made[4]) == "too_many_rooms_address"
    for answer, token in zip(made[:4], tokens, strict=False):  # owners close theirs
        room = answer.json()["room"]["id"]
        assert tight.call("POST", f"/api/rooms/{room}/close", token).status_code == 200
    fast = {"code": "toy", "options": {**WAIT, "seats": 2, "bots": 2, "bot_delay": 0}, "seat": None}
    too_fast = tight.call("POST", "/api/rooms", tokens[0], json=fast)
    assert (too_fast.status_code, _code(too_fast)) == (400, "too_fast")
    bots = {"code": "toy", "options": {**WAIT, "seats": 2, "bots": 2}, "seat": None}
    first = tight.call("POST", "/api/rooms", tokens[0], json=bots)
    assert first.status_code == 201, first.text
    second = tight.call("POST", "/api/rooms", tokens[0], json=bots)
    assert (second.status_code, _code(second)) == (429, "too_many_bot_rooms")
    room = first.json()["room"]["id"]
    assert tight.call("POST", f"/api/rooms/{room}/close", tokens[0]).status_code == 200


def test_owner_and_operator_close_a_room_and_its_sockets_are_told(tmp_path: Path) -> None:
    """There was no way to stop a room. Its owner or the operator closes it now."""
    srv = Server(tmp_path)

    async def run() -> None:
        owner, other = srv.register("owner"), srv.register("other")
        room = srv.create_room(owner, "toy", seats=2, bots=1, **WAIT)["room"]["id"]
        p = await Player(srv, owner, room).connect()
        refused = srv.call("POST", f"/api/rooms/{room}/close", other)
        assert (refused.status_code, _code(refused)) == (403, "not_owner")
        closed = srv.call("POST", f"/api/rooms/{room}/close", owner)
        assert closed.status_code == 200 and closed.json()["status"] == "closed"
        error = await p.expect("error")
        assert error["code"] == "room_closed"
        started = next(m for m in p.messages if m["type"] == "hand_started")
        void = httpx.get(f"{srv.base}/api/games/{started['game']}")
        assert (void.status_code, _code(void)) == (409, "void_game")  # never settled
        await p.close()
        again = srv.call("POST", f"/api/rooms/{room}/close", owner)
        assert again.status_code in (404, 409)
        room2 = srv.create_room(other, "toy", seats=2, bots=1, **WAIT)["room"]["id"]
        by_operator = srv.call("POST", f"/api/rooms/{room2}/close", "operator-secret")
        assert by_operator.status_code == 200, by_operator.text
        assert srv.call("POST", f"/api/rooms/{room2}/close", "not-the-secret").status_code == 401

    _start_with_admin(srv, "operator-secret")
    try:
        asyncio.run(run())
    finally:
        srv.stop()


def _start_with_admin(srv: Server, token: str) -> None:
    import os

    os.environ["PAIJU_ADMIN_TOKEN"] = token
    try:
        srv.start()
    finally:
        del os.environ["PAIJU_ADMIN_TOKEN"]


def test_sockets_per_player_and_the_rate_limit_hold_per_player(tight: Server) -> None:
    """The attacks: 1,000 sockets on one token; reconnecting to reset the per-socket rate
    limit (528 messages/s against 20/s). Sockets and the message bucket are the player's."""

    async def run() -> None:
        owner, token = tight.register("owner"), tight.register("watcher")
        room = tight.create_room(owner, "toy", seats=2, bots=1, **WAIT)["room"]["id"]
        a = await Player(tight, token, room).connect()  # two spectator sockets of one player
        b = await Player(tight, token, room).connect()
        ws = await websockets.connect(
            f"{tight.ws_base}/ws/rooms/{room}",
            additional_headers={"Authorization": f"Bearer {token}"},
        )
        refused = json.loads(await ws.recv())
        assert refused["code"] == "too_many_sockets"
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await ws.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
        await b.close()
        # the burst (5) is spent on a's pings; a new socket of the same player finds
        # the bucket as a left it
        codes = []
        for i in range(8):
            await a.send({"type": "ping", "id": i})
        for _ in range(6):  # the dropped ones are told once, not each
            msg = await a.expect("pong") if len(codes) < 5 else await a.next()
            codes.append(msg["type"] if msg["type"] == "pong" else msg.get("code"))
        assert codes.count("rate_limited") == 1
        await a.close()
        c = await Player(tight, token, room).connect()
        await c.send({"type": "ping", "id": "c"})
        first = await c.next()
        while first["type"] not in ("pong", "error"):
            first = await c.next()
        assert first.get("code") == "rate_limited"  # reconnecting did not refill it
        await c.close()

    asyncio.run(run())


def test_request_bodies_are_limited(tight: Server) -> None:
    """The attack: a 200 MB body took the server to 849 MB. Bodies over the limit get
    413 before they are read (Content-Length) or as soon as they pass it (chunked)."""
    big = b'{"name": "' + b"x" * 100_000 + b'"}'
    answer = httpx.post(f"{tight.base}/api/players", content=big)
    assert (answer.status_code, _code(answer)) == (413, "body_too_large")

    def chunks() -> Iterator[bytes]:
        yield b'{"name": "'
        for _ in range(50):
            yield b"y" * 1000
        yield b'"}'

    chunked = httpx.post(f"{tight.base}/api/players", content=chunks())
    assert (chunked.status_code, _code(chunked)) == (413, "body_too_large")
    assert httpx.get(f"{tight.base}/api/health").status_code == 200


def _closed_by_server(sock: socket.socket, within: float) -> bool:
    sock.settimeout(within)
    try:
        return sock.recv(1) == b""
    except (TimeoutError, ConnectionResetError):
        return False


def test_half_open_and_slow_connections_are_closed_and_capped_per_address(tight: Server) -> None:
    """The attack: 2,000 idle connections held for 60 s took every file descriptor.
    A connection must complete its request head within header_timeout (1 s here), and
    one address holds at most connections_per_address (40 here) at once."""
    silent = socket.create_connection(("127.0.0.1", tight.port))
    slow = socket.create_connection(("127.0.0.1", tight.port))
    slow.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")  # never finishes its head
    assert _closed_by_server(silent, 6)
    assert _closed_by_server(slow, 6)
    held = [socket.create_connection(("127.0.0.1", tight.port)) for _ in range(40)]
    try:
        extra = socket.create_connection(("127.0.0.1", tight.port))
        assert _closed_by_server(extra, 0.9)  # at once, well before the head deadline
        extra.close()
    finally:
        for s in held:
            s.close()
    for _ in range(50):  # the slots come back once the held connections are gone
        if httpx.get(f"{tight.base}/api/health").status_code == 200:
            break
        time.sleep(0.1)
    assert httpx.get(f"{tight.base}/api/health").status_code == 200


# -- 6. a joining socket does not re-send the state to every socket ----------------------------


def test_a_joining_spectator_sends_nothing_to_the_others(open_server: Server) -> None:
    """The attack: each socket joining a room re-sent the full state to every socket of
    the room (1,000 spectators made 1,093 full states reach a seated player)."""

    async def run() -> None:
        room, (token,) = open_server.table("toy", 1, seats=2, **{**WAIT, "bot_delay": 30})
        seated = await Player(open_server, token, room).connect()
        await seated.expect("state")
        before = len(seated.messages)
        watchers = []
        for i in range(5):
            w = await Player(open_server, open_server.register(f"w{i}"), room).connect()
            await w.expect("state")  # the joiner gets its state
            watchers.append(w)
        await seated.send({"type": "ping", "id": "after"})
        await seated.expect("pong", id="after")
        kinds = [m["type"] for m in seated.messages[before:]]
        assert kinds == ["pong"], kinds
        for w in watchers:
            await w.close()
        await seated.send({"type": "ping", "id": "gone"})
        await seated.expect("pong", id="gone")
        assert [m["type"] for m in seated.messages[before:]] == ["pong", "pong"]
        await seated.close()

    asyncio.run(run())


# -- 7. ledger privacy --------------------------------------------------------------------------


def test_a_public_game_record_shows_no_player_nor_balance(open_server: Server) -> None:
    """The attack: walking GET /api/games/{id} (no token) rebuilt every player's ledger
    from the seats' player ids and running balances."""

    async def run() -> int:
        room, (token,) = open_server.table("toy", 1, seats=2, hands=1)
        p = await Player(open_server, token, room).connect()
        await p.play()
        over = p.latest(("hand_over",))
        assert over is not None
        await p.close()
        game: int = over["game"]
        return game

    game = asyncio.run(run())
    record = httpx.get(f"{open_server.base}/api/games/{game}").json()
    assert "players" not in record
    assert record["bots"] == [False, True]  # who was a bot is public, not who played
    assert record["ledger"] and all(set(e) == {"seat", "delta"} for e in record["ledger"])
    assert httpx.get(f"{open_server.base}/api/games/{game}/verify").json()["ok"] is True
    assert httpx.get(f"{open_server.base}/api/games/{game}/replay").status_code == 200


# -- 8. bad input: a 4xx or an error message, never a 500 or a closed socket -------------------


def test_bad_rest_input_gets_4xx(open_server: Server) -> None:
    token = open_server.register("bad")
    nan = '{"code": "toy", "options": {"time_limit": NaN, "seats": 2}, "seat": 0}'
    cases = [
        ("POST", "/api/rooms", {"content": nan, "headers": {"content-type": "application/json"}}),
        ("POST", "/api/rooms", {"json": {"code": "toy", "options": {"seats": 2}, "seat": 10}}),
        ("POST", "/api/rooms", {"json": {"code": "toy", "options": {"seats": 2}, "seat": -5}}),
        ("POST", "/api/rooms", {"json": {"code": "toy", "options": {"seats": 2}, "seat": 3}}),
        ("GET", f"/api/games/{2**70}", {}),
        ("GET", f"/api/games?room={2**70}", {}),
        ("GET", f"/api/rooms/{2**70}", {}),
        ("GET", f"/api/games/{2**63}/verify", {}),
        ("POST", "/api/players", {"content": "[" * 2000 + "]" * 2000}),
    ]
    for method, path, kwargs in cases:
        headers = {"Authorization": f"Bearer {token}", **kwargs.pop("headers", {})}
        answer = httpx.request(method, f"{open_server.base}{path}", headers=headers, **kwargs)
        assert 400 <= answer.status_code < 500, (path, kwargs, answer.status_code, answer.text)
        assert answer.json()["error"]["code"], answer.text


def test_deeply_nested_json_on_a_socket_gets_an_error_and_the_socket_stays_open(
    open_server: Server,
) -> None:
    async def run() -> None:
        room, (token,) = open_server.table("toy", 1, seats=2, **{**WAIT, "bot_delay": 30})
        p = await Player(open_server, token, room).connect()
        for text in ("[" * 5000 + "]" * 5000, '{"type": "action", "action": ' + "[" * 5000):
            await p.send(text)
            error = await p.expect("error")
            assert error["code"] in ("bad_json", "bad_message")
        deep = '{"type": "action", "action": {"type": "stake", "x": ' + "[" * 3000 + "]" * 3000
        await p.send(deep + "}}")
        assert (await p.expect("error"))["code"] in ("bad_json", "bad_message", "illegal_action")
        await p.send({"type": "ping", "id": "alive"})
        assert await p.expect("pong", id="alive")
        await p.close()

    asyncio.run(run())


# -- 9. identity ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "ann\x00",
        "\x1b[31mred",
        "ann\u202egnp.exe",
        "a\u200bnn",
        "   ",
        "\u3000\u00a0",
        "bot",
        "BOT-1",
        "机器人",
    ],
)
def test_names_that_disguise_themselves_are_refused(open_server: Server, name: str) -> None:
    answer = httpx.post(f"{open_server.base}/api/players", json={"name": name})
    assert (answer.status_code, _code(answer)) == (400, "bad_name"), answer.text


def test_names_are_cleaned_and_tokens_rotate(open_server: Server) -> None:
    answer = httpx.post(f"{open_server.base}/api/players", json={"name": "  Ann \t Lee  "})
    assert answer.status_code == 201 and answer.json()["name"] == "Ann Lee"
    old = answer.json()["token"]
    assert answer.json()["expires"] > time.time() + 80 * 86_400
    rotated = open_server.call("POST", "/api/players/me/token", old)
    assert rotated.status_code == 200
    new = rotated.json()["token"]
    assert new != old
    assert open_server.call("GET", "/api/players/me", old).status_code == 401
    assert open_server.call("GET", "/api/players/me", new).json()["name"] == "Ann Lee"


def test_tokens_expire(tmp_path: Path) -> None:
    srv = Server(tmp_path)
    srv.limits = {"token_days": 1 / 86_400}  # one second
    srv.start()
    try:
        token = srv.register("brief")
        assert srv.call("GET", "/api/players/me", token).status_code == 200
        for _ in range(40):
            answer = srv.call("GET", "/api/players/me", token)
            if answer.status_code == 401:
                break
            time.sleep(0.1)
        assert (answer.status_code, _code(answer)) == (401, "token_expired")
    finally:
        srv.stop()


# -- 10. a restart between hands -----------------------------------------------------------------


def test_a_player_reconnecting_after_a_restart_between_hands_gets_the_state(tmp_path: Path) -> None:
    """The failure: after a restart between two hands a reconnecting player got only
    ``welcome``, no state; and then the next hand waited the room's whole ``pause`` (here
    600 s), 继续 doing nothing. Now the result is held again for the player who comes
    back (30 s at most) and its 继续 deals the next hand at once."""
    srv = Server(tmp_path).start()
    try:

        async def first() -> tuple[int, str]:
            room, (token,) = srv.table("toy", 1, seats=2, hands=3, pause=600)
            p = await Player(srv, token, room).connect()
            await p.play(until=lambda m: m["type"] == "hand_over")
            await p.close()
            return room, token

        room, token = asyncio.run(first())
        srv.stop()
        srv.start()

        async def again() -> None:
            p = await Player(srv, token, room).connect()
            state = await p.expect("state", timeout=10)
            assert state["view"]["phase"] == "over"
            over = await p.expect("hand_over", timeout=10)
            assert over["waiting"] == [p.seat] and over["game"] == state["game"]
            assert 0 < over["next_hand_in"] <= 30
            await p.send({"type": "continue"})
            started = await p.expect("hand_started", timeout=10)
            assert started["game"] != state["game"]
            await p.close()

        asyncio.run(again())
    finally:
        srv.stop()


# -- 4 and 5. the database: lost commits, a second server --------------------------------------


def test_a_second_server_on_the_same_file_refuses_to_start(tmp_path: Path) -> None:
    import subprocess
    import sys

    srv = Server(tmp_path).start()
    try:
        second = subprocess.run(
            [sys.executable, str(LAUNCH), "serve", "--port", "0", "--db", str(srv.db)],
            capture_output=True,
            text=True,
            timeout=180,  # bounds a hang only: a loaded machine starts Python slowly
        )
        assert second.returncode != 0
        assert "another paiju server" in second.stderr + second.stdout
        assert httpx.get(f"{srv.base}/api/health").status_code == 200
    finally:
        srv.stop()
    held = Store(str(tmp_path / "x.db"), owner=True)
    with pytest.raises(Exception, match="another paiju server"):
        Store(str(tmp_path / "x.db"), owner=True)
    held.close()
    Store(str(tmp_path / "x.db"), owner=True).close()  # free again once closed


def test_lost_commits_are_detected_and_ids_never_reused(tmp_path: Path) -> None:
    """The failure: after kill -9 and a deleted WAL, 23 finished hands whose seeds players
    had seen were gone and their ids given to new hands."""
    import sqlite3

    from paiju.errors import PaijuError
    from paiju.server.rows import HandWrite

    db = tmp_path / "w.db"

    def hand(store: Store, room: int) -> int:
        hid = store.new_hand_id()
        store.append_actions(
            [HandWrite(hid, room, hid, "toy", {}, (None, None), "c" * 64, "s", {"hands": []}, {})]
        )
        return hid

    store = Store(str(db), owner=True)
    owner = store.create_player("o")[0]
    room = store.create_room("toy", {}, {}, 2, owner.id, [True, True])
    ids = [hand(store, room) for _ in range(5)]
    store.close()
    con = sqlite3.connect(db)  # the lost commits: the last three hands are gone
    con.execute("DELETE FROM hands WHERE id > ?", (ids[1],))
    con.commit()
    con.close()
    with pytest.raises(PaijuError, match="went back in time"):
        Store(str(db), owner=True)
    again = Store(str(db), owner=True, allow_rollback=True)
    assert hand(again, room) > max(ids)  # never an id that was given before
    again.close()
    db.write_bytes(b"")  # a truncated file
    for suffix in ("-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    with pytest.raises(PaijuError, match=r"went back in time.*empty or new"):
        Store(str(db), owner=True)
