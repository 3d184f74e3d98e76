"""Announcements: the lobby's banner and its scrolling notice (跑马灯), in zh and en, each
with a start and an end, and notices sent at once to one room's table or to every table.

The lobby reads the ones showing now (``GET /api/announcements``, public); a notice to
tables is also kept here (kind ``notice``) so that the trail and the console list it.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import insert, or_, select, update

from paiju.server.accounts import audit
from paiju.server.admin import tables as s
from paiju.server.errors import ServerError
from paiju.server.store import Store

__all__ = ["KINDS", "MAX_TEXT", "Announcements"]

KINDS = ("banner", "marquee", "notice")
MAX_TEXT = 500


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
