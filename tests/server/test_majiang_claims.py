"""鞍山麻将 through a real server: claim windows as simultaneous decisions with timers and 托管.

* A scripted hand (a seed chosen in-process, bots that discard what they draw and pass):
  the seat's claim and win go through the socket and the hand settles to the engine's
  own payments, action for action.
* Three scripted players and a bot, with decision clocks: every message a seat gets is
  checked against the replayed hand - every seat but the discarder is asked in every
  window (with 过 alone when it can claim nothing), it sees its own clock and no other
  seat's, nothing of another seat's decision reaches it while the window is open, and the
  decision that closes a window names no seat but to its own.
* A seat whose player never answers passes at each window's end (no timeout counted),
  goes to 托管 on its first timeout of a turn, and its bot claims.

rule (004): 「胡牌后,三家都付给胡牌家应付的分,点炮方会多付一番。自摸为三家点炮。」
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import FAST, Player, Server, acts, check_messages, rebuild

from majiang_play import Plan, Seen, decide, find_seed, tiles_of
from paiju.games.majiang.rules import MajiangRules
from paiju.server.rows import HandRow
from paiju.server.store import Store
from server_process import ServerProcess

CODE = "anshan-majiang"
MJ_LAUNCH = Path(__file__).resolve().parent.parent / "majiang_launch.py"
WINDOWS = ("claim", "rob")
CLAIMS = ("chi", "peng", "gang", "win")


class PolicyPlayer(Player):
    """A scripted seat that decides by :func:`majiang_play.decide` from its own view."""

    claim_always = True
    decided_at: tuple[int, int] = (0, 0)
    races = 0

    async def next(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next message; the refusal of a decision that another seat's action had
        already overtaken (the window closed, the hand ended) is a race, not an error: it
        is dropped and the seat decides again on what it now sees."""
        while True:
            msg = await super().next(timeout)
            latest = self.latest()
            overtaken = latest is not None and (latest["game"], latest["version"]) > self.decided_at
            if msg["type"] == "error" and msg.get("ref") == self.pending and overtaken:
                self.pending = None
                self.races += 1
                assert latest is not None
                await self.decide(latest)
                continue
            return msg

    async def decide(self, msg: dict[str, Any]) -> bool:
        if self.seat is None or self.pending is not None:
            return False
        if msg["type"] not in ("state", "update") or not msg.get("legal"):
            return False
        view = msg["view"]
        if not acts(view, self.seat):
            return False
        me = view["players"][self.seat]
        seen = Seen(
            tiles_of(view["hand"]) + tiles_of(view.get("drawn") or ""),
            tuple((m["kind"], tiles_of(m["tiles"])) for m in me["melds"]),
            frozenset(view["hun"]),
        )
        claimed = not self.claim_always and any(m["kind"] in ("chi", "peng") for m in me["melds"])
        action = decide(seen, msg["legal"], claimed, MajiangRules())
        self.decided_at = (msg["game"], msg["version"])
        self.sent += 1
        self.pending = self.sent
        await self.send({"type": "action", "action": action, "id": self.sent, "game": msg["game"]})
        return True


class ScriptedServer(Server):
    """``paiju serve`` through ``tests/majiang_launch.py`` (chosen seed, passive bots)."""

    def __init__(self, folder: Path) -> None:
        ServerProcess.__init__(self, folder, None, command=(str(MJ_LAUNCH),))
        self._viewer = None


@pytest.fixture(scope="module")
def plan() -> Plan:
    return find_seed()


@pytest.fixture(scope="module")
def scripted(tmp_path_factory: pytest.TempPathFactory, plan: Plan) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("mj-scripted")
    seed_file = folder / "seed.txt"
    seed_file.write_text(plan.seed, encoding="utf-8")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PAIJU_TEST_SEED_FILE", str(seed_file))
        srv = ScriptedServer(folder).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("mj-server")).start()
    yield srv
    srv.stop()


async def _play(server: Server, humans: int, cls: type[Player], **options: Any) -> list[Player]:
    room, tokens = server.table(CODE, humans, **{**FAST, "hands": 1, **options})
    players = [cls(server, t, room, seed=i) for i, t in enumerate(tokens)]
    for p in players:
        await p.connect()
    await asyncio.gather(*(p.play(timeout=90) for p in players))
    for p in players:
        await p.close()
    return players


