"""A SQLite group commit of play (hands and actions), written on the pool's DBAPI connection
itself: a batch is stored whole or not at all, a write the database refuses is told as
SQLAlchemy tells it (the room is closed for it, not retried), and the running ledger
balances read back what earlier commits stored.

docs/protocol.md section 5: "Every accepted action is appended to the hand's log in the
database in a transaction before anyone is told".
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy.exc import IntegrityError

from paiju.server.rows import ActionWrite, HandEnding, HandWrite
from paiju.server.store import Store


def _hand(store: Store, room: int, no: int, players: tuple[int | None, ...]) -> HandWrite:
    return HandWrite(
        store.new_hand_id(), room, no, "toy", {}, players, "c" * 64, f"s{no}", {"d": no}, {}
    )


def test_a_refused_batch_stores_nothing_and_the_next_one_is_stored(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "refused.db"))
    ann, _ = store.create_player("ann")
    room = store.create_room("toy", {}, {}, 2, ann.id, [False, True])
    first = _hand(store, room, 1, (ann.id, None))
    store.append_actions([first, ActionWrite(first.id, 0, 0, {"type": "a"}, "player")])
    second = _hand(store, room, 2, (ann.id, None))
    again = ActionWrite(first.id, 0, 1, {"type": "b"}, "bot")  # the same (hand, idx)
    with pytest.raises(IntegrityError) as refused:
        store.append_actions([second, again])
    assert store.refused(refused.value)  # the room is closed, not retried
    assert store.hand(second.id) is None  # the batch's new hand went with it
    stored = store.hand(first.id)
    assert stored is not None and stored.actions == ((0, {"type": "a"}, "player"),)
    store.append_actions([second, ActionWrite(second.id, 0, 1, {"type": "c"}, "bot")])
    stored = store.hand(second.id)
    assert stored is not None and stored.actions == ((1, {"type": "c"}, "bot"),)
    store.close()


def test_a_settlement_counts_on_from_the_balance_stored_before(tmp_path: Path) -> None:
    db = str(tmp_path / "balances.db")
    store = Store(db)
    ann, _ = store.create_player("ann")
    bob, _ = store.create_player("bob")
    room = store.create_room("toy", {}, {}, 2, ann.id, [False, False])
    players = (ann.id, bob.id)
    first = _hand(store, room, 1, players)
    store.append_actions([first])
    ending = HandEnding(room, (2, -2), (6, -6), players, 1, {}, False)
    store.append_actions([ActionWrite(first.id, 0, 0, {"type": "a"}, "player", ending)])
    store.close()
    store = Store(db)  # no balance in memory: each is read from the ledger
    second = _hand(store, room, 2, players)
    store.append_actions([second])
    ending = HandEnding(room, (-1, 1), (-3, 3), players, 2, {}, False)
    store.append_actions([ActionWrite(second.id, 0, 1, {"type": "b"}, "player", ending)])
    assert (store.balance(ann.id), store.balance(bob.id)) == (3, -3)
    assert [row["balance"] for row in store.ledger_of_hand(second.id)] == [3, -3]
    store.close()
