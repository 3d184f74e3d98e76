"""Players' reports (举报) of chat lines, for staff to look at and handle.

A seated player reports another seat's free text at the table (the ``report`` message,
the table's 举报 button). The report is kept with the room, the hand in play, who
reported whom, and the reported seat's last free texts as the table read them (the server
keeps a seat's last :data:`~paiju.server.chat.LINES_KEPT` texts: the lines are the
server's, not the reporter's account of them). A reporter counts once per seat and room.
Staff list them (the open ones first), mute the player if they judge so, and mark the
report handled with an outcome; each handling is in the audit trail.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from sqlalchemy import insert, select, update

from paiju.server.accounts import audit
from paiju.server.admin import tables as s
from paiju.server.errors import ServerError
from paiju.server.store import Store, off_loop

__all__ = ["ChatReports"]

log = logging.getLogger("paiju.server")


class ChatReports:
    """The chat reports of one database."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._writing: set[asyncio.Task[Any]] = set()

    def add(self, report: dict[str, Any]) -> int:
        """Keep a report (blocking); its id."""
        with self.store.engine.begin() as conn:
            new = conn.execute(
                insert(s.chat_reports).values(
                    room_id=report["room"],
                    hand_id=report.get("hand"),
                    reporter=report["reporter"],
                    reported=report.get("reported"),
                    seat=report["seat"],
                    lines=list(report.get("lines", [])),
                    at=self.store.clock(),
                )
            ).inserted_primary_key
        assert new is not None
        return int(new[0])

    def keep_soon(self, report: dict[str, Any]) -> None:
        """Keep a report off the event loop (the room's hook: it does not wait)."""

        async def write() -> None:
            try:
                await off_loop(self.store, self.add, report)
            except Exception:
                log.exception("a chat report could not be kept: %r", report)

        task = asyncio.get_running_loop().create_task(write())
        self._writing.add(task)
        task.add_done_callback(self._writing.discard)

    async def settled(self) -> None:
        """Wait for the reports being written (tests, shutdown)."""
        while self._writing:
            await asyncio.gather(*list(self._writing), return_exceptions=True)

    def listing(self, open_only: bool = True, limit: int = 500) -> list[dict[str, Any]]:
        """The reports, the newest first (``open_only``: those not handled yet), with the
        names of who reported and who was reported."""
        r = s.chat_reports
        q = select(r).order_by(r.c.id.desc()).limit(limit)
        if open_only:
            q = q.where(r.c.handled_at.is_(None))
        with self.store.engine.connect() as conn:
            rows = conn.execute(q).all()
        ids = sorted({p for row in rows for p in (row.reporter, row.reported) if p is not None})
        names = self.store.player_names(ids)
        return [
            {
                "id": int(row.id),
                "at": float(row.at),
                "room": int(row.room_id),
                "hand": row.hand_id,
                "reporter": int(row.reporter),
                "reporter_name": names.get(int(row.reporter)),
                "reported": row.reported,
                "reported_name": None if row.reported is None else names.get(int(row.reported)),
                "seat": int(row.seat),
                "lines": list(row.lines or []),
                "handled_at": row.handled_at,
                "handled_by": row.handled_by,
                "outcome": row.outcome,
            }
            for row in rows
        ]

    def against(self, player: int) -> list[dict[str, Any]]:
        """The reports against ``player`` (a player's file)."""
        return [x for x in self.listing(open_only=False) if x["reported"] == player]

    def handle(self, report: int, outcome: str, by: str, address: str | None = None) -> None:
        """Mark a report handled with ``outcome`` (audited)."""
        if not outcome.strip():
            raise ServerError("bad_request", "handling a report needs an outcome")
        now = self.store.clock()
        r = s.chat_reports
        with self.store.engine.begin() as conn:
            row = conn.execute(select(r.c.reported).where(r.c.id == report)).first()
            if row is None:
                raise ServerError("no_chat_report", f"no chat report {report}", 404)
            conn.execute(
                update(r)
                .where(r.c.id == report)
                .values(handled_at=now, handled_by=by, outcome=outcome)
            )
            audit.record(
                conn,
                at=now,
                actor=by,
                action="chat_report",
                target=row.reported,
                reason=outcome,
                address=address,
                detail={"report": report},
            )
