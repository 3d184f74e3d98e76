"""A player's review summary over their last hands, from the reviews kept in the database.

The issue: "A summary per player over their last N hands: the share of decisions that
matched the bot, the points lost per hand to the marked mistakes, by game"; a review is
"stored once made". The hand is a stored 麻将 hand (as in test_heavy_requests) whose seat
0 a player held.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pyotp
import pytest
from test_heavy_requests import stored_hand

from paiju.server.admin.staff import Staff
from paiju.server.app import create_app
from paiju.server.options import Limits
from paiju.server.reviews.service import Reviews
from paiju.server.store import Store


def _hand_of_a_player(db: Path) -> tuple[int, int, str, str]:
    """A finished 麻将 hand with a player at seat 0: (hand id, player id, their token,
    another player's token)."""
    hand_id, player, token = stored_hand(db)
    store = Store(str(db))
    _, other = store.create_player("老李")
    store.close()
    return hand_id, player, token, other


def test_the_summary_adds_up_kept_reviews_by_game(tmp_path: Path) -> None:
    """Three decisions: one marked mistake of 1.5 points, one of 0.2 unmarked that matched
    the bot, one best: 2 of 3 matched, 1.5 points lost per hand to marked mistakes."""
    db = tmp_path / "summary.db"
    hand_id, player, _, _ = _hand_of_a_player(db)
    store = Store(str(db))
    reviews = Reviews(store)
    before = reviews.summary(player, 10)
    assert before["pending"] == 1 and before["missing"] == [(hand_id, 0)]
    decisions = [
        {"loss": 1.5, "mistake": True, "matched": False},
        {"loss": 0.2, "mistake": False, "matched": True},
        {"loss": 0.0, "mistake": False, "matched": True},
    ]
    body = json.dumps({"decisions": decisions}).encode()
    assert reviews.keep(hand_id, 0, body)
    assert not reviews.keep(hand_id, 0, b'{"decisions": []}'), "a review is written once"
    assert reviews.stored(hand_id, 0) == body
    found = reviews.summary(player, 10)
    assert len(found["games"]) == 1, "one game: the hand's"
    game = next(iter(found["games"].values()))
    assert found["pending"] == 0 and found["hands"] == 1
    assert game["matched_share"] == pytest.approx(2 / 3, abs=1e-4)
    assert game["mistake_loss_per_hand"] == 1.5
    assert game["loss_per_hand"] == pytest.approx(1.7)
    assert found["all"]["mistakes"] == 1
    store.close()


def test_the_summary_starts_missing_reviews_in_the_pool_and_keeps_them(tmp_path: Path) -> None:
    db = tmp_path / "summary-api.db"
    hand_id, player, mine, other = _hand_of_a_player(db)
    store = Store(str(db))
    staff = Staff(store)
    made = staff.add("boss", "support", "a long staff password 1")
    _, console, _ = staff.sign_in("boss", "a long staff password 1", pyotp.TOTP(made.secret).now())
    store.close()
    app = create_app(str(db), Limits(min_bot_delay=0, review_workers=1, review_queue=1))

    async def calls() -> dict[str, Any]:
        transport = httpx.ASGITransport(app=app)
        async with (
            app.router.lifespan_context(app),
            httpx.AsyncClient(transport=transport, base_url="http://paiju") as http,
        ):
            url = f"/api/players/{player}/review-summary?n=5"
            out: dict[str, Any] = {
                "anonymous": (await http.get(url)).status_code,
                "other": (await http.get(url, headers={"Authorization": f"Bearer {other}"})),
                "staff": (await http.get(url, headers={"Authorization": f"Bearer {console}"})),
            }
            auth = {"Authorization": f"Bearer {mine}"}
            for _ in range(3000):  # until the worker has made it (no clock is asserted)
                again = (await http.get(url, headers=auth)).json()
                if again["pending"] == 0:
                    break
                await asyncio.sleep(0.05)
            out["again"] = again
            out["review"] = (await http.get(f"/api/games/{hand_id}/review?seat=0")).json()
            out["pools"] = app.state.heavy.processes_started
            return out

    found = asyncio.run(calls())
    assert found["anonymous"] == 401
    assert (
        found["other"].status_code == 403 and found["other"].json()["error"]["code"] == "not_yours"
    )
    by_staff = found["staff"].json()  # the first to ask: the review is not made yet
    assert found["staff"].status_code == 200 and by_staff["player"] == player
    assert by_staff["pending"] == 1 and by_staff["started"] == 1
    assert found["again"]["pending"] == 0 and found["again"]["all"]["reviewed_hands"] == 1
    assert found["review"]["seat"] == 0
    assert found["pools"] == 1, "made in the pool of worker processes"
    store = Store(str(db))
    kept = Reviews(store).stored(hand_id, 0)
    store.close()
    assert kept is not None and json.loads(kept) == found["review"], "kept, and read again"
