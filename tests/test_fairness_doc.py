"""docs/fairness.md lets an outsider re-deal any hand: its code block, run on its own
(nothing but hashlib), re-derives the deals of every registered family from a game's
published record, with and without client seeds, and its worked example is what the
engine deals.

The issue: "A test re-derives deals of every family from the document alone, in a few
lines of independent code."
"""

from __future__ import annotations

import hashlib
import random
import re
from pathlib import Path
from typing import Any

import pytest

from paiju.catalog import catalog
from paiju.fairness import commitment, deal_seed
from paiju.games import FAMILIES, variant_json
from paiju.games import game as make_game
from paiju.server.inbox import handle

DOC = (Path(__file__).resolve().parent.parent / "docs" / "fairness.md").read_text(encoding="utf-8")


def _doc_code() -> dict[str, Any]:
    blocks = re.findall(r"```python\n(.*?)```", DOC, re.S)
    assert len(blocks) == 1, "docs/fairness.md holds one Python block: the re-dealer"
    namespace: dict[str, Any] = {}
    exec(compile(blocks[0], "docs/fairness.md", "exec"), namespace)  # the document's own code
    return namespace


DOC_CODE = _doc_code()
PLAYABLE = [v for v in catalog() if FAMILIES[v.family].game is not None]


def _context(variant: Any, rng: random.Random, trial: int, seats: int) -> dict[str, Any]:
    """A context carried from an earlier hand (trials 2 and 3), or none (a first hand)."""
    if trial < 2:
        return {}
    return {
        "baozi": {"banker": rng.randrange(seats)},
        "jiajiabao": {"banker": rng.randrange(seats)},
        "sandaha": {"first_bidder": rng.randrange(4)},
        "danzi": {"previous": {"finish_order": rng.sample(range(4), 4), "declarer": None}},
        "jiayibing": {"leader": rng.randrange(6)},
        "fangyang": {"banker": rng.randrange(4)},
        "majiang": {"dealer": rng.randrange(4)},
    }.get(variant.family, {})


def _record(
    code: str,
    seats: int,
    seed: str,
    client_seeds: list[str] | None,
    context: Any,
    options: dict[str, Any] | None = None,
) -> Any:
    """A game record as GET /api/games/{id} publishes it (the fields a re-deal needs)."""
    g = make_game(code, **(options or {}))
    state = g.new_state(seats, seed=deal_seed(seed, client_seeds), context=context)
    return {
        "code": code,
        "options": dict(g.options),
        "seats": seats,
        "seed": seed,
        "commitment": commitment(seed),
        "client_seeds": client_seeds,
        "context": context,
        "deal": state.deal.to_json(g.items),
    }


def test_every_registered_family_has_its_split_in_the_document() -> None:
    families = {v.family for v in PLAYABLE}
    missing = families - set(DOC_CODE["SPLIT"])
    assert not missing, f"docs/fairness.md does not say how {missing} deal (section 5)"
    for family in families:
        assert f"`{family}`" in DOC, f"docs/fairness.md section 5 has no bullet for {family}"


@pytest.mark.parametrize("variant", PLAYABLE, ids=lambda v: v.code)
def test_the_document_re_deals_every_variant(variant: Any) -> None:
    rng = random.Random(f"fairness-doc {variant.code}")
    g = make_game(variant.code)
    entry = variant_json(variant)  # what GET /api/catalog/{code} publishes
    for trial in range(4):
        seats = rng.randint(g.min_seats, g.max_seats)
        seed = hashlib.sha256(f"{variant.code} {trial}".encode()).hexdigest()
        client_seeds = None
        if trial % 2:
            client_seeds = [rng.choice(["", "ann-42", "x", "Zz_9"]) for _ in range(seats)]
        record = _record(
            variant.code, seats, seed, client_seeds, _context(variant, rng, trial, seats)
        )
        assert DOC_CODE["redeal"](record, variant.family, entry) == record["deal"], (
            variant.code,
            seats,
            client_seeds,
            record["context"],
        )


def test_the_worked_example_is_what_the_engine_deals() -> None:
    server_seed = "7d2c9e41a0b35f68c4e1d9027ab36f5e18c04d7b92e3a65f0c1b8d4e7f2a9063"
    client_seeds = ["ann-42", "", "zhou", ""]
    assert f"commitment = {commitment(server_seed)}" in DOC
    dealt_from = deal_seed(server_seed, client_seeds)
    assert f"deal_seed = {dealt_from}" in DOC
    key = hashlib.sha256(dealt_from.encode()).digest()
    assert f"key       = sha256(deal_seed) = {key.hex()}" in DOC
    assert hashlib.sha256(key + bytes(8)).hexdigest() in DOC
    g = make_game("1301")
    hands = g.new_state(4, seed=dealt_from).deal.to_json()["hands"]
    for seat, hand in enumerate(hands):
        assert f"seat {seat}: {hand}" in DOC
    record = {"seed": server_seed, "client_seeds": client_seeds, "seats": 4, "context": {}}
    assert DOC_CODE["redeal"](record, "shisanzhang", {"deck": "52"})["hands"] == hands


