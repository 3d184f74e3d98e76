"""Announcements: the lobby's banner and its scrolling notice (跑马灯), in zh and en, each
with a start and an end, and notices sent at once to one room's table or to every table.

The lobby reads the ones showing now (``GET /api/announcements``, public); a notice to
tables is also kept here (kind ``notice``) so that the trail and the console list it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy import func, insert, or_, select, update

from paiju.server.accounts import audit
from paiju.server.admin import tables as s
from paiju.server.errors import ServerError
from paiju.server.store import Store, off_loop

__all__ = ["KINDS", "MAX_TEXT", "NOTICE_SECONDS", "Announcements", "Notices", "notice_text"]

log = logging.getLogger("paiju.server")

KINDS = ("banner", "marquee", "notice")
MAX_TEXT = 500
NOTICE_SECONDS = 1.0
"""How often a server looks for new notices to its tables."""


def _row(r: Any) -> dict[str, Any]:
    return {
        "id": int(r.id),
        "kind": r.kind,
        "text": {"zh": r.text_zh, "en": r.text_en},
        "room": r.room_id,
        "starts": float(r.starts),
        "ends": None if r.ends is None else float(r.ends),
        "by": r.by,
    }


class Announcements:
    def __init__(self, store: Store) -> None:
        self.store = store

    def add(
        self,
        kind: str,
        zh: str,
        en: str,
        by: str,
        *,
        room: int | None = None,
        starts: float | None = None,
        ends: float | None = None,
        address: str | None = None,
    ) -> dict[str, Any]:
        """Keep an announcement (audited); one language's text stands for the other's
        where only one is given."""
        if kind not in KINDS:
            raise ServerError("bad_request", f"an announcement is one of {KINDS}, not {kind!r}")
        zh, en = zh.strip(), en.strip()
        if not zh and not en:
            raise ServerError("bad_request", "an announcement needs a text")
        if max(len(zh), len(en)) > MAX_TEXT:
            raise ServerError("bad_request", f"an announcement is at most {MAX_TEXT} characters")
        now = self.store.clock()
        starts = now if starts is None else starts
        if ends is not None and ends <= starts:
            raise ServerError("bad_request", "an announcement ends after it starts")
        values = {
            "kind": kind,
            "text_zh": zh or en,
            "text_en": en or zh,
            "room_id": room,
            "starts": starts,
            "ends": ends,
            "by": by,
            "created_at": now,
        }
        with self.store.engine.begin() as conn:
            new = conn.execute(insert(s.announcements).values(**values)).inserted_primary_key
            assert new is not None
            audit.record(
                conn,
                at=now,
                actor=by,
                action="announce",
                target=None,
                reason=(en or zh)[:200],
                address=address,
                detail={"kind": kind, "room": room, "starts": starts, "ends": ends},
            )
            row = conn.execute(
                select(s.announcements).where(s.announcements.c.id == int(new[0]))
            ).one()
        return _row(row)

    def showing(self, kinds: tuple[str, ...] = ("banner", "marquee")) -> list[dict[str, Any]]:
        """The announcements showing now, newest first."""
        now = self.store.clock()
        an = s.announcements
        with self.store.engine.connect() as conn:
            rows = conn.execute(
                select(an)
                .where(
                    an.c.kind.in_(kinds),
                    an.c.withdrawn_at.is_(None),
                    an.c.starts <= now,
                    or_(an.c.ends.is_(None), an.c.ends > now),
                )
                .order_by(an.c.id.desc())
            ).all()
        return [_row(r) for r in rows]

    def recent(self, limit: int = 100) -> list[dict[str, Any]]:
        an = s.announcements
        with self.store.engine.connect() as conn:
            rows = conn.execute(
                select(an).where(an.c.withdrawn_at.is_(None)).order_by(an.c.id.desc()).limit(limit)
            ).all()
        return [_row(r) for r in rows]

    def withdraw(self, announcement: int, by: str, address: str | None = None) -> bool:
        now = self.store.clock()
        with self.store.engine.begin() as conn:
            done = conn.execute(
                update(s.announcements)
                .where(
                    s.announcements.c.id == announcement, s.announcements.c.withdrawn_at.is_(None)
                )
                .values(withdrawn_at=now)
            ).rowcount
            if done:
                audit.record(
                    conn,
                    at=now,
                    actor=by,
                    action="withdraw_announcement",
                    target=None,
                    reason=f"announcement {announcement}",
                    address=address,
                    detail={"announcement": announcement},
                )
        return bool(done)


class Notices:
    """Delivers the notices to tables kept in the database (by the console, by ``paiju
    admin announce --room``, by any node of a cluster) to the tables this process plays:
    each socket of the room gets an ``error`` message of code ``operator_notice`` with
    the text in zh and en. Checked every :data:`NOTICE_SECONDS` while this process has a
    socket at a table; a notice older than a minute when first seen is not sent."""

    def __init__(self, store: Store, rooms: Callable[[], Iterable[Any]]) -> None:
        self.store = store
        self.rooms = rooms
        self.seen = 0
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.seen = await off_loop(self.store, self._newest)
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._task, 2.0)

    def _newest(self) -> int:
        with self.store.engine.connect() as conn:
            return int(conn.execute(select(func.max(s.announcements.c.id))).scalar() or 0)

    def _after(self, seen: int) -> list[dict[str, Any]]:
        an = s.announcements
        now = self.store.clock()
        with self.store.engine.connect() as conn:
            rows = conn.execute(
                select(an).where(an.c.id > seen, an.c.kind == "notice").order_by(an.c.id)
            ).all()
        return [{**_row(r), "fresh": float(r.created_at) > now - 60} for r in rows]

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(NOTICE_SECONDS)
            if not any(room.clients() for room in list(self.rooms())):
                continue  # nobody to tell: an idle server stays idle
            try:
                await self.tick()
            except Exception as exc:
                log.warning("cannot read the notices to tables just now (%r)", exc)

    async def tick(self) -> int:
        """Send the notices kept since the last check; returns the sockets sent to."""
        found = await off_loop(self.store, self._after, self.seen)
        sent = 0
        for notice in found:
            self.seen = max(self.seen, notice["id"])
            if not notice["fresh"]:
                continue
            text = notice_text(notice["text"]["zh"], notice["text"]["en"])
            for room in list(self.rooms()):
                if notice["room"] is not None and room.id != notice["room"]:
                    continue
                for client in room.clients():
                    client.send(text)
                    sent += 1
        return sent


def notice_text(zh: str, en: str) -> str:
    """The message a table is sent for a notice of the operator."""
    from paiju.server.messages import ErrorMsg

    zh, en = zh.strip() or en.strip(), en.strip() or zh.strip()
    if not zh:
        raise ServerError("bad_request", "a notice needs a text")
    message = ErrorMsg(code="operator_notice", message=en, text={"zh": zh, "en": en})
    return message.model_dump_json()
