"""Duplicate events (复式赛) on the server: who may make one, entering, the tables on the
same deals with seats rotated, duplicate scores and standings, the side-by-side replay,
and one event of bots only played to its end.

The issue: "An event (made by staff or a club admin): a game, a number of deals, the
entrants, the time per move. Every table plays the same seeded deals with seats rotated so
that each entrant ... meets each deal from comparable seats; a result is scored against the
others who played the same deal from the same seat, so the luck of the deal cancels."
"Standings live during the event and final after it, with each entrant's score, its 95%
interval, and the deals to replay side by side (same deal, two tables, two decisions at each
step)." "Bots can fill an event (a bot level is an entrant like any other)".
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyotp
import pytest
from sqlalchemy import select
from starlette.testclient import TestClient

from paiju.fairness import commitment
from paiju.server import tables as t
from paiju.server.accounts import tables as a
from paiju.server.accounts.logins import Passwords
from paiju.server.admin.staff import Staff
from paiju.server.app import create_app
from paiju.server.errors import ServerError
from paiju.server.events import tables as e
from paiju.server.events.service import Maker, deal_seed
from paiju.server.messages import ClientSeed
from paiju.server.options import Limits
from paiju.server.ratings import tables as r

PASSWORD = "lantern-drum-93"
FAST = Passwords(time_cost=1, memory_cost=1024)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(str(tmp_path / "events.db"), limits=Limits(min_bot_delay=0))
    with TestClient(app) as c:
        c.app.state.accounts.passwords = FAST  # type: ignore[attr-defined]
        yield c


def _state(client: TestClient) -> Any:
    return client.app.state  # type: ignore[attr-defined]


def _staff(client: TestClient) -> dict[str, str]:
    made = Staff(_state(client).store, FAST).add("mei", "support", PASSWORD)
    body = {"name": "mei", "password": PASSWORD, "code": pyotp.TOTP(made.secret).now()}
    answer = client.post("/api/admin/sessions", json=body)
    assert answer.status_code == 201, answer.text
    return {"Authorization": f"Bearer {answer.json()['token']}"}


def _player(client: TestClient, name: str) -> tuple[int, dict[str, str]]:
    made = client.post("/api/players", json={"name": name}).json()
    return int(made["id"]), {"Authorization": f"Bearer {made['token']}"}


class _Seat:
    """A socket of seat 0 (what :meth:`Room.set_client_seed` reads of its client)."""

    seat = 0

    def send(self, text: str) -> None:
        raise AssertionError("a refused seed is answered by the error, not a message")


def _event_of(
    client: TestClient, staff: dict[str, str], code: str, deals: int, bots: list[str]
) -> dict[str, Any]:
    """An event of ``code`` made by staff, with these bot levels entered."""
    made = client.post("/api/events", json={"code": code, "deals": deals}, headers=staff)
    assert made.status_code == 201, made.text
    event: dict[str, Any] = made.json()
    for level in bots:
        entered = client.post(
            f"/api/events/{event['id']}/entrants", json={"bot": level}, headers=staff
        )
        assert entered.status_code == 201, entered.text
    return event


def _until(client: TestClient, event: int, status: str, bound: float = 240.0) -> dict[str, Any]:
    """The event once it reaches ``status`` (the server's own task moves it on; the bound
    only stops a broken run, it measures nothing)."""
    end = time.monotonic() + bound
    while True:
        found: dict[str, Any] = client.get(f"/api/events/{event}").json()
        if found["status"] == status or time.monotonic() > end:
            return found
        time.sleep(0.2)


def test_only_staff_and_a_clubs_admins_make_events(client: TestClient) -> None:
    body = {"name": "周末复式赛", "code": "1301", "deals": 4}
    refused = client.post("/api/events", json=body)
    assert refused.status_code == 401
    _, ann = _player(client, "ann")
    plain = client.post("/api/events", json=body, headers=ann)
    assert plain.status_code == 403 and plain.json()["error"]["code"] == "event_maker"
    made = client.post("/api/events", json=body, headers=_staff(client))
    assert made.status_code == 201, made.text
    assert made.json()["status"] == "open"
    # a club's owner (and admins) for the club; a member may not
    owner_id, owner = _player(client, "老王")
    club = client.post("/api/clubs", json={"name": "周三"}, headers=owner).json()
    bob_id, bob = _player(client, "bob")
    client.post("/api/clubs/join", json={"code": club["code"]}, headers=bob)
    mine = {**body, "club": club["id"]}
    assert client.post("/api/events", json=mine, headers=bob).status_code == 403
    assert client.post("/api/events", json=mine, headers=ann).status_code == 403
    by_owner = client.post("/api/events", json=mine, headers=owner)
    assert by_owner.status_code == 201, by_owner.text
    client.post(
        f"/api/clubs/{club['id']}/members/{bob_id}/role", json={"role": "admin"}, headers=owner
    )
    assert client.post("/api/events", json=mine, headers=bob).status_code == 201
    # the club's event is its members' only
    event = by_owner.json()["id"]
    assert client.get(f"/api/events/{event}", headers=ann).status_code == 403
    assert client.post(f"/api/events/{event}/join", json={}, headers=ann).status_code == 403
    assert client.post(f"/api/events/{event}/join", json={}, headers=bob).status_code == 201
    seen = [e["id"] for e in client.get("/api/events", headers=ann).json()["events"]]
    assert event not in seen and made.json()["id"] in seen
    # a member may not start it, nor add a bot
    start = client.post(f"/api/events/{event}/start", headers=ann)
    assert start.status_code == 403
    bot = client.post(f"/api/events/{event}/entrants", json={"bot": "hard"}, headers=ann)
    assert bot.status_code == 403
    assert owner_id != bob_id


def test_entering_teams_and_starting_needs_full_sides(client: TestClient) -> None:
    """甲乙丙's two sides are teams of three: an entrant is a team."""
    staff = _staff(client)
    made = client.post(
        "/api/events", json={"code": "anshan-jiayibing", "deals": 2}, headers=staff
    ).json()
    event = made["id"]
    assert made["sides"] == [[0, 2, 4], [1, 3, 5]]
    players = [_player(client, f"p{i}") for i in range(3)]
    team = client.post(f"/api/events/{event}/join", json={}, headers=players[0][1]).json()
    again = client.post(f"/api/events/{event}/join", json={}, headers=players[0][1])
    assert again.status_code == 409 and again.json()["error"]["code"] == "joined_already"
    client.post(
        f"/api/events/{event}/join", json={"entrant": team["entrant"]}, headers=players[1][1]
    )
    client.post(f"/api/events/{event}/entrants", json={"bot": "普通"}, headers=staff)
    short = client.post(f"/api/events/{event}/start", headers=staff)
    assert short.status_code == 409 and short.json()["error"]["code"] == "team_short"
    client.post(
        f"/api/events/{event}/join", json={"entrant": team["entrant"]}, headers=players[2][1]
    )
    _fourth, who = _player(client, "p3")
    full = client.post(f"/api/events/{event}/join", json={"entrant": team["entrant"]}, headers=who)
    assert full.status_code == 409 and full.json()["error"]["code"] == "team_full"
    found = client.get(f"/api/events/{event}", headers=players[1][1]).json()
    mine = next(x for x in found["entrants"] if x["id"] == team["entrant"])
    assert mine["member_names"] == ["p0", "p1", "p2"]
    assert found["me"]["entrant"] == team["entrant"]
    # leaving before the start
    assert client.delete(f"/api/events/{event}/join", headers=players[2][1]).status_code == 200
    assert client.post(f"/api/events/{event}/start", headers=staff).status_code == 409


