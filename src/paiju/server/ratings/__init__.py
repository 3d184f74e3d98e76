"""Ratings (等级分): one OpenSkill rating per game for every player, from the rooms it
finishes (docs/ratings.md).

* :mod:`~paiju.server.ratings.tables` - its tables (migration ``0185``);
* :mod:`~paiju.server.ratings.service` - :class:`Ratings`: rating finished rooms,
  leaderboards;
* :mod:`~paiju.server.ratings.router` - ``/api/ratings``.
"""
