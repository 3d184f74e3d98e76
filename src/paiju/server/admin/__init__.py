"""The operator's console (docs/operations.md): staff with a second factor, moderation,
rooms, announcements and reports, every action in the audit trail.

* :mod:`~paiju.server.admin.tables` - its tables (migrations ``0190`` and ``0200``);
* :mod:`~paiju.server.admin.staff` - staff, roles, TOTP sign-in, console sessions;
* :mod:`~paiju.server.admin.console` - live figures, players, mutes, rooms' public view;
* :mod:`~paiju.server.admin.announcements` - the lobby banner, 跑马灯, notices;
* :mod:`~paiju.server.admin.reports` - daily figures (clubs' too), collusion, bot
  assistance by level, CSV;
* :mod:`~paiju.server.admin.catalogue` - the house's catalogue: games on or off, default
  options, offered choices, house variants (migration ``0200``);
* :mod:`~paiju.server.admin.erasure` - erasing a player, their hands kept anonymous;
* :mod:`~paiju.server.admin.chat_reports` - players' reports of chat lines;
* :mod:`~paiju.server.admin.router` - the REST calls (``/api/admin``).
"""