def test_a_room_of_an_event_deals_the_events_seeds_and_takes_no_client_seed(
    client: TestClient,
) -> None:
    staff = _staff(client)
    event = _event_of(client, staff, "1301", 2, ["hard", "normal", "easy", "normal"])
    started = client.post(f"/api/events/{event['id']}/start", headers=staff)
    assert started.status_code == 200, started.text
    names = [x["name"] for x in started.json()["entrants"]]
    assert names == ["hard", "normal", "easy", "normal 2"]
    store = _state(client).store
    with store.engine.connect() as conn:
        key = str(conn.execute(select(e.events.c.secret)).scalar())
    seeds = [deal_seed(key, 0), deal_seed(key, 1)]
    rooms = [_state(client).hub.rooms[x["room"]] for x in started.json()["tables"]]
    assert len(rooms) == 4
    for room in rooms:
        assert room.options.listed is False and room.options.spectators is False
        assert list(room.fixed_seeds or []) == seeds
        with pytest.raises(ServerError) as refused:
            room.set_client_seed(_Seat(), ClientSeed(seed="abcdef12"))
        assert refused.value.code == "fixed_deals"
    first = seeds[0]
    # the commitment published before each deal is the event's seed's, at every table
    hands = _until(client, event["id"], "finished")["boards"][0]["tables"]
    assert {h["game"] for h in hands}
    for h in hands:
        record = client.get(f"/api/games/{h['game']}").json()
        assert record["seed"] == first and record["commitment"] == commitment(first)
        assert record["client_seeds"] is None


