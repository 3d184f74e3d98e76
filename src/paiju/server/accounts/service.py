"""Accounts over the store's database: sign-up and claiming a guest, sign-in, recovery
codes, sessions, bans and the operator's resets. Free of sockets and of the event loop:
every method is a synchronous call the router makes in a worker thread (Argon2id is
meant to be slow).

A player is a guest until it has a row in ``accounts`` (a login and a password); claiming
adds that row to the guest's own player, so its hands, ledger, record and mates stay its
own. Each sign-in opens a session (:meth:`paiju.server.store.Store.open_session`).
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Table, and_, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from paiju.server import tables as t
from paiju.server.accounts import audit
from paiju.server.accounts import tables as a
from paiju.server.accounts.logins import Passwords, check_password, clean_login, login_key
from paiju.server.errors import ServerError
from paiju.server.rows import PlayerRow
from paiju.server.store import Store, hash_token

__all__ = [
    "CODES",
    "FLAG_DAYS",
    "Accounts",
    "Ban",
    "SignedIn",
    "ban_text",
    "in_force",
]

CODES = 10
"""Recovery codes in a set."""

FLAG_DAYS = 30
"""A guest sign-up from an address a banned player used within this many days is flagged."""

_CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i: read aloud, copied by hand


@dataclass(frozen=True)
class SignedIn:
    """A session opened: the player (its ``session`` set), the token (shown once), when
    it expires, and recovery codes where a set was made (shown once)."""

    player: PlayerRow
    token: str | None
    expires: float | None
    codes: tuple[str, ...] = ()
    login: str | None = None


@dataclass(frozen=True)
class Ban:
    until: float
    reason: str


def ban_text(ban: Ban) -> str:
    """What a banned player is told: until when, and why."""
    day = datetime.fromtimestamp(ban.until, UTC).strftime("%Y-%m-%d %H:%M UTC")
    return f"this account is banned until {day}: {ban.reason}"


def _new_code() -> str:
    """A recovery code of 16 letters and digits (about 79 bits), in four groups."""
    raw = "".join(secrets.choice(_CODE_ALPHABET) for _ in range(16))
    return "-".join(raw[i : i + 4] for i in range(0, 16, 4))


def _code_hash(code: str) -> str:
    return hashlib.sha256(code.strip().lower().replace(" ", "").encode()).hexdigest()


def in_force(store: Store, table: Table, player: int) -> Any:
    """The row of ``table`` (a ban, a mute: ``player_id``, ``until``, ``reason``,
    ``lifted_at``) in force on ``player`` now that ends last, or None."""
    now = store.clock()
    with store.engine.connect() as conn:
        return conn.execute(
            select(table.c.until, table.c.reason)
            .where(
                table.c.player_id == player,
                table.c.lifted_at.is_(None),
                table.c.until > now,
            )
            .order_by(table.c.until.desc())
            .limit(1)
        ).first()


def _shown_device(device: str) -> str:
    """A device's name as its player sees it: without the browser mark kept for the
    operator (``… #mark``)."""
    return re.sub(r" #[0-9A-Za-z]{1,16}$", "", device)


def _bad_credentials() -> ServerError:
    return ServerError("bad_credentials", "wrong login name or password", 401)


class Accounts:
    """The accounts of one database (a :class:`~paiju.server.store.Store`)."""

    def __init__(self, store: Store, passwords: Passwords | None = None) -> None:
        self.store = store
        self.passwords = passwords or Passwords()

    # -- reading -----------------------------------------------------------------

    def account(self, player: int) -> dict[str, Any]:
        """What the player may know of its own account."""
        with self.store.engine.connect() as conn:
            row = conn.execute(
                select(a.accounts.c.login, a.accounts.c.created_at).where(
                    a.accounts.c.player_id == player
                )
            ).first()
            codes = conn.execute(
                select(func.count())
                .select_from(a.recovery_codes)
                .where(a.recovery_codes.c.player_id == player, a.recovery_codes.c.used_at.is_(None))
            ).scalar()
            keys = conn.execute(
                select(func.count()).select_from(a.passkeys).where(a.passkeys.c.player_id == player)
            ).scalar()
        return {
            "guest": row is None,
            "login": None if row is None else str(row.login),
            "since": None if row is None else float(row.created_at),
            "codes_left": int(codes or 0),
            "passkeys": int(keys or 0),
        }

    def player_of_login(self, login: str) -> PlayerRow | None:
        with self.store.engine.connect() as conn:
            row = conn.execute(
                select(t.players.c.id, t.players.c.name)
                .join(a.accounts, a.accounts.c.player_id == t.players.c.id)
                .where(a.accounts.c.login_key == login_key(login))
            ).first()
        return None if row is None else PlayerRow(int(row.id), str(row.name))

    def find_player(self, who: str) -> PlayerRow:
        """A player named on the command line: ``#ID``, an id, or a login name."""
        digits = who.removeprefix("#")
        if digits.isdigit():
            with self.store.engine.connect() as conn:
                row = conn.execute(
                    select(t.players.c.id, t.players.c.name).where(t.players.c.id == int(digits))
                ).first()
            if row is not None:
                return PlayerRow(int(row.id), str(row.name))
        found = self.player_of_login(who)
        if found is None:
            raise ServerError("no_player", f"no player with the id or login {who!r}", 404)
        return found

    def ban_of(self, player: int) -> Ban | None:
        """The ban in force on ``player`` (the one that ends last), or None."""
        row = in_force(self.store, a.bans, player)
        return None if row is None else Ban(float(row.until), str(row.reason))

    def sessions(self, player: int, current: int | None = None) -> list[dict[str, Any]]:
        """The player's open sessions, newest first (``current``: the asking one)."""
        now = self.store.clock()
        s = a.sessions
        with self.store.engine.connect() as conn:
            rows = conn.execute(
                select(s.c.id, s.c.device, s.c.created_at, s.c.last_seen, s.c.expires)
                .where(
                    s.c.player_id == player,
                    s.c.ended_at.is_(None),
                    (s.c.expires.is_(None)) | (s.c.expires > now),
                )
                .order_by(s.c.last_seen.desc(), s.c.id.desc())
            ).all()
        return [
            {
                "id": int(r.id),
                "device": _shown_device(str(r.device)),
                "created": float(r.created_at),
                "last_seen": float(r.last_seen),
                "expires": None if r.expires is None else float(r.expires),
                "current": int(r.id) == current,
            }
            for r in rows
        ]

    # -- signing up and in ---------------------------------------------------------

    def sign_up(
        self,
        login: str,
        password: str,
        *,
        guest: PlayerRow | None = None,
        name: str | None = None,
        device: str = "browser",
        address: str | None = None,
        lifetime: float | None = None,
    ) -> SignedIn:
        """Claim ``guest`` (its session goes on: no new token) or make a new account named
        ``name`` (default: the login) with a session of its own. The answer holds the ten
        recovery codes, shown once."""
        login = clean_login(login)
        check_password(password, login)
        digest = self.passwords.hash(password)
        now = self.store.clock()
        codes = tuple(_new_code() for _ in range(CODES))
        try:
            with self.store.engine.begin() as conn:
                token: str | None = None
                expires: float | None = None
                if guest is None:
                    player, token, expires = self._new_player(
                        conn, name or login, lifetime, device, address
                    )
                else:
                    player = guest
                    claimed = conn.execute(
                        select(a.accounts.c.login).where(a.accounts.c.player_id == guest.id)
                    ).first()
                    if claimed is not None:
                        raise ServerError(
                            "already_claimed",
                            f"this account already has the login {claimed.login!r}",
                            409,
                        )
                conn.execute(
                    insert(a.accounts).values(
                        player_id=player.id,
                        login=login,
                        login_key=login_key(login),
                        password_hash=digest,
                        created_at=now,
                        password_at=now,
                    )
                )
                self._write_codes(conn, player.id, codes)
        except IntegrityError:
            raise ServerError(
                "login_taken", f"the login name {login!r} is taken: choose another", 409
            ) from None
        return SignedIn(player, token, expires, codes, login)

    def _new_player(
        self,
        conn: Connection,
        name: str,
        lifetime: float | None,
        device: str,
        address: str | None,
    ) -> tuple[PlayerRow, str, float | None]:
        pid = conn.execute(
            insert(t.players).values(
                name=name,
                token_hash="moved:" + secrets.token_hex(16),
                created_at=self.store.clock(),
                token_expires=None,
            )
        ).inserted_primary_key
        assert pid is not None
        return self.store.open_session(
            conn, PlayerRow(int(pid[0]), name), lifetime, device, address
        )

    def sign_in(
        self,
        login: str,
        password: str,
        *,
        device: str = "browser",
        address: str | None = None,
        lifetime: float | None = None,
    ) -> SignedIn:
        """A new session for the account of ``login`` if ``password`` is its own. A wrong
        login and a wrong password give the same answer after the same work (one Argon2id
        check either way); a banned account is told until when."""
        row = self._account_of(login)
        if row is None:
            self.passwords.verify_unknown(password)
            raise _bad_credentials()
        if not self.passwords.verify(password, str(row.password_hash)):
            raise _bad_credentials()
        player = PlayerRow(int(row.player_id), str(row.name))
        return self.open_unless_banned(player, lifetime, device, address)

    def _account_of(self, login: str) -> Any:
        """The account row of ``login`` (its player, login, password hash and name)."""
        with self.store.engine.connect() as conn:
            return conn.execute(
                select(
                    a.accounts.c.player_id,
                    a.accounts.c.login,
                    a.accounts.c.password_hash,
                    t.players.c.name,
                )
                .join(t.players, t.players.c.id == a.accounts.c.player_id)
                .where(a.accounts.c.login_key == login_key(login))
            ).first()

    def open_unless_banned(
        self, player: PlayerRow, lifetime: float | None, device: str, address: str | None
    ) -> SignedIn:
        """A new session of ``player``, or ``banned`` (403) with until when and why."""
        ban = self.ban_of(player.id)
        if ban is not None:
            raise ServerError("banned", ban_text(ban), 403, until=ban.until, reason=ban.reason)
        with self.store.engine.begin() as conn:
            player, token, expires = self.store.open_session(
                conn, player, lifetime, device, address
            )
        return SignedIn(player, token, expires)

    def recover(
        self,
        login: str,
        code: str,
        password: str,
        *,
        device: str = "browser",
        address: str | None = None,
        lifetime: float | None = None,
    ) -> tuple[SignedIn, list[int]]:
        """Set a new password with a recovery code (used up): every session of the
        account ends and the recovering device is signed in. Returns the new session and
        the ended sessions' ids (their sockets are to be closed)."""
        now = self.store.clock()
        row = self._account_of(login)
        if row is None:
            raise ServerError("bad_recovery", "wrong login name or recovery code", 401)
        check_password(password, str(row.login))
        digest = self.passwords.hash(password)
        player = PlayerRow(int(row.player_id), str(row.name))
        with self.store.engine.begin() as conn:
            used = conn.execute(
                update(a.recovery_codes)
                .where(
                    a.recovery_codes.c.player_id == player.id,
                    a.recovery_codes.c.code_hash == _code_hash(code),
                    a.recovery_codes.c.used_at.is_(None),
                )
                .values(used_at=now)
            ).rowcount
            if not used:
                raise ServerError("bad_recovery", "wrong login name or recovery code", 401)
            conn.execute(
                update(a.accounts)
                .where(a.accounts.c.player_id == player.id)
                .values(password_hash=digest, password_at=now)
            )
            ended = self._end(conn, player.id, "recovered")
        # the password is set; a ban in force still holds
        return self.open_unless_banned(player, lifetime, device, address), ended

    def new_codes(self, player: int) -> tuple[str, ...]:
        """A new set of recovery codes (the old ones stop working), shown once."""
        with self.store.engine.connect() as conn:
            claimed = conn.execute(
                select(a.accounts.c.player_id).where(a.accounts.c.player_id == player)
            ).first()
        if claimed is None:
            raise ServerError("guest", "a guest has no recovery codes: sign up first", 409)
        codes = tuple(_new_code() for _ in range(CODES))
        with self.store.engine.begin() as conn:
            self._write_codes(conn, player, codes)
        return codes

    def _write_codes(self, conn: Connection, player: int, codes: Sequence[str]) -> None:
        conn.execute(a.recovery_codes.delete().where(a.recovery_codes.c.player_id == player))
        conn.execute(
            insert(a.recovery_codes),
            [{"player_id": player, "code_hash": _code_hash(c), "used_at": None} for c in codes],
        )

    def change_password(self, player: int, old: str, new: str, keep: int | None) -> list[int]:
        """Change the password (the old one must be given); every other session ends."""
        with self.store.engine.connect() as conn:
            row = conn.execute(
                select(a.accounts.c.password_hash, a.accounts.c.login).where(
                    a.accounts.c.player_id == player
                )
            ).first()
        if row is None:
            raise ServerError("guest", "a guest has no password: sign up first", 409)
        if not self.passwords.verify(old, str(row.password_hash)):
            raise ServerError("bad_credentials", "the current password is wrong", 401)
        check_password(new, str(row.login))
        digest = self.passwords.hash(new)
        with self.store.engine.begin() as conn:
            conn.execute(
                update(a.accounts)
                .where(a.accounts.c.player_id == player)
                .values(password_hash=digest, password_at=self.store.clock())
            )
            return self._end(conn, player, "password", keep=keep)

    # -- sessions --------------------------------------------------------------------

    def touch(self, session: int, lifetime: float | None) -> None:
        """The session was used: its last-seen time and its sliding expiry move on."""
        now = self.store.clock()
        values: dict[str, Any] = {"last_seen": now}
        if lifetime is not None:
            values["expires"] = now + lifetime
        with self.store.engine.begin() as conn:
            conn.execute(
                update(a.sessions)
                .where(a.sessions.c.id == session, a.sessions.c.ended_at.is_(None))
                .values(**values)
            )

    def end_session(self, player: int, session: int, why: str = "ended") -> bool:
        """End one of the player's own sessions; False when it has no such open one."""
        with self.store.engine.begin() as conn:
            done = conn.execute(
                update(a.sessions)
                .where(
                    a.sessions.c.id == session,
                    a.sessions.c.player_id == player,
                    a.sessions.c.ended_at.is_(None),
                )
                .values(ended_at=self.store.clock(), ended_why=why)
            ).rowcount
        self.store.forget_sessions([session])
        return bool(done)

    def end_sessions(self, player: int, why: str, keep: int | None = None) -> list[int]:
        """End every open session of ``player`` but ``keep``; returns their ids."""
        with self.store.engine.begin() as conn:
            return self._end(conn, player, why, keep=keep)

    def _end(self, conn: Connection, player: int, why: str, keep: int | None = None) -> list[int]:
        s = a.sessions
        where = and_(s.c.player_id == player, s.c.ended_at.is_(None))
        if keep is not None:
            where = and_(where, s.c.id != keep)
        ids = [int(i) for i in conn.execute(select(s.c.id).where(where)).scalars()]
        if ids:
            conn.execute(
                update(s).where(s.c.id.in_(ids)).values(ended_at=self.store.clock(), ended_why=why)
            )
        self.store.forget_sessions(ids)
        return ids

    # -- the operator ----------------------------------------------------------------

    def ban(
        self,
        player: int,
        days: float,
        reason: str,
        by: str = "admin",
        address: str | None = None,
    ) -> tuple[Ban, list[int]]:
        """Ban ``player`` for ``days``: every session ends (the caller closes their
        sockets); written to the audit trail."""
        if not 0 < days <= 36_500:
            raise ServerError("bad_request", "a ban lasts more than 0 and at most 36,500 days")
        if not reason.strip():
            raise ServerError("bad_request", "a ban needs a reason")
        now = self.store.clock()
        until = now + days * 86_400
        with self.store.engine.begin() as conn:
            conn.execute(
                insert(a.bans).values(
                    player_id=player, until=until, reason=reason, by=by, created_at=now
                )
            )
            ended = self._end(conn, player, "banned")
            audit.record(
                conn,
                at=now,
                actor=by,
                action="ban",
                target=player,
                reason=reason,
                address=address,
                detail={"days": days, "until": until, "sessions_ended": len(ended)},
            )
        return Ban(until, reason), ended

    def unban(self, player: int, reason: str, by: str = "admin") -> int:
        """Lift every ban in force on ``player``; returns how many."""
        now = self.store.clock()
        with self.store.engine.begin() as conn:
            lifted = conn.execute(
                update(a.bans)
                .where(a.bans.c.player_id == player, a.bans.c.lifted_at.is_(None))
                .values(lifted_at=now)
            ).rowcount
            audit.record(
                conn,
                at=now,
                actor=by,
                action="unban",
                target=player,
                reason=reason,
                detail={"lifted": lifted},
            )
        return int(lifted)

    def reset_password(
        self, player: int, reason: str, by: str = "admin", password: str | None = None
    ) -> tuple[str, list[int]]:
        """The operator sets a new password (a random one unless given) for a claimed
        account: every session ends; audited. Returns the password (to hand to the
        player) and the ended sessions."""
        with self.store.engine.connect() as conn:
            row = conn.execute(
                select(a.accounts.c.login).where(a.accounts.c.player_id == player)
            ).first()
        if row is None:
            raise ServerError("guest", f"player {player} is a guest: it has no password", 409)
        if password is None:
            password = "-".join(
                "".join(secrets.choice(_CODE_ALPHABET) for _ in range(4)) for _ in range(4)
            )
        check_password(password, str(row.login))
        digest = self.passwords.hash(password)
        now = self.store.clock()
        with self.store.engine.begin() as conn:
            conn.execute(
                update(a.accounts)
                .where(a.accounts.c.player_id == player)
                .values(password_hash=digest, password_at=now)
            )
            ended = self._end(conn, player, "reset")
            audit.record(
                conn,
                at=now,
                actor=by,
                action="reset_password",
                target=player,
                reason=reason,
                detail={"sessions_ended": len(ended)},
            )
        return password, ended

    def session_list_all(self, player: int) -> list[dict[str, Any]]:
        """Every session of ``player``, ended ones too, with address (for the operator)."""
        s = a.sessions
        with self.store.engine.connect() as conn:
            rows = conn.execute(
                select(s).where(s.c.player_id == player).order_by(s.c.id.desc())
            ).all()
        return [
            {
                "id": int(r.id),
                "device": str(r.device),
                "address": r.address,
                "created": float(r.created_at),
                "last_seen": float(r.last_seen),
                "expires": None if r.expires is None else float(r.expires),
                "ended": None if r.ended_at is None else float(r.ended_at),
                "why": r.ended_why,
            }
            for r in rows
        ]

    def flag_guest(self, player: int, address: str | None, mark: str | None) -> str | None:
        """Flag a new guest for the operator when a player banned now used the same
        address within :data:`FLAG_DAYS` days, or the same browser mark (the device
        mark the client keeps); returns the flag's detail, or None."""
        if address is None and not mark:
            return None
        now = self.store.clock()
        s, b = a.sessions, a.bans
        with self.store.engine.begin() as conn:
            banned = select(b.c.player_id).where(b.c.lifted_at.is_(None), b.c.until > now)
            seen = []
            if address is not None:
                seen.append(and_(s.c.address == address, s.c.last_seen > now - FLAG_DAYS * 86_400))
            if mark:
                seen.append(s.c.device.like(f"%#{mark[:16]}"))
            hit = conn.execute(
                select(s.c.player_id)
                .where(s.c.player_id.in_(banned), s.c.player_id != player)
                .where(seen[0] if len(seen) == 1 else (seen[0] | seen[1]))
                .limit(1)
            ).scalar()
            if hit is None:
                return None
            detail = f"guest made from the address or browser of banned player {int(hit)}"
            conn.execute(
                insert(a.account_flags).values(
                    player_id=player, kind="after_ban", detail=detail, created_at=now
                )
            )
        return detail

    def flags(self) -> list[dict[str, Any]]:
        with self.store.engine.connect() as conn:
            rows = conn.execute(select(a.account_flags).order_by(a.account_flags.c.id)).all()
        return [
            {"player": int(r.player_id), "kind": r.kind, "detail": r.detail, "at": r.created_at}
            for r in rows
        ]

    def session_of_token(self, token: str) -> int | None:
        with self.store.engine.connect() as conn:
            found = conn.execute(
                select(a.sessions.c.id).where(a.sessions.c.token_hash == hash_token(token))
            ).scalar()
        return None if found is None else int(found)
