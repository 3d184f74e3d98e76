"""The node's error count (``paiju.server.metrics.ErrorCount``) counts without taking
anything from the server's output: the warnings of a logger that had no handler of its
own (which Python's last resort printed to stderr) are still printed while it counts -
the cluster's faults are read from those lines. Run in a process of its own, as a node
is (pytest's own logging would stand in for the last resort here)."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import logging
from paiju.server.metrics import ErrorCount

log = logging.getLogger("paiju.server.cluster")
count = ErrorCount(clock=lambda: 0.0)
count.attach()
log.warning("node a: its name's lock had ended")
log.error("room 1: could not store an action")
log.info("not shown: below a warning")
print(count.count.total)
count.detach()
assert not logging.getLogger("paiju").handlers
log.warning("after: the last resort again")
"""


def test_counting_errors_keeps_the_warnings_on_stderr() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.split() == ["1"]  # the error alone is counted
    assert done.stderr.splitlines() == [
        "node a: its name's lock had ended",
        "room 1: could not store an action",
        "after: the last resort again",
    ]
