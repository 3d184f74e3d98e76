"""One table (:class:`Room`): authoritative hands played one after another (a match) in
memory, with the database as their log.

Every change goes the same way (:meth:`Room.act`):

1. the state checks and applies the action (a rejected one changes nothing);
2. the store appends it to the hand's log - and on the hand's last action writes the
   settlement to the ledger - in one transaction (the :class:`~paiju.server.journal.Journal`'s
   group commit);
3. only then is every socket sent what it may see: its own ``view`` and the events whose
   audience includes it (spectators: ``view(None)`` and public events).

The room is single-threaded on the server's event loop: no ``await`` happens between
applying an action and storing it, so each room's log is strictly ordered. Bots (empty
seats, 托管 takeovers, timeouts) are loop callbacks that go through the same path.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
import random
import secrets
import time
from collections.abc import Callable, Sequence
from typing import Any, Literal, Protocol, cast

from paiju.bots import Bot
from paiju.catalog import find_variant
from paiju.engine import Action, Event, Game, State
from paiju.errors import PaijuError, ProtocolError
from paiju.fairness import check_client_seed, commitment, new_seed
from paiju.games import game as make_game
from paiju.games import make_bot
from paiju.reasons import texts_of_code
from paiju.server import hands, seat_bots
from paiju.server.dissolve import VOTES_KEY, Asks, Vote, ended_by_vote, open_vote
from paiju.server.errors import ServerError
from paiju.server.fanout import legal_json, state_texts, update_texts
from paiju.server.messages import (
    ClientSeed,
    Control,
    DissolveMsg,
    ErrorMsg,
    HandOver,
    HandStarted,
    MatchInfo,
    MatchSummaryMsg,
    NearbyMsg,
    NearbyPair,
    RoomInfo,
    RoomMsg,
    Seeded,
    Welcome,
)
from paiju.server.nearby import Point, Whereabouts, refusal
from paiju.server.options import Limits, RoomOptions, RoomStatus
from paiju.server.ports import Cancellable, Commits, Peer, RoomStore
from paiju.server.rows import (
    ActionWrite,
    ClosingWrite,
    HandEnding,
    HandRow,
    PlayerRow,
    RoomRow,
    SeatsWrite,
    Table,
    VotesWrite,
)
from paiju.server.seating import (
    SeatRuntime,
    bots_only,
    control,
    human_seats,
    pick_seat,
    seat_of,
)
from paiju.server.turns import AUTO_PASS_BEAT, SeatTurn, Step, bot_pace, pass_pause, plan
from paiju.server.windows import TurnClock, Window, default_action

__all__ = ["RETRY_AFTER", "Host", "Room"]

log = logging.getLogger("paiju.server")

_PAUSES = random.Random(secrets.randbits(64))
"""Draws the pauses shown to the table (:func:`~paiju.server.turns.pass_pause`): nothing
a player could learn the hand from, nothing a seed of the deal decides."""


class Host(Protocol):
    """What a room asks of the server that holds it (:class:`paiju.server.hub.Hub`): the
    room layer names no layer above it."""

    @property
    def store(self) -> RoomStore:
        """The database the room's seats and status go to (its hands and actions go
        through the journal)."""

    @property
    def journal(self) -> Commits:
        """Where accepted actions wait for their group commit."""

    @property
    def limits(self) -> Limits:
        """The server's limits (rates, message sizes, chat)."""

    def placement(self, room_id: int) -> dict[str, str]:
        """The ``node`` and ``ws`` of a room's info on a cluster node (else nothing)."""

    async def again(self, room: Room, player: PlayerRow) -> Room:
        """再来一局: the next match at the same table, opened for ``player``."""

    def finished(self, room: Room) -> None:
        """The room is over: the server lets it go."""

    def summary(self, table: Table) -> MatchSummaryMsg:
        """总结算 of a table, from the hands stored of it."""

    def deal_seeds(self, room_id: int) -> Sequence[str] | None:
        """The server seeds of a room's deals when they are fixed (a duplicate event's
        table: hand ``n`` is dealt from seed ``n - 1``), else None: a fresh seed each."""

    def chat_reported(self, report: dict[str, Any]) -> None:
        """A player reported (举报) a seat's chat: to the operator's list."""


RETRY_AFTER = 1.0
"""Seconds a room waits after the database failed (locked, I/O) before playing on."""
RECOVERED_LOOK = 30.0
"""Seconds the last result is held after a restart between hands (at most ``pause``): the
players' clients reconnect and see it again, and the next hand comes at their 继续."""
CLOSING_TRIES = 10
"""How many times a room's closing is written while the database fails, a try every
:data:`RETRY_AFTER` seconds."""


