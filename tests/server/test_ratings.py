"""Ratings: OpenSkill per game from finished rooms; bots as fixed anchors; leaderboards
per game and per club.

The issue: "A rating per game for every account (OpenSkill through the ``openskill``
package ...), updated after each room of all-human seats or each event; bots carry fixed,
published ratings per level so rooms with bots can count too".
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert
from starlette.testclient import TestClient

from paiju.server import tables as t
from paiju.server.app import create_app
from paiju.server.options import Limits
from paiju.server.ratings.service import BOT_RATINGS, Ratings


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(str(tmp_path / "r.db"), limits=Limits(min_bot_delay=0))) as c:
        yield c


def _player(client: TestClient, name: str) -> tuple[int, dict[str, str]]:
    made = client.post("/api/players", json={"name": name}).json()
    return int(made["id"]), {"Authorization": f"Bearer {made['token']}"}


_ROOMS = [1000]


def _finished_room(
    store: Any, code: str, seats: list[int | None], totals: list[int], *,
    status: str = "finished", level: str = "normal",
) -> int:  # fmt: skip
    """A room of ``code`` over, its seats (None: a bot) with these match totals."""
    _ROOMS[0] += 1
    room = _ROOMS[0]
    owner = next(p for p in seats if p is not None)
    with store.engine.begin() as conn:
        conn.execute(
            insert(t.rooms).values(
                id=room, code=code, options={"level": level}, game_options={},
                seats=len(seats), owner_id=owner, status=status, hands_played=1,
                context={}, created_at=store.clock(),
            )
        )  # fmt: skip
        conn.execute(
            insert(t.hands).values(
                id=room, room_id=room, hand_no=1, code=code, game_options={},
                seats=len(seats), players=seats, commitment="c", seed="s", deal={},
                context={}, status="over", started_at=0.0, ended_at=0.0,
            )
        )  # fmt: skip
        for seat, (player, total) in enumerate(zip(seats, totals, strict=True)):
            conn.execute(
                insert(t.room_seats).values(
                    room_id=room, seat=seat, player_id=player, is_bot=player is None
                )
            )
            conn.execute(
                insert(t.ledger).values(
                    player_id=player, room_id=room, hand_id=room, seat=seat, delta=total,
                    balance=None, at=0.0,
                )
            )  # fmt: skip
    return room


def test_a_finished_room_rates_its_players_once_and_bots_stay_fixed(client: TestClient) -> None:
    store = client.app.state.store  # type: ignore[attr-defined]
    ratings = Ratings(store)
    (a, me), (b, _), (c, _) = (_player(client, n) for n in ("ann", "bob", "cai"))
    room = _finished_room(store, "2001", [a, b, c, None], [9, -3, -3, -3])
    assert ratings.rate_room(room) is True
    assert ratings.rate_room(room) is False, "a room counts once"
    found = ratings.of_players([a, b, c], "2001")
    assert found[a]["2001"]["mu"] > 25 > found[b]["2001"]["mu"]
    assert found[b]["2001"]["mu"] == found[c]["2001"]["mu"], "equal points share a rank"
    assert all(found[p]["2001"]["rooms"] == 1 for p in (a, b, c))
    assert ratings.count() == 3, "the bot seat has no rating of its own"
    board = client.get("/api/ratings/2001", headers=me).json()
    assert board["players"][0]["name"] == "ann" and len(board["players"]) == 3
    assert board["players"][0]["rating"] == pytest.approx(
        board["players"][0]["mu"] - 3 * board["players"][0]["sigma"], abs=0.06
    )
    bots = client.get("/api/ratings/bots").json()
    assert bots["hard"]["mu"] == BOT_RATINGS["hard"][0]


def test_losing_to_a_hard_bot_costs_less_than_to_an_easy_one(client: TestClient) -> None:
    store = client.app.state.store  # type: ignore[attr-defined]
    ratings = Ratings(store)
    (a, _), (b, _) = _player(client, "ann"), _player(client, "bob")
    ratings.rate_room(_finished_room(store, "1301", [a, None], [-5, 5], level="hard"))
    ratings.rate_room(_finished_room(store, "1301", [b, None], [-5, 5], level="easy"))
    found = ratings.of_players([a, b], "1301")
    assert found[a]["1301"]["mu"] > found[b]["1301"]["mu"]


def test_rooms_closed_early_and_other_games_do_not_count(client: TestClient) -> None:
    store = client.app.state.store  # type: ignore[attr-defined]
    ratings = Ratings(store)
    (a, me), (b, _) = _player(client, "ann"), _player(client, "bob")
    _finished_room(store, "2001", [a, b], [4, -4], status="closed")
    _finished_room(store, "2101", [a, b], [4, -4])
    assert ratings.rate_pending() == 1
    assert ratings.of_players([a], "2001")[a] == {}
    assert client.get("/api/ratings/2001", headers=me).json()["players"] == []
    assert [p["name"] for p in client.get("/api/ratings/2101", headers=me).json()["players"]] == [
        "ann", "bob",
    ]  # fmt: skip
    assert client.get("/api/ratings/nope", headers=me).status_code == 404


def test_a_club_leaderboard_is_its_members_and_for_members(client: TestClient) -> None:
    store = client.app.state.store  # type: ignore[attr-defined]
    (a, me), (b, other) = _player(client, "ann"), _player(client, "bob")
    club = client.post("/api/clubs", json={"name": "圈"}, headers=me).json()
    _finished_room(store, "2001", [a, b], [4, -4])
    board = client.get(f"/api/ratings/2001?club={club['id']}", headers=me).json()
    assert [p["name"] for p in board["players"]] == ["ann"]
    refused = client.get(f"/api/ratings/2001?club={club['id']}", headers=other)
    assert refused.status_code == 403
    both = client.get(f"/api/ratings/players?ids={a},{b}&code=2001").json()["players"]
    assert set(both) == {str(a), str(b)} and both[str(a)]["2001"]["rooms"] == 1