def test_an_event_of_bots_plays_to_its_end_with_fair_rotation_and_duplicate_scores(
    client: TestClient,
) -> None:
    staff = _staff(client)
    made = client.post(
        "/api/events",
        json={"name": "机器人阶梯", "code": "anshan-fangyang", "deals": 3},
        headers=staff,
    )
    event = made.json()["id"]
    levels = ["easy", "normal", "easy", "normal"]
    for level in levels:
        answer = client.post(f"/api/events/{event}/entrants", json={"bot": level}, headers=staff)
        assert answer.status_code == 201
    started = client.post(f"/api/events/{event}/start", headers=staff).json()
    assert started["status"] == "running"
    assert len(started["tables"]) == 4 and {x["round"] for x in started["tables"]} == {0}
    done = _until(client, event, "finished")
    assert done["status"] == "finished", "every table played its three deals"
    entrants = {x["id"]: x for x in done["entrants"]}
    n_sides = len(done["sides"])
    # rotation: at every deal, each entrant played from every seat once, and each seat's
    # results hold every entrant once (each compared with all the others)
    for deal in done["boards"]:
        assert deal["complete"] and len(deal["tables"]) == 4
        for side in range(n_sides):
            assert sorted(h["lineup"][side] for h in deal["tables"]) == sorted(entrants)
        games = [client.get(f"/api/games/{h['game']}").json() for h in deal["tables"]]
        assert len({str(g["deal"]) for g in games}) == 1, "every table dealt the same cards"
        # the table's room gave each side's seats the bot of the entrant named there
        for h in deal["tables"]:
            room = _state(client).store.room(h["room"])
            levels_of = room.options["seat_levels"]
            for side, entrant in enumerate(h["lineup"]):
                for seat in done["sides"][side]:
                    assert levels_of[seat] == entrants[entrant]["bot"]
    board = done["standings"]
    assert board["final"] is True and board["hands"] == 3 * 4
    rows = board["standings"]
    assert [x["rank"] for x in rows] == [1, 2, 3, 4]
    # each entrant's score, worked out here from the hands' settlements: at each deal and
    # side, its points (the mean of the side's seats) less the mean of the others' there.
    # (Whether easy and normal bots differ on three deals is chance: both may play a deal
    # the same way, and then every score is 0.)
    points: dict[tuple[int, int], dict[int, float]] = {}
    for deal in done["boards"]:
        for h in deal["tables"]:
            for side, entrant in enumerate(h["lineup"]):
                seats = done["sides"][side]
                mean = sum(h["settlement"][s] for s in seats) / len(seats)
                points.setdefault((deal["deal"], side), {})[entrant] = mean
    expected = dict.fromkeys(entrants, 0.0)
    for there in points.values():
        for entrant, mine in there.items():
            others = [v for k, v in there.items() if k != entrant]
            expected[entrant] += mine - sum(others) / len(others)
    for x in rows:
        assert x["score"] == pytest.approx(expected[x["entrant"]], abs=1e-3)
    assert sum(x["score"] for x in rows) == pytest.approx(0, abs=1e-3)  # each rounded to 4 places
    for x in rows:
        assert x["deals"] == 3 and x["results"] == 3 * n_sides
        lo, hi = x["ci95"]
        assert lo <= x["mean"] <= hi
    assert rows == sorted(rows, key=lambda x: -x["mean"])
    # the same through /standings
    assert client.get(f"/api/events/{event}/standings").json() == board
    # bots only: no player's rating moved
    with _state(client).store.engine.connect() as conn:
        assert conn.execute(select(r.ratings)).all() == []
    # side by side: deal 1's first two tables from seat 0, step by step and decision by
    # decision; the seat's cards are the same at both
    tables = done["boards"][1]["tables"]
    a, b = tables[0]["game"], tables[1]["game"]
    pair = client.get(f"/api/events/{event}/deals/1/side-by-side?a={a}&b={b}&seat=0")
    assert pair.status_code == 200, pair.text
    body = pair.json()
    assert body["games"] == [a, b] and body["seat"] == 0
    first = body["rows"][0]
    assert first["a"]["view"]["hand"] == first["b"]["view"]["hand"]
    assert body["decisions"], "seat 0 decides at both tables"
    for d in body["decisions"]:
        for key in ("a", "b"):
            if d[key] is not None:
                assert body["rows"][d[key]][key]["seat"] == 0, "a decision of seat 0's own"
    bad = client.get(f"/api/events/{event}/deals/2/side-by-side?a={a}&b={b}")
    assert bad.status_code == 404 and bad.json()["error"]["code"] == "not_this_deal"
    assert Counter(x["bot"] for x in entrants.values()) == Counter(levels)