def _hand_of(store: Store, player: Player) -> HandRow:
    over = [m for m in player.messages if m["type"] == "hand_over"]
    assert over, "the hand did not end"
    hand = store.hand(over[-1]["game"])
    assert hand is not None
    return hand


def test_scripted_hand_settles_to_the_engines_payments(scripted: Server, plan: Plan) -> None:
    """The seat claims (碰/吃) and wins through the socket; the server's log is the engine's
    hand action for action, and the settlement is its payment 2^fan per loser."""
    (player,) = asyncio.run(_play(scripted, 1, _FirstClaimPlayer, claim_window=0.3))
    store = Store(str(scripted.db))
    hand = _hand_of(store, player)
    logged = [(seat, action) for seat, action, _ in hand.actions]
    assert logged == [(seat, a.to_json()) for seat, a in plan.state.history]
    assert [a["type"] for s, a in logged if s == 0 and a["type"] in ("chi", "peng")] == plan.claims
    (win,) = plan.state.wins
    settled = list(hand.settlement or [])
    assert win.seat == 0 and settled == list(win.deltas) == list(plan.state.settlement())
    assert sum(settled) == 0
    for row in win.pay:
        assert row["pay"] == 2 ** row["fan"] == -win.deltas[row["seat"]]  # type: ignore[operator]
    over = [m for m in player.messages if m["type"] == "hand_over"][-1]
    assert over["scores"] == settled
    checked, problems = check_messages(store, player)
    assert checked > 20 and not problems, problems
    store.close()


class _FirstClaimPlayer(PolicyPlayer):
    claim_always = False  # as the in-process plan: the first 碰/吃 offered, then pass


async def _play_windows(server: Server, **options: Any) -> list[Player]:
    """Three scripted seats and a bot play hands until one seat has been shown another
    seat's hidden decision (a window asking two seats), then to the end of that hand."""
    room, tokens = server.table(CODE, 3, **{**FAST, **options})
    players = [PolicyPlayer(server, t, room, seed=i) for i, t in enumerate(tokens)]
    hidden: list[int] = []

    def until(msg: dict[str, Any]) -> bool:
        if msg["type"] == "update" and msg["seat"] is None:
            hidden.append(msg["version"])
        return bool(hidden) and msg["type"] == "hand_over"

    for p in players:
        await p.connect()
    await asyncio.gather(*(p.play(timeout=120, until=until) for p in players))
    for p in players:
        await p.close()
    return players


def test_claim_windows_asked_clocked_and_hidden(server: Server) -> None:
    """Three scripted seats (claiming whatever they are offered) and a bot, 30 s clocks:
    every state and update each seat got, checked against the replayed hand."""
    players = asyncio.run(_play_windows(server, hands=12, time_limit=30, claim_window=0.3))
    store = Store(str(server.db))
    humans = {p.seat for p in players}
    hands: dict[int, HandRow] = {}
    windows = claims = hidden = 0
    for p in players:
        checked, problems = check_messages(store, p)
        assert checked and not problems, problems
        for msg in p.messages:
            if msg["type"] not in ("state", "update"):
                continue
            if msg["game"] not in hands:
                found = store.hand(msg["game"])
                assert found is not None
                hands[msg["game"]] = found
            hand = hands[msg["game"]]
            state = rebuild(hand, msg["version"])
            view, me = msg["view"], p.seat
            asked = me in state.to_act()
            assert acts(view, me) == asked
            clocks = {t["seat"] for t in msg["timers"]}
            # every claimant's clock runs, and a seat sees its own clock only
            assert clocks <= {me}, (msg["version"], clocks)
            if asked:
                assert clocks == {me}, (msg["version"], msg["timers"])
            if state.phase not in WINDOWS:
                continue
            windows += 1
            # every seat but the discarder is asked (until its own decision is played)
            assert asked == (me != state.turn and me not in state.decisions)  # type: ignore[attr-defined]
            for seat in state.to_act():  # 过 alone for a seat that can claim nothing
                assert any(a.type == "pass" for a in state.legal_actions(seat) or []), seat
            actor = hand.actions[msg["version"] - 1][0] if msg["type"] == "update" else me
            if actor != me:
                assert all(e["type"] != "claim_made" for e in msg["events"]), msg["events"]
                _same_for_any_decision(hand, msg, me, actor)
        for msg in p.messages:  # the decision that closes a window names no other seat
            if msg["type"] == "update" and msg["version"] > 1:
                hand = hands[msg["game"]]
                actor = hand.actions[msg["version"] - 1][0]
                if rebuild(hand, msg["version"] - 1).phase in WINDOWS and actor != p.seat:
                    assert msg["seat"] is None and msg["actor"] is None, msg
                    hidden += 1
    for hand in hands.values():
        claims += sum(
            seat in humans and action["type"] in ("chi", "peng", "gang")
            for seat, action, _ in hand.actions
        )
        if hand.status == "over":
            assert sum(hand.settlement or []) == 0
    assert windows and claims and hidden, (windows, claims, hidden)
    store.close()


