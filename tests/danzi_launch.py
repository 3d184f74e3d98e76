"""Run ``paiju serve`` for the 打弹子 browser test (a test device).

Two changes to the server process, nothing else: every hand is dealt from the seed in
``PAIJU_TEST_DANZI_SEED``, and a room's first hand starts from the match context (JSON) in
``PAIJU_TEST_DANZI_CONTEXT`` instead of an empty one, so that the room's first deal is a
later deal of a match (with 进贡/还贡) whose previous finishing order the test chose. The
context is recorded with the hand, so the record replays as any other.
"""

from __future__ import annotations

import json
import os
import sys


def main() -> None:
    import paiju.server.room as room_module
    from paiju.server.room import Room

    seed = os.environ["PAIJU_TEST_DANZI_SEED"]
    context = json.loads(os.environ["PAIJU_TEST_DANZI_CONTEXT"])
    room_module.new_seed = lambda: seed  # type: ignore[attr-defined]
    deal_hand = Room.deal_hand

    def deal_from_context(self: Room) -> None:
        if self.hands_played == 0 and not self.context:
            self.context = dict(context)
        deal_hand(self)

    Room.deal_hand = deal_from_context  # type: ignore[method-assign]
    from paiju.cli import main as paiju_main

    paiju_main(sys.argv[1:])


if __name__ == "__main__":
    main()
