"""The console's reports, continued: clubs' activity per day, players' reports of chat
lines, the CSV of each report, and the assistance report's comparison of a player with
the players of their level.

The issue: "Reports: ... clubs' activity ... CSV export"; "Players: ... reports against
them, chat mutes"; "Bot assistance report: players whose decisions match the 困难 bot's
choice far more often than players of their level".
"""

from __future__ import annotations

import csv
import io
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyotp
import pytest
from click.testing import CliRunner
from sqlalchemy import insert
from starlette.testclient import TestClient
from test_admin_reports import NOW, _db, _hand, _player, _room

from paiju.cli import cli
from paiju.server.accounts.logins import Passwords
from paiju.server.admin.reports import (
    Decision,
    assistance_of,
    band_of_mu,
    csv_text,
    daily,
    level_bands,
    threshold,
)
from paiju.server.admin.staff import Staff
from paiju.server.app import create_app
from paiju.server.clubs import tables as c
from paiju.server.options import Limits
from paiju.server.ratings import tables as r

PASSWORD = "lantern-drum-93"
FAST = Passwords(time_cost=1, memory_cost=1024)


# -- clubs' activity -----------------------------------------------------------------------


def _club(store: Any, owner: int, name: str) -> int:
    with store.engine.begin() as conn:
        new = conn.execute(
            insert(c.clubs).values(
                code=name[:12], name=name, notice="", owner_id=owner, approval=False, created_at=NOW
            )
        ).inserted_primary_key
    return int(new[0])


def _club_table(store: Any, club: int, room: int, at: float) -> None:
    with store.engine.begin() as conn:
        conn.execute(insert(c.club_tables).values(room_id=room, club_id=club, opened_by=1, at=at))


def test_daily_counts_active_clubs_club_rooms_and_club_hands(tmp_path: Path) -> None:
    store = _db(tmp_path)
    day = 86_400
    ann = _player(store, "ann", NOW - 3 * day)
    east, west = _club(store, ann, "east"), _club(store, ann, "west")
    r1, r2, r3 = (_room(store, "2001", ann, NOW) for _ in range(3))
    public = _room(store, "2001", ann, NOW)
    _club_table(store, east, r1, NOW)
    _club_table(store, east, r2, NOW)
    _club_table(store, west, r3, NOW - day)
    _hand(store, r1, 1, "2001", [ann, None], NOW)
    _hand(store, r1, 2, "2001", [ann, None], NOW)
    _hand(store, r2, 1, "2001", [ann, None], NOW)
    _hand(store, r3, 1, "2001", [ann, None], NOW - day)
    _hand(store, public, 1, "2001", [ann, None], NOW)  # not a club's
    today, yesterday = daily(store, 2)[-1], daily(store, 2)[-2]
    assert today["clubs"] == {"active": 1, "rooms": 2, "hands": 3}
    assert yesterday["clubs"] == {"active": 1, "rooms": 1, "hands": 1}
    assert sum(today["hands"].values()) == 4
    rows = list(csv.DictReader(io.StringIO(csv_text("daily", daily(store, 2)))))
    assert [row["club_hands"] for row in rows] == ["1", "3"]
    assert rows[-1]["hands_2001"] == "4" and rows[-1]["clubs_active"] == "1"
    store.close()


def test_the_report_commands_print_csv(tmp_path: Path) -> None:
    store = _db(tmp_path)
    ann = _player(store, "ann", NOW)
    _hand(store, _room(store, "2001", ann, NOW), 1, "2001", [ann, None], NOW)
    db = str(store.url).removeprefix("sqlite:///")
    store.close()
    runner = CliRunner()
    done = runner.invoke(cli, ["admin", "report", "daily", "--days", "2", "--csv", "--db", db])
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    assert lines[0].startswith("day,active,new_players,hands,rooms,bot_share")
    assert len(lines) == 3 and lines[-1].split(",")[1:4] == ["1", "1", "1"]
    for kind in ("collusion", "assistance"):
        made = runner.invoke(cli, ["admin", "report", kind, "--csv", "--db", db])
        assert made.exit_code == 0, made.output
        assert made.output.count("\n") == 1  # the header: nothing to report


# -- assistance by level ---------------------------------------------------------------------


@dataclass(frozen=True)
class _Move:
    name: str

    def to_json(self) -> dict[str, str]:
        return {"type": self.name}


