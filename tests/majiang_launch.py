"""Run ``paiju serve`` for the scripted mahjong browser test (a test device).

Two changes to the server process, and the test-only clock routes of ``held_clock.py``
(``clock_launch.py``): every hand is dealt from the seed written
in the file named by ``PAIJU_TEST_SEED_FILE`` (instead of a fresh secret seed), and the
mahjong bots are :class:`majiang_play.PassiveBot` (they discard what they draw and pass
every claim). With both, the hand is the one :func:`majiang_play.simulate` computed.
"""

from __future__ import annotations

import dataclasses
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def main() -> None:
    import paiju.server.app  # noqa: F401  (loads every server module)
    from paiju import fairness, games

    seed_file = Path(os.environ["PAIJU_TEST_SEED_FILE"])

    def chosen_seed() -> str:
        return seed_file.read_text(encoding="utf-8").strip()

    for name, module in list(sys.modules.items()):
        if (
            name.startswith("paiju.server")
            and getattr(module, "new_seed", None) is fairness.new_seed
        ):
            module.new_seed = chosen_seed  # type: ignore[attr-defined]
    games.FAMILIES["majiang"] = dataclasses.replace(
        games.FAMILIES["majiang"], bot="majiang_play:PassiveBot"
    )
    from clock_launch import with_clock_routes

    with_clock_routes()
    from paiju.cli import main as paiju_main

    paiju_main(sys.argv[1:])


if __name__ == "__main__":
    main()
