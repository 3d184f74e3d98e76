"""Every open room of the server (:class:`Hub`).

On start-up :meth:`Hub.recover` rebuilds every unfinished room from the database: the
hand's seed and its action log replay to the exact state, and the decision timers of
the seats waiting to act are restarted (with their full time).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from typing import Any

from paiju.engine import Game
from paiju.errors import IllegalAction, PaijuError
from paiju.games import game as make_game
from paiju.server.client import Bucket
from paiju.server.errors import ServerError
from paiju.server.journal import Journal
from paiju.server.messages import MatchSummaryMsg
from paiju.server.options import Limits, RoomOptions
from paiju.server.room import Room
from paiju.server.rows import HandRow, PlayerRow, RoomRow, Table, seated
from paiju.server.store import Store, off_loop
from paiju.server.summary import room_summary

__all__ = ["Guard", "Hub", "lookup_buckets", "lookup_rate", "too_many_lookups"]

log = logging.getLogger("paiju.server")


def _as_given(code: str, game_options: dict[str, Any]) -> dict[str, Any]:
    return game_options


def _ignore(report: dict[str, Any]) -> None:
    return None


class Hub:
    """Every open room of the server, and the store behind them."""

    def __init__(self, store: Store, limits: Limits | None = None) -> None:
        self.store = store
        self.limits = limits or Limits()
        self.rooms: dict[int, Room] = {}
        self._again: dict[int, asyncio.Future[Room]] = {}
        """Finished rooms whose next match (再来一局) is being made -> that room."""
        self.journal = Journal(store)
        self.buckets: dict[int, Bucket] = {}
        self.lookups: dict[tuple[str, int | str], Bucket] = {}
        """Invite-code lookups, per player and per address (``invite_lookup``)."""
        self.sockets: collections.Counter[int] = collections.Counter()
        self.address_sockets: collections.Counter[str] = collections.Counter()
        self.registrations: dict[str, collections.deque[float]] = {}
        self.placements: Callable[[int], dict[str, str]] | None = None
        """Where a room is played, on a cluster node (``paiju serve --redis``: the cluster
        sets it), else None."""
        self.guard: Guard = Guard(self)
        """Where the limits are counted: here, or with the cluster's other nodes."""
        self.fixed_deals: Callable[[int], Sequence[str] | None] | None = None
        """Where the seeds of an event's table are read when the room is loaded again (a
        restart, another node: the events set it)."""
        self._fixed: dict[int, Sequence[str]] = {}
        """The seeds of the event tables opened here."""
        self.offer: Callable[[str, dict[str, Any]], dict[str, Any]] = _as_given
        """The house's offer of a game for a new room: its game options with the house's
        defaults, or a refusal (a game turned off); the console's catalogue sets it."""
        self.chat_reported: Callable[[dict[str, Any]], None] = _ignore
        """Where a player's report (举报) of a seat's chat goes: the console's list of
        chat reports (set by the app), kept off the event loop."""

    def recover(self) -> int:
        """Load every unfinished room; resume hands in play where they were. Returns the count."""
        rows = self.store.rooms(["waiting", "playing"])
        names = self.store.player_names(seated(rows))
        return sum(self.recover_room(row, names) is not None for row in rows)

    def recover_room(self, row: RoomRow, names: Mapping[int, str] | None = None) -> Room | None:
        """Load one unfinished room and resume its hand where it was (a restart); None if
        it cannot be loaded. ``names``: its players' (read here when not given)."""
        hand = self.store.current_hand(row.id) if row.status == "playing" else None
        if names is None:
            names = self.store.player_names(seated([row]))
        return self.resume_room(row, hand, names)

    def resume_room(
        self, row: RoomRow, hand: HandRow | None, names: Mapping[int, str]
    ) -> Room | None:
        """One unfinished room, its latest ``hand`` (in play or just over; None: none yet)
        and its players' ``names`` read already: loaded, and that hand resumed where it was
        (a restart, or a cluster node taking over a room whose node died); None if it
        cannot be loaded."""
        try:
            room = Room(self, row)
        except PaijuError as exc:
            log.error("room %s (%s) cannot be loaded: %s", row.id, row.code, exc)
            return None
        room.names.update((p, names[p]) for p in seated([row]) if p in names)
        self.rooms[row.id] = room
        if row.status != "playing":
            room.arm_fill()
            return room
        room.await_players()
        if hand is None:
            room.deal_after_seeds()
        elif hand.status == "playing":
            room.take_up(hand)
        else:
            # between hands: the hand just over is what a reconnecting player sees
            try:
                room.restore(hand)
            except PaijuError as exc:
                log.error("room %s: hand %s does not replay: %s", row.id, hand.id, exc)
                room.hand_id, room.hand_no = hand.id, hand.hand_no
            room.hold_recovered()
        return room

    def placement(self, room_id: int) -> dict[str, str]:
        """The ``node`` and ``ws`` of a room's info on a cluster node (else nothing)."""
        return {} if self.placements is None else self.placements(room_id)

    def fix_event_deals(self) -> None:
        """Give the event tables loaded before :attr:`fixed_deals` was set their seeds."""
        for room in self.rooms.values():
            if room.options.event is not None and room.fixed_seeds is None:
                seeds = self.deal_seeds(room.id)
                if seeds is not None:
                    room.fix_seeds(seeds)

    def deal_seeds(self, room_id: int) -> Sequence[str] | None:
        """The seeds of an event table's deals (None: not known here)."""
        found = self._fixed.get(room_id)
        if found is None and self.fixed_deals is not None:
            found = self.fixed_deals(room_id)
        return found

    def active_rooms_of(self, player: int) -> int:
        return sum(
            1
            for r in self.rooms.values()
            if r.status in ("waiting", "playing")
            and (r.owner == player or r.seat_of(player) is not None)
        )

    def check_room_quota(self, player: int) -> None:
        """``too_many_rooms`` (429) when the player has its limit of open rooms."""
        if self.active_rooms_of(player) >= self.limits.rooms_per_player:
            raise ServerError(
                "too_many_rooms",
                f"you already have {self.limits.rooms_per_player} open rooms"
                " (the limit); finish or leave one first",
                429,
            )

    async def create_room(
        self,
        player: PlayerRow,
        code: str,
        options: RoomOptions,
        game_options: dict[str, Any],
        seat: int | None = 0,
        address: str | None = None,
    ) -> Room:
        """A new room of ``code``: checked against the limits, stored (off the event loop:
        the rooms of this process play on meanwhile), then opened here; the creator sits
        at ``seat`` (None: nowhere), bots take the last ``options.bots`` seats."""
        g, seats, bots = self._check_new_room(player, code, options, game_options, seat, address)
        room = await self._open(player, g, options, seats, bots, address)
        if seat is not None:
            room.join(player, seat)
            room.seen_from(seat, address)
        elif all(bots):
            room.start()
        room.arm_fill()
        return room

    async def open_table(
        self,
        owner: PlayerRow,
        code: str,
        options: RoomOptions,
        game_options: dict[str, Any],
        players: list[int | None],
        bots: list[bool],
        seeds: Sequence[str],
    ) -> Room:
        """A table its maker fills at once (a duplicate event's): every seat given a
        player or a bot, the room started, its deals dealt from ``seeds``. The maker's own
        limits of open rooms do not count it (the event bounds its tables)."""
        g = make_game(code, **game_options)
        seats = len(players)
        if not g.min_seats <= seats <= g.max_seats:
            raise ServerError("bad_seat", f"{g.variant.code} is not played by {seats} seats")
        room = await self._open(owner, g, options, seats, bots, None, seeds)
        room.take_seats(players, bots)
        return room

    async def _open(
        self,
        player: PlayerRow,
        g: Game,
        options: RoomOptions,
        seats: int,
        bots: list[bool],
        address: str | None,
        seeds: Sequence[str] | None = None,
    ) -> Room:
        row = await off_loop(
            self.store,
            self.store.new_room,
            g.variant.code,
            options.model_dump(),
            g.room_options,
            seats,
            player.id,
            bots,
        )
        self.store.opened(row.id)
        if seeds is not None:
            self._fixed[row.id] = list(seeds)
        room = Room(self, row)
        room.address = address
        self.rooms[row.id] = room
        self.guard.created(row.id, address)
        return room

    def _check_new_room(
        self,
        player: PlayerRow,
        code: str,
        options: RoomOptions,
        game_options: dict[str, Any],
        seat: int | None,
        address: str | None,
    ) -> tuple[Game, int, list[bool]]:
        """The game, seat count and bot seats of a new room, or the limit or rule it
        breaks."""
        limits = self.limits
        self.check_room_quota(player.id)
        if address is not None:
            mine = [r for r in self.rooms.values() if r.address == address and r.open]
            if len(mine) >= limits.rooms_per_address:
                raise ServerError(
                    "too_many_rooms_address",
                    f"{limits.rooms_per_address} open rooms were created from your address"
                    " (the limit); wait until some finish",
                    429,
                )
        fastest = limits.min_bot_delay
        limit = options.time_limit
        slow = options.bot_delay < fastest or options.claim_window < fastest
        if slow or (limit is not None and 0 < limit < fastest):
            raise ServerError(
                "too_fast",
                f"bot_delay, claim_window and time_limit (other than 0) are at least"
                f" {fastest:g} s on this server: bots play at a human pace",
            )
        g = make_game(code, **self.offer(code, game_options))
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
        if seat is not None and not 0 <= seat < seats:
            raise ServerError("bad_seat", f"there is no seat {seat}; seats are 0-{seats - 1}")
        bots = [i >= seats - options.bots for i in range(seats)]
        if seat is not None and bots[seat]:
            raise IllegalAction(
                f"seat {seat} is a bot seat; {seats - options.bots} seats are open",
                reason="bot_seat",
                seat=seat,
            )
        if all(bots):
            robots = [
                r for r in self.rooms.values() if r.owner == player.id and r.open and r.bots_only
            ]
            if len(robots) >= limits.bot_rooms_per_player:
                raise ServerError(
                    "too_many_bot_rooms",
                    f"you already have {limits.bot_rooms_per_player} open rooms of bots only"
                    " (the limit); close one first",
                    429,
                )
        return g, seats, bots

    # -- per player and per address ------------------------------------------------------

    def bucket(self, player: int) -> Bucket:
        """The player's message bucket, shared by all of its sockets."""
        bucket = self.buckets.get(player)
        if bucket is None:
            if len(self.buckets) > 50_000:  # forget idle players' (full) buckets
                for pid in [p for p in self.buckets if not self.sockets[p]]:
                    del self.buckets[pid]
            limits = self.limits
            bucket = self.buckets[player] = Bucket(limits.messages_per_second, limits.burst)
        return bucket

    def open_socket(self, player: int, address: str | None) -> None:
        """Count a new socket of ``player`` (``too_many_sockets`` over the limits)."""
        limits = self.limits
        if self.sockets[player] >= limits.sockets_per_player:
            raise ServerError(
                "too_many_sockets",
                f"this player already has {limits.sockets_per_player} open sockets (the limit)",
                429,
            )
        if address is not None and self.address_sockets[address] >= limits.sockets_per_address:
            raise ServerError(
                "too_many_sockets",
                f"your address already has {limits.sockets_per_address} open sockets (the limit)",
                429,
            )
        self.sockets[player] += 1
        if address is not None:
            self.address_sockets[address] += 1

    def close_socket(self, player: int, address: str | None) -> None:
        _decrement(self.sockets, player)
        if address is not None:
            _decrement(self.address_sockets, address)

    def invite_lookup(self, player: int, address: str | None) -> None:
        """Count an invite-code lookup of ``player`` from ``address``: 429
        ``too_many_lookups`` past ``invite_lookups_per_minute`` (per player) or
        ``invite_lookups_per_address`` (a minute, per address), so that codes cannot be
        tried one after another (token buckets, a fifth of the minute's count at once). A
        refused lookup takes no token from either bucket."""
        taken: list[Bucket] = []
        for whose, key, per_minute in lookup_buckets(self.limits, player, address):
            bucket = self.lookups.get((whose, key))
            if bucket is None:
                if len(self.lookups) > 100_000:  # forget idle (full) buckets
                    self.lookups.clear()
                bucket = self.lookups[whose, key] = Bucket(*lookup_rate(per_minute))
            if not bucket.take():
                for other in taken:
                    other.give_back()
                raise too_many_lookups(whose, per_minute)
            taken.append(bucket)

    def registering(self, address: str | None) -> None:
        """Count a registration from ``address`` (``too_many_registrations`` over the
        limit of registrations an hour from one address)."""
        if address is None:
            return
        now = time.monotonic()
        window = self.registrations.setdefault(address, collections.deque())
        while window and window[0] <= now - 3600:
            window.popleft()
        if len(window) >= self.limits.registrations_per_address:
            wait = int(window[0] + 3600 - now) + 1
            raise ServerError(
                "too_many_registrations",
                f"{self.limits.registrations_per_address} players were registered from your"
                f" address in the last hour (the limit); try again in {wait} s",
                429,
            )
        window.append(now)
        if len(self.registrations) > 100_000:  # forget addresses whose hour is over
            for key in [k for k, w in self.registrations.items() if w[-1] <= now - 3600]:
                del self.registrations[key]

    def room(self, room_id: int) -> Room:
        room = self.rooms.get(room_id)
        if room is None:
            raise ServerError("no_room", f"no open room {room_id}", 404)
        return room

    async def again(self, room: Room, player: PlayerRow) -> Room:
        """再来一局: a new room for the next match at ``room``'s table - the same game, room
        and game options, players in their seats and bots in theirs - created once, by the
        first seated player who asks (later askers get the same room). The asker is its
        owner; the other players are seated and tap 准备 (``ready_check``)."""
        if room.status != "finished":
            raise ServerError("match_not_over", f"room {room.id}'s match is not over; play on", 409)
        seat = room.seat_of(player.id)
        if seat is None:
            raise ServerError("not_seated", f"you held no seat in room {room.id}", 403)
        if room.next_room is not None:
            existing = self.rooms.get(room.next_room)
            if existing is not None:
                return existing
        making = self._again.get(room.id)
        if making is not None:  # another player asked first: the room being made
            return await asyncio.shield(making)
        making = self._again[room.id] = asyncio.get_running_loop().create_future()
        try:
            options = room.options.model_copy(update={"bots": 0})
            new = await self.create_room(player, room.code, options, dict(room.game_options), seat)
            players = [None if s.bot else s.player for s in room.seats]
            new.names.update(room.names)
            new.take_seats(players, [s.bot for s in room.seats])
            room.again(new)
        except asyncio.CancelledError:
            making.cancel()
            raise
        except Exception as exc:
            making.set_exception(exc)
            making.exception()  # retrieved: those who waited got it, or nobody did
            raise
        else:
            making.set_result(new)
            return new
        finally:
            del self._again[room.id]

    def finished(self, room: Room) -> None:
        """A finished room leaves memory once its sockets have been told."""
        loop = asyncio.get_running_loop()
        loop.call_later(60.0, lambda: self._drop(room))

    def summary(self, table: Table) -> MatchSummaryMsg:
        """总结算 of a table, from the hands the store holds of it."""
        return room_summary(self.store, table)

    def _drop(self, room: Room) -> None:
        if self.rooms.get(room.id) is room and not room.clients():
            del self.rooms[room.id]
            self._fixed.pop(room.id, None)

    def shutdown(self) -> None:
        self.journal.drain()
        for room in self.rooms.values():
            room.stop_clocks()
            if room.next_hand is not None:
                room.next_hand.cancel()


