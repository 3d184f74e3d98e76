"""防作弊 at the table: players who share a network address (同IP提醒), or whose shared
locations are closer than the operator's distance (GPS距离提醒), are told so before the
first deal; a room with ``refuse_nearby`` refuses such a seat; a location is kept as the
distance only.

The issue: "before the first deal, players sharing an address are told so (同IP提醒), and,
for players who allow the browser's location, those closer than a distance the operator
sets (GPS距离提醒, 200 m by default); a room option can refuse such seats. Location is
asked for only with the player's consent, kept only as the distance".
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import inspect, text
from starlette.testclient import TestClient

from paiju.server.app import create_app
from paiju.server.errors import ServerError
from paiju.server.nearby import NearPair, Point, Whereabouts, distance, refusal
from paiju.server.options import Limits

# two points 100 m apart along a meridian (1° of latitude is 111,195 m on the mean sphere)
HOME = Point(39.9087, 116.3975)
NEXT_DOOR = Point(39.9087 + 100 / 111_195.0, 116.3975)
ACROSS_TOWN = Point(39.9087 + 5_000 / 111_195.0, 116.3975)


def test_the_distance_is_the_great_circle_one() -> None:
    assert distance(HOME, HOME) == 0
    assert round(distance(HOME, NEXT_DOOR)) == 100
    assert round(distance(Point(0, 0), Point(0, 1))) == 111_195
    assert round(distance(Point(0, 179.5), Point(0, -179.5))) == 111_195  # across 180°
    with pytest.raises(ServerError):
        Point(91, 0)


def test_pairs_name_a_shared_address_and_a_distance_under_the_limit() -> None:
    where = Whereabouts(4)
    where.seen(0, "10.0.0.7")
    where.seen(1, "::ffff:10.0.0.7")  # the same machine, written as IPv6
    where.seen(2, "10.0.0.8")
    assert where.pairs(200) == [NearPair((0, 1), True, None)]
    where.located(2, HOME)
    where.located(3, NEXT_DOOR)
    assert where.pairs(200) == [NearPair((0, 1), True, None), NearPair((2, 3), False, 100)]
    assert where.pairs(50) == [NearPair((0, 1), True, None)]  # farther than the limit
    assert where.pairs(0) == [NearPair((0, 1), True, None)]  # 0: no distance is told
    where.located(3, ACROSS_TOWN)
    assert where.pairs(200) == [NearPair((0, 1), True, None)]
    assert where.shared() == [False, False, True, True]
    where.left(1)
    assert where.pairs(200) == []
    where.located(3, NEXT_DOOR)
    where.forget_points()  # the first deal
    assert where.shared() == [False] * 4 and where.pairs(200) == []


def test_a_newcomer_near_a_seated_player_is_refused_with_a_clear_error() -> None:
    where = Whereabouts(3)
    where.seen(0, "10.0.0.7")
    where.located(1, HOME)
    same = where.near([0, 1], "10.0.0.7", None, 200)
    assert same == NearPair((-1, 0), True, None)
    exc = refusal(same, 12, 200)
    assert exc.code == "too_near_address" and exc.status == 409 and exc.params == {"seat": 0}
    close = where.near([0, 1], "10.0.0.9", NEXT_DOOR, 200)
    assert close == NearPair((-1, 1), False, 100)
    exc = refusal(close, 12, 200)
    assert exc.code == "too_near" and exc.params == {"seat": 1, "metres": 100, "limit": 200}
    assert where.near([0, 1], "10.0.0.9", ACROSS_TOWN, 200) is None
    assert where.near([0, 1], None, None, 200) is None


# -- at a server's table -----------------------------------------------------------------


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(str(tmp_path / "nearby.db"), limits=Limits(min_bot_delay=0))
    with TestClient(app) as c:
        yield c


@contextlib.contextmanager
def _from(client: TestClient, host: str) -> Iterator[None]:
    """The client's calls and sockets come from ``host`` meanwhile."""
    transport: Any = client._transport
    before = transport.client
    transport.client = (host, 50000)
    try:
        yield
    finally:
        transport.client = before


def _player(client: TestClient, name: str) -> dict[str, str]:
    made = client.post("/api/players", json={"name": name}).json()
    return {"Authorization": f"Bearer {made['token']}"}


def _room(client: TestClient, owner: dict[str, str], **options: Any) -> int:
    body = {"code": "2001", "options": {"seats": 3, "fill_after": None, **options}, "seat": 0}
    made = client.post("/api/rooms", json=body, headers=owner)
    assert made.status_code == 201, made.text
    room: int = made.json()["room"]["id"]
    return room


def _nearby(ws: Any) -> dict[str, Any]:
    while (msg := ws.receive_json())["type"] != "nearby":
        pass
    found: dict[str, Any] = msg
    return found


def test_two_players_from_one_address_are_told_before_the_first_deal(client: TestClient) -> None:
    ann, bo, cy = (_player(client, n) for n in ("ann", "bo", "cy"))
    with _from(client, "10.1.1.1"):
        room = _room(client, ann)
        first = client.websocket_connect(f"/ws/rooms/{room}", headers=ann)
    with first as ws_a:
        assert ws_a.receive_json()["type"] == "welcome"
        with _from(client, "10.2.2.2"):
            assert client.post(f"/api/rooms/{room}/join", json={}, headers=cy).status_code == 200
        with _from(client, "10.1.1.1"):
            assert client.post(f"/api/rooms/{room}/join", json={}, headers=bo).status_code == 200
        told = _nearby(ws_a)
        assert told["pairs"] == [{"seats": [0, 2], "same_address": True, "metres": None}]
        assert told["shared"] == [False, False, False] and told["limit"] == 200
        with (
            _from(client, "10.1.1.1"),
            client.websocket_connect(f"/ws/rooms/{room}", headers=bo) as ws_b,
        ):
            # a socket that opens is told what the table was told
            assert _nearby(ws_b)["pairs"] == told["pairs"]


