"""A throwaway PostgreSQL server for the tests: ``initdb`` into a temporary folder, ``pg_ctl
start`` on 127.0.0.1 and a free port, one fresh database per test, then stop and delete.

PostgreSQL refuses to run as root, so when the tests run as root the cluster is created and
run as an unprivileged user (``postgres`` when the system has one, else ``nobody``) through
``runuser`` (or ``setpriv``); the temporary folder is handed to that user. The cluster trusts
local connections (it listens on loopback only, for one test session) and runs with
``fsync=off``: a crash of the *machine* may lose it, which is all a test cluster may lose.

:func:`find_bindir` finds the server binaries (``initdb`` on ``PATH`` or Debian's
``/usr/lib/postgresql/<version>/bin``); ``PAIJU_PG_BINDIR`` names the folder instead (and
only that folder is tried).
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Sequence
from pathlib import Path

from server_process import free_port

__all__ = ["PostgresCluster", "find_bindir"]

SUPERUSER = "paiju"
"""The cluster's superuser role (``initdb -U``); connections need no password."""


def find_bindir() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl``, newest version first; None if absent."""
    override = os.environ.get("PAIJU_PG_BINDIR")
    if override:
        folder = Path(override)
        return folder if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file() else None
    candidates: list[Path] = []
    found = shutil.which("initdb")
    if found:
        candidates.append(Path(found).resolve().parent)
    versions = glob.glob("/usr/lib/postgresql/*/bin")
    versions.sort(key=lambda p: [int(x) for x in Path(p).parent.name.split(".") if x.isdigit()])
    candidates.extend(Path(p) for p in reversed(versions))
    for folder in candidates:
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    return None


def _unprivileged_user() -> str:
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    raise RuntimeError("running as root and no 'postgres' or 'nobody' user to run PostgreSQL as")


class PostgresCluster:
    """One PostgreSQL server of the binaries in ``bindir``, in its own temporary folder."""

    def __init__(self, bindir: Path, options: Sequence[str] = ()) -> None:
        self.bindir = bindir
        self.options = list(options)
        """More ``-c name=value`` settings of the server (a bench's ``pg_stat_statements``)."""
        self.user: str | None = _unprivileged_user() if os.geteuid() == 0 else None
        # as root, in /tmp: the user must reach the folder, and a TMPDIR may be private;
        # a short path also keeps the socket's name within the 107 bytes a socket may have
        parent = "/tmp" if self.user is not None and os.path.isdir("/tmp") else None
        self.folder = Path(tempfile.mkdtemp(prefix="paiju-pg-", dir=parent))
        self.data = self.folder / "data"
        self.sockets = self.folder / "sockets"
        self.log = self.folder / "server.log"
        self.port = 0
        self.started = False

    def _run(self, args: Sequence[str]) -> None:
        command = [str(self.bindir / args[0]), *args[1:]]
        if self.user is not None:
            if shutil.which("runuser"):
                command = ["runuser", "-u", self.user, "--", *command]
            else:
                entry = pwd.getpwnam(self.user)
                command = [
                    "setpriv",
                    f"--reuid={entry.pw_uid}",
                    f"--regid={entry.pw_gid}",
                    "--clear-groups",
                    *command,
                ]
        done = subprocess.run(
            command, cwd=self.folder, capture_output=True, text=True, timeout=120, check=False
        )
        if done.returncode != 0:
            log = self.log.read_text(errors="replace") if self.log.exists() else ""
            raise RuntimeError(
                f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}{done.stderr}{log}"
            )

    def start(self) -> PostgresCluster:
        """``initdb`` and start the server; waits until it accepts connections."""
        self.sockets.mkdir()
        if self.user is not None:
            entry = pwd.getpwnam(self.user)
            for path in (self.folder, self.sockets):
                os.chown(path, entry.pw_uid, entry.pw_gid)
        self._run(
            [
                "initdb",
                "-D",
                str(self.data),
                "-U",
                SUPERUSER,
                "--auth=trust",
                "--encoding=UTF8",
                "--no-locale",
                "--no-sync",
            ]
        )
        for attempt in range(3):  # another process may take the free port first
            self.port = free_port()
            options = " ".join(
                [
                    "-h 127.0.0.1",
                    f"-p {self.port}",
                    f"-k {self.sockets}",
                    "-c fsync=off",
                    "-c synchronous_commit=off",
                    "-c full_page_writes=off",
                    "-c max_connections=200",
                    *(f"-c {o}" for o in self.options),
                ]
            )
            try:
                log, data = str(self.log), str(self.data)
                self._run(["pg_ctl", "-D", data, "-l", log, "-o", options, "-w", "start"])
            except RuntimeError:
                if attempt == 2:
                    raise
                continue
            self.started = True
            return self
        raise AssertionError("unreachable")

    @property
    def admin_dsn(self) -> str:
        """The superuser's DSN on the maintenance database ``postgres``."""
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/postgres"

    def dsn(self, database: str) -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def _admin(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(self.admin_dsn, autocommit=True) as conn:
            conn.execute(sql)

    def create_database(self) -> str:
        """A new, empty database; its DSN (no driver named, as a user would write it)."""
        name = f"t_{uuid.uuid4().hex[:16]}"
        self._admin(f'CREATE DATABASE "{name}"')
        return self.dsn(name)

    def drop_database(self, dsn: str) -> None:
        """Drop a database :meth:`create_database` made (closing what is still connected)."""
        name = dsn.rsplit("/", 1)[1]
        self._admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def stop(self) -> None:
        """Stop the server and delete its folder."""
        try:
            if self.started:
                self._run(["pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop"])
                self.started = False
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
