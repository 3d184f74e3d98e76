"""Duplicate events (复式赛): the same seeded deals at every table, seats rotated (bots) or
a movement in which no person meets a deal twice (people), each result scored against the
others who played the same deal from the same side; live and final standings with 95%
intervals, a deal's tables side by side, one rating update per event, and the maker's
cancel and end-now calls (docs/events.md).

* :mod:`~paiju.server.events.tables` - its tables (migrations ``0210`` and ``0220_event_movement``);
* :mod:`~paiju.server.events.service` - :class:`Events`, the calls on the database;
* :mod:`~paiju.server.events.side_by_side` - two tables' replays of a deal, aligned;
* :mod:`~paiju.server.events.router` - the REST calls (``/api/events``).

The rotation and the scoring are :mod:`paiju.duplicate`'s, shared with ``paiju event``.
"""
