"""Accounts that follow a player: guests, logins with passwords, passkeys, recovery codes,
sessions one per device, and bans (docs/accounts.md).

* :mod:`~paiju.server.accounts.tables` - its tables (migration ``0170``);
* :mod:`~paiju.server.accounts.logins` - login names, the password rules, Argon2id;
* :mod:`~paiju.server.accounts.service` - :class:`Accounts`, the calls on the database;
* :mod:`~paiju.server.accounts.router` - the REST calls (``/api/accounts``, ``/api/sessions``);
* :mod:`~paiju.server.accounts.passkeys` - WebAuthn sign-in (``/api/passkeys``);
* :mod:`~paiju.server.accounts.auth` - who a request is (its bearer token);
* :mod:`~paiju.server.accounts.kicks` - closing the sockets of ended sessions, on every node;
* :mod:`~paiju.server.accounts.attempts` - limits on sign-in attempts;
* :mod:`~paiju.server.accounts.audit` - the operator's audit trail, a chain of hashes.
"""