def _decrement(counter: collections.Counter[Any], key: Any) -> None:
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]


class Guard:
    """The limits of a single server, counted in this process (the hub's counters)."""

    shared = False
    """Whether the counts are the cluster's (messages are then admitted before the room)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.limits = hub.limits

    async def start(self) -> None:
        """Start counting (nothing to do on a single server)."""

    async def stop(self) -> None:
        """Stop counting."""

    async def registering(self, address: str | None) -> None:
        """Count a registration from ``address`` (``too_many_registrations``)."""
        self.hub.registering(address)

    async def open_socket(self, player: int, address: str | None) -> None:
        """Count a new socket (``too_many_sockets``)."""
        self.hub.open_socket(player, address)

    async def close_socket(self, player: int, address: str | None) -> None:
        self.hub.close_socket(player, address)

    async def admit(self, player: int) -> bool:
        """Whether a message of ``player`` may be handled now (its bucket has a token)."""
        verdict = self.admit_now(player)
        return verdict if verdict is not None else await self.ask(player)

    def admit_now(self, player: int) -> bool | None:
        """:meth:`admit` where it needs no round trip; ``None``: it needs one, and
        :meth:`ask` must be awaited for this message."""
        return self.hub.bucket(player).take()

    async def ask(self, player: int) -> bool:
        """The answer that :meth:`admit_now` could not give at once."""
        raise AssertionError("a single server admits every message at once")

    async def invite_lookup(self, player: int, address: str | None) -> None:
        """Count an invite-code lookup (``too_many_lookups``; see :meth:`Hub.invite_lookup`)."""
        self.hub.invite_lookup(player, address)

    async def check_rooms(
        self,
        player: int,
        address: str | None,
        code: str,
        options: RoomOptions,
        game_options: dict[str, Any],
        seat: int | None,
    ) -> None:
        """Whether ``player`` (from ``address``) may create this room (``too_many_rooms``,
        ``too_many_rooms_address``, ``too_many_bot_rooms``); the hub checks its own rooms
        when it creates one, which on a single server are all of them."""

    async def check_join(self, player: int) -> None:
        """Whether ``player`` may take a seat (``too_many_rooms``)."""
        self.hub.check_room_quota(player)

    @contextlib.asynccontextmanager
    async def serial(self, player: int) -> AsyncIterator[None]:
        """One room creation or join of ``player`` at a time, from its check to its write,
        so two calls at the same instant cannot both pass a limit. A single server checks
        and writes without waiting in between: nothing to do."""
        yield

    def created(self, room_id: int, address: str | None) -> None:
        """A room was created from ``address``."""


def lookup_buckets(
    limits: Limits, player: int, address: str | None
) -> list[tuple[str, int | str, int]]:
    """The buckets an invite-code lookup takes a token from: ``(whose, key, per_minute)``,
    the player's and (when known) the address's."""
    buckets: list[tuple[str, int | str, int]] = [
        ("player", player, limits.invite_lookups_per_minute)
    ]
    if address is not None:
        buckets.append(("address", address, limits.invite_lookups_per_address))
    return buckets


def lookup_rate(per_minute: int) -> tuple[float, int]:
    """The rate (a second) and burst of a lookup bucket allowing ``per_minute``: a fifth of
    the minute's count at once."""
    return per_minute / 60, max(1, per_minute // 5)


def too_many_lookups(whose: str, per_minute: int) -> ServerError:
    """The refusal of a lookup past the bucket of ``whose`` (``player`` or ``address``)."""
    who = "you" if whose == "player" else "your address"
    return ServerError(
        "too_many_lookups",
        f"{who} looked up more than {per_minute} invite codes a minute (the"
        f" limit); try again in {max(1, round(60 / per_minute))} s",
        429,
    )
