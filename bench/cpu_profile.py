"""Run a Python script under cProfile timed by the process's CPU clock, not the wall's.

    python bench/cpu_profile.py OUT SCRIPT [ARGS...]

A server that waits for its sockets spends most of its wall time idle inside the event
loop; profiled by the wall clock, that wait is charged to the loop's ``run`` and hides
what the loop's own C code (the sockets' reads and writes) costs. Timed by CPU, a
function's time is what it spent working. The profile is written to OUT when the script
returns (a server stopped by SIGINT or SIGTERM returns from ``run``).

With ``PAIJU_PROFILE_WINDOW=1`` in its environment the profile starts paused: SIGUSR1
starts it and SIGUSR2 pauses it again, so that a load bench profiles its measured window
only (``bench/server_load.py --profile`` does), not the server's start and set-up.
"""

from __future__ import annotations

import cProfile
import os
import runpy
import signal
import sys
import time


def main() -> None:
    out, script, *rest = sys.argv[1:]
    sys.argv = [script, *rest]
    profile = cProfile.Profile(time.process_time)
    if os.environ.get("PAIJU_PROFILE_WINDOW"):
        signal.signal(signal.SIGUSR1, lambda *_: profile.enable())
        signal.signal(signal.SIGUSR2, lambda *_: profile.disable())
    else:
        profile.enable()
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit:
        pass
    finally:
        profile.disable()
        profile.dump_stats(out)


if __name__ == "__main__":
    main()
