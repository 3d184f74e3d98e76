"""Duplicate events (复式赛): the same seeded deals at every table, seats rotated, each
result scored against the others who played the same deal from the same side; live and
final standings with 95% intervals, a deal's tables side by side, one rating update per
event (docs/events.md).

* :mod:`~paiju.server.events.tables` - its tables (migration ``0210``);
* :mod:`~paiju.server.events.service` - :class:`Events`, the calls on the database;
* :mod:`~paiju.server.events.side_by_side` - two tables' replays of a deal, aligned;
* :mod:`~paiju.server.events.router` - the REST calls (``/api/events``).

The rotation and the scoring are :mod:`paiju.duplicate`'s, shared with ``paiju event``.
"""
