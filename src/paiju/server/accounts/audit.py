"""The audit trail: every operator action on an account, in a chain of hashes.

Each entry carries the sha256 of the one before (``prev_hash``) and its own ``hash``, the
sha256 of ``prev_hash`` and the entry's fields in a canonical JSON form: an entry changed,
removed or inserted later breaks the chain at that point, and :func:`verify` names the
first entry that no longer holds. (Whoever can write the database can also rewrite the
whole chain from the broken entry on; keep a copy of the newest hash elsewhere, as
``paiju admin audit verify`` prints it, to notice that too.)
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from sqlalchemy import Connection, Engine, select, text

from paiju.server.accounts import tables as a

__all__ = ["GENESIS", "entry_hash", "record", "verify"]

_CHAIN_LOCK = 0x7061_696A_7541
"""The PostgreSQL advisory lock that makes the chain's writers take turns ("paijuA")."""

GENESIS = "0" * 64
"""The ``prev_hash`` of the first entry."""


def entry_hash(prev_hash: str, fields: dict[str, Any]) -> str:
    """The hash of an entry: sha256 of the previous hash and its fields as canonical JSON."""
    body = json.dumps(fields, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256((prev_hash + body).encode()).hexdigest()


def _fields(row: Any) -> dict[str, Any]:
    return {
        "at": float(row.at),
        "actor": row.actor,
        "action": row.action,
        "target": row.target,
        "reason": row.reason,
        "address": row.address,
        "detail": row.detail,
    }


def record(
    conn: Connection,
    *,
    at: float,
    actor: str,
    action: str,
    target: int | None,
    reason: str,
    address: str | None = None,
    detail: dict[str, Any] | None = None,
) -> str:
    """Append an entry in ``conn``'s transaction; returns its hash."""
    if conn.dialect.name == "postgresql":  # one writer of the chain at a time
        conn.execute(text(f"SELECT pg_advisory_xact_lock({_CHAIN_LOCK})"))
    last = conn.execute(
        select(a.audit_log.c.hash).order_by(a.audit_log.c.id.desc()).limit(1)
    ).scalar()
    prev = str(last) if last is not None else GENESIS
    fields = {
        "at": float(at),
        "actor": actor,
        "action": action,
        "target": target,
        "reason": reason,
        "address": address,
        "detail": json.dumps(detail or {}, sort_keys=True, ensure_ascii=False),
    }
    digest = entry_hash(prev, fields)
    conn.execute(a.audit_log.insert().values(**fields, prev_hash=prev, hash=digest))
    return digest


def verify(engine: Engine) -> tuple[int, int | None, str]:
    """Check the chain: (entries checked, the id of the first broken entry or None, the
    newest hash)."""
    prev = GENESIS
    count = 0
    with engine.connect() as conn:
        rows = conn.execute(select(a.audit_log).order_by(a.audit_log.c.id))
        for row in rows:
            count += 1
            if row.prev_hash != prev or entry_hash(prev, _fields(row)) != row.hash:
                return count, int(row.id), prev
            prev = str(row.hash)
    return count, None, prev
