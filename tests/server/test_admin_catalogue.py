"""The house's catalogue in the operator's console: a game turned off for new rooms,
default options and the choices a room form offers, house variants from a TOML file,
all without a restart and read by every server from the database.

The issue: "Catalogue: turn a game on or off for new rooms, set the default options and
the choices a room form offers, add a house variant from a TOML file (validated, with
the error shown), all without a restart and on every node."
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyotp
import pytest
from click.testing import CliRunner
from sqlalchemy import select
from starlette.testclient import TestClient

from house_toml import house_toml
from paiju.catalog import set_house_variants
from paiju.cli import cli
from paiju.server.accounts import tables as a
from paiju.server.accounts.logins import Passwords
from paiju.server.admin.staff import Staff
from paiju.server.app import create_app
from paiju.server.options import Limits

PASSWORD = "lantern-drum-93"
FAST = Passwords(time_cost=1, memory_cost=1024)

HOUSE = house_toml("house-baozi", "本店宝子", "House Baozi")


@pytest.fixture
def db(tmp_path: Path) -> Iterator[str]:
    yield str(tmp_path / "catalogue.db")
    set_house_variants(())  # the process's catalogue as it was


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    app = create_app(db, limits=Limits(min_bot_delay=0))
    with TestClient(app) as c:
        c.app.state.accounts.passwords = FAST  # type: ignore[attr-defined]
        yield c


def _state(client: TestClient) -> Any:
    return client.app.state  # type: ignore[attr-defined]


def _staff(client: TestClient, name: str = "mei", role: str = "admin") -> dict[str, str]:
    made = Staff(_state(client).store, FAST).add(name, role, PASSWORD)
    body = {"name": name, "password": PASSWORD, "code": pyotp.TOTP(made.secret).now()}
    answer = client.post("/api/admin/sessions", json=body)
    assert answer.status_code == 201, answer.text
    return {"Authorization": f"Bearer {answer.json()['token']}"}


def _player(client: TestClient, name: str = "ann") -> dict[str, str]:
    made = client.post("/api/players", json={"name": name}).json()
    return {"Authorization": f"Bearer {made['token']}"}


def _room(client: TestClient, me: dict[str, str], code: str, **game_options: Any) -> Any:
    body = {"code": code, "options": {"seats": 2, "bots": 1}, "game_options": game_options}
    return client.post("/api/rooms", json=body, headers=me)


def _entry(client: TestClient, code: str) -> dict[str, Any]:
    found: dict[str, Any] = next(v for v in client.get("/api/catalog").json() if v["code"] == code)
    return found


def test_a_game_turned_off_is_refused_for_new_rooms_and_on_again_is_offered(
    client: TestClient,
) -> None:
    staff, ann = _staff(client), _player(client)
    assert _entry(client, "2001")["enabled"] is True
    off = client.put("/api/admin/catalogue/2001", json={"enabled": False}, headers=staff)
    assert off.status_code == 200, off.text
    assert _entry(client, "2001")["enabled"] is False
    refused = _room(client, ann, "2001")
    assert refused.status_code == 409
    error = refused.json()["error"]
    assert error["code"] == "game_off"
    assert "52张宝子1" in error["text"]["zh"] and "Baozi 52-card 1" in error["text"]["en"]
    assert _room(client, ann, "2002").status_code == 201  # only that game
    client.put("/api/admin/catalogue/2001", json={"enabled": True}, headers=staff)
    assert _room(client, ann, "2001").status_code == 201
    with _state(client).store.engine.connect() as conn:
        rows = conn.execute(
            select(a.audit_log.c.detail).where(a.audit_log.c.action == "catalogue")
        ).all()
    assert [json.loads(r.detail)["enabled"] for r in rows] == [False, True]


def test_defaults_fill_a_new_room_and_only_the_offered_choices_are_taken(
    client: TestClient,
) -> None:
    staff, ann = _staff(client), _player(client)
    body = {"defaults": {"min_bet": 2}, "choices": {"banker_rotation": ["stay"], "min_bet": [2, 5]}}
    answer = client.put("/api/admin/catalogue/2001", json=body, headers=staff)
    assert answer.status_code == 200, answer.text
    entry = _entry(client, "2001")
    assert entry["defaults"] == {"min_bet": 2}
    assert entry["choices"] == {"banker_rotation": ["stay"], "min_bet": [2, 5]}
    made = _room(client, ann, "2001", banker_rotation="stay")
    assert made.status_code == 201, made.text
    room = _state(client).hub.rooms[made.json()["room"]["id"]]
    assert room.game_options["min_bet"] == 2  # the house's default
    refused = _room(client, ann, "2001", banker_rotation="rotate")
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "option_not_offered"
    assert _room(client, ann, "2001", banker_rotation="stay", min_bet=3).status_code == 400


def test_a_setting_the_game_does_not_take_is_refused_with_the_games_reason(
    client: TestClient,
) -> None:
    staff = _staff(client)
    bad = client.put(
        "/api/admin/catalogue/2001", json={"defaults": {"min_bet": "x"}}, headers=staff
    )
    assert bad.status_code == 400
    assert bad.json()["error"]["code"] == "bad_game_options"
    assert "min_bet" in bad.json()["error"]["message"]
    unknown = client.put(
        "/api/admin/catalogue/2001", json={"choices": {"nonsense": [1]}}, headers=staff
    )
    assert unknown.status_code == 400
    apart = {"defaults": {"min_bet": 2}, "choices": {"min_bet": [5]}}
    assert client.put("/api/admin/catalogue/2001", json=apart, headers=staff).status_code == 400
    assert _entry(client, "2001")["defaults"] == {}  # nothing stored of the refused ones


def test_support_staff_see_the_catalogue_but_do_not_change_it(client: TestClient) -> None:
    support = _staff(client, "lin", "support")
    games = client.get("/api/admin/catalogue", headers=support).json()["games"]
    assert next(g for g in games if g["code"] == "2001")["enabled"] is True
    answer = client.put("/api/admin/catalogue/2001", json={"enabled": False}, headers=support)
    assert answer.status_code == 403


def test_a_house_variant_from_toml_is_offered_at_once_and_plays(client: TestClient) -> None:
    staff, ann = _staff(client), _player(client)
    answer = client.post(
        "/api/admin/catalogue/house", json={"name": "ours.toml", "text": HOUSE}, headers=staff
    )
    assert answer.status_code == 201, answer.text
    assert answer.json()["added"] == [
        {"code": "house-baozi", "name_zh": "本店宝子", "name_en": "House Baozi"}
    ]
    entry = _entry(client, "house-baozi")
    assert entry["house"] is True and entry["players"] == [2, 6]
    made = _room(client, ann, "house-baozi")
    assert made.status_code == 201, made.text
    again = client.post(
        "/api/admin/catalogue/house", json={"name": "ours.toml", "text": HOUSE}, headers=staff
    )
    assert again.status_code == 400
    assert "'house-baozi' is taken" in again.json()["error"]["message"]


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[[variant]\ncode = 1", "not valid TOML"),
        (HOUSE.replace('deck = "52"', 'deck = "53"'), "field deck"),
        (HOUSE.replace('family = "baozi"', 'family = "poker"'), "unknown family 'poker'"),
        (HOUSE.replace('ladder = "AA', 'ladder = "ZZ'), "field params.ladder"),
        (HOUSE.replace('code = "house-baozi"', 'code = "2001"'), "'2001' is taken"),
        ("# nothing\n", "no [[variant]] entry"),
    ],
)
def test_a_bad_house_variant_file_is_refused_naming_the_file_and_field(
    client: TestClient, text: str, says: str
) -> None:
    staff = _staff(client)
    answer = client.post(
        "/api/admin/catalogue/house", json={"name": "ours.toml", "text": text}, headers=staff
    )
    assert answer.status_code == 400, answer.text
    message = answer.json()["error"]["message"]
    assert says in message and "ours.toml" in message
    assert all(v["code"] != "house-baozi" for v in client.get("/api/catalog").json())


def test_a_change_made_by_another_process_holds_after_the_servers_next_read(
    client: TestClient, db: str, tmp_path: Path
) -> None:
    """What every node does every few seconds: read the settings again from the database
    (here the change comes from ``paiju admin catalogue``, as from another node)."""
    ann = _player(client)
    runner = CliRunner()
    off = runner.invoke(cli, ["admin", "catalogue", "off", "2002", "--db", db])
    assert off.exit_code == 0, off.output
    file = tmp_path / "ours.toml"
    file.write_text(HOUSE, encoding="utf-8")
    set_house_variants(())  # the server's process learns of it from the database only
    added = runner.invoke(cli, ["admin", "catalogue", "add", str(file), "--db", db, "--json"])
    assert added.exit_code == 0, added.output
    set_house_variants(())
    house = _state(client).catalogue
    assert house.refresh() is True  # the poll's own read
    assert house.refresh() is False  # nothing new since
    assert _room(client, ann, "2002").json()["error"]["code"] == "game_off"
    assert _room(client, ann, "house-baozi").status_code == 201
    listed = runner.invoke(cli, ["admin", "catalogue", "list", "--db", db, "--json"])
    games = {g["code"]: g for g in json.loads(listed.output)}
    assert games["2002"]["enabled"] is False and games["house-baozi"]["house"] is True


def test_the_catalogue_set_command_takes_defaults_and_choices(db: str) -> None:
    runner = CliRunner()
    done = runner.invoke(
        cli,
        [
            "admin", "catalogue", "set", "2001", "--default", "banker_rotation=stay",
            "--choices", "banker_rotation=stay,rotate", "--db", db, "--json",
        ],
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    assert json.loads(done.output)["defaults"] == {"banker_rotation": "stay"}
    bad = runner.invoke(
        cli, ["admin", "catalogue", "set", "2001", "--default", "min_bet=0", "--db", db]
    )
    assert bad.exit_code != 0


def test_a_clubs_preset_of_a_game_turned_off_is_refused(client: TestClient) -> None:
    staff, ann = _staff(client), _player(client)
    club = client.post("/api/clubs", json={"name": "East"}, headers=ann).json()["id"]
    client.put("/api/admin/catalogue/2001", json={"enabled": False}, headers=staff)
    body = {"name": "宝子", "code": "2001", "options": {"seats": 2, "bots": 1}}
    refused = client.post(f"/api/clubs/{club}/presets", json=body, headers=ann)
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "game_off"
    client.put("/api/admin/catalogue/2001", json={"enabled": True}, headers=staff)
    assert client.post(f"/api/clubs/{club}/presets", json=body, headers=ann).status_code == 201
