"""Requests at the edges of what the REST API reads answer the documented error envelope
(``{"error": {"code", "message"}}``), never a plain-text 500 nor the framework's own
``{"detail": …}``: a JSON body nested too deeply, a path no route has, and game or room
ids past what the database's id columns hold (PostgreSQL's ``integer``: 2**31 - 1), up to
2**63 - 1, which the API takes."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from paiju.server.app import create_app

HUGE = (2**31, 2**40, 2**63 - 1)


def _paths(game_id: int) -> list[str]:
    return [
        f"/api/games/{game_id}",
        f"/api/games/{game_id}/verify",
        f"/api/games/{game_id}/replay",
        f"/api/games/{game_id}/replay?seat=0",
    ]


def test_a_deeply_nested_body_and_an_unknown_path_answer_the_error_envelope(
    tmp_path: Path,
) -> None:
    deep = b'{"name": ' + b"[" * 20_000 + b"]" * 20_000 + b"}"
    with TestClient(create_app(str(tmp_path / "deep.db"))) as client:
        nested = client.post(
            "/api/players", content=deep, headers={"content-type": "application/json"}
        )
        unknown = client.get("/api/nothing-here")
        wrong_method = client.delete("/api/health")
    assert nested.status_code == 400
    assert nested.json()["error"]["code"] == "bad_request", nested.text
    assert "nested too deeply" in nested.json()["error"]["message"]
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "not_found"
    assert wrong_method.status_code == 405
    assert wrong_method.json()["error"]["code"] == "method_not_allowed"


@pytest.mark.parametrize("game_id", HUGE)
def test_game_ids_past_the_databases_integer_are_no_game_on_postgres(
    postgres_db: str, game_id: int
) -> None:
    with TestClient(create_app(postgres_db), raise_server_exceptions=False) as client:
        answers = [client.get(path) for path in _paths(game_id)]
        listed = client.get(f"/api/games?room={game_id}")
    for answer in answers:
        assert answer.status_code == 404, answer.text
        assert answer.json()["error"]["code"] == "no_game"
    assert listed.status_code == 200 and listed.json() == []
