"""鞍山麻将 claim windows tell nobody who could claim (in process, on the real store).

docs/protocol.md ("Claim windows"): after every discard each other seat is asked, the window
stays open for exactly ``claim_window`` seconds whatever anyone holds or decides, and only a
claim made is ever shown. The test plays the same discards at two tables whose deals differ
in one seat's hidden tiles only - at one it holds a pair of the first discard and could 碰,
and passes at once; at the other it can claim nothing and sends nothing - and compares
every message each other seat and a spectator receive: types, contents, order, and the
time between them.

The windows are timed by a clock the test drives (``tests/held_clock.py``): a window's time
passes when every socket has received all there is to receive, so what each socket is sent
inside a window never races the window's end, and each message is stamped with the window
clock's time (what the window's timing is measured by).
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from held_clock import HeldClock
from paiju.engine import Deal
from paiju.games import game as make_game
from paiju.games.majiang.game import Discard, MajiangState, Pass, Peng
from paiju.server.client import Client
from paiju.server.hub import Hub
from paiju.server.inbox import handle
from paiju.server.options import Limits, RoomOptions
from paiju.server.store import Store
from paiju.tiles import Tile

CODE = "anshan-majiang"
WINDOW = 0.5
DISCARDS = 10
CHANCE = ("commitment", "next_commitment", "remaining", "invite")
"""Message fields that differ from table to table by chance (or by the clock)."""
HOLDER = 2
"""The seat whose hidden tiles differ between the two tables (the dealer is seat 0)."""

OPTIONS = RoomOptions(
    seats=4,
    time_limit=0,
    bot_delay=0,
    claim_window=WINDOW,
    pause=0,
    hands=1,
    fill_after=None,
    ready_check=False,
    spectators=True,
)


class _Socket:
    """A socket that keeps what it is sent, each message stamped with the window clock."""

    def __init__(self, clock: HeldClock) -> None:
        self.clock = clock
        self.sent: list[tuple[float, dict[str, Any]]] = []

    async def send_text(self, text: str) -> None:
        self.sent.append((self.clock.time(), json.loads(text)))

    async def close(self, code: int, reason: str) -> None:
        self.sent.append((self.clock.time(), {"closed": code}))

    def version(self) -> int:
        """The hand's version of the last update or state it was sent (-1: none yet)."""
        for _, msg in reversed(self.sent):
            if msg.get("type") in ("state", "update"):
                return int(msg["version"])
        return -1


def _caught_up(room: Any, sockets: dict[Any, _Socket]) -> bool:
    """Every socket has been sent the hand as it stands (no message on its way)."""
    state = room.state
    return state is not None and all(
        sock.version() == len(state.history) for sock in sockets.values()
    )


def _deals() -> tuple[Deal, Deal, int]:
    """Two deals with the same wall, flip and hands but seat ``HOLDER``'s: at the first it
    holds two of the dealer's first discard (its 14th tile), at the second two other tiles
    (swapped with those two, which lie deep in the wall, never drawn here)."""
    g = make_game(CODE)
    for n in range(500):
        base = g.new_state(4, seed=f"windows-{n}", context={"dealer": 0})
        assert isinstance(base, MajiangState)
        hands = [list(h) for h in base.deal.hands]
        wall = list(base.deal.piles["wall"])
        first = hands[0][-1]
        if first in base.hun or first >= 27:
            continue
        deep = [i for i, t in enumerate(wall) if t == first and i >= 40]
        if len(deep) < 2 or first in hands[HOLDER] or first in hands[1] or first in hands[3]:
            continue
        swap = [t for t in hands[HOLDER] if t not in base.hun and t != first][:2]
        other = [list(h) for h in hands]
        other_wall = list(wall)
        for i, t in zip(deep[:2], swap, strict=True):
            other[HOLDER].remove(t)
            other[HOLDER].append(first)
            other_wall[i] = t
        plain = Deal(tuple(map(tuple, hands)), {**base.deal.piles}, dict(base.deal.info))
        pair = Deal(
            tuple(map(tuple, other)),
            {"wall": tuple(other_wall), "flip": base.deal.piles["flip"]},
            dict(base.deal.info),
        )
        assert Counter(t for h in pair.hands for t in h) + Counter(other_wall) == Counter(
            t for h in plain.hands for t in h
        ) + Counter(wall)
        return pair, plain, first
    raise AssertionError("no seed gives a usable deal")


