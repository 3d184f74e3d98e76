"""What to watch on a server: ``GET /metrics`` in the Prometheus text format.

A single server (``paiju serve``) and every node of a cluster (``paiju serve --redis``)
serve it. Every series carries the node's name (label ``node``; ``single`` on a server
without ``--redis``), so one Prometheus scraping every node sees the cluster per node and
in sum:

* ``paiju_rooms`` - open rooms the node plays; ``paiju_connections`` - its sockets;
* ``paiju_actions_total``, ``paiju_hands_total`` - actions and new hands it stored
  (``rate(paiju_actions_total[1m])`` is the actions per second);
* ``paiju_commit_seconds`` - the latency of its group commits (a histogram);
* ``python_gc_*`` - Python's cyclic garbage collector: collections and objects collected
  per generation (steady play should leave it almost nothing: its pauses stall every room);

and on a cluster node only:

* ``paiju_leases`` - room leases it holds; ``paiju_cluster_nodes`` - live nodes it sees;
* ``paiju_rooms_taken_over_total``, ``paiju_rooms_dropped_total`` - failovers in and out.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from prometheus_client import CONTENT_TYPE_LATEST as CONTENT_TYPE
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from paiju.server.hub import Hub

__all__ = ["CONTENT_TYPE", "SINGLE", "NodeMetrics"]

SINGLE = "single"
"""The ``node`` label of a server that is not part of a cluster."""

_BUCKETS = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0)


class NodeMetrics:
    """The Prometheus series of one node (a registry of its own, not the global one)."""

    def __init__(
        self,
        hub: Hub,
        node: str = SINGLE,
        cluster: Callable[[], tuple[int, int, int, int]] | None = None,
    ) -> None:
        self.hub = hub
        self.node = node
        self.cluster = cluster
        """A cluster node's counts, read at each scrape: (leases held, live nodes, rooms
        taken over, rooms dropped) - :meth:`paiju.server.cluster.Cluster.counts`."""
        self.registry = CollectorRegistry()
        r = self.registry
        r.register(_Collector(node))
        self.rooms = Gauge("paiju_rooms", "Open rooms this node plays.", ["node"], registry=r)
        self.connections = Gauge(
            "paiju_connections", "Open WebSockets of this node.", ["node"], registry=r
        )
        self.actions = Counter(
            "paiju_actions", "Actions this node stored.", ["node"], registry=r
        ).labels(node)
        self.hands = Counter(
            "paiju_hands", "Hands this node dealt and stored.", ["node"], registry=r
        ).labels(node)
        self.commit = Histogram(
            "paiju_commit_seconds",
            "Latency of this node's group commits.",
            ["node"],
            buckets=_BUCKETS,
            registry=r,
        ).labels(node)
        self._cluster: tuple[Gauge, Gauge, Counter, Counter] | None = None
        if cluster is not None:
            self._cluster = (
                Gauge("paiju_leases", "Room leases this node holds.", ["node"], registry=r),
                Gauge(
                    "paiju_cluster_nodes",
                    "Live nodes this node sees in the shared database.",
                    ["node"],
                    registry=r,
                ),
                Counter(
                    "paiju_rooms_taken_over", "Rooms this node took over.", ["node"], registry=r
                ),
                Counter(
                    "paiju_rooms_dropped",
                    "Rooms this node gave up (lease lost).",
                    ["node"],
                    registry=r,
                ),
            )
        self._taken_seen = 0
        self._dropped_seen = 0

    def committed(self, seconds: float, hands: int, actions: int) -> None:
        self.commit.observe(seconds)
        if actions:
            self.actions.inc(actions)
        if hands:
            self.hands.inc(hands)

    def render(self) -> bytes:
        """The text exposition, the gauges read now."""
        hub, node = self.hub, self.node
        rooms = hub.rooms.values()
        self.rooms.labels(node).set(len(hub.rooms))
        self.connections.labels(node).set(sum(len(r.clients()) for r in rooms))
        if self.cluster is not None and self._cluster is not None:
            held, live, adopted, gone = self.cluster()
            leases, nodes, taken, dropped = self._cluster
            leases.labels(node).set(held)
            nodes.labels(node).set(live)
            taken.labels(node).inc(adopted - self._taken_seen)
            dropped.labels(node).inc(gone - self._dropped_seen)
            self._taken_seen, self._dropped_seen = adopted, gone
        return generate_latest(self.registry)


class _Collector(Collector):
    """Python's cyclic garbage collector, per generation, labelled with the node (what
    prometheus_client's own GC collector reports, with the ``node`` label every series of
    ours carries)."""

    def __init__(self, node: str) -> None:
        self.node = node

    def collect(self) -> Iterator[CounterMetricFamily]:
        labels = ["node", "generation"]
        runs = CounterMetricFamily(
            "python_gc_collections", "Collections of each generation.", labels=labels
        )
        found = CounterMetricFamily(
            "python_gc_objects_collected", "Objects the collector freed.", labels=labels
        )
        for generation, stat in enumerate(gc.get_stats()):
            runs.add_metric([self.node, str(generation)], stat["collections"])
            found.add_metric([self.node, str(generation)], stat["collected"])
        yield runs
        yield found