def test_shared_locations_closer_than_the_limit_are_told_as_a_distance_only(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    ann, bo = _player(client, "ann"), _player(client, "bo")
    with _from(client, "10.1.1.1"):
        room = _room(client, ann, seats=2)
    with _from(client, "10.2.2.2"):
        assert client.post(f"/api/rooms/{room}/join", json={}, headers=bo).status_code == 200
    with _from(client, "10.1.1.1"):
        socket_a = client.websocket_connect(f"/ws/rooms/{room}", headers=ann)
    with _from(client, "10.2.2.2"):
        socket_b = client.websocket_connect(f"/ws/rooms/{room}", headers=bo)
    with socket_a as ws_a, socket_b as ws_b:
        ws_a.send_json({"type": "location", "lat": HOME.lat, "lon": HOME.lon, "id": 1})
        answer = _nearby(ws_a)
        assert answer["id"] == 1 and answer["pairs"] == [] and answer["shared"] == [True, False]
        assert _nearby(ws_b)["shared"] == [True, False]
        ws_b.send_json({"type": "location", "lat": NEXT_DOOR.lat, "lon": NEXT_DOOR.lon})
        near = [{"seats": [0, 1], "same_address": False, "metres": 100}]
        assert _nearby(ws_b)["pairs"] == near
        assert _nearby(ws_a)["pairs"] == near
        ws_b.send_json({"type": "location", "lat": None, "lon": None})  # taken back
        assert _nearby(ws_a)["pairs"] == []
        ws_b.send_json({"type": "location", "lat": 95, "lon": 0, "id": "x"})
        while (msg := ws_b.receive_json())["type"] != "error":
            pass
        assert msg["code"] == "bad_message" and msg["ref"] == "x"
        ws_b.send_json({"type": "location", "lat": NEXT_DOOR.lat, "lon": NEXT_DOOR.lon})
        assert _nearby(ws_a)["pairs"] == near
        # the first deal: the points are forgotten; a location now is refused
        client.post(f"/api/rooms/{room}/start", headers=ann)
        while ws_a.receive_json()["type"] != "hand_started":
            pass
        ws_a.send_json({"type": "location", "lat": HOME.lat, "lon": HOME.lon, "id": 2})
        while (msg := ws_a.receive_json())["type"] != "error":
            pass
        assert msg["code"] == "location_late" and msg["ref"] == 2
        assert msg["text"]["zh"] == "第一局开始后不再使用位置"
    hub = client.app.state.hub  # type: ignore[attr-defined]
    assert hub.rooms[room].whereabouts.points == [None, None]
    # neither the database nor the log holds a coordinate
    store = client.app.state.store  # type: ignore[attr-defined]
    written = []
    with store.engine.connect() as conn:
        for table in inspect(store.engine).get_table_names():
            rows = conn.execute(text(f"SELECT * FROM {table}")).all()
            written.append(json.dumps([list(map(str, r)) for r in rows]))
    logged = "\n".join(r.getMessage() for r in caplog.records)
    for where in (HOME, NEXT_DOOR):
        for kept in ("\n".join(written), logged):
            assert f"{where.lat:.4f}" not in kept and f"{where.lon:.4f}" not in kept


def test_a_room_that_refuses_near_seats_says_why_when_one_tries_to_sit(
    client: TestClient,
) -> None:
    ann, bo, cy = (_player(client, n) for n in ("ann", "bo", "cy"))
    with _from(client, "10.1.1.1"):
        room = _room(client, ann, refuse_nearby=True)
    with _from(client, "10.1.1.1"):
        refused = client.post(f"/api/rooms/{room}/join", json={}, headers=bo)
    assert refused.status_code == 409
    error = refused.json()["error"]
    assert error["code"] == "too_near_address"
    assert error["text"] == {
        "zh": "这个房间不允许同IP入座：你和1号位的网络地址相同",
        "en": "This room refuses players on one network: you share an address with seat 1",
    }
    with (
        _from(client, "10.1.1.1"),
        client.websocket_connect(f"/ws/rooms/{room}", headers=ann) as ws_a,
    ):
        assert ws_a.receive_json()["type"] == "welcome"
        ws_a.send_json({"type": "location", "lat": HOME.lat, "lon": HOME.lon})
        _nearby(ws_a)
        with _from(client, "10.3.3.3"):
            body = {"location": {"lat": NEXT_DOOR.lat, "lon": NEXT_DOOR.lon}}
            close = client.post(f"/api/rooms/{room}/join", json=body, headers=cy)
            assert close.status_code == 409
            assert close.json()["error"]["code"] == "too_near"
            assert close.json()["error"]["text"]["en"] == (
                "This room refuses players sitting close: you are about 100 m from seat 1"
                " (under 200 m)"
            )
            far = {"location": {"lat": ACROSS_TOWN.lat, "lon": ACROSS_TOWN.lon}}
            sat = client.post(f"/api/rooms/{room}/join", json=far, headers=cy)
            assert sat.status_code == 200 and sat.json()["seat"] == 1
    # a room without the option seats them and only tells the table
    with _from(client, "10.1.1.1"):
        other = _room(client, ann)
        assert client.post(f"/api/rooms/{other}/join", json={}, headers=bo).status_code == 200
