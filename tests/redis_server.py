"""A throwaway Redis server for the tests: ``redis-server`` on 127.0.0.1 and a free port,
no persistence (no RDB snapshot, no append-only file), in a temporary folder that is deleted
when it stops.

:func:`find_redis_server` finds the binary (``redis-server`` on ``PATH``, or Debian's
``/usr/bin/redis-server``); ``PAIJU_REDIS_SERVER`` names it instead (and only that is tried).
Each test gets a database number of its own (:meth:`RedisServer.url`), flushed first.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from server_process import free_port

__all__ = ["RedisServer", "find_redis_server"]


def find_redis_server() -> Path | None:
    """The ``redis-server`` binary; None if absent."""
    override = os.environ.get("PAIJU_REDIS_SERVER")
    if override:
        path = Path(override)
        return path if path.is_file() else None
    found = shutil.which("redis-server")
    if found:
        return Path(found)
    debian = Path("/usr/bin/redis-server")
    return debian if debian.is_file() else None


class RedisServer:
    """One ``redis-server`` process in its own temporary folder."""

    DATABASES = 64

    def __init__(self, binary: Path) -> None:
        self.binary = binary
        self.folder = Path(tempfile.mkdtemp(prefix="paiju-redis-"))
        self.log = self.folder / "redis.log"
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None
        self._next_db = 0

    def start(self, timeout: float = 20.0) -> RedisServer:
        """Start the server; waits until it answers ``PING``."""
        for attempt in range(3):  # another process may take the free port first
            self.port = free_port()
            self.proc = subprocess.Popen(
                [
                    str(self.binary),
                    "--bind",
                    "127.0.0.1",
                    "--port",
                    str(self.port),
                    "--dir",
                    str(self.folder),
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                    "--databases",
                    str(self.DATABASES),
                    "--logfile",
                    str(self.log),
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.STDOUT,
                cwd=self.folder,
            )
            end = time.monotonic() + timeout
            while time.monotonic() < end and self.proc.poll() is None:
                if self._ping():
                    return self
                time.sleep(0.05)
            self._kill()
            if attempt == 2:
                log = self.log.read_text(errors="replace") if self.log.exists() else ""
                raise RuntimeError(f"redis-server did not start on port {self.port}:\n{log}")
        raise AssertionError("unreachable")

    def _ping(self) -> bool:
        with (
            contextlib.suppress(OSError),
            socket.create_connection(("127.0.0.1", self.port), 1) as s,
        ):
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
        return False

    def url(self, database: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{database}"

    def fresh_url(self) -> str:
        """A database number no earlier test used, flushed (``redis://…/N``)."""
        self._next_db = (self._next_db + 1) % self.DATABASES
        with socket.create_connection(("127.0.0.1", self.port), 5) as s:
            s.sendall(f"SELECT {self._next_db}\r\nFLUSHDB\r\n".encode())
            answer = b""
            while answer.count(b"\r\n") < 2:
                answer += s.recv(64)
        return self.url(self._next_db)

    def _kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        """Stop the server and delete its folder."""
        try:
            if self.proc is not None and self.proc.poll() is None:
                self.proc.send_signal(signal.SIGTERM)
                try:
                    self.proc.wait(10)
                except subprocess.TimeoutExpired:
                    self._kill()
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
