"""Run ``paiju`` with the toy family registered (the server tests' subprocess entry point).

``python tests/server/launch.py serve --port N --db FILE`` starts a real server process
that also knows the toy game of ``tests/toy.py`` (code ``toy``), so the real-process tests
run whichever families are registered.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(TESTS))

from paiju import games  # noqa: E402
from paiju.catalog import add_variant_file  # noqa: E402
from toy import TOY_TOML  # noqa: E402


def main() -> None:
    games.FAMILIES["toy"] = games.Family("玩具", "Toy", game="toy:ToyGame")
    folder = Path(tempfile.mkdtemp(prefix="paiju-toy-"))
    path = folder / "toy.toml"
    path.write_text(TOY_TOML, encoding="utf-8")
    add_variant_file(path)
    from paiju.cli import main as paiju_main

    paiju_main(sys.argv[1:])


if __name__ == "__main__":
    main()
