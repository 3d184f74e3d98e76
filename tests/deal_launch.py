"""Run ``paiju serve`` with chosen deals, for the browser tests (a test device).

Two changes to the server process, and the test-only clock routes of ``held_clock.py``
(``clock_launch.py``): every hand is dealt from the seed, and a room's first hand starts
from the match context (instead of an empty one), both read at each deal from the JSON
file named by ``PAIJU_TEST_DEAL_FILE`` (``{"seed": ..., "context": ...}``; the test
rewrites it before opening a room). So a room's first deal is the deal the test chose,
and with a context a later deal of a match (打弹子's 进贡/还贡 after a finishing order the
test chose). The context is recorded with the hand, so the record replays as any other.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def main() -> None:
    import paiju.server.room as room_module
    from paiju.server.room import Room

    chosen = Path(os.environ["PAIJU_TEST_DEAL_FILE"])

    def read() -> dict[str, Any]:
        value: dict[str, Any] = json.loads(chosen.read_text(encoding="utf-8"))
        return value

    room_module.new_seed = lambda: str(read()["seed"])  # type: ignore[attr-defined]
    deal_hand = Room.deal_hand

    def deal_from_context(self: Room) -> None:
        if self.hands_played == 0 and not self.context:
            self.context = dict(read().get("context") or {})
        deal_hand(self)

    Room.deal_hand = deal_from_context  # type: ignore[method-assign]
    from clock_launch import with_clock_routes

    with_clock_routes()
    from paiju.cli import main as paiju_main

    paiju_main(sys.argv[1:])


if __name__ == "__main__":
    main()
