"""The clock a test drives (``tests/held_clock.py``) is reached through routes that only
the tests' launchers add: the app ``paiju serve`` makes answers none of them."""

from __future__ import annotations

from pathlib import Path

from starlette.testclient import TestClient

from paiju.server.app import create_app

HOLD = "/test/players/1/hold-clock"


def test_the_served_app_has_no_test_routes(tmp_path: Path) -> None:
    client = TestClient(create_app(str(tmp_path / "plain.db")))
    answer = client.post(HOLD)
    assert answer.status_code in (404, 405), answer.text  # the web client's files, no route
    assert "/test" not in str(client.get("/openapi.json").json()["paths"])


def test_the_test_launcher_adds_them(tmp_path: Path) -> None:
    from held_clock import HELD_OWNERS, routes

    app = create_app(str(tmp_path / "held.db"))
    routes(app)
    try:
        answer = TestClient(app).post(HOLD)
        assert answer.status_code == 200 and answer.json() == {"held": True}, answer.text
        assert 1 in HELD_OWNERS
    finally:
        HELD_OWNERS.discard(1)