class _Spot:
    """A decision point with two legal moves; the reference bot plays ``best``."""

    game = "toy"

    def __init__(self, best: str) -> None:
        self.best = best

    def legal_actions(self, seat: int) -> list[_Move]:
        return [_Move("a"), _Move("b")]


def _decisions(player: int, rate: float, n: int, rng: random.Random) -> Iterator[Decision]:
    for i in range(n):
        spot = _Spot(rng.choice("ab"))
        same = rng.random() < rate
        move = spot.best if same else ("b" if spot.best == "a" else "a")
        yield Decision(player, i, spot, 0, _Move(move), 1.0)  # type: ignore[arg-type]


def _chooser(game: Any) -> Any:
    return lambda state, seat: _Move(state.best)


def test_a_strong_player_is_measured_against_strong_players_not_everyone() -> None:
    """Strong players follow the hard bot more often than beginners: an honest strong
    player stands out against everyone, not against their own level; a player who follows
    the bot far beyond their level stands out either way."""
    rng = random.Random(7)
    strong = {1: 0.72, 2: 0.7, 3: 0.71, 4: 0.69}
    beginners = {10 + i: 0.45 for i in range(8)}
    cheat = 99
    decisions: list[Decision] = []
    for player, rate in {**strong, **beginners, cheat: 0.97}.items():
        decisions.extend(_decisions(player, rate, 300, rng))
    bands = {p: "strong" for p in (*strong, cheat)} | {p: "beginner" for p in beginners}
    pooled = {f["player"]: f for f in assistance_of(decisions, _chooser, 30)}
    by_level = {f["player"]: f for f in assistance_of(decisions, _chooser, 30, bands)}
    assert pooled[1]["above_threshold"] and pooled[1]["baseline"] == "all"
    assert not by_level[1]["above_threshold"] and by_level[1]["baseline"] == "strong"
    assert 0.6 < by_level[1]["others_rate"] < 0.85
    assert by_level[1]["threshold"] == round(threshold(by_level[1]["others_rate"], 300), 4)
    assert by_level[cheat]["above_threshold"] and by_level[cheat]["p_value"] < 1e-6
    assert next(iter(by_level)) == cheat  # ranked first
    assert not any(by_level[p]["above_threshold"] for p in beginners)


def test_a_band_too_thin_to_compare_falls_back_to_everyone() -> None:
    rng = random.Random(3)
    decisions = [*_decisions(1, 0.6, 100, rng), *_decisions(2, 0.6, 100, rng)]
    found = assistance_of(decisions, _chooser, 30, {1: "expert"})
    assert {f["player"]: f["baseline"] for f in found} == {1: "all", 2: "all"}
    assert {f["player"]: f["band"] for f in found} == {1: "expert", 2: "unrated"}


def test_a_players_level_is_their_rating_band_cut_at_the_bots_anchors(tmp_path: Path) -> None:
    store = _db(tmp_path)
    ids = [_player(store, f"p{i}", NOW) for i in range(3)]
    with store.engine.begin() as conn:
        for player, code, mu, rooms in (
            (ids[0], "2001", 31.0, 10),
            (ids[1], "2001", 20.0, 30),
            (ids[1], "1301", 29.0, 10),  # mostly 20 over 40 rooms: 22.25
            (ids[2], "2001", 10.0, 1),
        ):
            conn.execute(
                insert(r.ratings).values(
                    player_id=player, code=code, mu=mu, sigma=2.0, rooms=rooms, updated_at=NOW
                )
            )
    assert level_bands(store) == {ids[0]: "expert", ids[1]: "casual", ids[2]: "beginner"}
    assert [band_of_mu(x) for x in (17.9, 18.0, 24.9, 25.0, 29.9, 30.0)] == [
        "beginner",
        "casual",
        "casual",
        "strong",
        "strong",
        "expert",
    ]
    store.close()


# -- chat reports ----------------------------------------------------------------------------


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    limits = Limits(min_bot_delay=0, chat_text_max=40, chat_seconds=0)
    app = create_app(str(tmp_path / "chat.db"), limits=limits)
    with TestClient(app) as c_:
        c_.app.state.accounts.passwords = FAST  # type: ignore[attr-defined]
        yield c_


def _staff(client: TestClient) -> dict[str, str]:
    state = client.app.state  # type: ignore[attr-defined]
    made = Staff(state.store, FAST).add("kefu", "support", PASSWORD)
    body = {"name": "kefu", "password": PASSWORD, "code": pyotp.TOTP(made.secret).now()}
    return {
        "Authorization": f"Bearer {client.post('/api/admin/sessions', json=body).json()['token']}"
    }