def test_a_person_makes_it_the_movement_and_needs_two_tables_of_entrants(
    client: TestClient,
) -> None:
    """With a person among the entrants the event plays the movement, where no one sees a
    deal twice: 十三张's four sides need eight entrants (two tables), and the start says
    so; bots alone play the rotation."""
    staff = _staff(client)
    event = _event_of(client, staff, "1301", 4, ["hard", "normal", "easy"])["id"]
    _, me = _player(client, "阿梅")
    client.post(f"/api/events/{event}/join", json={}, headers=me)
    short = client.post(f"/api/events/{event}/start", headers=staff)
    assert short.status_code == 409, short.text
    refused = short.json()["error"]
    assert refused["code"] == "too_few_entrants" and refused["params"]["needed"] == 8, refused
    assert "8, not 4" in refused["message"]
    assert "8" in refused["text"]["zh"] and "8 entrants" in refused["text"]["en"]
    for level in ("hard", "normal", "easy", "normal"):
        client.post(f"/api/events/{event}/entrants", json={"bot": level}, headers=staff)
    started = client.post(f"/api/events/{event}/start", headers=staff)
    assert started.status_code == 200, started.text
    found = started.json()
    assert found["movement"] == "movement"
    assert sorted((x["round"], x["deals"]) for x in found["tables"]) == [
        (0, [0, 1]),
        (0, [2, 3]),
        (1, [0, 1]),
        (1, [2, 3]),
    ]
    seen = Counter(
        (entrant, deal) for x in found["tables"] for entrant in x["lineup"] for deal in x["deals"]
    )
    assert set(seen.values()) == {1} and len(seen) == 8 * 4, "every entrant meets every deal once"
    rooms = [_state(client).hub.rooms[x["room"]] for x in found["tables"] if x["round"] == 0]
    with _state(client).store.engine.connect() as conn:
        key = str(conn.execute(select(e.events.c.secret).where(e.events.c.id == event)).scalar())
    for room, x in zip(rooms, [x for x in found["tables"] if x["round"] == 0], strict=True):
        assert list(room.fixed_seeds or []) == [deal_seed(key, d) for d in x["deals"]]
        assert room.options.hands == 2


