"""With the database away, every REST endpoint answers a JSON error with its reason (503
``unavailable``, ``Retry-After``), the suggestions endpoint included - never a plain-text
500 (in process, on a SQLite file whose engine is swapped for one that cannot connect)."""

from __future__ import annotations

from pathlib import Path

import pytest
from server_helpers import PLAYABLE
from sqlalchemy import create_engine
from starlette.testclient import TestClient

from paiju.server.app import create_app
from paiju.server.options import Limits

pytestmark = pytest.mark.skipif("2001" not in PLAYABLE, reason="宝子 2001 is not registered")


def test_suggestions_and_other_calls_answer_json_when_the_database_is_away(
    tmp_path: Path,
) -> None:
    app = create_app(str(tmp_path / "away.db"), limits=Limits(min_bot_delay=0))
    with TestClient(app) as client:
        token = client.post("/api/players", json={"name": "阿明"}).json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        options = {"seats": 3, "bots": 2, "time_limit": 0, "bot_delay": 0, "seed_wait": 0}
        created = client.post("/api/rooms", json={"code": "2001", "options": options}, headers=auth)
        assert created.status_code == 201, created.text
        room = created.json()["room"]["id"]
        asked = client.get(f"/api/rooms/{room}/suggestions", headers=auth)
        assert asked.status_code == 200, asked.text
        store = app.state.store
        store.engine = create_engine(f"sqlite:///{tmp_path / 'gone' / 'nothing.db'}")
        store._players.clear()  # the next call reads its token from the database
        for path in (f"/api/rooms/{room}/suggestions", "/api/players/me/ledger", "/api/games"):
            answer = client.get(path, headers=auth)
            assert answer.status_code == 503, (path, answer.text)
            assert answer.headers["content-type"].startswith("application/json")
            assert answer.headers["retry-after"] == "2"
            error = answer.json()["error"]
            assert error["code"] == "unavailable"
            assert "cannot reach its database" in error["message"]  # the reason
            assert error["text"]["zh"] and error["text"]["en"]
