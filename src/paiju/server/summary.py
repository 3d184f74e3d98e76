"""总结算: the summary of a room's whole match, from the hands the store holds.

It is computed from the stored hands (their settlements) and the room's seats, so a
finished room's summary is there for the 战绩 at any later time, after a restart too,
with nothing stored twice.
"""

from __future__ import annotations

from collections.abc import Sequence

from paiju.engine import MatchSummary
from paiju.games import game as make_game
from paiju.server.dissolve import VOTES_KEY, ended_by_vote
from paiju.server.messages import MatchSummaryMsg, SeatTotal
from paiju.server.rows import RoomRow, Table
from paiju.server.store import Store

__all__ = ["room_summary", "table_of"]


def table_of(row: RoomRow) -> Table:
    """The table of a stored room (one no longer in memory): its seats as stored."""
    stake = int(row.options.get("stake", 1))
    hands = row.options.get("hands")
    game = make_game(row.code, **row.game_options)
    context = dict(row.context)
    by_vote = ended_by_vote(context.pop(VOTES_KEY, [])) and row.status == "finished"
    cut = hands is not None and not by_vote and not game.match_over(context, row.hands_played)
    players = [None if bot else p for p, bot in zip(row.seat_players, row.seat_bots, strict=True)]
    return Table(
        row.id,
        row.code,
        stake,
        players,
        cut,
        context=context,
        game_options=row.game_options,
        ended_by_vote=by_vote,
    )


def room_summary(store: Store, table: Table) -> MatchSummaryMsg:
    """The 总结算 of ``table``'s room: each seat's points, 积分 and hands won, and the 大赢家."""
    rows = list(reversed(store.hands(table.room, limit=100_000)))
    game = make_game(table.code, **table.game_options)
    settlements: list[Sequence[int]] = []
    wins: list[Sequence[bool]] = []
    for k, r in enumerate(rows):
        if r["settlement"] is None:
            continue
        after = rows[k + 1]["context"] if k + 1 < len(rows) else table.context
        settlements.append(r["settlement"])
        wins.append(game.hand_won(r["settlement"], r["context"] or {}, after or {}))
    seats = len(table.players)
    match = MatchSummary.of(seats, settlements, wins)
    known = [p for p in table.players if p is not None]
    names = store.player_names(known) if known else {}
    lines = [
        SeatTotal(
            seat=s,
            player=player,
            name="bot" if player is None else names.get(player),
            points=match.totals[s],
            total=match.totals[s] * table.stake,
            won=match.won[s],
            winner=s in match.winners,
        )
        for s, player in enumerate(table.players)
    ]
    return MatchSummaryMsg(
        room=table.room,
        code=table.code,
        hands=match.hands,
        stake=table.stake,
        seats=lines,
        winners=list(match.winners),
        cut_short=table.cut_short,
        next_room=table.next_room,
        ended_by_vote=table.ended_by_vote,
    )
