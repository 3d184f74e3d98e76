"""Every open room of the server (:class:`Hub`).

On start-up :meth:`Hub.recover` rebuilds every unfinished room from the database: the
hand's seed and its action log replay to the exact state, and the decision timers of
the seats waiting to act are restarted (with their full time).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from paiju.errors import IllegalAction, PaijuError
from paiju.games import game as make_game
from paiju.server.errors import ServerError
from paiju.server.journal import Journal
from paiju.server.options import Limits, RoomOptions
from paiju.server.room import Room
from paiju.server.store import PlayerRow, Store

__all__ = ["Hub"]

log = logging.getLogger("paiju.server")


class Hub:
    """Every open room of the server, and the store behind them."""

    def __init__(self, store: Store, limits: Limits | None = None) -> None:
        self.store = store
        self.limits = limits or Limits()
        self.rooms: dict[int, Room] = {}
        self.journal = Journal(store)

    def recover(self) -> int:
        """Load every unfinished room; resume hands in play where they were. Returns the count."""
        count = 0
        for row in self.store.rooms(["waiting", "playing"]):
            try:
                room = Room(self, row)
            except PaijuError as exc:
                log.error("room %s (%s) cannot be loaded: %s", row.id, row.code, exc)
                continue
            self.rooms[row.id] = room
            count += 1
            if row.status != "playing":
                room.arm_fill()
                continue
            room.await_players()
            hand = self.store.current_hand(row.id)
            if hand is None:
                room.deal_hand()
            elif hand.status == "playing":
                room.restore(hand)
                room._schedule()
            else:
                room.hand_id, room.hand_no = hand.id, hand.hand_no
                room.next_hand = room.loop.call_later(
                    room.options.pause, room._safe(room.deal_hand)
                )
        return count

    def active_rooms_of(self, player: int) -> int:
        return sum(
            1
            for r in self.rooms.values()
            if r.status != "finished" and (r.owner == player or r.seat_of(player) is not None)
        )

    def create_room(
        self,
        player: PlayerRow,
        code: str,
        options: RoomOptions,
        game_options: dict[str, Any],
        seat: int | None = 0,
    ) -> Room:
        if self.active_rooms_of(player.id) >= self.limits.rooms_per_player:
            raise ServerError(
                "too_many_rooms",
                f"you already have {self.limits.rooms_per_player} open rooms"
                " (the limit); finish or leave one first",
                429,
            )
        g = make_game(code, **game_options)
        seats = g.default_seats if options.seats is None else options.seats
        if not g.min_seats <= seats <= g.max_seats:
            raise IllegalAction(
                f"{g.variant.code} is played by {g.min_seats}-{g.max_seats} seats, not {seats}",
                reason="bad_seat_count",
                code=g.variant.code,
                low=g.min_seats,
                high=g.max_seats,
                n=seats,
            )
        if options.bots > seats:
            raise IllegalAction(
                f"{options.bots} bots do not fit {seats} seats", reason="bad_bots", n=seats
            )
        bots = [i >= seats - options.bots for i in range(seats)]
        if seat is not None and bots[seat]:
            raise IllegalAction(
                f"seat {seat} is a bot seat; {seats - options.bots} seats are open",
                reason="bot_seat",
                seat=seat,
            )
        stored = options.model_dump()
        room_id = self.store.create_room(
            g.variant.code, stored, dict(g.options), seats, player.id, bots
        )
        row = self.store.room(room_id)
        assert row is not None
        room = Room(self, row)
        self.rooms[room_id] = room
        if seat is not None:
            room.join(player, seat)
        elif all(bots):
            room.start()
        room.arm_fill()
        return room

    def room(self, room_id: int) -> Room:
        room = self.rooms.get(room_id)
        if room is None:
            raise ServerError("no_room", f"no open room {room_id}", 404)
        return room

    def finished(self, room: Room) -> None:
        """A finished room leaves memory once its sockets have been told."""
        loop = asyncio.get_running_loop()
        loop.call_later(60.0, lambda: self._drop(room))

    def _drop(self, room: Room) -> None:
        if self.rooms.get(room.id) is room and not room.clients():
            del self.rooms[room.id]

    def shutdown(self) -> None:
        journal = self.journal
        for _ in range(100):  # messages that waited for a commit may act: store them too
            journal.flush()
            if not journal.pending and not journal.waiting:
                break
        for room in self.rooms.values():
            for s in room.seats:
                room._cancel_timer(s)
                room._cancel_bot(s)
            if room.next_hand is not None:
                room.next_hand.cancel()