def _guest(client: TestClient, name: str) -> tuple[int, dict[str, str]]:
    made = client.post("/api/players", json={"name": name}).json()
    return int(made["id"]), {"Authorization": f"Bearer {made['token']}"}


def _until(ws: Any, kind: str) -> dict[str, Any]:
    while (msg := ws.receive_json())["type"] != kind:
        pass
    found: dict[str, Any] = msg
    return found


def test_a_reported_chat_line_reaches_the_staffs_list_with_the_seats_last_lines(
    client: TestClient,
) -> None:
    staff = _staff(client)
    rude, rude_me = _guest(client, "Rude")
    kind, kind_me = _guest(client, "Kind")
    body = {"code": "2001", "options": {"seats": 3, "bots": 1, "seed_wait": 0}, "seat": 0}
    room = client.post("/api/rooms", json=body, headers=rude_me).json()["room"]["id"]
    assert (
        client.post(f"/api/rooms/{room}/join", json={"seat": 1}, headers=kind_me).status_code == 200
    )
    with (
        client.websocket_connect(f"/ws/rooms/{room}", headers=rude_me) as ws_rude,
        client.websocket_connect(f"/ws/rooms/{room}", headers=kind_me) as ws_kind,
    ):
        _until(ws_rude, "welcome")
        _until(ws_kind, "welcome")
        for text in ("快点出牌", "你这个笨蛋"):
            ws_rude.send_json({"type": "chat", "text": text})
            assert _until(ws_kind, "chat")["text"] == text
        ws_kind.send_json({"type": "report", "seat": 0, "id": "r"})
        assert _until(ws_kind, "reported")["seat"] == 0
        ws_kind.send_json({"type": "report", "seat": 0, "id": "r2"})  # once per reporter
        _until(ws_kind, "reported")
    found: list[dict[str, Any]] = []
    for _ in range(200):  # a bound: the report is written off the event loop
        found = client.get("/api/admin/chat-reports", headers=staff).json()["reports"]
        if found:
            break
        time.sleep(0.02)
    assert len(found) == 1
    report = found[0]
    assert (report["room"], report["reporter"], report["reported"], report["seat"]) == (
        room,
        kind,
        rude,
        0,
    )
    assert (report["reporter_name"], report["reported_name"]) == ("Kind", "Rude")
    assert [line["text"] for line in report["lines"]] == ["快点出牌", "你这个笨蛋"]
    # on the reported player's file, in a CSV, and handled once staff decide
    file = client.get(f"/api/admin/players/{rude}", headers=staff).json()
    assert [x["id"] for x in file["chat_reports"]] == [report["id"]]
    sheet = client.get("/api/admin/chat-reports?format=csv", headers=staff)
    assert sheet.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(sheet.text.lstrip("\ufeff"))))
    assert rows[0]["lines"] == "快点出牌 | 你这个笨蛋" and rows[0]["seat"] == "1"
    done = client.post(
        f"/api/admin/chat-reports/{report['id']}/handle",
        json={"outcome": "muted 24 h"},
        headers=staff,
    )
    assert done.status_code == 200, done.text
    assert client.get("/api/admin/chat-reports", headers=staff).json()["reports"] == []
    every = client.get("/api/admin/chat-reports?all=true", headers=staff).json()["reports"]
    assert every[0]["outcome"] == "muted 24 h" and every[0]["handled_by"] == "staff:kefu"
    missing = client.post(
        "/api/admin/chat-reports/999/handle", json={"outcome": "x"}, headers=staff
    )
    assert missing.status_code == 404


def test_the_daily_report_comes_as_csv_over_rest(client: TestClient) -> None:
    state = client.app.state  # type: ignore[attr-defined]
    made = Staff(state.store, FAST).add("boss", "admin", PASSWORD)
    body = {"name": "boss", "password": PASSWORD, "code": pyotp.TOTP(made.secret).now()}
    me = {
        "Authorization": f"Bearer {client.post('/api/admin/sessions', json=body).json()['token']}"
    }
    sheet = client.get("/api/admin/reports/daily?days=3&format=csv", headers=me)
    assert sheet.status_code == 200
    assert 'filename="daily-3.csv"' in sheet.headers["content-disposition"]
    lines = sheet.text.lstrip("\ufeff").splitlines()
    assert len(lines) == 4 and "club_hands" in lines[0]
    assert client.get("/api/admin/reports/daily?format=xml", headers=me).status_code == 422
