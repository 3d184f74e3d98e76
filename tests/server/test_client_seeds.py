"""Players add entropy to the deal (docs/fairness.md): the server commits to its next
seed before the deal, each seat may send a client seed, the hand is dealt from both,
and the published record re-deals and verifies (in process, on the real store).

docs/fairness.md section 1: "the server seed is fixed (its hash published) before it
can know the client seeds that will be mixed in"; section 2: ``deal_seed = server_seed
":" s_0 ":" … ":" s_{n-1}``.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from server_helpers import PLAYABLE
from socket_stub import SocketStub

from paiju.cli import cli
from paiju.fairness import commitment, deal_seed
from paiju.games import game as make_game
from paiju.server.client import Client
from paiju.server.hub import Hub
from paiju.server.inbox import handle
from paiju.server.options import Limits, RoomOptions
from paiju.server.store import Store
from paiju.server.verify import game_record, verify_game

pytestmark = pytest.mark.skipif("2001" not in PLAYABLE, reason="宝子 2001 is not registered")

OPTIONS = RoomOptions(
    seats=3,
    bots=1,
    time_limit=0.02,
    bot_delay=0,
    pause=0,
    hands=2,
    fill_after=None,
    ready_check=False,
    tuoguan_after=1,
    seed_wait=0.2,
)
"""The players do not act: their decision times out and the bot (托管) plays on."""


def test_client_seeds_sent_after_the_commitment_make_the_deal(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "seeds.db"))

    async def scenario() -> None:
        hub = Hub(store, Limits(min_bot_delay=0))
        ann, bob, eve = (store.create_player(n)[0] for n in ("ann", "bob", "eve"))
        room = await hub.create_room(ann, "2001", OPTIONS, {}, 0)
        published = room.info().next_commitment
        assert published is not None
        socks = []
        for player in (ann, eve):
            sock = SocketStub()
            client = Client(player, sock.send_text, hub.limits, sock.close)
            asyncio.get_running_loop().create_task(client.writer())
            room.attach(client)
            socks.append((client, sock))
        (ann_c, ann_s), (eve_c, eve_s) = socks
        handle(room, ann_c, json.dumps({"type": "client_seed", "seed": "ann-42", "id": 1}))
        handle(room, eve_c, json.dumps({"type": "client_seed", "seed": "nope"}))  # spectator
        handle(room, ann_c, json.dumps({"type": "client_seed", "seed": "no:colons"}))
        await asyncio.sleep(0.01)
        assert ann_s.of("seeded") == [
            {
                "type": "seeded",
                "room": room.id,
                "seat": 0,
                "seed": "ann-42",
                "next_commitment": published,
                "id": 1,
            }
        ]
        assert [e["code"] for e in eve_s.of("error")] == ["spectator"]
        assert [e["code"] for e in ann_s.of("error")] == ["bad_message"]
        room.join(bob, 1)  # the last open seat: the room starts and deals
        for _ in range(200):  # bob (not connected) sends no seed: the deal waits seed_wait
            await asyncio.sleep(0.005)
            if ann_s.of("hand_started"):
                break
        started = ann_s.of("hand_started")[0]
        assert started["commitment"] == published  # the seed committed to before
        assert started["client_seeds"] == ["ann-42", "", ""]
        assert started["next_commitment"] not in (None, published)
        for _ in range(400):
            await asyncio.sleep(0.005)
            if ann_s.of("hand_over"):
                break
        over = ann_s.of("hand_over")[0]
        assert over["commitment"] == commitment(over["seed"]) == published
        assert over["client_seeds"] == ["ann-42", "", ""]
        assert over["deal_seed"] == f"{over['seed']}:ann-42::"
        hand = store.hand(over["game"])
        assert hand is not None and hand.client_seeds == ("ann-42", "", "")
        record = game_record(hand, store.ledger_of_hand(hand.id), 1)
        assert verify_game(record)["ok"] is True
        g = make_game("2001")
        alone = g.new_state(3, seed=hand.seed, context=hand.context).deal.to_json()
        assert alone != hand.deal  # the client seed changed the cards
        assert (
            g.new_state(
                3, seed=deal_seed(hand.seed, ["ann-42", "", ""]), context=hand.context
            ).deal.to_json()
            == hand.deal
        )
        forged = {**record, "client_seeds": ["ann-43", "", ""]}
        assert verify_game(forged)["ok"] is False
        # the seed counted for one deal: the next hand was dealt from the server seed alone
        for _ in range(400):
            await asyncio.sleep(0.005)
            if len(ann_s.of("hand_over")) == 2:
                break
        second = ann_s.of("hand_over")[1]
        assert second["client_seeds"] is None and second["deal_seed"] == second["seed"]
        assert second["commitment"] == started["next_commitment"]
        hub.shutdown()

    asyncio.run(scenario())
    game = store.hands()[-1]["id"]  # the first hand: dealt with ann's seed
    store.close()
    db = str(tmp_path / "seeds.db")
    ok = CliRunner().invoke(cli, ["verify", str(game), "--db", db, "--client-seed", "ann-42"])
    assert ok.exit_code == 0, ok.output
    assert "your seed" in ok.output and "is seat 0's in the deal seed" in ok.output
    bad = CliRunner().invoke(cli, ["verify", str(game), "--db", db, "--client-seed", "ann-43"])
    assert bad.exit_code != 0 and "is not in this deal" in bad.output


FIRST = RoomOptions(
    seats=3,
    bots=2,
    time_limit=0.02,
    bot_delay=0,
    pause=0,
    hands=1,
    fill_after=None,
    seed_wait=0.5,
)
"""One player and two bots: the room starts at its creation."""

SEEDED = FIRST.model_copy(update={"seed_wait": 60.0})
"""As :data:`FIRST`, with the longest wait for the seed a room may set (no test here
outlasts it): a first deal that comes at all came from the seed, with no race against
the wait's clock."""


