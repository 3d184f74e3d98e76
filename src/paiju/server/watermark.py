"""The id watermark beside a SQLite file (:class:`Watermark`): a database gone back in
time is noticed, and a hand id is never given twice."""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from pathlib import Path
from typing import Any

from paiju.errors import PaijuError

__all__ = ["Watermark"]

log = logging.getLogger("paiju.server")


class Watermark:
    """``<db>.ids`` beside a SQLite file: the hand ids this server reserved and the
    highest one it knows was stored, and how many players there were.

    * Ids are reserved in blocks of :attr:`BLOCK` (the file is written and synced
      before an id of a new block is given): after a crash or a lost ``-wal`` file the
      next id is past every id ever given - a seed commitment names one hand for ever.
    * At start-up a database holding fewer hands (or players) than the watermark saw
      went back in time - its last commits were lost (a deleted ``-wal``, a restored
      backup, a truncated file): the server refuses to start and says so, unless the
      operator allows it (``--allow-rollback``), and then it logs the loss loudly.
    """

    BLOCK = 1000
    SAVE_EVERY = 1.0

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        """Ids are reserved on the event loop and marked stored by the journal's writer."""
        self.reserved = 0
        self.stored = 0
        self.players = 0
        self._saved_at = 0.0
        self._dirty = False

    def check(self, db_hands: int, db_players: int, fresh: bool, allow: bool, shown: str) -> int:
        """Compare the database with the watermark; the id to count hands from."""
        seen: dict[str, Any] = {}
        if self.path.exists():
            try:
                seen = json.loads(self.path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise PaijuError(f"the id watermark {self.path} is unreadable: {exc}") from None
        self.reserved = int(seen.get("reserved", 0))
        self.stored = int(seen.get("stored", 0))
        self.players = int(seen.get("players", 0))
        lost_hands = self.stored - db_hands
        lost_players = self.players - db_players
        if lost_hands > 0 or lost_players > 0:
            what = (
                f"the database {shown} went back in time: it holds hands up to id {db_hands}"
                f" and {db_players} players, but this server had stored hands up to id"
                f" {self.stored} and {self.players} players ({max(lost_hands, 0)} hand ids"
                f" and {max(lost_players, 0)} players are missing)"
                + (" - the file was empty or new" if fresh else "")
                + ". Its last commits were lost (a deleted -wal file, a restored backup,"
                " a truncated file?)"
            )
            if not allow:
                raise PaijuError(
                    what + ". Restore the database, or start with --allow-rollback to"
                    " serve from it anyway (no id is given twice)"
                )
            log.error(
                "%s; starting anyway (--allow-rollback), ids continue after %d", what, self.reserved
            )
            self.stored = db_hands
        elif fresh and not self.path.exists():
            log.warning("paiju: starting a new, empty database at %s", shown)
        self.stored = max(self.stored, db_hands)
        self.players = max(self.players, db_players)
        start = max(db_hands, self.reserved)
        self.reserve(start + 1)
        return start

    def reserve(self, hand_id: int) -> None:
        """Make sure ``hand_id`` is reserved (written and synced) before it is given. Only
        the event loop reserves, and ``reserved`` only grows: an id of the block reserved
        already is given without the lock, so that a deal never waits for the writer
        thread's save (its file synced) of the ids stored."""
        if hand_id <= self.reserved:
            return
        with self._lock:
            if hand_id > self.reserved:
                self.reserved = hand_id + self.BLOCK
                self._save(force=True)

    def stored_up_to(self, hand_id: int) -> None:
        """Hands up to ``hand_id`` are committed (saved at most every second)."""
        with self._lock:
            if hand_id > self.stored:
                self.stored = hand_id
                self._dirty = True
                self._save()

    def player_added(self) -> None:
        with self._lock:
            self.players += 1
            self._dirty = True
            self._save()

    def save(self, force: bool = False) -> None:
        with self._lock:
            self._save(force)

    def _save(self, force: bool = False) -> None:
        now = time.monotonic()
        if not force and (not self._dirty or now - self._saved_at < self.SAVE_EVERY):
            return
        body = json.dumps(
            {"reserved": self.reserved, "stored": self.stored, "players": self.players}
        )
        tmp = self.path.with_name(self.path.name + ".tmp")
        with open(tmp, "w", encoding="utf-8") as out:
            out.write(body)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, self.path)
        self._saved_at, self._dirty = now, False
