"""docs/deploy.md works as written: its three nodes behind its nginx configuration (the
ports moved to free ones), on a throwaway PostgreSQL and Redis. A room made through the
proxy is played on its node through the socket URL its info gives; a socket opened on
the proxy's catch-all is told where to go, or reaches the right node. Skips without nginx
(Debian: apt-get install nginx-light)."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import subprocess
import time
from pathlib import Path

import httpx
import pytest
import websockets
from test_cluster import Node

from server_process import free_port

DOC = (Path(__file__).resolve().parents[2] / "docs" / "deploy.md").read_text(encoding="utf-8")


def _nginx_conf() -> str:
    found = re.search(r"```nginx\n(.*?)```", DOC, re.S)
    assert found is not None, "docs/deploy.md has no nginx block"
    return found.group(1)


def test_the_nginx_configuration_of_deploy_md(
    tmp_path: Path, postgres_db: str, redis_url: str
) -> None:
    nginx = shutil.which("nginx") or (
        "/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None
    )
    if nginx is None:
        pytest.skip("nginx is not installed")
    entry = free_port()
    ports = {8001: free_port(), 8002: free_port(), 8003: free_port()}
    conf = _nginx_conf().replace("listen 8080;", f"listen 127.0.0.1:{entry};")
    for old, new in ports.items():
        conf = conf.replace(f"127.0.0.1:{old}", f"127.0.0.1:{new}")
    prefix = tmp_path / "nginx"
    (prefix / "logs").mkdir(parents=True)
    (prefix / "nginx.conf").write_text(
        f"pid {prefix}/nginx.pid;\nerror_log {prefix}/logs/error.log;\nevents {{}}\n"
        f"http {{\naccess_log off;\nclient_body_temp_path {prefix};\n"
        f"proxy_temp_path {prefix};\n{conf}\n}}\n",
        encoding="utf-8",
    )
    proxy = subprocess.Popen(
        [nginx, "-p", str(prefix), "-c", str(prefix / "nginx.conf"), "-g", "daemon off;"],
        stderr=subprocess.PIPE,
    )
    nodes = []
    try:
        for name, port in zip("abc", ports.values(), strict=True):
            node = Node(tmp_path / name, postgres_db, redis_url, name)
            node.port = port
            public = f"http://127.0.0.1:{entry}/node/{name}"
            node.extra = ("--redis", redis_url, "--node", name, "--public-url", public)
            nodes.append(node.start())
        base = f"http://127.0.0.1:{entry}"
        end = time.monotonic() + 20
        while httpx.get(f"{base}/api/health", timeout=5).status_code != 200:
            assert time.monotonic() < end, "nginx does not pass requests on"
            time.sleep(0.2)
        token = httpx.post(f"{base}/api/players", json={"name": "ann"}).json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        body = {"code": "toy", "options": {"bots": 1, "bot_delay": 0, "pause": 0}, "seat": 0}
        made = httpx.post(f"{base}/api/rooms", json=body, headers=auth, timeout=10)
        assert made.status_code == 201, made.text
        room = made.json()["room"]["id"]
        # the creating node takes the room's lease just after storing the room: another
        # node may answer before it sees the lease (node null), so wait for it, bounded
        end = time.monotonic() + 10
        info = httpx.get(f"{base}/api/rooms/{room}", headers=auth, timeout=10).json()
        while not info.get("node") and time.monotonic() < end:
            time.sleep(0.2)
            info = httpx.get(f"{base}/api/rooms/{room}", headers=auth, timeout=10).json()
        assert info["ws"] == f"ws://127.0.0.1:{entry}/node/{info['node']}/ws/rooms/{room}"

        async def play() -> None:
            async with websockets.connect(f"{info['ws']}?token={token}") as ws:
                welcome = json.loads(await asyncio.wait_for(ws.recv(), 10))
                assert welcome["type"] == "welcome" and welcome["seat"] == 0
                assert welcome["room"]["node"] == info["node"]
            async with websockets.connect(
                f"ws://127.0.0.1:{entry}/ws/rooms/{room}?token={token}"
            ) as ws:
                first = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if first["type"] == "error":
                    assert first["code"] == "wrong_node" and info["ws"] in first["message"]
                else:
                    assert first["type"] == "welcome"

        asyncio.run(play())
        # a REST call on the room through another node's prefix is passed to its node
        other = next(n for n in "abc" if n != info["node"])
        spectate = httpx.get(f"{base}/node/{other}/api/rooms/{room}/spectate", headers=auth)
        end, moved = time.monotonic() + 15, False
        while spectate.status_code == 503 and time.monotonic() < end:
            # 503 room_moving: the room is between nodes (a node under load gave it up
            # when its renewals fell behind); the documented answer is to try again
            time.sleep(float(spectate.headers.get("retry-after", "1")))
            moved = True
            spectate = httpx.get(f"{base}/node/{other}/api/rooms/{room}/spectate", headers=auth)
        assert spectate.status_code == 200, spectate.text
        assert moved or spectate.json()["room"]["node"] == info["node"]
    finally:
        for node in nodes:
            node.stop()
        proxy.terminate()
        proxy.wait(10)