class Room:
    """One table: its game, seats, current hand and sockets."""

    def __init__(self, hub: Host, row: RoomRow) -> None:
        self.hub = hub
        self.store = hub.store
        self.id = row.id
        self.code = row.code
        self.options = RoomOptions.model_validate(row.options)
        self.game_options = dict(row.game_options)
        self.game: Game = make_game(row.code, **self.game_options)
        self.variant = find_variant(row.code)
        self.n = row.seats
        self.owner = row.owner_id
        self.invite = row.invite
        """The room's random invite code (邀请码), as stored."""
        self.status: RoomStatus = cast(RoomStatus, row.status)
        self.hands_played = row.hands_played
        self.context: dict[str, Any] = dict(row.context)
        self.votes: list[dict[str, Any]] = list(self.context.pop(VOTES_KEY, []))
        """申请解散: the records of the room's decided votes to end it (kept in the stored
        context under :data:`~paiju.server.dissolve.VOTES_KEY`, out of the game's)."""
        self.vote: Vote | None = None
        """The vote to end the room open now."""
        self._vote_handle: Cancellable | None = None
        self._vote_deadline = 0.0
        self.dissolving = self.status == "playing" and ended_by_vote(self.votes)
        """The players agreed to end the room: it ends after the hand in play (an agreement
        stored before a restart counts after it)."""
        self.asks = Asks()
        """When each player last asked to end the room (loop time)."""
        self.vote_shown: DissolveMsg | None = None
        """The vote's message sent again to a socket that connects (open, or agreed while
        the last hand is played)."""
        self.seats = [
            SeatRuntime(player=p, bot=b, ready=r)
            for p, b, r in zip(row.seat_players, row.seat_bots, row.ready_marks(), strict=True)
        ]
        self.spectators: set[Peer] = set()
        self.state: State | None = None
        self.hand: HandRow | None = None
        self.hand_id = 0
        self.hand_no = 0
        self.hand_players: tuple[int | None, ...] = ()
        self.next_hand: asyncio.TimerHandle | None = None
        self.waiting: set[int] = set()
        """The human seats whose 继续 (continue) the next hand waits for."""
        self.over: HandOver | None = None
        """The last hand's result, sent again as ``waiting`` shrinks."""
        self.acted: set[int] = set()
        """The seats that have acted in the hand in play."""
        self._hand_at = 0.0
        self.names: dict[int, str] = {}
        self.deferred = 0
        """Socket messages of this room waiting for the journal's next commit."""
        self._refresh_after = False
        """A full refresh waits for the commit of the action in flight."""
        self.unsure = False
        """A write of the room failed and its stored hand is not read back yet: it does
        not play on (its actions are refused; its bots, timers and refresh wait)."""
        self._refresh_unsure = False
        """A full refresh waits for the stored hand to be read back."""
        self._acting: frozenset[int] = frozenset()
        self._acting_state: State | None = None
        self._acting_version = -1
        self.deal_delayed = False
        """The next hand could not be stored yet (its sockets were told: ``deal_delayed``)."""
        self.address: str | None = None
        """The client address the room was created from (None: recovered)."""
        self.fixed_seeds = None if self.options.event is None else hub.deal_seeds(row.id)
        """The seeds of the room's deals when an event fixes them (else None)."""
        self.next_seed = self._seed_of(self.hands_played + 1)
        """The server seed of the next deal; its commitment is published before it."""
        self.server_seed = ""
        self.client_seeds: tuple[str, ...] | None = None
        """The server seed and client seeds of the hand in play (or last played)."""
        self.next_room: int | None = None
        """再来一局: the room of the next match at this table, once a player asked."""
        self.summary: MatchSummaryMsg | None = None
        """总结算, once the match is over."""
        self.window: Window | None = None
        """The hidden decision window open now (a mahjong claim window; paiju.server.windows)."""
        self.turn_clock: TurnClock | None = None
        """What times the turns (the seats' decision clocks, the hidden windows, the 要不起
        pause) and a vote to end the room: None, the event loop. A test may set a clock it
        drives, so that what it reads while one runs does not race its end."""
        self.seeding = False
        """The first deal waits for the seated players' client seeds (``seed_wait``)."""
        self.whereabouts = Whereabouts(self.n)
        """防作弊: the seats' addresses and shared points, in memory only (nearby.py)."""
        self.nearby_told: NearbyMsg | None = None
        """What the table was last told of who sits near whom."""

    @property
    def open(self) -> bool:
        """Waiting or playing (not finished, not closed)."""
        return self.status in ("waiting", "playing")

    @property
    def bots_only(self) -> bool:
        """Bots take every seat (no human seat was open)."""
        return bots_only(self.seats)

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        return asyncio.get_running_loop()

    @property
    def clock(self) -> TurnClock:
        """What times the turns: :attr:`turn_clock`, else the event loop."""
        return self.turn_clock if self.turn_clock is not None else self.loop

    # -- lobby ----------------------------------------------------------------------

    def info(self) -> RoomInfo:
        unknown = [s.player for s in self.seats if s.player is not None]
        unknown = [p for p in unknown if p not in self.names]
        if unknown:
            self.names.update(self.store.player_names(unknown))
        return RoomInfo(
            id=self.id,
            code=self.code,
            name_zh=self.variant.name_zh,
            name_en=self.variant.name_en,
            status=self.status,
            seats=self.n,
            players=[
                "bot" if s.bot else (None if s.player is None else self.names.get(s.player))
                for s in self.seats
            ],
            control=self.control(),
            options=self.options.model_dump(),
            game_options=self.game_options,
            hands_played=self.hands_played,
            game=self.hand_id or None,
            owner=self.owner,
            seat_players=[None if s.bot else s.player for s in self.seats],
            ready=[s.bot or s.ready for s in self.seats],
            invite=self.invite if self.status in ("waiting", "playing") else None,
            next_commitment=(
                commitment(self.next_seed) if self.status in ("waiting", "playing") else None
            ),
            match=self.match_info(),
            next_room=self.next_room,
            **self.hub.placement(self.id),
        )

    def words(self) -> dict[str, Any]:
        """The params of a refusal that names a hand: the game's word (打弹子's 盘)."""
        return {"hand_word": list(self.game.hand_words)}

    def match_info(self) -> MatchInfo:
        """The room's match: its length (the game's option, or the room's ``hands``) and
        the game's words for a hand and for the match."""
        g = self.game
        return MatchInfo(
            option=g.match_option,
            length=g.match_length,
            hands=self.options.hands,
            hand_word=list(g.hand_words),
            match_word=list(g.match_words),
        )

    def table(self) -> Table:
        """Who sits where, for the 总结算 (the last hand's players; bots as None)."""
        players = self.hand_players or tuple(None if s.bot else s.player for s in self.seats)
        by_vote = ended_by_vote(self.votes) and not self.open
        # cut short: a match that ends by itself (打弹子 to 30) stopped by the room's count;
        # where a match is counted in hands, the room's count is its length
        cut = (
            self.options.hands is not None
            and not by_vote
            and self.game.match_option is None
            and not self.game.match_over(self.context, self.hands_played)
        )
        return Table(
            self.id,
            self.code,
            self.options.stake,
            players,
            cut,
            self.next_room,
            context=dict(self.context),
            game_options=self.game_options,
            ended_by_vote=by_vote,
        )

    def match_summary(self) -> MatchSummaryMsg:
        """总结算 of the room so far (its whole match once finished)."""
        if self.summary is None or self.summary.next_room != self.next_room:
            summary = self.hub.summary(self.table())
            if self.status != "finished":
                return summary
            self.summary = summary
        return self.summary

    def take_seats(self, players: list[int | None], bots: list[bool]) -> None:
        """Seat the players and bots of another room's table (再来一局) before the first
        deal: each human is seated unready (``ready_check``) but the owner, then the room
        starts as :meth:`join` would."""
        if self.status != "waiting":
            raise ServerError("room_started", f"room {self.id} has started", 409)
        taken = []
        for i, (player, bot) in enumerate(zip(players, bots, strict=True)):
            rt = self.seats[i]
            if rt.player is not None:
                continue
            if bot:
                rt.bot = True
            elif player is not None:
                rt.player = player
                rt.ready = player == self.owner or not self.options.ready_check
            else:
                continue
            taken.append(i)
        self._store_seats(taken)
        self._start_if_ready()

    @property
    def time_limit(self) -> float:
        """Seconds per decision: the room's option, else the game's realistic default
        (十三张 75 s to arrange 13 cards, 佳佳宝 45 s to bet and group, 30 s otherwise)."""
        if self.options.time_limit is not None:
            return float(self.options.time_limit)
        return {"shisanzhang": 75.0, "jiajiabao": 45.0}.get(self.variant.family, 30.0)

    def control(self) -> list[Control]:
        return control(self.seats)

    def seat_of(self, player: int) -> int | None:
        return seat_of(self.seats, player)

    def join(self, player: PlayerRow, seat: int | None) -> int:
        if self.status != "waiting":
            raise ServerError("room_started", f"room {self.id} has started; spectate instead", 409)
        seat = pick_seat(self.seats, self.id, player.id, seat)
        self.seats[seat].player = player.id
        self.seats[seat].ready = player.id == self.owner or not self.options.ready_check
        self.names[player.id] = player.name
        self._store_seats([seat])
        self._start_if_ready()
        return seat

    def set_ready(self, seat: int, ready: bool) -> None:
        """准备 (or not) before the first deal; the room starts once all are ready (and
        every socket is sent the room's info). Later it is refused: ``room_playing``."""
        if self.status != "waiting":
            raise ServerError("room_playing", f"room {self.id} has started: no 准备 now", 409)
        if self.seats[seat].ready != ready:
            self.seats[seat].ready = ready
            self._store_seats([seat])
        self._start_if_ready()

    def _start_if_ready(self) -> None:
        full = all(s.bot or s.player is not None for s in self.seats)
        if full and all(s.bot or s.ready for s in self.seats):
            self.start()
        else:
            self.announce()

    def leave(self, player: PlayerRow) -> int:
        seat = self.seat_of(player.id)
        if seat is None:
            raise ServerError("not_seated", f"you hold no seat in room {self.id}", 409)
        self.whereabouts.left(seat)
        self._tell_nearby()
        rt = self.seats[seat]
        client = rt.client
        rt.auto_pass = False
        if self.status == "waiting":
            rt.player, rt.ready = None, False
            self._store_seats([seat])
        elif self.state is not None and self.acting():
            # Mid-hand: a bot plays the seat (托管) and the player may come back to it
            # (回到座位) until the hand ends; then the seat is the bot's for the rest of
            # the room. The hand still settles to the player who held it when dealt.
            rt.left, rt.auto = True, True
            self._cancel_timer(rt)
        else:
            self._give_to_bot(seat)
        if client is not None:
            client.close(1000, "left")
            rt.client = None
        if seat in self.waiting:
            self.next_hand_please(seat)  # nobody waits for a seat that has gone
        if self.state is not None:
            self.announce()  # the seat's name is now "bot" (before the deal: _refresh says so)
        self._refresh()
        return seat

    # -- 防作弊: who sits near whom, before the first deal ---------------------------------

    def before_first_deal(self) -> bool:
        return self.hands_played == 0 and self.state is None and self.open

    def check_nearby(self, address: str | None, point: Point | None) -> None:
        """A room with ``refuse_nearby`` refuses a seat to a player from the address of a
        player seated already, or closer than the server's ``nearby_distance`` to one
        (``too_near_address``, ``too_near``)."""
        if not self.options.refuse_nearby:
            return
        limit = self.hub.limits.nearby_distance
        held = [i for i, s in enumerate(self.seats) if s.player is not None and not s.bot]
        pair = self.whereabouts.near(held, address, point, limit)
        if pair is not None:
            raise refusal(pair, self.id, limit)

    def seen_from(self, seat: int | None, address: str | None, client: Peer | None = None) -> None:
        """A seat's player came from ``address`` (joining, or opening a socket): the table
        is told if that makes two seats share one; else ``client`` (a socket that just
        opened) is told what the table was told, before the first deal."""
        if seat is not None and self.whereabouts.seen(seat, address):
            self._tell_nearby()
        elif client is not None and self.nearby_told is not None and self.before_first_deal():
            client.send(self.nearby_told)

    def locate(self, seat: int, point: Point | None, ref: str | int | None = None) -> None:
        """The seat's player shared their location (None: took it back), before the
        first deal; the table is told the distances (the sender is answered in any case)."""
        if not self.before_first_deal():
            raise ServerError(
                "location_late", "a location counts before the room's first deal only", 409
            )
        self.whereabouts.located(seat, point)
        client = self.seats[seat].client
        told = self._tell_nearby(skip=client)
        if client is not None:
            client.send(told.model_copy(update={"id": ref}))

    def _nearby(self) -> NearbyMsg:
        limit = self.hub.limits.nearby_distance
        pairs = [
            NearbyPair(seats=list(p.seats), same_address=p.same_address, metres=p.metres)
            for p in self.whereabouts.pairs(limit)
        ]
        return NearbyMsg(room=self.id, pairs=pairs, shared=self.whereabouts.shared(), limit=limit)

    def _tell_nearby(self, skip: Peer | None = None) -> NearbyMsg:
        """Tell every socket (but ``skip``) who sits near whom, if that changed since the
        table was last told (before the first deal; nothing while there is nothing to
        say and nothing was said)."""
        now = self._nearby()
        told = self.nearby_told
        quiet = not now.pairs and not any(now.shared)
        if now != told and not (told is None and quiet) and self.before_first_deal():
            self.nearby_told = now
            body = now.model_dump_json()
            for client in self.clients():
                if client is not skip:
                    client.send(body)
        return now

    def _give_to_bot(self, seat: int) -> None:
        rt = self.seats[seat]
        rt.player, rt.bot, rt.auto, rt.left, rt.auto_pass = None, True, False, False, False
        self._store_seats([seat])
        self._cancel_timer(rt)

    def _store_seats(self, seats: list[int], status: str | None = None) -> None:
        """Store these seats as they now stand (and the room's new ``status``) in the next
        group commit, after the room's writes before them: the event loop never waits
        for the database. The room's next client message waits for the commit."""
        if not seats and status is None:
            return
        marks = tuple(
            (i, rt.player, rt.bot, rt.ready and rt.player is not None)
            for i in seats
            for rt in (self.seats[i],)
        )
        write = SeatsWrite(self.id, marks, status)
        self.hub.journal.add(self, write, _stored, self._seats_not_stored)

    def _seats_not_stored(self, exc: BaseException) -> None:
        """The database did not store seats of this room: refused for what they hold,
        the room closes; failed, every seat (and the status) is written again later."""
        log.error("room %s: could not store its seats: %r", self.id, exc)
        if self.store.refused(exc):
            self.close("storage_failure", f"the database refused this room's seats ({exc})")
            return

        def write_again() -> None:
            if self.open:
                self._store_seats(list(range(len(self.seats))), status=self.status)

        self.loop.call_later(RETRY_AFTER, self._safe(write_again))

    def arm_fill(self) -> None:
        """Start with bots in the open seats ``fill_after`` seconds from now, if still waiting."""
        if self.status == "waiting" and self.options.fill_after is not None:
            self.loop.call_later(self.options.fill_after, self._safe(self._fill))

    def _fill(self) -> None:
        if self.status == "waiting":
            self.start()

    def start(self) -> None:
        """Fill open seats with bots and deal the first hand."""
        if self.status != "waiting":
            raise ServerError("room_started", f"room {self.id} has already started", 409)
        filled = []
        for i, s in enumerate(self.seats):
            if s.player is None and not s.bot:
                s.bot = True
                filled.append(i)
        self.status = "playing"
        self._store_seats(filled, status="playing")
        self.announce()
        self.deal_after_seeds()

    def deal_after_seeds(self) -> None:
        """The first deal of the room (or the first after a restart): its commitment is
        published already (``next_commitment`` in the room's info), and the deal waits
        ``seed_wait`` seconds for the seated players' client seeds - less once every human
        seat has sent one, none without a human seat (docs/fairness.md)."""
        if self.next_hand is not None:
            self.next_hand.cancel()
        wait = 0.0 if self._seeds_in() else self.options.seed_wait
        self.seeding = wait > 0
        self.next_hand = self.loop.call_later(wait, self._safe(self.deal_hand))

    def _seeds_in(self) -> bool:
        """Every human seat has sent its client seed for the next deal (true without one,
        and at a table of fixed deals, which takes none)."""
        if self.fixed_seeds is not None:
            return True
        return all(s.client_seed for s in self.seats if not s.bot and s.player is not None)

    def fix_seeds(self, seeds: Sequence[str]) -> None:
        """Deal from an event's ``seeds`` from the next hand on (a room loaded before
        they were known; its next commitment changes before any deal from it)."""
        self.fixed_seeds = seeds
        self.next_seed = self._seed_of(max(self.hand_no, self.hands_played) + 1)

    def _seed_of(self, hand_no: int) -> str:
        """The server seed of hand ``hand_no``: the event's where it fixes the deals (a
        fresh one past their end), else a fresh one."""
        fixed = self.fixed_seeds
        if fixed is not None and 0 < hand_no <= len(fixed):
            return fixed[hand_no - 1]
        return new_seed()

    # -- hands ----------------------------------------------------------------------

    def deal_hand(self) -> None:
        """Deal from the server seed committed to before (``next_commitment``) and the
        seats' client seeds, record it, then tell every socket; commit to the next seed."""
        if self.next_hand is not None:
            self.next_hand.cancel()
        self.next_hand = None
        if self.dissolving:  # the players agreed to end the room: no further hand
            self._end_by_vote()
            return
        self.seeding = False
        self.waiting.clear()
        self.over = None
        self.acted.clear()
        self.whereabouts.forget_points()  # the shared locations are not kept past a deal
        seed = self.next_seed
        players = tuple(None if s.bot else s.player for s in self.seats)
        hand_no = self.hands_played + 1
        hand_id = self.store.new_hand_id()
        fixed = self.fixed_seeds is not None  # an event's deal: alike at all its tables
        dealt = hands.deal(
            self.game,
            room_id=self.id,
            code=self.code,
            hand_id=hand_id,
            hand_no=hand_no,
            game_options=self.game_options,
            context={} if fixed else self.context,
            players=players,
            server_seed=seed,
            sent=["" if fixed else s.client_seed or "" for s in self.seats],
        )
        state, write = dealt.state, dealt.write
        self.server_seed, self.client_seeds = seed, dealt.client_seeds
        self.next_seed = self._seed_of(hand_no + 1)
        for rt in self.seats:
            rt.client_seed = None
        self.state, self.hand_id, self.hand_no, self.hand_players = (
            state,
            hand_id,
            hand_no,
            players,
        )
        self._new_bots()
        self.hub.journal.add(
            self, write, functools.partial(self._dealt, hand_id), self._deal_failed
        )

    def _dealt(self, hand_id: int) -> None:
        """The hand (its commitment, secret seed and deal) is stored: publish and play."""
        self.deal_delayed = False
        started = self.hand_started().model_dump_json()
        for client in self.clients():
            client.send(started)
        self._refresh()

    def _deal_failed(self, exc: BaseException) -> None:
        self.state = None
        if self.store.refused(exc):
            log.error("room %s: the database refused a new hand (%r); room closed", self.id, exc)
            self.close("storage_failure", f"the database refused this room's new hand ({exc})")
            return
        log.error("room %s: could not store a new hand (%r); dealing again in 1 s", self.id, exc)
        if not self.deal_delayed:  # told once an outage, as an action's failure is told
            self.deal_delayed = True
            for client in self.clients():
                self._tell_delayed(client)
        self.next_hand = self.loop.call_later(RETRY_AFTER, self._safe(self.deal_hand))

    @staticmethod
    def _tell_delayed(client: Peer) -> None:
        client.error(
            "deal_delayed",
            "the next hand could not be stored (the database failed); it is dealt as soon"
            " as the database takes it",
        )

    def hand_started(self) -> HandStarted:
        """The ``hand_started`` message of the hand in play."""
        return hands.started(
            room_id=self.id,
            hand_id=self.hand_id,
            hand_no=self.hand_no,
            server_seed=self.server_seed,
            client_seeds=self.client_seeds,
            next_seed=self.next_seed,
        )

    def set_client_seed(self, client: Peer, msg: ClientSeed) -> None:
        """A seat's client seed for the next deal (docs/fairness.md)."""
        seat = client.seat
        if seat is None:
            raise ServerError("spectator", "a spectator has no seat to add a seed for")
        if self.status not in ("waiting", "playing"):
            raise ServerError("no_next_hand", f"room {self.id} deals no further hand")
        if self.fixed_seeds is not None:
            raise ServerError(
                "fixed_deals",
                f"room {self.id} is a table of a duplicate event: its deals are the event's,"
                " the same at every table, and no client seed changes them",
            )
        self.seats[seat].client_seed = check_client_seed(msg.seed)
        client.send(
            Seeded(
                room=self.id,
                seat=seat,
                seed=msg.seed,
                next_commitment=commitment(self.next_seed),
                id=msg.id,
            )
        )
        if self.seeding and self._seeds_in():
            self.deal_after_seeds()  # every seat's seed is in: the first deal comes now

    def _new_bots(self) -> None:
        self._drop_window()
        for s in self.seats:
            s.engine = None
            s.draft = None
        for s in self.seats:
            self._cancel_timer(s)
            self._cancel_bot(s)

    def between_hands(self) -> bool:
        """No hand is in play and nothing of the room waits for the database: it waits
        for its players or its first deal, or shows a hand's result before the next deal
        (a room may move to another node now without a hand being cut)."""
        return (
            self.open
            and (self.state is None or self.state.is_over)
            and not self.deferred
            and not self.hub.journal.holds(self)
        )

    def _bot(self, seat: int) -> Bot:
        """The seat's bot: a bot seat plays the room's level, 托管 the rule bot (普通)."""
        rt = self.seats[seat]
        level = self.options.seat_level(seat) if rt.bot else "normal"
        if rt.engine is None or rt.engine_level != level:
            rt.engine = make_bot(self.game, secrets.randbits(32), level)
            rt.engine_level = level
        return rt.engine

    def take_up(self, hand: HandRow) -> None:
        """Take the hand in play up again where its log left it: rebuilt, and the clocks
        and bots of the seats to act started (a restart, or a room taken over)."""
        self.restore(hand)
        self._schedule()

    def stop_clocks(self) -> None:
        """Cancel every seat's decision timer and thinking bot (the server stops, or the
        room is no longer this node's to play)."""
        for rt in self.seats:
            self._cancel_timer(rt)
            self._cancel_bot(rt)
        if self._vote_handle is not None:  # an open vote is not decided by a stopped room
            self._vote_handle.cancel()
            self._vote_handle = None

    def restore(self, hand: HandRow) -> None:
        """Rebuild the hand in play from its seed and log (crash recovery); a log of an
        older record format replays as :func:`~paiju.engine.apply_log` plays it."""
        state, same = hands.rebuild(self.game, hand)
        if not same:
            log.error(
                "room %s game %s: the seed does not re-deal the stored deal", self.id, hand.id
            )
        self.state, self.hand_id, self.hand_no = state, hand.id, hand.hand_no
        self.hand_players = hand.players
        self.hand = hand
        if self.fixed_seeds is not None:  # the event's next deal follows this one
            self.next_seed = self._seed_of(hand.hand_no + 1)
        self.server_seed, self.client_seeds = hand.seed, hand.client_seeds

    def acting(self) -> frozenset[int]:
        """The seats to act now (``state.to_act()``; empty: no hand in play), computed once
        per state and version: the server asks many times per action."""
        state = self.state
        if state is None:
            return frozenset()
        version = len(state.history)
        if self._acting_state is not state or self._acting_version != version:
            self._acting = state.to_act()
            self._acting_state, self._acting_version = state, version
        return self._acting

    def settle_writes(self) -> None:
        """Store this room's pending action (if any) before its state is read again,
        blocking the loop: the fallback of code that cannot wait (:meth:`settled` awaits,
        and bots, timers and client messages wait for the commit instead)."""
        if self.hub.journal.holds(self):
            self.hub.journal.settle(self)

    async def settled(self) -> None:
        """Wait until this room's pending action (if any) is stored and sent."""
        await self.hub.journal.settled(self)

    def _busy(self) -> bool:
        """Whether an action of this room waits for its commit."""
        return self.hub.journal.holds(self)

    def act(
        self,
        seat: int,
        action: Action,
        actor: Literal["player", "bot", "timeout"],
        ref: str | int | None = None,
    ) -> None:
        """Apply an action (raises PaijuError if refused), then hand it to the journal,
        which stores it and only then lets :meth:`_committed` broadcast it."""
        self.settle_writes()
        state = self.state
        if self.unsure:
            raise ServerError(
                "storage_failure", "the room waits for the database; try again in a moment", 503
            )
        if state is None or not self.acting():
            raise ServerError("no_hand", "no hand is in play in this room", 409, **self.words())
        window = self.window
        within = state.hidden_window()
        if within and window is not None and not window.closing:
            window.keep(state, seat, action, actor, ref)  # played when the window closes
            if window.deadline == window.extended and not window.waiting_for_claimers():
                # past the fixed end, the last claimer has decided: the window closes now
                window.cancel()
                window.handle = self.loop.call_soon(self._safe(self._close_window))
            return
        try:
            events = state.apply(seat, action)
        except PaijuError:
            raise
        except Exception as exc:
            log.exception("room %s: the engine failed on %r", self.id, action)
            self._reload()
            raise ServerError(
                "internal", f"the game engine failed on this action: {exc!r}", 500
            ) from None
        idx = len(state.history) - 1
        ending = None if self.acting() else self._ending(state)
        write = ActionWrite(self.hand_id, idx, seat, action.to_json(), actor, ending)
        self.hub.journal.add(
            self,
            write,
            functools.partial(self._committed, seat, actor, events, ref, ending, within),
            functools.partial(self._not_stored, seat, actor, ref),
        )

    def _committed(
        self,
        seat: int,
        actor: Literal["player", "bot", "timeout"],
        events: list[Event],
        ref: str | int | None,
        ending: HandEnding | None,
        within: bool = False,
    ) -> None:
        """The action is in the database: now tell every socket (``within``: a decision
        of a hidden window)."""
        state = self.state
        assert state is not None
        rt = self.seats[seat]
        self._cancel_timer(rt)
        self._cancel_bot(rt)
        self.acted.add(seat)
        rt.draft = None
        self._broadcast(seat, actor, events, ref, within)  # the next turns are scheduled
        if ending is not None:
            self._hand_over(state, ending)

    def _not_stored(self, seat: int, actor: str, ref: str | int | None, exc: BaseException) -> None:
        """The database refused the action. A refusal of this write itself (a value the
        database cannot hold) closes the room with an error every socket sees; a failure
        of the database (locked, I/O) goes back to the last stored state, tells the actor
        and lets the room play on after :data:`RETRY_AFTER` seconds."""
        log.error("room %s: could not store an action of seat %d: %r", self.id, seat, exc)
        if self.store.refused(exc):
            self.close(
                "storage_failure",
                f"the database refused this room's action ({type(exc).__name__}: {exc});"
                " the room is closed, other rooms play on",
            )
            return
        self._reload()
        self._drop_window()
        client = self.seats[seat].client
        if client is not None and actor == "player":
            client.error(
                "storage_failure",
                f"the action could not be stored ({type(exc).__name__}); it was not applied",
                ref,
            )
        for rt in self.seats:
            self._cancel_timer(rt)
            self._cancel_bot(rt)
        self.loop.call_later(RETRY_AFTER, self._safe(self._refresh))

    def close(self, code: str, message: str) -> None:
        """Close the room for good (its owner, the operator or a storage failure): timers
        and bots stop, the hand in play is void (no settlement), every socket gets an
        ``error`` with ``code`` and the room's info with status ``closed``."""
        if self.status == "closed":
            return
        self.settle_writes()
        for rt in self.seats:
            self._cancel_timer(rt)
            self._cancel_bot(rt)
            if rt.away_handle is not None:
                rt.away_handle.cancel()
                rt.away_handle = None
        if self.next_hand is not None:
            self.next_hand.cancel()
            self.next_hand = None
        self._drop_window()
        self._cancel_vote()
        void = self.hand_id if self.state is not None else None  # only a hand in play
        self._store_closing(ClosingWrite(self.id, void), CLOSING_TRIES)
        self.state = None
        self.status = "closed"
        text = ErrorMsg(code=code, message=message, text=texts_of_code(code)).model_dump_json()
        for client in self.clients():
            client.send(text)
        self.announce()
        self.hub.finished(self)

    def _store_closing(self, write: ClosingWrite, tries: int) -> None:
        """The closing in the next group commit, after the room's writes before it; failed
        with the database (not refused), written again after :data:`RETRY_AFTER` seconds,
        ``tries`` times in all (else the room is still open in the database: it is resumed
        from its log when the server starts again, and nothing is lost)."""

        def failed(exc: BaseException) -> None:
            log.error("room %s: could not record its closing: %r", self.id, exc)
            if tries > 1 and not self.store.refused(exc):
                again = functools.partial(self._store_closing, write, tries - 1)
                self.loop.call_later(RETRY_AFTER, self._safe(again))

        self.hub.journal.add(self, write, _stored, failed)

    def _ending(self, state: State) -> HandEnding:
        """What the hand's last action writes; the votes' records go with the match's
        context, and a room its players agreed to end is finished."""
        ending = hands.ending(
            self.game,
            state,
            room_id=self.id,
            players=self.hand_players,
            hands_played=self.hands_played,
            stake=self.options.stake,
            hands=self.options.hands,
        )
        if not self.votes and not self.dissolving:
            return ending
        return dataclasses.replace(
            ending,
            context={**ending.context, VOTES_KEY: list(self.votes)},
            room_finished=ending.room_finished or self.dissolving,
        )

    def _hand_over(self, state: State, ending: HandEnding) -> None:
        self.hands_played = ending.hands_played
        self.context = {k: v for k, v in ending.context.items() if k != VOTES_KEY}
        for s in self.seats:
            self._cancel_timer(s)
            self._cancel_bot(s)
        if ending.room_finished:
            self.status = "finished"
        for i, s in enumerate(self.seats):
            if s.left:
                self._give_to_bot(i)  # left mid-hand and did not come back
        # 继续: the result stays until every connected human seat (not in 托管) has seen
        # it, or ``pause`` seconds; without such a seat, a short look (3 s at most).
        self.waiting = human_seats(self.seats, connected=True)
        pause = self.options.pause if self.waiting else min(self.options.pause, 3.0)
        self._hold(list(ending.scores), list(ending.deltas), ending.room_finished, pause)
        if ending.room_finished:
            self._cancel_vote()
            self.vote_shown = None
            self.announce()
            self.send_summary()
            self.hub.finished(self)

    def send_summary(self) -> None:
        """总结算 to every seat and spectator (after a finished match's last result)."""
        try:
            text = self.match_summary().model_dump_json()
        except Exception:
            log.exception("room %s: could not read its hands for the summary", self.id)
            return
        for client in self.clients():
            client.send(text)

    def again(self, room: Room) -> None:
        """再来一局 answered: ``room`` plays the next match; every socket is told (its room
        info names ``next_room``, and the summary again), and the players move there."""
        self.next_room = room.id
        self.announce()
        self.send_summary()

    def _hold(self, scores: list[int], deltas: list[int], finished: bool, pause: float) -> None:
        """Show the hand's result (``hand_over``) and deal the next hand ``pause`` seconds
        from now, or sooner once every seat in ``waiting`` has sent 继续."""
        self.over = hands.result(
            room_id=self.id,
            hand_id=self.hand_id,
            scores=scores,
            deltas=deltas,
            server_seed=self.server_seed,
            client_seeds=self.client_seeds,
            next_seed=self.next_seed,
            finished=finished,
            pause=pause,
            waiting=self.waiting,
        )
        self._hand_at = self.loop.time() + pause
        msg = self.over.model_dump_json()
        for client in self.clients():
            client.send(msg)
        if not finished:
            self.next_hand = self.loop.call_later(pause, self._safe(self.deal_hand))

    def hold_recovered(self) -> None:
        """After a restart between hands (the hand just over restored): hold its result
        for the human seats' players, who reconnect and tap 继续, ``RECOVERED_LOOK``
        seconds at most (within ``pause``); with none, the short look of 3 s."""
        state = self.state
        if state is None or not state.is_over:
            self.next_hand = self.loop.call_later(
                min(self.options.pause, 3.0), self._safe(self.deal_hand)
            )
            return
        self.waiting = human_seats(self.seats, connected=False)
        look = RECOVERED_LOOK if self.waiting else 3.0
        scores = list(state.settlement())
        deltas = [x * self.options.stake for x in scores]
        self._hold(scores, deltas, False, min(self.options.pause, look))

    def next_hand_please(self, seat: int) -> None:
        """继续 from ``seat``: once no seat is left to wait for, the next hand is dealt."""
        if self.over is None or seat not in self.waiting or self.next_hand is None:
            return
        self.waiting.discard(seat)
        left = max(0.0, self._hand_at - self.loop.time())
        self.over = self.over.model_copy(
            update={"waiting": sorted(self.waiting), "next_hand_in": round(left, 1)}
        )
        msg = self.over.model_dump_json()
        for client in self.clients():
            client.send(msg)
        if not self.waiting:
            self.next_hand.cancel()
            self.next_hand = self.loop.call_later(0, self._safe(self.deal_hand))

    def _reload(self) -> None:
        """Rebuild the state from the database after a failure left it uncertain: the hand
        as stored, read off the loop after the room's writes before it (its messages,
        bots and timers wait for it as for a write). Until it is read the room does not
        play on; with the database still away it is read again after
        :data:`RETRY_AFTER` seconds."""
        self.unsure = True
        self.hub.journal.read(
            self, functools.partial(self.store.current_hand, self.id), self._reloaded, self._unread
        )

    def _reloaded(self, hand: HandRow | None) -> None:
        self.unsure = False
        if hand is not None and hand.status == "playing":
            self.restore(hand)
        if self._refresh_unsure:
            self._refresh_unsure = False
            self._refresh()

    def _unread(self, exc: BaseException) -> None:
        log.error("room %s: could not read its stored hand: %r", self.id, exc)
        if self.open:  # a room closed meanwhile plays no more: nothing to read back
            self.loop.call_later(RETRY_AFTER, self._safe(self._reload))

    def _safe(self, fn: Callable[[], None]) -> Callable[[], None]:
        def run() -> None:
            try:
                fn()
            except PaijuError as exc:
                if exc.code != "stale_lease":  # else: dropped, the room is played elsewhere
                    log.exception("room %s: %s failed", self.id, getattr(fn, "__name__", fn))
            except Exception:
                log.exception("room %s: %s failed", self.id, getattr(fn, "__name__", fn))

        return run

    # -- who plays now: bots, timers, 托管 -----------------------------------------------

    def _cancel_timer(self, rt: SeatRuntime) -> None:
        if rt.timer is not None:
            rt.timer.cancel()
            rt.timer = None

    def _cancel_bot(self, rt: SeatRuntime) -> None:
        if rt.pending_bot is not None:
            rt.pending_bot.cancel()
            rt.pending_bot = None
        rt.thinking = None
        rt.play_at = None

    def _schedule(self) -> None:
        """Start the timers of the seats to act and let bots move where they play."""
        state = self.state
        acting = self.acting()
        if state is None or not acting:
            return
        if state.hidden_window():
            self._open_window()
            return
        self._drop_window()
        seats: list[SeatTurn | None] = []
        only_pass = False
        for seat, rt in enumerate(self.seats):
            to_act = seat in acting
            if not to_act and (
                rt.timer is None
                and rt.pending_bot is None
                and rt.thinking is None
                and rt.play_at is None
            ):
                seats.append(None)  # nothing to stop
                continue
            by_bot = rt.bot or rt.auto
            turn = SeatTurn(
                acting=to_act,
                by_bot=by_bot,
                first_look=rt.auto and rt.client is not None and seat not in self.acted,
                only_pass=(
                    to_act and not by_bot and rt.auto_pass and self.only_pass(seat) is not None
                ),
                clock=rt.timer is not None,
                moving=rt.pending_bot is not None or (by_bot and rt.thinking is not None),
            )
            seats.append(turn)
            only_pass = only_pass or turn.only_pass
        limit = self.time_limit
        pause = pass_pause(_PAUSES, limit) if only_pass else AUTO_PASS_BEAT
        for step in plan(seats, self.options.bot_delay, limit, pause, self.options.quick_pass):
            self._take(step)

    def _take(self, step: Step) -> None:
        """Carry out one step of :func:`paiju.server.turns.plan` on the event loop."""
        rt = self.seats[step.seat]
        if step.kind in ("stop", "stop_clock"):
            self._cancel_timer(rt)
            if step.kind == "stop":
                self._cancel_bot(rt)
        elif step.kind == "bot":
            move = functools.partial(self._bot_move, step.seat, "bot")
            delay = step.delay
            if rt.bot and self.options.seat_level(step.seat) == "hard" and delay > 0:
                # a 困难 bot thinks from the turn's start; its decision is shown at a
                # moment drawn now, whatever it holds
                rt.play_at = self.loop.time() + bot_pace(_PAUSES, delay)
                delay = 0.0
            rt.pending_bot = self.loop.call_later(delay, self._safe(move))
        elif step.kind == "auto_pass":
            move = functools.partial(self._auto_pass, step.seat)
            rt.pending_bot = self.clock.call_later(step.delay, self._safe(move))
        else:
            rt.deadline = self.clock.time() + step.delay
            timeout = functools.partial(self._timeout, step.seat)
            rt.timer = self.clock.call_later(step.delay, self._safe(timeout))

    def _bot_move(self, seat: int, actor: Literal["bot", "timeout"]) -> None:
        rt = self.seats[seat]
        if self._busy():  # the bot moves once the room's last action is stored
            rt.pending_bot = self.hub.journal.after(
                self, self._safe(functools.partial(self._bot_move, seat, actor))
            )
            return
        rt.pending_bot = None
        state = self.state
        if state is None or seat not in self.acting():
            return
        bot = self._bot(seat)
        if rt.engine_level == "hard" and not state.hidden_window():
            seen = seat_bots.seen(state, seat, self.id)
            if seen is None:  # no sample: the bot is not asked
                self.act(seat, seat_bots.without_bot(state, seat), actor)
                return
            deadline = seat_bots.wall_deadline(self.time_limit)
            thinking = self.loop.run_in_executor(
                seat_bots.thinker(), seat_bots.think, bot, seen, seat, deadline
            )
            rt.thinking = thinking
            moment = len(state.history)
            thinking.add_done_callback(
                lambda done: self._safe(
                    functools.partial(self._bot_thought, seat, actor, state, moment, done)
                )()
            )
            return
        self.act(seat, self._bot_action(state, seat), actor)

    def _bot_action(self, state: State, seat: int) -> Action:
        """The seat's bot's choice on what the seat sees, at once (a 困难 seat's rule bot
        here: a window's decisions are made at its close)."""
        hard = self.seats[seat].engine_level == "hard"
        return seat_bots.choose_now(self._bot(seat), hard, state, seat, self.id)

    def _bot_thought(
        self,
        seat: int,
        actor: Literal["bot", "timeout"],
        state: State,
        moment: int,
        done: asyncio.Future[Action],
    ) -> None:
        """A 困难 decision is back from the bots' thread: played if the seat is still to
        act on the same state (else dropped: the hand moved on, or the seat was taken back)."""
        rt = self.seats[seat]
        if rt.thinking is not done:
            return
        if rt.play_at is not None and self.loop.time() < rt.play_at:  # shown at its moment
            later = functools.partial(self._bot_thought, seat, actor, state, moment, done)
            rt.pending_bot = self.loop.call_at(rt.play_at, self._safe(later))
            return
        rt.pending_bot = None
        rt.play_at = None
        rt.thinking = None
        if self.state is not state or len(state.history) != moment or seat not in self.acting():
            self._schedule()
            return
        action: Action | None = None
        if not done.cancelled() and done.exception() is None:
            action = done.result()
        else:
            log.error("room %s: the hard bot failed for seat %d: %r", self.id, seat, done)
        self.act(seat, seat_bots.checked(state, seat, action, self.id), actor)

    # -- hidden decision windows (paiju.server.windows) ------------------------------------

    def _open_window(self) -> None:
        """A hidden window is open: no clock or bot of its own per seat; it closes at one
        fixed moment, ``claim_window`` seconds after it opened."""
        for rt in self.seats:
            self._cancel_timer(rt)
            self._cancel_bot(rt)
        if self.window is not None and self.window.hand_id == self.hand_id:
            return
        limit = self.options.claim_window
        now = self.clock.time()
        self.window = Window(self.hand_id, limit, now + limit)
        claimers = self._claimers()
        if claimers and self.options.claim_time > limit:
            self.window.claimers = claimers
            self.window.extended = now + self.options.claim_time
        self.window.handle = self.clock.call_later(limit, self._safe(self._close_window))

    def _claimers(self) -> frozenset[int]:
        """The seats of the open window played by their players (no bot, no 托管) that can
        do more than 过: the seats ``claim_time`` waits for."""
        state = self.state
        if state is None:
            return frozenset()
        return frozenset(
            seat
            for seat in self.acting()
            if not (self.seats[seat].bot or self.seats[seat].auto)
            and any(a.type != "pass" for a in state.legal_actions(seat) or [])
        )

    def _drop_window(self) -> None:
        if self.window is not None:
            self.window.cancel()
            self.window = None

    def _close_window(self) -> None:
        """The window's time is up: every seat's decision is played, in seat order - the
        one it sent, its bot's (bots, 托管), else 过 - and the last one closes it for all."""
        window = self.window
        if window is not None and self._busy():
            window.handle = self.hub.journal.after(self, self._safe(self._close_window))
            return
        state = self.state
        if window is None or state is None or window.hand_id != self.hand_id:
            return
        now = self.clock.time()
        if window.waiting_for_claimers() and window.extended is not None and now < window.extended:
            # claim_time: a player who can claim is still deciding
            window.deadline = window.extended
            window.handle = self.clock.call_later(
                window.extended - now, self._safe(self._close_window)
            )
            return
        window.handle = None
        window.closing = True
        self._close_step(window, state)

    def _close_step(self, window: Window, state: State) -> None:
        """Play the closing window's next decisions, in seat order, until one waits for
        its commit (the rest follow once it is stored) or the window is closed."""
        try:
            for seat in sorted(self.acting()):
                if (
                    self.state is not state
                    or not state.hidden_window()
                    or self.window is not window
                ):
                    break
                if seat in self.acting():
                    self._decide_at_close(state, window, seat)
                    if self._busy() and self.window is window:
                        window.handle = self.hub.journal.after(
                            self, self._safe(functools.partial(self._close_step, window, state))
                        )
                        return
        except BaseException:
            self._closed(window)
            raise
        self._closed(window)
        if self.state is state and state.hidden_window() and self.acting():
            self._schedule()  # a decision failed: the window opens again, for as long

    def _closed(self, window: Window) -> None:
        window.closing = False
        if self.window is window:
            self.window = None

    def _decide_at_close(self, state: State, window: Window, seat: int) -> None:
        rt = self.seats[seat]
        kept = window.kept.get(seat)
        if kept is not None:
            action, actor, ref = kept.action, kept.actor, kept.ref
        else:
            ref = None
            mine = None if rt.bot or rt.auto else default_action(state, seat)
            actor = "bot" if mine is None else "timeout"
            action = self._bot_action(state, seat) if mine is None else mine
        try:
            self.act(seat, action, actor, ref)
        except PaijuError:
            log.exception("room %s: seat %d's window decision failed", self.id, seat)
            self.act(seat, state.random_action(seat, random.Random(secrets.randbits(32))), "bot")

    def only_pass(self, seat: int) -> Action | None:
        """The seat's pass when pass is the only legal action it has now (要不起), else None."""
        state = self.state
        if state is None or seat not in self.acting():
            return None
        actions = state.legal_actions(seat)
        if actions is None or len(actions) != 1 or actions[0].to_json().get("type") != "pass":
            return None
        return actions[0]

    def set_auto_pass(self, seat: int, on: bool) -> None:
        """The seat's 要不起 option: passing for it at once applies to the turn in play too."""
        rt = self.seats[seat]
        if rt.auto_pass == on:
            return
        rt.auto_pass = on
        if rt.bot or rt.auto or self.only_pass(seat) is None:
            return
        if self.options.quick_pass:
            self._cancel_timer(rt)
            self._cancel_bot(rt)
            self._refresh()  # the seat's clock starts or stops: everyone sees it
        elif on:
            self._schedule()  # the pass after a person's pause; the clock runs on
        else:
            self._cancel_bot(rt)  # the pass waiting for it: nothing the table sees

    def _auto_pass(self, seat: int) -> None:
        """要不起: the pass the seat's player asked the server to make for it."""
        rt = self.seats[seat]
        if self._busy():
            rt.pending_bot = self.hub.journal.after(
                self, self._safe(functools.partial(self._auto_pass, seat))
            )
            return
        rt.pending_bot = None
        if not rt.auto_pass or rt.bot or rt.auto:
            return
        action = self.only_pass(seat)
        if action is not None:
            self.act(seat, action, "player")

    def _timeout(self, seat: int) -> None:
        """The time ran out: the player's own unconfirmed arrangement if it is legal and
        does not foul (倒水), else the bot's choice; 托管 after ``tuoguan_after`` in a row."""
        rt = self.seats[seat]
        if self._busy():
            rt.timer = self.hub.journal.after(
                self, self._safe(functools.partial(self._timeout, seat))
            )
            return
        rt.timer = None
        draft, rt.draft = rt.draft, None
        state = self.state
        if draft is not None and state is not None and seat in self.acting():
            try:
                preview = state.preview(seat, draft)
            except PaijuError:
                preview = None
                draft = None
            if draft is not None and not (preview and preview.get("foul")):
                self.act(seat, draft, "player")
                return
        rt.timeouts += 1
        if (
            self.options.tuoguan in ("timeout", "both")
            and not rt.bot
            and rt.timeouts >= self.options.tuoguan_after
        ):
            rt.auto = True
        self._bot_move(seat, "timeout")
        if rt.auto:
            self._refresh()

    def set_draft(self, seat: int, action: Any) -> None:
        """The player's unconfirmed arrangement (``None``: none)."""
        self.seats[seat].draft = None if action is None else self.parse_action(action)

    def _away(self, seat: int) -> None:
        rt = self.seats[seat]
        rt.away_handle = None
        if rt.client is None and not rt.bot and rt.player is not None:
            rt.auto = True
            self._cancel_timer(rt)
            self._refresh()

    # -- 申请解散: a vote to end the room (paiju.server.dissolve) ------------------------

    def ask_dissolve(self, seat: int, ref: str | int | None = None) -> None:
        """The seat's player asks to end the room: every socket is shown the request; bots
        agree at once, each other human seat has ``dissolve_time`` seconds to answer."""
        if self.status != "playing":
            raise ServerError(
                "dissolve_not_now", f"room {self.id} is {self.status}: no vote to end it", 409
            )
        if self.vote is not None or self.dissolving:
            raise ServerError(
                "dissolve_pending", f"a vote to end room {self.id} is open or agreed", 409
            )
        player = self.seats[seat].player
        assert player is not None  # a socket's seat is its player's
        now = self.loop.time()
        limits = self.hub.limits
        self.asks.check(player, now, limits.dissolve_every)
        self.asks.asked(player, now)
        seats = [(rt.player, rt.bot) for rt in self.seats]
        self.vote = open_vote(seat, player, seats, limits.dissolve_time, time.time())
        self._vote_deadline = self.clock.time() + limits.dissolve_time
        if self.vote.result is None:
            self._vote_handle = self.clock.call_later(
                limits.dissolve_time, self._safe(self.vote_expired)
            )
        self._vote_changed(ref, seat)

    def answer_dissolve(self, seat: int, agree: bool, ref: str | int | None = None) -> None:
        """A seat's answer to the open vote; every socket is shown it."""
        vote = self.vote
        if vote is None:
            raise ServerError("no_dissolve_vote", f"no vote to end room {self.id} is open", 409)
        vote.answer(seat, agree)
        self._vote_changed(ref, seat)

    def vote_expired(self) -> None:
        """The time to answer is up: the seats not heard from agree."""
        self._vote_handle = None
        vote = self.vote
        if vote is not None:
            vote.expire()
            self._vote_changed(None, None)

    def _vote_changed(self, ref: str | int | None, seat: int | None) -> None:
        """Show the vote as it stands (the message ``id`` ``ref`` to the socket of the
        ``seat`` that sent it); once decided, keep its record and, agreed, end the room
        (now, or after the hand in play)."""
        vote = self.vote
        assert vote is not None
        ends: Literal["now", "after_hand"] | None = None
        if vote.result is not None:
            self._cancel_vote()
            self.votes.append(vote.record())
            if vote.result == "agreed":
                self.dissolving = True
                ends = "now" if self._hand_done() else "after_hand"
        remaining = None
        if vote.result is None:
            remaining = round(max(0.0, self._vote_deadline - self.clock.time()), 3)
        msg = self._shown(vote.record(), ends).model_copy(
            update={"limit": vote.limit, "remaining": remaining}
        )
        self.vote_shown = msg if vote.result != "refused" else None
        text = msg.model_dump_json()
        for client in self.clients():
            if ref is not None and seat is not None and client.seat == seat:
                client.send(msg.model_copy(update={"id": ref}))
            else:
                client.send(text)
        if vote.result is not None:
            self._store_votes()
        if ends is not None:
            self._end_by_vote()

    def _shown(
        self, record: dict[str, Any], ends: Literal["now", "after_hand"] | None
    ) -> DissolveMsg:
        """The ``dissolve`` message of a vote's record."""
        player = int(record["player"])
        name = self.names.get(player)
        if name is None:
            name = self.store.player_names([player]).get(player)
        return DissolveMsg(
            room=self.id,
            seat=record["seat"],
            name=name,
            answers=record["answers"],
            limit=self.hub.limits.dissolve_time,
            remaining=None,
            result=record["result"],
            ends=ends,
        )

    def _store_votes(self, finished: bool = False) -> None:
        """Store the votes' records with the room's context (and, ``finished``, its end)
        once no write of the room is in flight: a hand's settlement, which writes the
        context too, is never overtaken by an older one."""
        if self._busy():
            again = functools.partial(self._store_votes, finished)
            self.hub.journal.after(self, self._safe(again))
            return
        if self.status != ("finished" if finished else "playing"):
            return  # the end of the room stored them (or it was closed)
        write = VotesWrite(self.id, {**self.context, VOTES_KEY: list(self.votes)}, finished)
        self.hub.journal.add(self, write, _stored, self._votes_not_stored)

    def _hand_done(self) -> bool:
        """No hand is in play (before the first deal, between hands)."""
        return self.state is None or (not self.acting() and not self._busy())

    def _cancel_vote(self) -> None:
        if self._vote_handle is not None:
            self._vote_handle.cancel()
            self._vote_handle = None
        self.vote = None

    def _end_by_vote(self) -> None:
        """The players agreed to end the room: a hand in play ends it with its settlement
        (:meth:`_ending`); else it is finished now, its votes stored, the last result
        shown as the last and the 总结算 sent."""
        if self._busy():
            self.hub.journal.after(self, self._safe(self._end_by_vote))
            return
        if self.status != "playing" or not self._hand_done():
            return
        if self.next_hand is not None:
            self.next_hand.cancel()
            self.next_hand = None
        self.seeding = False
        self.status = "finished"
        self.waiting.clear()
        for rt in self.seats:
            self._cancel_timer(rt)
            self._cancel_bot(rt)
        self._store_votes(finished=True)
        self.vote_shown = None
        if self.over is not None:
            self.over = self.over.model_copy(
                update={"room_finished": True, "next_commitment": None, "waiting": []}
            )
            shown = self.over.model_copy(update={"next_hand_in": None}).model_dump_json()
            for client in self.clients():
                client.send(shown)
        self.announce()
        self.send_summary()
        self.hub.finished(self)

    def _votes_not_stored(self, exc: BaseException) -> None:
        """The votes were not stored: the next hand's settlement stores them; a room ended
        between hands stays playing in the database and is taken up after a restart,
        where its stored agreement (if any) ends it."""
        log.error("room %s: could not store its votes to end it: %r", self.id, exc)

    # -- sockets ----------------------------------------------------------------------

    def clients(self) -> list[Peer]:
        out = [s.client for s in self.seats if s.client is not None]
        out.extend(self.spectators)
        return out

    def timers(self) -> list[dict[str, Any]]:
        """The running decision clocks, as the JSON of :class:`~paiju.server.messages.Timer`."""
        now = self.clock.time()
        limit = self.time_limit
        out = [
            {"seat": i, "limit": limit, "remaining": round(max(0.0, s.deadline - now), 3)}
            for i, s in enumerate(self.seats)
            if s.timer is not None
        ]
        window = self.window
        if window is not None:  # one clock for the window, each seat seeing its own
            left = round(max(0.0, window.deadline - now), 3)
            ext = window.extended
            out.extend(
                {"seat": i, "limit": window.limit, "remaining": left}
                if i not in window.claimers or ext is None
                else {
                    "seat": i,
                    "limit": self.options.claim_time,
                    "remaining": round(max(0.0, ext - now), 3),
                }
                for i in sorted(self.acting())
                if i not in window.kept
            )
        return out

    def attach(self, client: Peer) -> None:
        """Seat the socket (its player's seat) or make it a spectator; send the welcome and
        the state. Only the joining socket is sent the state, unless the seat's control
        changed (its player is back): a socket joining never makes the room re-send the
        full state to every other socket."""
        self.settle_writes()
        seat = self.seat_of(client.player.id)
        before = self.control()
        if seat is None:
            if not self.options.spectators:
                raise ServerError(
                    "spectators_off", f"room {self.id} does not allow spectators", 403
                )
            self.spectators.add(client)
        else:
            rt = self.seats[seat]
            if rt.client is not None and rt.client is not client:
                rt.client.error("replaced", "another socket took this seat")
                rt.client.close(4409, "replaced")
            rt.client = client
            rt.left = False  # 回到座位: back before the hand ended
            if rt.away_handle is not None:
                rt.away_handle.cancel()
                rt.away_handle = None
            rt.away_since = None
        client.seat = seat
        client.send(
            Welcome(
                room=self.info(),
                player=client.player.id,
                name=client.player.name,
                seat=seat,
                limits=self.hub.limits.model_dump(),
            )
        )
        if self.state is not None:
            client.send(self.hand_started())
        elif self.deal_delayed:
            self._tell_delayed(client)
        if seat is not None and self.seats[seat].auto:
            self.resume(seat)  # the player is back: the seat is theirs again
        elif self.control() != before or self.unsure:
            # the seat is played again: everyone sees its control change; or the state in
            # memory may hold an action the database did not store: the refresh waits for
            # the stored hand to be read back, then sends every socket its state
            self._refresh()
        else:
            self._schedule()
            if self.state is None:
                client.send(RoomMsg(room=self.info()))
            else:
                client.send(self._states([client])[0])
        shown = self.result_now()
        if shown is not None and self.next_hand is not None:
            # between hands: the result again, with the time left and whose 继续 is awaited
            client.send(shown)
        if self.vote_shown is None and self.dissolving and self.status == "playing":
            self.vote_shown = self._shown(self.votes[-1], "after_hand")  # agreed before a restart
        if self.vote_shown is not None and self.status == "playing":
            vote = self.vote
            remaining = None
            if vote is not None and vote.result is None:
                remaining = round(max(0.0, self._vote_deadline - self.clock.time()), 3)
            client.send(self.vote_shown.model_copy(update={"remaining": remaining, "id": None}))
        if self.status == "finished":
            if self.over is not None:
                client.send(self.over)
            client.send(self.match_summary())

    def detach(self, client: Peer) -> None:
        self.spectators.discard(client)
        seat = client.seat
        if seat is None:
            return  # a spectator leaving changes nothing anyone sees
        rt = self.seats[seat]
        if rt.client is not client:
            return
        rt.client = None
        rt.away_since = time.time()
        # (a disconnected seat stays in ``waiting``: its player may come back and tap 继续)
        if self.options.tuoguan in ("disconnect", "both") and self.status == "playing":
            rt.away_handle = self.loop.call_later(
                self.options.reconnect_grace, self._safe(lambda: self._away(seat))
            )
        self._refresh()

    def await_players(self) -> None:
        """After a restart no player is connected yet: each gets the reconnect grace."""
        if self.options.tuoguan not in ("disconnect", "both"):
            return
        for seat, rt in enumerate(self.seats):
            if not rt.bot and rt.player is not None and rt.client is None:
                rt.away_since = time.time()
                rt.away_handle = self.loop.call_later(
                    self.options.reconnect_grace, self._safe(functools.partial(self._away, seat))
                )

    def resume(self, seat: int) -> None:
        rt = self.seats[seat]
        rt.timeouts = 0
        rt.left = False
        if rt.auto:
            rt.auto = False
            self._cancel_bot(rt)
        self._refresh()

    def state_for(self, client: Peer, ref: str | int | None = None) -> str | None:
        """The ``state`` message (JSON text) for a socket: its seat's full view now.
        Refused while the room reads its stored hand back (the state in memory may hold
        an action that was not stored): every socket is sent its state once it is read."""
        self.settle_writes()
        if self.state is None:
            return None
        if self.unsure:
            self._refresh()  # waits for the read, then sends every socket its state
            raise ServerError(
                "storage_failure",
                "the room waits for the database; its state follows once it is read",
                503,
            )
        return self._states([client], ref)[0]

    def _states(self, clients: list[Peer], ref: str | int | None = None) -> list[str]:
        """``state`` messages (JSON text) for these sockets (:func:`fanout.state_texts`)."""
        state = self.state
        assert state is not None
        head = {
            "type": "state",
            "room": self.id,
            "game": self.hand_id,
            "version": len(state.history),
        }
        seats = [client.seat for client in clients]
        window = self.window
        kept = (
            {seat: k.action for seat, k in window.kept.items()}
            if window is not None and window.hand_id == self.hand_id
            else None
        )
        return state_texts(
            state, head, seats, self.timers(), self.control(), self.acting(), ref, kept
        )

    def legal(self, seat: int | None) -> list[dict[str, Any]] | None:
        """The seat's legal actions (JSON) when it is to act and the game lists them."""
        state = self.state
        return None if state is None else legal_json(state, seat, self.acting())

    def announce(self) -> None:
        """Send every socket of the room its :class:`RoomInfo` (a ``room`` message)."""
        clients = self.clients()
        if clients:
            text = RoomMsg(room=self.info()).model_dump_json()
            for client in clients:
                client.send(text)

    def _refresh(self) -> None:
        """Re-arm bots and timers, then send every socket its full state (before the
        first deal: the room's info, which is all there is to see); after the commit of
        an action in flight, which sends its own update; after the stored hand is read
        back, if a write failed."""
        if self.unsure:
            self._refresh_unsure = True
            return
        if self._busy():
            if not self._refresh_after:
                self._refresh_after = True
                self.hub.journal.after(self, self._safe(self._refreshed_later))
            return
        self._schedule()
        if self.state is None:
            self.announce()
            return
        clients = self.clients()
        for client, text in zip(clients, self._states(clients), strict=True):
            client.send(text)

    def _refreshed_later(self) -> None:
        self._refresh_after = False
        self._refresh()

    def _broadcast(
        self,
        actor_seat: int,
        actor: Literal["player", "bot", "timeout"],
        events: list[Event],
        ref: str | int | None,
        within: bool = False,
    ) -> None:
        """Send every socket the ``update`` of an accepted (and stored) action: its seat's
        view, once computed and serialised per seat (spectators share one text). A decision
        of a hidden window (``within``) names its seat to that seat only, and while the
        window stays open only that seat is sent its update."""
        state = self.state
        assert state is not None
        self._schedule()
        head = {
            "type": "update",
            "room": self.id,
            "game": self.hand_id,
            "version": len(state.history),
            "seat": actor_seat,
            "actor": actor,
        }
        clients = self.clients()
        texts = update_texts(
            state,
            head,
            [client.seat for client in clients],
            events,
            actor_seat,
            actor,
            ref,
            self.timers(),
            self.control(),
            self.acting(),
            within,
        )
        for client, text in zip(clients, texts, strict=True):
            if text is not None:
                client.send(text)

    # -- what a socket asks (paiju.server.inbox reads its messages) ---------------------

    def parse_action(self, action: Any) -> Action:
        """An action of this room's game from its JSON form (``ProtocolError`` if bad)."""
        try:
            return self.game.parse_action(action)
        except PaijuError:
            raise
        except Exception as exc:  # a family's parser raising something else
            raise ProtocolError(f"bad action: {exc}") from None

    def player_acts(self, seat: int, action: Action, ref: str | int | None) -> None:
        """A seated player's own action, played as :meth:`act` plays it; once it is
        accepted the seat leaves 托管 and its timeouts are forgotten (a refused action
        changes nothing: 托管 and the bot's pending move stay)."""
        rt = self.seats[seat]
        self.act(seat, action, "player", ref)
        if rt.auto:
            rt.auto = False
            self._cancel_bot(rt)
        rt.timeouts = 0

    def result_now(self) -> HandOver | None:
        """The last hand's result as it is shown now (``None``: none is), with the seconds
        left until the next deal (``None`` when no deal is waiting)."""
        if self.over is None:
            return None
        if self.next_hand is None:
            return self.over.model_copy(update={"next_hand_in": None})
        left = max(0.0, self._hand_at - self.loop.time())
        return self.over.model_copy(update={"next_hand_in": round(left, 1)})


def _stored() -> None:
    """Nothing to do once a room's seats are stored."""
