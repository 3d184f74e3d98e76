"""The fairness proof of a finished game (one hand), checkable by anyone.

Before a hand the server publishes ``commitment = sha256(seed)``; the seats may add
client seeds; when the hand ends it reveals the seed. :func:`verify_game` takes a game's
published record (what ``GET /api/games/{id}`` returns) and checks, from the rules alone
(docs/fairness.md):

1. ``commitment`` - the revealed seed hashes to the commitment published before the deal;
2. ``deal`` - re-dealing the variant from the deal seed (the server seed and the client
   seeds, :func:`~paiju.fairness.deal_seed`, through :class:`~paiju.fairness.DealRng`)
   gives exactly the deal the server recorded;
3. ``log`` - every logged action is legal when replayed, in order, and the hand ends (a
   log of an older record format, ``format``, as :func:`~paiju.engine.apply_log` plays
   it: with the actions its engine did not ask for filled in);
4. ``settlement`` - the replayed settlement equals the recorded one, and the ledger
   entries are the settlement times the room's stake.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from paiju.engine import Action, Game, State, apply_log, record_format
from paiju.errors import FairnessError, PaijuError
from paiju.fairness import commitment, deal_seed
from paiju.games import game as make_game

__all__ = ["game_record", "game_steps", "require_fair", "verify_game"]


def game_record(hand: Any, ledger: list[dict[str, Any]], stake: int | None) -> dict[str, Any]:
    """The published record of a finished hand (a :class:`~paiju.server.store.HandRow`)."""
    return {
        "id": hand.id,
        "room": hand.room_id,
        "hand_no": hand.hand_no,
        "code": hand.code,
        "options": hand.game_options,
        "seats": hand.seats,
        "players": list(hand.players),
        "commitment": hand.commitment,
        "seed": hand.seed,
        "client_seeds": None if hand.client_seeds is None else list(hand.client_seeds),
        "deal_seed": deal_seed(hand.seed, hand.client_seeds),
        "deal": hand.deal,
        "context": hand.context,
        "actions": [
            {"seat": seat, "action": action, "actor": actor} for seat, action, actor in hand.actions
        ],
        "format": hand.record_format,
        "settlement": None if hand.settlement is None else list(hand.settlement),
        "stake": stake,
        "ledger": ledger,
        "started_at": hand.started_at,
        "ended_at": hand.ended_at,
    }


def _check(checks: list[dict[str, Any]], name: str, ok: bool, detail: str) -> bool:
    checks.append({"name": name, "ok": ok, "detail": detail})
    return ok


def verify_game(record: Mapping[str, Any]) -> dict[str, Any]:
    """Check a finished game's record; ``{"game", "ok", "checks": [{name, ok, detail}]}``."""
    checks: list[dict[str, Any]] = []
    out = {"game": record.get("id"), "code": record.get("code"), "ok": False, "checks": checks}
    seed, committed = record.get("seed"), record.get("commitment")
    if not isinstance(seed, str) or not isinstance(committed, str):
        _check(checks, "commitment", False, "the record has no revealed seed and commitment")
        return out
    hashed = commitment(seed)
    if not _check(
        checks,
        "commitment",
        hashed == committed.lower(),
        f"sha256(seed) = {hashed}; published commitment {committed}",
    ):
        return out
    try:
        dealt_from = _deal_seed(record)
        g = make_game(str(record["code"]), **dict(record.get("options") or {}))
        state = g.new_state(
            int(record["seats"]), seed=dealt_from, context=dict(record.get("context") or {})
        )
    except (PaijuError, KeyError, TypeError, ValueError) as exc:
        _check(checks, "deal", False, f"cannot re-deal: {exc}")
        return out
    dealt = state.deal.to_json(g.items)
    if not _check(
        checks,
        "deal",
        dealt == record.get("deal"),
        f"re-dealt from the deal seed {dealt_from!r}: "
        + ("identical to the recorded deal" if dealt == record.get("deal") else f"{dealt}"),
    ):
        return out
    if not _replay(checks, g, state, record):
        return out
    recorded = record.get("settlement")
    settled = list(state.settlement())
    if not _check(
        checks,
        "settlement",
        settled == recorded,
        f"replayed settlement {settled}; recorded {recorded}",
    ):
        return out
    stake = record.get("stake")
    ledger = record.get("ledger") or []
    if stake is not None and ledger:
        deltas = {int(e["seat"]): int(e["delta"]) for e in ledger}
        expected = {s: x * int(stake) for s, x in enumerate(settled)}
        if not _check(
            checks,
            "ledger",
            deltas == expected,
            f"ledger deltas {deltas}; settlement × stake {stake} = {expected}",
        ):
            return out
    out["ok"] = True
    return out


