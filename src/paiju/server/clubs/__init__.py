"""Clubs (亲友圈): a group of friends with an owner, admins and members, presets (玩法) that
open a table in one tap, the club's own lobby of tables, and the club's 战绩; and the
回放码 that open any finished hand's or room's replay (docs/clubs.md).

* :mod:`~paiju.server.clubs.tables` - its tables (migration ``0180``);
* :mod:`~paiju.server.clubs.service` - :class:`Clubs`, the calls on the database;
* :mod:`~paiju.server.clubs.router` - the REST calls (``/api/clubs``, ``/api/replays``).

Points never move here: a club reads the ledger, which only a settled hand writes.
"""