def test_client_seeds_change_the_deal_and_no_seed_keeps_the_server_seed() -> None:
    g = make_game("1301")
    seed = "ab" * 32
    plain = g.new_state(4, seed=seed).deal
    assert g.new_state(4, seed=deal_seed(seed, ["", "", "", ""])).deal == plain
    assert g.new_state(4, seed=deal_seed(seed, ["", "b", "", ""])).deal != plain
    assert deal_seed(seed, ["", "b", "", ""]) != deal_seed(seed, ["b", "", "", ""])


@pytest.mark.parametrize(
    "options",
    [
        {"special3": "first-dealt"},
        {"special3": "instance", "next_lead": "special3"},
        {"special3": "first-dealt", "next_lead": "special3"},
    ],
)
def test_the_document_re_deals_jiayibing_under_each_special3_option(options: Any) -> None:
    """鞍山甲乙丙's deal reads two room options (the special 3): the document follows both."""
    if "anshan-jiayibing" not in [v.code for v in PLAYABLE]:
        pytest.skip("鞍山甲乙丙 is not registered")
    entry = variant_json(next(v for v in PLAYABLE if v.code == "anshan-jiayibing"))
    for trial in range(4):
        seed = hashlib.sha256(f"jiayibing {options} {trial}".encode()).hexdigest()
        context = {"leader": trial} if trial % 2 else {}
        record = _record("anshan-jiayibing", 6, seed, None, context, options)
        assert DOC_CODE["redeal"](record, "jiayibing", entry) == record["deal"]


def test_the_first_hand_of_a_room_is_committed_before_its_deal_and_re_deals(
    tmp_path: Path,
) -> None:
    """Section 1, "before the **first** deal": a room of one player and bots starts at its
    creation; its info publishes hand 1's commitment, the deal waits for the player's seed,
    and the document's code re-deals hand 1 from the record with that seed in it."""
    import asyncio
    import json

    from paiju.server.client import Client
    from paiju.server.hub import Hub
    from paiju.server.options import Limits, RoomOptions
    from paiju.server.store import Store
    from paiju.server.verify import game_record

    assert "before the **first** deal" in DOC and "`seed_wait`" in DOC
    store = Store(str(tmp_path / "first.db"))
    options = RoomOptions(
        bots=3, bot_delay=0, time_limit=0.02, claim_window=0.01, pause=0, hands=1, seed_wait=5
    )

    async def first_hand() -> tuple[str, list[dict[str, Any]]]:
        hub = Hub(store, Limits(min_bot_delay=0))
        ann = store.create_player("ann")[0]
        room = await hub.create_room(ann, "anshan-majiang", options, {}, 0)
        published = room.info().next_commitment
        assert published is not None and room.state is None
        got: list[dict[str, Any]] = []

        async def send(text: str) -> None:
            got.append(json.loads(text))

        async def close(code: int, reason: str) -> None:
            pass

        client = Client(ann, send, hub.limits, close)
        writer = asyncio.get_running_loop().create_task(client.writer())
        room.attach(client)
        handle(room, client, json.dumps({"type": "client_seed", "seed": "first-hand"}))
        for _ in range(4000):
            await asyncio.sleep(0.005)
            if any(m["type"] == "hand_over" for m in got):
                break
        hub.shutdown()
        writer.cancel()
        return published, got

    published, got = asyncio.run(first_hand())
    kinds = [m["type"] for m in got]
    assert kinds.index("welcome") < kinds.index("hand_started")
    started = next(m for m in got if m["type"] == "hand_started")
    assert started["hand_no"] == 1 and started["commitment"] == published
    over = next(m for m in got if m["type"] == "hand_over")
    hand = store.hand(over["game"])
    assert hand is not None
    record = game_record(hand, store.ledger_of_hand(hand.id), 1)
    assert hashlib.sha256(record["seed"].encode()).hexdigest() == published
    assert record["client_seeds"][0] == "first-hand"
    entry = variant_json(next(v for v in PLAYABLE if v.code == "anshan-majiang"))
    assert DOC_CODE["redeal"](record, "majiang", entry) == record["deal"]
    store.close()