async def _first_hand(store: Store, send_seed: bool) -> tuple[SocketStub, str, float]:
    """A room that starts at creation; its creator connects and (or not) sends a seed.
    Returns the creator's socket, the commitment published with the room, and the delay
    from the room's creation to its first deal."""
    hub = Hub(store, Limits(min_bot_delay=0))
    ann = store.create_player("ann" if send_seed else "amy")[0]
    loop = asyncio.get_running_loop()
    created = loop.time()
    room = await hub.create_room(ann, "2001", SEEDED if send_seed else FIRST, {}, 0)
    info = room.info()
    assert info.status == "playing" and room.state is None  # started, not dealt yet
    assert info.next_commitment is not None
    sock = SocketStub()
    client = Client(ann, sock.send_text, hub.limits, sock.close)
    writer = loop.create_task(client.writer())
    room.attach(client)
    await asyncio.sleep(0.01)
    welcome = sock.of("welcome")[0]
    assert welcome["room"]["next_commitment"] == info.next_commitment
    assert not sock.of("hand_started")  # nobody could add a seed yet: no deal
    if send_seed:
        handle(room, client, json.dumps({"type": "client_seed", "seed": "ann-first", "id": 1}))
    dealt = None
    for _ in range(400):
        await asyncio.sleep(0.005)
        if sock.of("hand_started") and dealt is None:
            dealt = loop.time() - created
        if sock.of("hand_over"):
            break
    assert dealt is not None
    hub.shutdown()
    writer.cancel()
    return sock, info.next_commitment, dealt


def test_the_first_hand_of_a_room_that_starts_at_creation_takes_the_players_seed(
    tmp_path: Path,
) -> None:
    """docs/fairness.md section 1, "the first hand too": hand 1 is committed to before its
    deal (the room's info, the welcome) and waits for the seated player's seed; the seed
    sent is in the deal, and the record verifies."""
    store = Store(str(tmp_path / "first.db"))
    sock, published, dealt = asyncio.run(_first_hand(store, send_seed=True))
    assert dealt < SEEDED.seed_wait  # the seed was in: no need to wait the whole time
    kinds = [m.get("type") for m in sock.sent]
    assert kinds.index("seeded") < kinds.index("hand_started")
    started = sock.of("hand_started")[0]
    assert started["hand_no"] == 1 and started["commitment"] == published
    assert started["client_seeds"] == ["ann-first", "", ""]
    over = sock.of("hand_over")[0]
    assert over["deal_seed"] == f"{over['seed']}:ann-first::"
    hand = store.hand(over["game"])
    assert hand is not None and hand.hand_no == 1
    assert verify_game(game_record(hand, store.ledger_of_hand(hand.id), 1))["ok"] is True
    store.close()


def test_the_first_deal_waits_seed_wait_for_a_player_who_sends_none(tmp_path: Path) -> None:
    """Without a seed from its player, hand 1 is dealt ``seed_wait`` seconds after the
    room started, from the server seed alone - still the one committed to before."""
    store = Store(str(tmp_path / "late.db"))
    sock, published, dealt = asyncio.run(_first_hand(store, send_seed=False))
    assert dealt >= FIRST.seed_wait - 0.01
    started = sock.of("hand_started")[0]
    assert started["commitment"] == published and started["client_seeds"] is None
    store.close()
