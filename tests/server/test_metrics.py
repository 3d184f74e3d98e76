"""``GET /metrics`` of a single server (no ``--redis``): the Prometheus text format, its
series labelled ``node="single"``, the counters agreeing with what the database stored."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import httpx
import websockets
from prometheus_client.parser import text_string_to_metric_families
from server_helpers import Server

from paiju.server.store import Store


def _series(server: Server) -> dict[str, float]:
    answer = httpx.get(f"{server.base}/metrics", timeout=10)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain; version=")
    found: dict[str, float] = {}
    for family in text_string_to_metric_families(answer.text):
        for sample in family.samples:
            assert sample.labels.get("node") == "single", sample
            if sample.name.startswith("paiju_commit_seconds_bucket"):
                continue
            found[sample.name] = sample.value
    return found


def test_a_single_server_serves_metrics_that_match_its_database(tmp_path: Path) -> None:
    server = Server(tmp_path).start()
    try:
        before = _series(server)
        assert before["paiju_rooms"] == 0 and before["paiju_actions_total"] == 0
        assert "paiju_leases" not in before  # the cluster's series are a cluster node's
        # a room of bots plays its match to the end; a waiting room keeps a socket open
        viewer = server.register("watcher")
        played = server.create_room(viewer, "toy", seat=None, seats=2, bots=2)["room"]["id"]
        waiting = server.create_room(viewer, "toy", seats=2, bots=0)["room"]["id"]
        end = time.monotonic() + 60
        while server.call("GET", f"/api/rooms/{played}", viewer).json()["status"] != "finished":
            assert time.monotonic() < end, "the bots' room did not finish"
            time.sleep(0.2)

        async def with_a_socket() -> dict[str, float]:
            url = f"{server.ws_base}/ws/rooms/{waiting}"
            async with websockets.connect(url, additional_headers=_auth(viewer)) as ws:
                while json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] != "welcome":
                    pass
                return _series(server)

        now = asyncio.run(with_a_socket())
        store = Store(str(server.db))
        try:
            actions, hands = store.count_actions(), len(store.hands(played))
        finally:
            store.close()
        assert actions > 0 and hands > 0
        assert now["paiju_actions_total"] == actions
        assert now["paiju_hands_total"] == hands
        assert now["paiju_commit_seconds_count"] >= 1
        # the cyclic garbage collector's work, which pauses every room, is watched too
        assert {"python_gc_collections_total", "python_gc_objects_collected_total"} <= set(now)
        assert now["paiju_connections"] == 1
        assert now["paiju_rooms"] >= 1  # the waiting room (the finished one leaves later)
    finally:
        server.stop()


def _auth(token: str) -> dict[str, str]:
    """The socket's credentials: a token travels in a header, never in a URL."""
    return {"Authorization": f"Bearer {token}"}
