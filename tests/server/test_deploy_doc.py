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
            async with websockets.connect(info["ws"], additional_headers=_auth(token)) as ws:
                welcome = json.loads(await asyncio.wait_for(ws.recv(), 10))
                assert welcome["type"] == "welcome" and welcome["seat"] == 0
                assert welcome["room"]["node"] == info["node"]
            async with websockets.connect(
                f"ws://127.0.0.1:{entry}/ws/rooms/{room}", additional_headers=_auth(token)
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
        # the nodes' series: not through the proxy, only on a node's own port
        for path in ("/metrics", "/metrics/", "/node/a/metrics", "/node/b/metrics/", "/%6Detrics"):
            closed = httpx.get(f"{base}{path}", timeout=10)
            assert closed.status_code == 404, (path, closed.status_code)
            assert "paiju_rooms" not in closed.text
        direct = httpx.get(f"http://127.0.0.1:{ports[8001]}/metrics", timeout=10)
        assert direct.status_code == 200 and "paiju_rooms" in direct.text
    finally:
        for node in nodes:
            node.stop()
        proxy.terminate()
        proxy.wait(10)


def _acl() -> str:
    found = re.search(r"```acl\n(.*?)```", DOC, re.S)
    assert found is not None, "docs/deploy.md has no Redis ACL block"
    return found.group(1)


def test_redis_runs_with_the_acl_of_deploy_md(tmp_path: Path, postgres_db: str) -> None:
    """Redis as deploy.md runs it: a client without the nodes' password is refused, and a
    node with it counts every limit in Redis (its scripts, sets, locks), none of them on
    its own for want of a permission."""
    import redis as redis_client

    from redis_server import find_redis_server

    binary = find_redis_server()
    if binary is None:
        pytest.skip("no redis-server")
    acl = tmp_path / "paiju.acl"
    acl.write_text(_acl(), encoding="utf-8")
    port = free_port()
    options = ["--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no"]
    options += ["--aclfile", str(acl), "--dir", str(tmp_path)]
    server = subprocess.Popen([str(binary), *options], stdout=subprocess.DEVNULL)
    password = re.search(r"user paiju on >(\S+)", _acl())
    assert password is not None
    url = f"redis://paiju:{password.group(1)}@127.0.0.1:{port}/0"
    node = None
    try:
        end = time.monotonic() + 10
        while True:
            try:
                assert redis_client.Redis.from_url(url).ping()
                break
            except redis_client.ConnectionError:
                assert time.monotonic() < end, "redis-server did not start"
                time.sleep(0.1)
        anyone = redis_client.Redis.from_url(f"redis://127.0.0.1:{port}/0")
        with pytest.raises(redis_client.RedisError):
            anyone.set("paiju:node:evil", "{}")
        with pytest.raises(redis_client.RedisError):
            redis_client.Redis.from_url(url).set("elsewhere", 1)
        node = Node(tmp_path / "a", postgres_db, url, "a").start()
        token = node.register("ann")
        room = node.create_room(token, "toy", seats=2, bots=0)["room"]

        async def talk() -> None:
            async with websockets.connect(room["ws"], additional_headers=_auth(token)) as ws:
                assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "welcome"
                await ws.send(json.dumps({"type": "ping", "id": 1}))
                while json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] != "pong":
                    pass

        asyncio.run(talk())
        assert node.call("GET", "/api/invites/QQQQQQ", token).status_code == 404
        counted = redis_client.Redis.from_url(url)
        keys = {k.decode() for k in counted.scan_iter("paiju:limits:*")}
        assert any(k.startswith("paiju:limits:registrations:") for k in keys), keys
        assert any(k.startswith("paiju:limits:bucket:") for k in keys), keys
        assert any(k.startswith("paiju:limits:rooms:") for k in keys), keys
        assert any(k.startswith("paiju:limits:lookups:player:") for k in keys), keys
        assert "Redis does not answer" not in node.log.read_text(errors="replace")
    finally:
        if node is not None:
            node.stop()
        server.terminate()
        server.wait(10)


def _auth(token: str) -> dict[str, str]:
    """The socket's credentials: a token travels in a header, never in a URL."""
    return {"Authorization": f"Bearer {token}"}
