"""Run ``paiju`` with the test-only clock routes of ``held_clock.py`` (a test device).

``python tests/clock_launch.py serve --port N --db FILE`` is ``paiju serve`` whose app also
answers ``/test/…`` (``held_clock.py``): a browser test holds its rooms' 麻将 claim windows open
and lets their time pass when it has read what it reads. ``paiju serve`` has no such route.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def with_clock_routes() -> None:
    """Every app the server makes gets the clock routes."""
    import paiju.server.app as server_app
    from held_clock import hold_marked_players_rooms, routes

    hold_marked_players_rooms()
    make = server_app.create_app

    def create_app(*args: Any, **kwargs: Any) -> Any:
        app = make(*args, **kwargs)
        routes(app)
        return app

    server_app.create_app = create_app  # type: ignore[assignment]


def main() -> None:
    with_clock_routes()
    from paiju.cli import main as paiju_main

    paiju_main(sys.argv[1:])


if __name__ == "__main__":
    main()
