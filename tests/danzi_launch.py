"""Run ``paiju serve`` for the 打弹子 browser tests (a test device).

Two changes to the server process, nothing else: every hand is dealt from the seed, and a
room's first hand starts from the match context (instead of an empty one), both read at each
deal from the JSON file named by ``PAIJU_TEST_DANZI_FILE`` (``{"seed": ..., "context":
...}``; the test rewrites it before opening a room). So a room's first deal is a later deal
of a match (with 进贡/还贡) whose previous finishing order the test chose. The context is
recorded with the hand, so the record replays as any other.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any


def main() -> None:
    import paiju.server.room as room_module
    from paiju.server.room import Room

    chosen = Path(os.environ["PAIJU_TEST_DANZI_FILE"])

    def read() -> dict[str, Any]:
        value: dict[str, Any] = json.loads(chosen.read_text(encoding="utf-8"))
        return value

    room_module.new_seed = lambda: str(read()["seed"])  # type: ignore[attr-defined]
    deal_hand = Room.deal_hand

    def deal_from_context(self: Room) -> None:
        if self.hands_played == 0 and not self.context:
            self.context = dict(read()["context"])
        deal_hand(self)

    Room.deal_hand = deal_from_context  # type: ignore[method-assign]
    from paiju.cli import main as paiju_main

    paiju_main(sys.argv[1:])


if __name__ == "__main__":
    main()
