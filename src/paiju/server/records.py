"""战绩: a player's record, room by room, from the stored ledger, hands and rooms.

``GET /api/players/me/record`` answers :func:`player_record`: the rooms the player played
in, newest first, each with its 总结算 (every seat's total over the room's hands, in 积分),
its 大赢家 (the seats with the highest total, when it is above zero), the seats' names, the
first and last hand's time and the hands under it (each with its id for the replay); and
per game (code) the statistics of the player's own hands: hands, wins, win rate, the best
hand and the total. Only tables the player sat at are shown; a seat's name is what the
room's seat shows (``bot`` for a bot).
"""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache
from typing import Any

from paiju.errors import PaijuError
from paiju.games import game as make_game
from paiju.server.dissolve import VOTES_KEY, ended_by_vote
from paiju.server.store import Store

__all__ = ["player_record", "table_mates"]


def player_record(store: Store, player_id: int, rooms: int = 30) -> dict[str, Any]:
    """The player's 战绩: the last ``rooms`` rooms with their hands, and per-game stats."""
    entries = store.ledger(player_id, limit=5000)
    by_room: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for e in entries:
        by_room[e["room"]].append(e)
    order = sorted(by_room, key=lambda r: max(e["id"] for e in by_room[r]), reverse=True)
    shown = [room_record(store, room_id, by_room[room_id]) for room_id in order[:rooms]]
    return {
        "player": player_id,
        "rooms": [r for r in shown if r is not None],
        "stats": game_stats(entries),
    }


def room_record(store: Store, room_id: int, mine: list[dict[str, Any]]) -> dict[str, Any] | None:
    """One room's 总结算 and its hands, ``mine`` being the player's ledger entries in it."""
    row = store.room(room_id)
    if row is None:
        return None
    stake = int(row.options.get("stake", 1))
    mine_by_game = {e["game"]: e for e in mine}
    hands = [h for h in reversed(store.hands(room_id, limit=500)) if h["settlement"]]
    totals = [0] * row.seats
    lines = []
    for hand in hands:
        deltas = [int(x) * stake for x in hand["settlement"]]
        for seat, delta in enumerate(deltas[: row.seats]):
            totals[seat] += delta
        entry = mine_by_game.get(hand["id"])
        lines.append(
            {
                "game": hand["id"],
                "hand_no": hand["hand_no"],
                "deltas": deltas,
                "seat": None if entry is None else entry["seat"],
                "delta": None if entry is None else entry["delta"],
                "at": hand["ended_at"] if entry is None else entry["at"],
            }
        )
    names = store.player_names([p for p in row.seat_players if p is not None])
    players = [
        "bot" if bot else (None if p is None else names.get(p))
        for p, bot in zip(row.seat_players, row.seat_bots, strict=True)
    ]
    top = max(totals) if totals else 0
    seat = mine[-1]["seat"]
    return {
        "room": room_id,
        "code": row.code,
        "status": row.status,
        "seats": row.seats,
        "players": players,
        "seat": seat,
        "stake": stake,
        "totals": totals,
        "winners": [s for s, x in enumerate(totals) if x == top] if top > 0 else [],
        "total": sum(e["delta"] for e in mine),
        "started": min(e["at"] for e in mine),
        "ended": max(e["at"] for e in mine),
        "ended_by_vote": ended_by_vote(row.context.get(VOTES_KEY, [])),
        "hands": lines,
    }


@lru_cache(maxsize=256)
def _settles_by_match(code: str) -> bool:
    """Whether a game settles 积分 once per match rather than per hand: its match ends by
    itself (打弹子's 局 to 30 points; ``match_option`` None), its deals settle 0 until then."""
    try:
        return make_game(code).match_option is None
    except PaijuError:  # a code no longer played: counted by hands
        return False


def game_stats(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per code: the player's hands, wins (a positive result), win rate, best hand, total.
    Where 积分 are settled once per match (打弹子), ``matches`` counts the decided matches
    (the deals that settled one) and the wins and the win rate are of matches, not deals;
    elsewhere ``matches`` is null."""
    by_code: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for e in entries:
        by_code[e["code"]].append(e)
    out = []
    for code, rows in by_code.items():
        wins = sum(1 for e in rows if e["delta"] > 0)
        matches = sum(1 for e in rows if e["delta"] != 0) if _settles_by_match(code) else None
        played = len(rows) if matches is None else matches
        best = max(rows, key=lambda e: (e["delta"], -e["game"]))
        out.append(
            {
                "code": code,
                "hands": len(rows),
                "matches": matches,
                "wins": wins,
                "win_rate": round(wins / played, 3) if played else 0.0,
                "best": {"game": best["game"], "delta": best["delta"]},
                "total": sum(e["delta"] for e in rows),
                "last": max(e["at"] for e in rows),
            }
        )
    out.sort(key=lambda s: s["last"], reverse=True)
    return out


def table_mates(store: Store, player_id: int, limit: int = 20) -> list[dict[str, Any]]:
    """最近的牌友: the players who sat at the player's last rooms, the latest first, each
    with its name, when they last shared a table and how many rooms they shared."""
    entries = store.ledger(player_id, limit=2000)
    last: dict[int, float] = {}
    for e in entries:
        last[e["room"]] = max(last.get(e["room"], 0.0), e["at"])
    mates: dict[int, dict[str, Any]] = {}
    for room_id in sorted(last, key=lambda r: last[r], reverse=True)[:50]:
        row = store.room(room_id)
        if row is None:
            continue
        for p, bot in zip(row.seat_players, row.seat_bots, strict=True):
            if p is None or bot or p == player_id:
                continue
            mate = mates.setdefault(p, {"player": p, "last": last[room_id], "rooms": 0})
            mate["rooms"] += 1
    names = store.player_names(list(mates))
    out = [{**m, "name": names.get(m["player"], "")} for m in mates.values()]
    out.sort(key=lambda m: m["last"], reverse=True)
    return out[:limit]