def _same_for_any_decision(hand: HandRow, msg: dict[str, Any], me: int, actor: int) -> None:
    """Another seat's decision reaches ``me`` only as the one that closes the window: no
    update is sent while the window stays open."""
    before = rebuild(hand, msg["version"] - 1)
    if before.phase not in WINDOWS:
        return
    after = rebuild(hand, msg["version"])
    assert after.phase not in WINDOWS, (msg["version"], me, actor)  # never a kept one


class _Silent(Player):
    """A seated player who never answers."""

    async def decide(self, msg: dict[str, Any]) -> bool:
        return False


def _claim_by_seat0(msg: dict[str, Any]) -> bool:
    """An update in which seat 0 took a discard: 吃, 碰, 明杠 or 胡 (the update that closes
    the window, which names the seat that decided last to that seat only)."""
    if msg["type"] != "update":
        return False
    return any(
        (e["type"] == "melded" and e["seat"] == 0 and e["kind"] in ("chi", "peng", "minggang"))
        or (e["type"] == "won" and e["seat"] == 0 and e["how"] != "zimo")
        for e in msg["events"]
    )


def test_a_tuoguan_seat_claims(server: Server) -> None:
    """托管: seat 0's player never answers; after its first timeout the bot plays the seat,
    its claims included (hands are played until it has claimed), and the seat shows 托管."""
    (silent,) = asyncio.run(
        _play_until(server, hands=12, time_limit=0.3, tuoguan="timeout", tuoguan_after=1)
    )
    claimed = [m for m in silent.messages if _claim_by_seat0(m)]
    assert claimed, "the 托管 bot never claimed in twelve hands"
    store = Store(str(server.db))
    first = store.hand(claimed[0]["game"])
    assert first is not None
    claims = [
        actor for seat, action, actor in first.actions if seat == 0 and action["type"] in CLAIMS
    ]
    assert claims and set(claims) == {"bot"}, claims  # its bot claimed
    hands = [m["game"] for m in silent.messages if m["type"] == "hand_started"]
    opening = store.hand(hands[0])
    assert opening is not None
    mine = [(action["type"], actor) for seat, action, actor in opening.actions if seat == 0]
    turn = next(i for i, (kind, _) in enumerate(mine) if kind == "discard")
    # before its first turn the seat only passed at windows' ends; its first turn timed
    # out, and from then on its bot (托管) played it
    assert set(mine[:turn]) <= {("pass", "timeout")}, mine[:turn]
    assert mine[turn][1] == "timeout" and {a for _, a in mine[turn + 1 :]} <= {"bot"}, mine
    assert any(
        m["type"] in ("state", "update") and m["control"][0] == "tuoguan" for m in silent.messages
    )
    store.close()


async def _play_until(server: Server, **options: Any) -> list[Player]:
    room, tokens = server.table(CODE, 1, **{**FAST, **options})
    silent = _Silent(server, tokens[0], room)
    await silent.connect()
    await silent.play(timeout=90, until=_claim_by_seat0)
    await silent.close()
    return [silent]
