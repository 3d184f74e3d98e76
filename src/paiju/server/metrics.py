"""What to watch on a server: ``GET /metrics`` in the Prometheus text format.

A single server (``paiju serve``) and every node of a cluster (``paiju serve --redis``)
serve it. Every series carries the node's name (label ``node``; ``single`` on a server
without ``--redis``), so one Prometheus scraping every node sees the cluster per node and
in sum:

* ``paiju_rooms`` - open rooms the node plays; ``paiju_connections`` - its sockets;
* ``paiju_actions_total``, ``paiju_hands_total`` - actions and new hands it stored
  (``rate(paiju_actions_total[1m])`` is the actions per second);
* ``paiju_commit_seconds`` - the latency of its group commits (a histogram);
* ``paiju_errors_total`` - errors the node logged (records at level ERROR or above of
  the ``paiju`` and ``uvicorn.error`` loggers: a room whose write or read failed, an
  engine that failed on an action, a request that raised; :class:`ErrorCount`);
* ``python_gc_*`` - Python's cyclic garbage collector: collections and objects collected
  per generation (steady play should leave it almost nothing: its pauses stall every room);

and on a cluster node only:

* ``paiju_leases`` - room leases it holds; ``paiju_cluster_nodes`` - live nodes it sees;
* ``paiju_rooms_taken_over_total``, ``paiju_rooms_dropped_total`` - failovers in and out.
"""

from __future__ import annotations

import gc
import logging
import time
from collections import deque
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from prometheus_client import CONTENT_TYPE_LATEST as CONTENT_TYPE
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from paiju.server.hub import Hub

__all__ = ["CONTENT_TYPE", "SINGLE", "ErrorCount", "LastMinute", "NodeMetrics"]

SINGLE = "single"
"""The ``node`` label of a server that is not part of a cluster."""

MINUTE = 60.0

ERROR_LOGGERS = ("paiju", "uvicorn.error")
"""The loggers whose records at level ERROR or above count as the node's errors."""


class LastMinute:
    """A count of events and how many came in the last minute (the console's "per
    minute" figures), by a monotonic ``clock`` (a test drives its own)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.total = 0
        self._recent: deque[tuple[float, int]] = deque()

    def add(self, n: int = 1) -> None:
        self.total += n
        self._recent.append((self.clock(), n))
        self._forget(self.clock())

    def _forget(self, now: float) -> None:
        recent = self._recent
        while recent and recent[0][0] <= now - MINUTE:
            recent.popleft()

    def per_minute(self) -> int:
        """The events of the last 60 seconds."""
        self._forget(self.clock())
        return sum(n for _, n in self._recent)


class ErrorCount(logging.Handler):
    """Counts the records at level ERROR or above of :data:`ERROR_LOGGERS` (a handler on
    each of them while :meth:`attach` holds): the node's errors, in all and in the last
    minute. Nothing of a record is kept but its time."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(logging.ERROR)
        self.count = LastMinute(clock)
        self._kept: list[tuple[logging.Logger, logging.Handler]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.count.add()

    def attach(self) -> None:
        """Count from now on. A logger that had no handler sent its warnings to logging's
        last resort (stderr, the message alone): this handler would silence that, so a
        handler that does the same is set beside it."""
        for name in ERROR_LOGGERS:
            logger = logging.getLogger(name)
            if not logger.hasHandlers():
                stderr = logging.StreamHandler()
                stderr.setLevel(logging.WARNING)
                logger.addHandler(stderr)
                self._kept.append((logger, stderr))
            logger.addHandler(self)

    def detach(self) -> None:
        for name in ERROR_LOGGERS:
            logging.getLogger(name).removeHandler(self)
        for logger, stderr in self._kept:
            logger.removeHandler(stderr)
        self._kept.clear()


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
        self.errors = Counter(
            "paiju_errors", "Errors this node logged.", ["node"], registry=r
        ).labels(node)
        self.error_count = ErrorCount()
        self._errors_seen = 0
        self.hands_recent = LastMinute()
        """This node's hands of the last minute (the console's hands per minute)."""
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
            self.hands_recent.add(hands)

    def start(self) -> None:
        """Count the node's errors from now on (:class:`ErrorCount`)."""
        self.error_count.attach()

    def stop(self) -> None:
        self.error_count.detach()

    def errors_per_minute(self) -> int:
        return self.error_count.count.per_minute()

    def render(self) -> bytes:
        """The text exposition, the gauges read now."""
        hub, node = self.hub, self.node
        rooms = hub.rooms.values()
        self.rooms.labels(node).set(len(hub.rooms))
        self.connections.labels(node).set(sum(len(r.clients()) for r in rooms))
        errors = self.error_count.count.total
        self.errors.inc(errors - self._errors_seen)
        self._errors_seen = errors
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