def test_a_player_plays_round_after_round_and_the_event_rates_once(client: TestClient) -> None:
    """A person sits at one table at a time: the movement's rounds come one after
    another, and each deal reaches the person once; at the end the person's rating of the
    game moves once, by the event (its tables do not count alone). A seat whose player is
    away is played at its clock's end."""
    staff = _staff(client)
    made = client.post(
        "/api/events", json={"code": "1301", "deals": 4, "time_limit": 0.05}, headers=staff
    ).json()
    event = made["id"]
    pid, me = _player(client, "阿梅")
    client.post(f"/api/events/{event}/join", json={}, headers=me)
    for level in ("hard", "normal", "easy", "hard", "normal", "easy", "normal"):
        client.post(f"/api/events/{event}/entrants", json={"bot": level}, headers=staff)
    started = client.post(f"/api/events/{event}/start", headers=staff).json()
    assert sorted(x["round"] for x in started["tables"]) == [0, 0, 1, 1]
    assert [x["room"] is not None for x in started["tables"]] == [True, True, False, False]
    mine = client.get(f"/api/events/{event}", headers=me).json()["me"]
    assert mine["table"] == started["tables"][0]["room"], "the event page names my table"
    me_entrant = client.get(f"/api/events/{event}", headers=me).json()["me"]["entrant"]
    my_deals = [d for x in started["tables"] if me_entrant in x["lineup"] for d in x["deals"]]
    assert sorted(my_deals) == [0, 1, 2, 3], "each deal once"
    # deal 1 is still to be played at the later rounds' tables: its replays wait
    early = client.get(f"/api/events/{event}/deals/0/side-by-side?a=1&b=2")
    assert early.status_code == 409 and early.json()["error"]["code"] == "deal_in_play"
    first_room = started["tables"][0]["room"]
    seen: dict[str, Any] = {}
    end = time.monotonic() + 120  # a bound for a broken run, not a measure
    while seen.get("hands_played", 0) < 1 and time.monotonic() < end:
        seen = client.get(f"/api/rooms/{first_room}", headers=me).json()
        time.sleep(0.1)
    hand = min(h["id"] for h in client.get(f"/api/games?room={first_room}").json())
    hidden = client.get(f"/api/games/{hand}")
    assert hidden.status_code == 409 and hidden.json()["error"]["code"] == "deal_in_play", (
        "a finished hand of deal 1 stays hidden while later rounds have still to play it"
    )
    done = _until(client, event, "finished")
    assert done["status"] == "finished"
    assert client.get(f"/api/games/{hand}").status_code == 200, "every table played it"
    store = _state(client).store
    spans: dict[int, list[tuple[float, float]]] = {}
    for x in done["tables"]:
        with store.engine.connect() as conn:
            times = conn.execute(
                select(t.hands.c.started_at, t.hands.c.ended_at).where(
                    t.hands.c.room_id == x["room"]
                )
            ).all()
        spans.setdefault(x["round"], []).append(
            (min(h.started_at for h in times), max(h.ended_at for h in times))
        )
        room = store.room(x["room"])
        assert room.owner_id != pid
    assert sorted(spans) == [0, 1]
    assert min(a for a, _ in spans[1]) >= max(b for _, b in spans[0]), (
        "a round's tables open once the round before is over"
    )
    with store.engine.connect() as conn:
        rated = conn.execute(select(r.ratings).where(r.ratings.c.player_id == pid)).all()
        counted = conn.execute(select(r.rated_rooms.c.room_id)).scalars().all()
    assert [(x.code, x.rooms) for x in rated] == [("1301", 1)]
    _state(client).ratings.rate_pending()
    with store.engine.connect() as conn:
        again = conn.execute(select(r.ratings).where(r.ratings.c.player_id == pid)).all()
    assert [x.rooms for x in again] == [1], "the event's tables are not rated again"
    assert len(counted) <= 4
    board = done["standings"]["standings"]
    assert {x["deals"] for x in board} == {4}, "every entrant played every deal, once each"


def test_a_table_left_unopened_by_its_node_is_opened_at_a_later_look(
    client: TestClient,
) -> None:
    """A node that moved a round on and died before opening its tables (here: the start
    planned them and nobody opened them) leaves them to the next look of any node, once
    its claim is stale."""
    staff = _staff(client)
    event = _event_of(client, staff, "1301", 2, ["hard", "normal", "easy", "normal"])["id"]
    events = _state(client).events
    events.claim_seconds = 0.0  # every claim is stale at once
    plans = events.start(Maker(staff="mei"), event)
    assert len(plans) == 4
    waiting = client.get(f"/api/events/{event}").json()
    assert [x["room"] for x in waiting["tables"]] == [None] * 4
    done = _until(client, event, "finished")
    assert done["status"] == "finished"
    rooms = [x["room"] for x in done["tables"]]
    assert None not in rooms and len(set(rooms)) == 4


