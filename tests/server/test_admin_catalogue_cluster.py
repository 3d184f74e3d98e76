"""The house's catalogue on a cluster: a game turned off and a house variant added through
one node's console hold on the other node too, without a restart (each node reads the
settings again from the shared database every few seconds).

The issue: "Catalogue: ... all without a restart and on every node."
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
import pyotp
from click.testing import CliRunner
from server_helpers import FAST
from test_cluster import Node, _each

from house_toml import house_toml
from paiju.catalog import set_house_variants
from paiju.cli import cli

PASSWORD = "lantern-drum-93"
HOUSE = house_toml("house-baozi", "本店宝子", "House Baozi")


def _entry(node: Node, code: str) -> dict[str, Any] | None:
    found = httpx.get(f"{node.base}/api/catalog", timeout=10).json()
    return next((v for v in found if v["code"] == code), None)


def test_a_catalogue_change_on_one_node_holds_on_the_other(
    tmp_path: Path, postgres_db: str, redis_url: str
) -> None:
    a, b = nodes = [Node(tmp_path / n, postgres_db, redis_url, n) for n in ("a", "b")]
    try:
        _each(Node.start, nodes)
        made = CliRunner().invoke(
            cli,
            [
                *("admin", "staff", "add", "mei", "--role", "admin", "--password", PASSWORD),
                *("--db", postgres_db, "--json"),
            ],
        )
        assert made.exit_code == 0, made.output
        secret = json.loads(made.output)["totp_secret"]
        body = {"name": "mei", "password": PASSWORD, "code": pyotp.TOTP(secret).now()}
        staff = httpx.post(f"{a.base}/api/admin/sessions", json=body, timeout=10).json()["token"]
        head = {"Authorization": f"Bearer {staff}"}
        off = httpx.put(
            f"{a.base}/api/admin/catalogue/2002", json={"enabled": False}, headers=head, timeout=10
        )
        assert off.status_code == 200, off.text
        added = httpx.post(
            f"{a.base}/api/admin/catalogue/house",
            json={"name": "ours.toml", "text": HOUSE},
            headers=head,
            timeout=30,
        )
        assert added.status_code == 201, added.text
        for _ in range(300):  # a bound: node b reads the settings every 2 s
            seen, house = _entry(b, "2002"), _entry(b, "house-baozi")
            if seen is not None and not seen["enabled"] and house is not None:
                break
            time.sleep(0.1)
        else:
            raise AssertionError("node b did not take the change")
        player = b.register("ann")
        refused = b.call(
            "POST", "/api/rooms", player, json={"code": "2002", "options": {**FAST, "bots": 1}}
        )
        assert refused.status_code == 409 and refused.json()["error"]["code"] == "game_off"
        rooms = {}
        for node in (a, b):  # wherever each is placed, both nodes know the house variant
            opts = {**FAST, "seats": 2, "bots": 1}
            made_room = node.call(
                "POST", "/api/rooms", player, json={"code": "house-baozi", "options": opts}
            )
            assert made_room.status_code == 201, made_room.text
            rooms[node.name] = made_room.json()["room"]
        for info in rooms.values():
            assert info["code"] == "house-baozi"
    finally:
        _each(Node.stop, nodes)
        set_house_variants(())