async def _table(tmp: Path, deal: Deal, holder_passes: bool) -> dict[str, list[Any]]:
    """Play ``DISCARDS`` discards (each seat discards what it drew) at a table dealt
    ``deal``; seat ``HOLDER`` passes at once when it could claim. Every socket's messages."""
    store = Store(str(tmp / "windows.db"))
    hub = Hub(store, Limits(min_bot_delay=0))
    players = [store.create_player(n)[0] for n in ("ann", "bob", "cat", "dan", "eve")]
    room = await hub.create_room(players[0], CODE, OPTIONS, {}, 0)
    room.game.deal = lambda seats, rng, context: deal  # type: ignore[method-assign]
    clock = room.turn_clock = HeldClock()
    loop = asyncio.get_running_loop()
    sockets: dict[str, _Socket] = {}
    clients: dict[str, Client] = {}
    writers: list[asyncio.Task[None]] = []
    for i, player in enumerate(players):
        sock = _Socket(clock)
        client = Client(player, sock.send_text, hub.limits, sock.close)
        writers.append(loop.create_task(client.writer()))
        name = "spectator" if i == 4 else str(i)
        sockets[name], clients[name] = sock, client
    room.attach(clients["0"])
    for seat in (1, 2, 3):
        room.join(players[seat], seat)
        room.attach(clients[str(seat)])
    room.attach(clients["spectator"])
    discards, seen = 0, {name: 0 for name in sockets}
    answered: set[tuple[int, int]] = set()
    start = loop.time()
    while loop.time() - start < 120:  # a bound on a stuck test, not a window's time
        await asyncio.sleep(0.005)
        for seat in range(4):
            sock = sockets[str(seat)]
            new, seen[str(seat)] = sock.sent[seen[str(seat)] :], len(sock.sent)
            for _, msg in new:
                if msg.get("type") not in ("state", "update"):
                    continue
                view, legal = msg["view"], msg.get("legal") or []
                if view["to_act"] is not True or (seat, msg["version"]) in answered:
                    continue
                answered.add((seat, msg["version"]))
                if view["phase"] == "play" and discards < DISCARDS:
                    discards += 1
                    action = {"type": "discard", "tile": view["drawn"]}
                    handle(
                        room, clients[str(seat)], json.dumps({"type": "action", "action": action})
                    )
                elif seat == HOLDER and holder_passes and {"type": "peng"} in legal:
                    handle(
                        room,
                        clients[str(seat)],
                        json.dumps({"type": "action", "action": {"type": "pass"}}),
                    )
        window = room.window
        if window is not None and not window.closing and _caught_up(room, sockets):
            clock.advance()  # everyone has seen the window open: its time passes
        elif discards == DISCARDS and window is None and _caught_up(room, sockets):
            break  # the last window closed, every socket told; the next seat waits
    else:
        raise AssertionError("the table did not play its discards")
    out = {name: list(sock.sent) for name, sock in sockets.items()}
    out["log"] = [(s, a, actor) for s, a, actor in store.hand(room.hand_id).actions]  # type: ignore[union-attr]
    hub.shutdown()
    store.close()
    return out


def _plain(msg: dict[str, Any]) -> dict[str, Any]:
    """A message without what differs from table to table by chance: the commitments to
    each table's own secret seeds and random invite code, and a clock's time left (compared
    within the bound)."""
    text = json.dumps(msg)
    obj: dict[str, Any] = json.loads(text)

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: "·" if k in CHANCE else strip(v) for k, v in value.items()}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    return strip(obj)  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], dict[str, Any], int]:
    pair, plain, tile = _deals()
    g = make_game(CODE)
    probe = g.new_state(4, deal=pair)
    probe.apply(0, Discard(Tile(tile)))
    assert Peng() in (probe.legal_actions(HOLDER) or [])  # at this table it could 碰
    blank = g.new_state(4, deal=plain)
    blank.apply(0, Discard(Tile(tile)))
    assert blank.legal_actions(HOLDER) == [Pass()]  # at this one it has 过 alone
    a = asyncio.run(_table(tmp_path_factory.mktemp("pair"), pair, holder_passes=True))
    b = asyncio.run(_table(tmp_path_factory.mktemp("plain"), plain, holder_passes=False))
    return a, b, tile