def test_a_restarted_server_deals_the_events_seeds_again(tmp_path: Path) -> None:
    """A server stopped in the middle of an event resumes its tables from the database,
    and the deals after the restart are still the event's: every table's hand N has the
    same seed."""
    db = str(tmp_path / "restart.db")
    limits = Limits(min_bot_delay=0)
    with TestClient(create_app(db, limits=limits)) as first:
        first.app.state.accounts.passwords = FAST  # type: ignore[attr-defined]
        staff = _staff(first)
        bots = ["easy", "normal", "easy", "normal"]
        event = _event_of(first, staff, "anshan-fangyang", 3, bots)["id"]
        started = first.post(f"/api/events/{event}/start", headers=staff).json()
        store = _state(first).store
        end = time.monotonic() + 120  # a bound for a broken run, not a measure
        while time.monotonic() < end:
            with store.engine.connect() as conn:
                over = conn.execute(select(t.hands.c.id).where(t.hands.c.status == "over")).first()
            if over is not None:
                break
            time.sleep(0.1)
    rooms = [x["room"] for x in started["tables"]]
    with TestClient(create_app(db, limits=limits)) as again:
        done = _until(again, event, "finished")
        assert done["status"] == "finished"
        with _state(again).store.engine.connect() as conn:
            key = str(conn.execute(select(e.events.c.secret)).scalar())
            hands = conn.execute(
                select(t.hands.c.room_id, t.hands.c.hand_no, t.hands.c.seed).where(
                    t.hands.c.room_id.in_(rooms), t.hands.c.status == "over"
                )
            ).all()
    assert len(hands) == 3 * 4
    for h in hands:
        assert h.seed == deal_seed(key, h.hand_no - 1), (h.room_id, h.hand_no)


def _people_event(
    client: TestClient, maker: dict[str, str], me: dict[str, str], club: int | None = None
) -> dict[str, Any]:
    """A 十三张 event of four deals, one person and seven bots, a long clock a move (the
    person's table waits on the person: nothing races it), started."""
    body: dict[str, Any] = {"code": "1301", "deals": 4, "time_limit": 600}
    if club is not None:
        body["club"] = club
    made = client.post("/api/events", json=body, headers=maker)
    assert made.status_code == 201, made.text
    event = made.json()["id"]
    assert client.post(f"/api/events/{event}/join", json={}, headers=me).status_code == 201
    for level in ("hard", "normal", "easy", "hard", "normal", "easy", "normal"):
        added = client.post(f"/api/events/{event}/entrants", json={"bot": level}, headers=maker)
        assert added.status_code == 201, added.text
    started = client.post(f"/api/events/{event}/start", headers=maker)
    assert started.status_code == 200, started.text
    found: dict[str, Any] = started.json()
    return found


def _hands_of(client: TestClient, room: int) -> list[str]:
    with _state(client).store.engine.connect() as conn:
        return [
            str(x) for x in conn.execute(select(t.hands.c.status).where(t.hands.c.room_id == room))
        ]


def _audited(client: TestClient, action: str) -> list[Any]:
    with _state(client).store.engine.connect() as conn:
        return conn.execute(select(a.audit_log).where(a.audit_log.c.action == action)).all()


