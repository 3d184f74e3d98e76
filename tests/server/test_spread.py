"""How many rooms a node gives up to spread a cluster's load back over its live nodes
(``paiju.server.spread.to_give_up``), checked with plain numbers: after a PostgreSQL
restart the node back first held 12 rooms of 12 and kept them; they spread back, a few
a tick, down to each node's share, and never back and forth."""

from __future__ import annotations

from paiju.server.spread import SPREAD_BATCH, to_give_up


def test_a_node_with_every_room_gives_some_up_each_tick_until_each_has_its_share() -> None:
    nodes = [12, 0, 0]
    ticks = 0
    while (given := to_give_up(nodes[0], nodes[1:])) and ticks < 100:
        assert given <= SPREAD_BATCH
        least = nodes.index(min(nodes[1:]), 1)  # the least loaded takes them over
        nodes[0] -= given
        nodes[least] += given
        ticks += 1
    assert nodes == [4, 4, 4] and ticks <= 6


def test_a_node_never_gives_up_a_room_another_would_give_back() -> None:
    assert to_give_up(5, [4, 4]) == 0  # one more than the least: it stays
    assert to_give_up(1, [0]) == 0
    assert to_give_up(0, []) == 0  # alone: nowhere to go
    # after giving up, the giver is never below the taker
    for mine in range(30):
        for other in range(30):
            given = to_give_up(mine, [other])
            assert mine - given >= other + given - 1 if given else True
            assert mine - given >= 0