def test_the_same_discards_show_the_same_messages_whatever_one_seat_holds(
    tables: tuple[dict[str, Any], dict[str, Any], int],
) -> None:
    """Seats 0, 1, 3 and the spectator receive the very same messages, in the same order,
    at the same moments within the bound, whether seat 2 could 碰 (and passed) or not."""
    a, b, _ = tables
    discards = [x for x in a["log"] if x[1]["type"] == "discard"]
    assert len(discards) == DISCARDS
    assert [x[:2] for x in discards] == [x[:2] for x in b["log"] if x[1]["type"] == "discard"]
    assert (HOLDER, {"type": "pass"}, "player") in a["log"]  # its own pass, at once
    assert (HOLDER, {"type": "pass"}, "player") not in b["log"]
    for name in ("0", "1", "3", "spectator"):
        seen_a = [_plain(m) for _, m in a[name]]
        seen_b = [_plain(m) for _, m in b[name]]
        assert [m.get("type") for m in seen_a] == [m.get("type") for m in seen_b], name
        for i, (x, y) in enumerate(zip(seen_a, seen_b, strict=True)):
            assert x == y, (name, i, x, y)
            left_a = [t["remaining"] for t in a[name][i][1].get("timers") or []]
            left_b = [t["remaining"] for t in b[name][i][1].get("timers") or []]
            assert left_a == left_b, (name, i, left_a, left_b)
        # when a window ends is the server's timer (when a discard comes is the test
        # players' own pace): the same at both tables
        lasted_a, lasted_b = _windows(a, name), _windows(b, name)
        assert len(lasted_a) == len(lasted_b) == DISCARDS, name
        assert lasted_a == lasted_b, (name, lasted_a, lasted_b)


def _windows(table: dict[str, Any], name: str) -> list[float]:
    """How long each window lasted for socket ``name``: from the discard's update to the
    next update of a decision (another seat's: the one that closed the window)."""
    log = table["log"]
    out, opened = [], None
    for t, msg in table[name]:
        if msg.get("type") != "update":
            continue
        if log[msg["version"] - 1][1]["type"] == "discard":
            opened = t
        elif opened is not None:  # its own decision or the closing one: both at the end
            out.append(t - opened)
            opened = None
    return out


def test_a_window_lasts_its_time_and_names_no_decider(
    tables: tuple[dict[str, Any], dict[str, Any], int],
) -> None:
    """Every window ends ``claim_window`` seconds after its discard, never sooner (a pass
    at once does not shorten it), and its end names no seat to the others."""
    for table in tables[:2]:
        log = table["log"]
        for name in ("0", "1", "3", "spectator"):
            me = None if name == "spectator" else int(name)
            updates = [(t, m) for t, m in table[name] if m.get("type") == "update"]
            assert updates
            opened: tuple[float, int] | None = None
            closed = 0
            for t, msg in updates:
                seat, action, _ = log[msg["version"] - 1]
                if action["type"] == "discard":
                    assert msg["seat"] == seat
                    opened = (t, msg["version"])
                    continue
                assert opened is not None, (name, msg["version"])
                # by the window's clock, from the discard's update to the window's end
                assert t - opened[0] == pytest.approx(WINDOW), (name, t - opened[0])
                if seat == me and msg["version"] < opened[1] + 3:
                    continue  # its own decision, sent to it alone as the window closes
                # nothing of the others' decisions while the window is open: the next
                # update a seat gets closes it, three decisions after the discard
                assert msg["version"] == opened[1] + 3, (name, msg["version"], opened)
                if seat != me:
                    assert msg["seat"] is None and msg["actor"] is None, (name, msg)
                    assert all(e["type"] != "claim_made" for e in msg["events"])
                opened, closed = None, closed + 1
            assert closed == DISCARDS, (name, closed)


class _Seated:
    """A table of four players dealt ``deal``, its windows on a held clock, the dealer's
    ``tile`` discarded and the window on it open, every socket told."""

    def __init__(self, store: Store, hub: Hub, room: Any, clock: HeldClock) -> None:
        self.store, self.hub, self.room, self.clock = store, hub, room, clock
        self.sockets: dict[int, _Socket] = {}
        self.clients: dict[int, Client] = {}
        self.writers: list[asyncio.Task[None]] = []

    @classmethod
    async def open(cls, db: Path, deal: Deal, tile: int, options: RoomOptions) -> _Seated:
        store = Store(str(db))
        hub = Hub(store, Limits(min_bot_delay=0))
        players = [store.create_player(n)[0] for n in ("ann", "bob", "cat", "dan")]
        room = await hub.create_room(players[0], CODE, options, {}, 0)
        room.game.deal = lambda seats, rng, context: deal  # type: ignore[method-assign]
        table = cls(store, hub, room, HeldClock())
        room.turn_clock = table.clock
        loop = asyncio.get_running_loop()
        for seat, player in enumerate(players):
            sock = _Socket(table.clock)
            client = Client(player, sock.send_text, hub.limits, sock.close)
            table.writers.append(loop.create_task(client.writer()))
            table.sockets[seat], table.clients[seat] = sock, client
            if seat:
                room.join(player, seat)
            room.attach(client)
        for _ in range(400):
            if room.state is not None and 0 in room.acting():
                break
            await asyncio.sleep(0.01)
        act = {"type": "action", "action": {"type": "discard", "tile": str(Tile(tile))}}
        handle(room, table.clients[0], json.dumps(act))
        for _ in range(2_000):
            if room.window is not None and _caught_up(room, table.sockets):
                break
            await asyncio.sleep(0.01)
        return table

    def close(self) -> None:
        self.hub.shutdown()
        self.store.close()