def test_a_clubs_admin_cancels_an_event_nothing_is_scored_and_its_tables_close(
    client: TestClient,
) -> None:
    """An absent person is not waited for: the maker calls the event off. Its tables
    close at once (the hand in play is void: points never move but by a settled hand),
    the standings are empty, no rating moves, and the console's trail keeps the call."""
    owner_id, owner = _player(client, "老王")
    club = client.post("/api/clubs", json={"name": "周三"}, headers=owner).json()
    pid, me = _player(client, "阿梅")
    client.post("/api/clubs/join", json={"code": club["code"]}, headers=me)
    started = _people_event(client, owner, me, club["id"])
    event = started["id"]
    mine = client.get(f"/api/events/{event}", headers=me).json()["me"]["table"]
    assert mine is not None
    # a member who did not make it may not call it off, nor anyone without a session
    assert client.post(f"/api/events/{event}/cancel", headers=me).status_code == 403
    assert client.post(f"/api/events/{event}/cancel").status_code == 401
    assert client.post(f"/api/events/{event}/end", headers=me).status_code == 403
    off = client.post(f"/api/events/{event}/cancel", json={"reason": "人没来"}, headers=owner)
    assert off.status_code == 200, off.text
    found = off.json()
    assert found["status"] == "cancelled"
    assert found["standings"] == {"final": True, "cancelled": True, "standings": [], "hands": 0}
    hub = _state(client).hub
    for x in found["tables"]:
        if x["room"] is not None:
            assert not hub.rooms[x["room"]].open, "every table of the event is closed"
    assert "over" not in _hands_of(client, mine), "the person's hand in play is void"
    assert found["me"]["table"] is None
    again = client.post(f"/api/events/{event}/cancel", headers=owner)
    assert again.status_code == 409 and again.json()["error"]["code"] == "event_over"
    ended = client.post(f"/api/events/{event}/end", headers=owner)
    assert ended.status_code == 409 and ended.json()["error"]["code"] == "event_over"
    with _state(client).store.engine.connect() as conn:
        assert conn.execute(select(r.ratings)).all() == []
    (entry,) = _audited(client, "cancel_event")
    assert entry.actor == f"player:{owner_id}" and entry.reason == "人没来"
    assert json.loads(entry.detail)["event"] == event
    # the looks that follow leave it cancelled (no round moves on, nothing opens)
    assert _state(client).events.advance() == []
    assert client.get(f"/api/events/{event}", headers=me).json()["status"] == "cancelled"
    assert pid != owner_id


def test_ending_an_event_early_makes_the_standings_final_over_the_deals_every_table_finished(
    client: TestClient,
) -> None:
    """The person plays round 1 by leaving the table to its bot (托管), then does not come
    to round 2's table. The maker ends the event: the deals that every table playing them
    finished count (both tables of each round play them), the rest count for no one; the
    person's rating moves once; the hand in play at the person's table is void."""
    staff = _staff(client)
    pid, me = _player(client, "阿梅")
    started = _people_event(client, staff, me)
    event = started["id"]
    me_entrant = client.get(f"/api/events/{event}", headers=me).json()["me"]["entrant"]
    first = next(x for x in started["tables"] if me_entrant in x["lineup"])
    left = client.post(f"/api/rooms/{first['room']}/leave", headers=me)
    assert left.status_code == 200, left.text
    end = time.monotonic() + 240  # a bound for a broken run, not a measure
    while time.monotonic() < end:
        found = client.get(f"/api/events/{event}", headers=me).json()
        later = [x for x in found["tables"] if x["round"] == 1]
        theirs = [x for x in later if me_entrant not in x["lineup"]]
        if theirs and all(x["status"] == "finished" for x in theirs) and found["me"]["table"]:
            break
        time.sleep(0.2)
    mine = found["me"]["table"]
    (waiting,) = [x for x in later if me_entrant in x["lineup"]]
    assert waiting["room"] == mine and "over" not in _hands_of(client, mine)
    whole = sorted(theirs[0]["deals"])
    ended = client.post(f"/api/events/{event}/end", json={"reason": "时间到"}, headers=staff)
    assert ended.status_code == 200, ended.text
    done = ended.json()
    assert done["status"] == "finished"
    board = done["standings"]
    assert board["final"] is True and board["ended_early"] is True
    assert board["hands"] == 2 * len(whole), "two tables played each whole deal"
    for x in board["standings"]:
        assert x["deals"] == len(whole), "every entrant played each whole deal once"
    assert sum(x["score"] for x in board["standings"]) == pytest.approx(0, abs=1e-3)
    assert not _state(client).hub.rooms[mine].open, "the waiting table is closed"
    assert "over" not in _hands_of(client, mine), "its hand in play is void, not settled"
    assert client.get(f"/api/events/{event}/standings").json() == board
    with _state(client).store.engine.connect() as conn:
        rated = conn.execute(select(r.ratings).where(r.ratings.c.player_id == pid)).all()
    assert [(x.code, x.rooms) for x in rated] == [("1301", 1)], "rated once, by the event"
    (entry,) = _audited(client, "end_event")
    assert entry.actor == "staff:mei" and entry.reason == "时间到"
    again = client.post(f"/api/events/{event}/end", headers=staff)
    assert again.status_code == 409 and again.json()["error"]["code"] == "event_over"
