"""The operator's console (docs/operations.md): staff with a second factor, moderation,
rooms, announcements and reports, every action in the audit trail.

* :mod:`~paiju.server.admin.tables` - its tables (migration ``0190``);
* :mod:`~paiju.server.admin.staff` - staff, roles, TOTP sign-in, console sessions;
* :mod:`~paiju.server.admin.console` - live figures, players, mutes, rooms' public view;
* :mod:`~paiju.server.admin.announcements` - the lobby banner, 跑马灯, notices;
* :mod:`~paiju.server.admin.reports` - daily figures, collusion, bot assistance;
* :mod:`~paiju.server.admin.router` - the REST calls (``/api/admin``).
"""
