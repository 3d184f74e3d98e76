"""Duplicate events (复式赛) on a cluster: an event started through one node plays its
tables there; that node is killed mid-event, the other nodes take the tables over and
deal them the event's own deals from the database, move the event to its end, and the
standings read the same from either of them.

The issue: "works on one process and on a cluster"; "Every table plays the same seeded
deals"; "Standings live during the event and final after it".
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from server_helpers import staff_on
from sqlalchemy import select
from test_cluster import Node, _each

from paiju.server import tables as t
from paiju.server.events import tables as e
from paiju.server.events.service import deal_seed
from paiju.server.store import Store
from server_process import TEST_LIMITS

DEALS = 3
BOUND = 240.0
"""Seconds a broken run waits before it fails (a bound, never a measure)."""


def _until(node: Node, event: int, done: Any) -> dict[str, Any]:
    end = time.monotonic() + BOUND
    while True:
        found: dict[str, Any] = node.call("GET", f"/api/events/{event}").json()
        if done(found) or time.monotonic() > end:
            return found
        time.sleep(0.2)


def test_an_event_outlives_the_node_that_started_it_and_reads_the_same_from_the_others(
    tmp_path: Path, postgres_db: str, redis_url: str
) -> None:
    a, b, c = nodes = [Node(tmp_path / n, postgres_db, redis_url, n) for n in ("a", "b", "c")]
    for node in nodes:  # bots at a pace: the tables are still playing when a node dies
        node.limits = {**TEST_LIMITS, "min_bot_delay": 0.05}
    try:
        _each(Node.start, nodes)
        staff = staff_on(postgres_db, a)
        body = {"code": "anshan-fangyang", "deals": DEALS}
        made = a.call("POST", "/api/events", staff, json=body)
        assert made.status_code == 201, made.text
        event = made.json()["id"]
        for level in ("easy", "normal", "easy", "normal"):
            added = b.call("POST", f"/api/events/{event}/entrants", staff, json={"bot": level})
            assert added.status_code == 201, added.text
        started = a.call("POST", f"/api/events/{event}/start", staff)
        assert started.status_code == 200, started.text
        rooms = [x["room"] for x in started.json()["tables"]]
        assert len(rooms) == 4 and None not in rooms
        for room in rooms:
            assert a.call("GET", f"/api/rooms/{room}").json()["node"] == "a"
        # b reads the event a plays, from the database: the same tables
        seen = _until(b, event, lambda x: any(d["tables"] for d in x["boards"]))
        assert [x["room"] for x in seen["tables"]] == rooms
        assert seen["status"] == "running"
        playing = {
            x["room"]
            for x in b.call("GET", f"/api/events/{event}").json()["tables"]
            if x["status"] != "finished"
        }
        assert playing, "some table has deals still to play when a dies"
        a.kill9()
        # b and c take a's tables over and play the event to its end
        done = _until(c, event, lambda x: x["status"] == "finished")
        assert done["status"] == "finished", done["status"]
        for room in playing:
            assert b.call("GET", f"/api/rooms/{room}").json()["node"] in ("b", "c"), room
        on_c = c.call("GET", f"/api/events/{event}/standings").json()
        on_b = b.call("GET", f"/api/events/{event}/standings").json()
        assert on_c == on_b and on_c["final"] is True
        assert on_c["hands"] == 4 * DEALS
        assert abs(sum(x["score"] for x in on_c["standings"])) < 1e-3
        assert (
            c.call("GET", f"/api/events/{event}").json()
            == b.call("GET", f"/api/events/{event}").json()
        )
        # every table dealt the event's deals, before and after the takeover
        store = Store(postgres_db)
        try:
            with store.engine.connect() as conn:
                secret = str(
                    conn.execute(select(e.events.c.secret).where(e.events.c.id == event)).scalar()
                )
                hands = conn.execute(
                    select(t.hands.c.room_id, t.hands.c.hand_no, t.hands.c.seed).where(
                        t.hands.c.room_id.in_(rooms), t.hands.c.status == "over"
                    )
                ).all()
        finally:
            store.close()
        assert len(hands) == 4 * DEALS
        for h in hands:
            assert h.seed == deal_seed(secret, h.hand_no - 1), (h.room_id, h.hand_no)
    finally:
        _each(Node.stop, nodes)


def test_an_event_cancelled_through_another_node_closes_its_tables_where_they_play(
    tmp_path: Path, postgres_db: str, redis_url: str
) -> None:
    """The tables play on the node that started the event; the cancel reaches the other
    node, which has none of them: the playing node closes its own at its next look."""
    a, b = nodes = [Node(tmp_path / n, postgres_db, redis_url, n) for n in ("a", "b")]
    for node in nodes:
        node.limits = {**TEST_LIMITS, "min_bot_delay": 0.05}
    try:
        _each(Node.start, nodes)
        staff = staff_on(postgres_db, a, "support")
        made = a.call("POST", "/api/events", staff, json={"code": "anshan-fangyang", "deals": 8})
        event = made.json()["id"]
        for level in ("easy", "normal", "easy", "normal"):
            a.call("POST", f"/api/events/{event}/entrants", staff, json={"bot": level})
        started = a.call("POST", f"/api/events/{event}/start", staff)
        assert started.status_code == 200, started.text
        rooms = [x["room"] for x in started.json()["tables"]]
        for room in rooms:
            assert a.call("GET", f"/api/rooms/{room}").json()["node"] == "a"
        off = b.call("POST", f"/api/events/{event}/cancel", staff, json={"reason": "test"})
        assert off.status_code == 200, off.text
        assert off.json()["standings"]["cancelled"] is True
        found = _until(b, event, lambda x: all(t["status"] == "closed" for t in x["tables"]))
        assert [x["status"] for x in found["tables"]] == ["closed"] * len(rooms)
        for room in rooms:
            assert a.call("GET", f"/api/rooms/{room}").json()["status"] == "closed"
        assert a.call("GET", f"/api/events/{event}/standings").json()["standings"] == []
    finally:
        _each(Node.stop, nodes)