def _deal_seed(record: Mapping[str, Any]) -> str:
    """The record's deal seed, recomputed from its server seed and client seeds."""
    seeds = record.get("client_seeds")
    if seeds is not None and (
        not isinstance(seeds, list)
        or len(seeds) != int(record["seats"])
        or not all(isinstance(x, str) for x in seeds)
    ):
        raise FairnessError(f"client_seeds must be one text per seat, got {seeds!r}")
    return deal_seed(str(record["seed"]), seeds)


def _replay(checks: list[dict[str, Any]], g: Game, state: State, record: Mapping[str, Any]) -> bool:
    items = record.get("actions") or []
    logged: list[tuple[int, Action]] = []
    for i, item in enumerate(items):
        try:
            logged.append((int(item["seat"]), g.parse_action(item["action"])))
        except (PaijuError, KeyError, TypeError, ValueError) as exc:
            return _check(checks, "log", False, f"action {i} ({item}) does not replay: {exc}")
    done = 0
    try:
        log_format = record_format(record.get("format"))
        for _ in apply_log(state, logged, log_format):
            done += 1
    except (PaijuError, KeyError, TypeError, ValueError) as exc:
        where = f"action {done} ({items[done]})" if done < len(items) else "the log"
        return _check(checks, "log", False, f"{where} does not replay: {exc}")
    filled = len(state.history) - len(logged)
    return _check(
        checks,
        "log",
        state.is_over,
        f"{len(items)} actions replay legally"
        + (
            f" (record format {log_format}: {filled} actions its engine did not ask for, filled in)"
            if filled
            else ""
        )
        + ("; the hand is over" if state.is_over else "; but the hand is not over"),
    )


def require_fair(result: Mapping[str, Any]) -> None:
    """Raise FairnessError naming the first failed check of :func:`verify_game`."""
    if not result["ok"]:
        failed = next((c for c in result["checks"] if not c["ok"]), None)
        what = f"{failed['name']}: {failed['detail']}" if failed else "nothing checked"
        raise FairnessError(f"game {result['game']} does not verify - {what}")


def _only_choice(state: State, seat: int) -> bool:
    """Whether ``seat`` has exactly one legal action now (a 麻将 window it can only 过)."""
    legal = state.legal_actions(seat)
    return legal is not None and len(legal) == 1


def game_steps(record: Mapping[str, Any], seat: int | None = None) -> dict[str, Any]:
    """The replay of a finished game: the view of ``seat`` (None: the spectator's) before
    the first action and after each one, with the action that led there and whether it
    was the seat's only choice (``only``: a 麻将 window it could only pass in is no
    decision of its own), a log of an older record format with what its engine did not
    ask for folded into the step after which that engine went on without it."""
    g = make_game(str(record["code"]), **dict(record.get("options") or {}))
    seats = int(record["seats"])
    if seat is not None and not 0 <= seat < seats:
        raise PaijuError(f"there is no seat {seat}; seats are 0-{seats - 1}")
    state = g.new_state(seats, seed=_deal_seed(record), context=dict(record.get("context") or {}))
    steps: list[dict[str, Any]] = [
        {"version": 0, "seat": None, "action": None, "view": state.view(seat)}
    ]
    items = record.get("actions") or []
    logged = [(int(item["seat"]), g.parse_action(item["action"])) for item in items]
    only = bool(logged) and _only_choice(state, logged[0][0])
    for i, _ in enumerate(apply_log(state, logged, record_format(record.get("format")))):
        item = items[i]
        steps.append(
            {
                "version": i + 1,
                "seat": item["seat"],
                "action": item["action"],
                "actor": item.get("actor"),
                "only": only,
                "view": state.view(seat),
            }
        )
        only = i + 1 < len(logged) and _only_choice(state, logged[i + 1][0])
    return {"game": record.get("id"), "code": record["code"], "seat": seat, "steps": steps}
