"""How a cluster's rooms spread back over its live nodes (:func:`to_give_up`), decided
from the nodes' loads alone: no database, no room, no clock.

After PostgreSQL restarts, the node that reconnects first takes over nearly every room
(their leases expired meanwhile), and a node that joins the cluster starts empty. Each
node, every tick, compares the rooms it plays with the other live nodes' and gives some
up - between hands only, so that no hand is cut (the cluster drops them with their
leases released, and the least loaded node takes them over from their logs) - until it
plays no more than its share.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["SPREAD_BATCH", "to_give_up"]

SPREAD_BATCH = 2
"""Rooms a node gives up in one tick at most: a dozen rooms spread in a few seconds,
and a node never sheds its load faster than the others take it over."""


def to_give_up(mine: int, others: Sequence[int], batch: int = SPREAD_BATCH) -> int:
    """How many rooms a node playing ``mine`` gives up now, the other live nodes playing
    ``others``: none unless it plays at least two more than the least loaded of them (so
    that a room never goes back and forth), never more than takes it down to its share
    (the average, rounded up) nor more than half the gap, and at most ``batch``."""
    if not others:
        return 0
    least = min(others)
    if mine - least < 2:
        return 0
    share = math.ceil((mine + sum(others)) / (len(others) + 1))
    return max(0, min(batch, mine - share, (mine - least) // 2))