async def _claim_late(tmp: Path, deal: Deal, tile: int) -> tuple[list[Any], list[Any], Any]:
    """A table dealt ``deal`` with ``claim_time``: the dealer discards ``tile``, seat
    ``HOLDER`` (a player who could 碰 it) lets the window's fixed end go by, then 碰s. The
    holder's messages, seat 1's, and the hand's log."""
    options = OPTIONS.model_copy(update={"claim_window": 0.05, "claim_time": 30.0})
    table = await _Seated.open(tmp / "late.db", deal, tile, options)
    room, clock, sockets, clients = table.room, table.clock, table.sockets, table.clients
    clock.advance()  # the window's fixed end goes by: held open for the claimer
    held = (
        clock.time() == pytest.approx(0.05)
        and room.window is not None
        and room.window.claimers == {HOLDER}
        and room.window.deadline == pytest.approx(30.0)
    )
    handle(room, clients[HOLDER], json.dumps({"type": "action", "action": {"type": "peng"}}))
    for _ in range(400):
        if room.window is None:
            break
        await asyncio.sleep(0.01)
    log = [(s, a, actor) for s, a, actor in table.store.hand(room.hand_id).actions]  # type: ignore[union-attr]
    table.close()
    assert held, "the window did not wait for the player who could claim"
    return [m for _, m in sockets[HOLDER].sent], [m for _, m in sockets[1].sent], log


def test_a_player_who_can_claim_is_given_claim_time() -> None:
    """docs/protocol.md ("Claim windows"): with ``claim_time`` a player's seat that can
    claim is given that long to decide (as the usual apps give it), its clock says so, and a
    碰 sent after the window's fixed end is played; another seat sees no clock of it."""
    import tempfile

    pair, _, tile = _deals()
    with tempfile.TemporaryDirectory() as tmp:
        holder, other, log = asyncio.run(_claim_late(Path(tmp), pair, tile))
    assert (HOLDER, {"type": "peng"}, "player") in log
    asked = next(
        m
        for m in holder
        if m.get("type") == "update" and m["view"]["to_act"] is True and m.get("legal")
    )
    assert {"type": "peng"} in asked["legal"]
    (clock,) = asked["timers"]
    assert clock["seat"] == HOLDER and clock["limit"] == 30.0 and clock["remaining"] > 29
    for m in other:
        assert all(t["seat"] != HOLDER for t in m.get("timers") or []), m


async def _kept_on_reopen(tmp: Path, deal: Deal, tile: int) -> dict[str, Any]:
    """The dealer discards ``tile``; seat ``HOLDER`` (who could 碰 it) sends 过 while the
    window is open. The ``state`` each seat's screen would get on opening again, then
    and after the window closed."""
    table = await _Seated.open(tmp / "kept.db", deal, tile, OPTIONS)
    room, clock, sockets, clients = table.room, table.clock, table.sockets, table.clients
    handle(room, clients[HOLDER], json.dumps({"type": "action", "action": {"type": "pass"}}))
    out: dict[str, Any] = {
        "open": room.window is not None and HOLDER in room.window.kept,
        "holder": json.loads(room.state_for(clients[HOLDER]) or "{}"),
        "other": json.loads(room.state_for(clients[1]) or "{}"),
    }
    clock.advance()  # the window's time passes: the kept 过 is played
    for _ in range(400):
        if room.window is None and _caught_up(room, sockets):
            break
        await asyncio.sleep(0.01)
    out["after"] = json.loads(room.state_for(clients[HOLDER]) or "{}")
    table.close()
    return out


def test_a_screen_opened_again_mid_window_is_told_the_choice_it_made() -> None:
    """docs/protocol.md (``state``): a decision sent in an open window is kept, not played,
    until the window closes; a screen opened again meanwhile (a reload) is told that choice
    (``kept``), so it says 你选了“过” instead of offering the buttons again. Only the seat
    that chose is told; once the window has closed nothing is kept."""
    import tempfile

    pair, _, tile = _deals()
    with tempfile.TemporaryDirectory() as tmp:
        got = asyncio.run(_kept_on_reopen(Path(tmp), pair, tile))
    assert got["open"], "the holder's 过 was not kept in the open window"
    assert got["holder"]["type"] == "state" and got["holder"]["kept"] == {"type": "pass"}
    assert got["holder"]["view"]["to_act"] is True  # the window still asks the seat
    assert got["other"]["type"] == "state" and got["other"]["kept"] is None
    assert got["after"]["type"] == "state" and got["after"]["kept"] is None
