"""A ``paiju serve`` subprocess on 127.0.0.1 for the tests that need a real server
(``tests/server`` and ``tests/web``): a free port, its own database file, start, stop, kill -9."""

from __future__ import annotations

import contextlib
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

TEST_LIMITS: dict[str, object] = {
    "min_bot_delay": 0,
    "registrations_per_address": 100_000,
    "rooms_per_address": 100_000,
    "bot_rooms_per_player": 1_000,
    "heavy_per_minute": 100_000,
    "heavy_per_client": 64,
}
"""What the test servers' operator allows: every test client comes from 127.0.0.1 and
the tests play bots flat out. Tests of these limits start servers with their own."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class ServerProcess:
    """``paiju serve`` (run as ``command``, ``python -m paiju`` by default) in ``folder``."""

    def __init__(
        self,
        folder: Path,
        port: int | None = None,
        db: str = "paiju.db",
        command: tuple[str, ...] = ("-m", "paiju"),
        limits: dict[str, object] | None = None,
    ) -> None:
        self.folder = folder
        self.db = folder / db
        self.port = port or free_port()
        self.command = command
        self.limits = TEST_LIMITS if limits is None else limits
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = folder / "server.log"
        self.extra: tuple[str, ...] = ()
        """More ``paiju serve`` options (a cluster node's ``--redis``, ``--node``, …)."""

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def launch(self, timeout: float = 90.0) -> None:
        """Start the process and wait until ``/api/health`` answers."""
        out = self.log.open("ab")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                *self.command,
                "serve",
                "--port",
                str(self.port),
                "--db",
                str(self.db),
                *(f"--limit={name}={value}" for name, value in self.limits.items()),
                *self.extra,
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=str(self.folder),
        )
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.base}/api/health", timeout=1).status_code == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError(f"server did not start: {self.log.read_text()}")

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
