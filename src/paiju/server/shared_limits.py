"""The server's limits (:class:`~paiju.server.options.Limits`) counted where they hold.

:class:`Guard` is what the app asks before it admits a registration, a socket, a room, an
invite-code lookup or a message. A single server counts in its own memory (:class:`Guard`
itself, the :class:`~paiju.server.hub.Hub`'s counters, exactly as before). A cluster node
(``paiju serve --redis``) counts with every other node (:class:`SharedGuard`):

* **messages** - one token bucket per player in Redis (a hash of its tokens and the time of
  its last refill, taken atomically by a small Lua script timed by the Redis server's own
  clock): a player's messages through every node and socket share one rate and one burst.
  The node's own bucket of the player is checked first: it has at least the tokens of the
  shared one (it sees a part of the same messages), so a flood through one node is refused
  there without asking Redis; the messages of one event-loop turn (of every socket of
  the node) ask Redis together, in one script call: one command, one round trip. While a
  player's shared bucket is more than half full, a node takes a few tokens more than it
  was asked for (:attr:`SharedGuard.chunk` at most) and admits the player's next messages
  with them, without asking Redis again, for up to :data:`HOLD_SECONDS`: a player at a
  human pace costs one Redis call every few messages. Below half, every message asks, so
  a burst across nodes is refused exactly where its tokens run out; tokens a node took
  and did not use (at most ``chunk - 1`` a player a node, for at most a second) only ever
  refuse a message early, never admit one more;
* **invite-code lookups** - one token bucket per player and one per address in Redis
  (the rate and burst of the hub's own), both taken by one script, or neither when one
  is empty: a player, or an address, trying codes through every node has one budget;
* **registrations per address per hour** - one sorted set of registration times per address
  in Redis, checked and added to atomically (a sliding hour);
* **sockets per player and per address** - each node counts its own sockets in a hash of
  its own (``paiju:limits:sockets:NODE``) that expires unless the node renews it, and a new
  socket is admitted by a script summing the hashes of the live nodes (those whose presence
  has not expired): a killed node's sockets stop counting once its presence expires (a few
  seconds) and its hash expires soon after; a node writes its hash again from its own
  counts when the hash expired or Redis answers again after an outage;
* **open rooms per player, rooms of bots only per player** - counted in the shared
  database, which every node writes and which knows them exactly (a room's owner, its
  seats, its status), whichever node plays the room and after any takeover;
* **open rooms per address** - a room's creating address is not in the database (nor in a
  room recovered after a restart), so each address has a set of its rooms' ids in Redis;
  the check drops the ids the database no longer shows open and counts the rest.

When Redis does not answer, a node falls back to its own counts (the limits hold per
node, as on a single server) and logs it once; the database counts need no Redis.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import math
import time
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, exists, func, not_, or_, select

from paiju.server import tables as t
from paiju.server.client import Bucket
from paiju.server.errors import ServerError
from paiju.server.hub import Guard, Hub, lookup_buckets, lookup_rate, too_many_lookups

if TYPE_CHECKING:
    from redis.asyncio import Redis
    from redis.commands.core import AsyncScript

    from paiju.server.cluster import Cluster
    from paiju.server.options import RoomOptions

__all__ = ["HOLD_SECONDS", "RETRY_REDIS", "TOKEN_CACHE_SECONDS", "Admitted", "Guard", "SharedGuard"]

log = logging.getLogger("paiju.server")

RETRY_REDIS = 1.0
"""Seconds a node counts on its own after Redis failed before it asks Redis again."""

TOKEN_CACHE_SECONDS = 2.0
"""How long a cluster node trusts its cache of a bearer token: a token rotated through
another node stops working here within this time (a single server, which sees every
rotation itself, caches tokens until they expire)."""

HOLD_SECONDS = 1.0
"""How long a node keeps the tokens it took from a player's shared bucket beyond what it
was asked for: a message after that asks Redis again (the tokens left are dropped)."""

STOP_SECONDS = 2.0
"""How long each step of a node's goodbye to Redis may take before it is given up."""

_PREFIX = "paiju:limits"

_REFILL = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local function refilled(key, rate, burst)
  local v = redis.call('HMGET', key, 'tokens', 'stamp')
  local tokens, stamp = tonumber(v[1]), tonumber(v[2])
  if tokens == nil or stamp == nil then tokens, stamp = burst, now end
  return math.min(burst, tokens + math.max(0, now - stamp) * rate)
end
local function keep(key, tokens, ttl)
  redis.call('HSET', key, 'tokens', string.format('%.6f', tokens),
             'stamp', string.format('%.6f', now))
  redis.call('PEXPIRE', key, ttl)
end
"""
"""What the bucket scripts share: the Redis server's time, a bucket's tokens refilled up
to now (a missing bucket is a full one), and a bucket kept with its time of refill."""

_TAKE = (
    _REFILL
    + """
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local granted = {}
for i = 1, #KEYS do
  local tokens = refilled(KEYS[i], rate, burst)
  local asked, extra = tonumber(ARGV[2 * i + 2]), tonumber(ARGV[2 * i + 3])
  local g = math.min(asked, math.floor(tokens))
  if g == asked then
    g = g + math.max(0, math.min(extra, math.floor(tokens - asked - burst / 2)))
  end
  granted[i] = g
  keep(KEYS[i], tokens - g, ARGV[3])
end
return granted
"""
)
"""Token buckets of one rate and burst, one a key (the keys are distinct): ARGV holds the
rate, the burst and the keys' lifetime in ms, then for each key the tokens asked for and
the extra tokens wanted besides. A key's grant is the tokens asked for, or as many as it
has; and when all were granted, as many of the extra as leave the bucket at least half
full. A key expires once its bucket would be full again (a missing bucket is a full one)."""

_BUCKETS = (
    _REFILL
    + """
local tokens = {}
for i = 1, #KEYS do
  local left = refilled(KEYS[i], tonumber(ARGV[3 * i - 2]), tonumber(ARGV[3 * i - 1]))
  if left < 1 then return i end
  tokens[i] = left - 1
end
for i = 1, #KEYS do keep(KEYS[i], tokens[i], ARGV[3 * i]) end
return 0
"""
)
"""Token buckets taken together: a token from each (0), or from none when one is empty
(the number of the first empty one, from 1). ARGV holds each key's rate, burst and
lifetime in ms (the time to refill it, and a second)."""

_WINDOW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local limit, window = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= limit then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return math.ceil(tonumber(oldest[2]) + window - now)
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('EXPIRE', KEYS[1], math.ceil(window) + 1)
return -1
"""
"""A sliding window: -1 if the event was counted, else the seconds until one may be."""

_SOCKET = """
local function total(field)
  local sum = 0
  for i = 1, #KEYS do sum = sum + (tonumber(redis.call('HGET', KEYS[i], field)) or 0) end
  return sum
end
if total(ARGV[1]) >= tonumber(ARGV[2]) then return 1 end
if ARGV[3] ~= '' and total(ARGV[3]) >= tonumber(ARGV[4]) then return 2 end
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
if ARGV[3] ~= '' then redis.call('HINCRBY', KEYS[1], ARGV[3], 1) end
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 0
"""
"""Admit a socket: KEYS[1] is this node's hash, the others the live nodes'; 0 if counted,
1 if the player has its limit of sockets, 2 if the address has."""

_UNSOCKET = """
for i = 1, #ARGV do
  if redis.call('HINCRBY', KEYS[1], ARGV[i], -1) <= 0 then redis.call('HDEL', KEYS[1], ARGV[i]) end
end
return 0
"""


class Admitted(Bucket):
    """The bucket of a socket whose messages were admitted before they reached the room
    (by the shared bucket): the room takes no second token."""

    def __init__(self) -> None:
        super().__init__(1.0, 1)

    def take(self) -> bool:
        return True


class SharedGuard(Guard):
    """The limits of a cluster node, counted with every other node (see the module)."""

    shared = True

    def __init__(self, hub: Hub, cluster: Cluster) -> None:
        super().__init__(hub)
        self.cluster = cluster
        self.node = cluster.config.name
        self.redis: Redis | None = None
        self._socket_key = f"{_PREFIX}:sockets:{self.node}"
        self._socket_ttl_ms = int(max(10.0, 3 * cluster.config.lease_ttl) * 1000)
        limits = self.limits
        self._bucket_ttl_ms = int(math.ceil(limits.burst / limits.messages_per_second) * 1000)
        self._bucket_ttl_ms += 1000
        self.chunk = max(1, min(8, limits.burst // 5))
        """The most tokens a node takes from a player's shared bucket at once."""
        self._held: dict[int, tuple[int, float]] = {}
        """The tokens this node took for a player and has not used, and when it took them."""
        self._task: asyncio.Task[None] | None = None
        self._down = False
        self._retry_at = 0.0
        self._scripts: dict[str, AsyncScript] = {}
        self._asks: list[tuple[int, asyncio.Future[bool]]] = []
        """Messages waiting for the shared bucket's verdict (sent together)."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._opening: collections.Counter[str] = collections.Counter()
        """The fields of this node's hash a socket being admitted is adding to."""
        self._rewrite = False
        """Whether this node's hash is to be written again from its own counts (Redis
        answers again: sockets opened and closed meanwhile were not counted there)."""

    async def start(self) -> None:
        import redis.asyncio as aioredis
        from redis.maint_notifications import MaintNotificationsConfig

        pool = aioredis.BlockingConnectionPool.from_url(
            self.cluster.config.redis_url,
            max_connections=32,
            timeout=1.0,
            socket_timeout=1.0,
            socket_connect_timeout=1.0,
            # a connection opens with no command but AUTH and SELECT: the client's name
            # (CLIENT SETINFO, Redis 7.2) and a managed service's maintenance notices are
            # not asked for; a Redis of Debian's 7.0 refused both, three round trips and
            # three errors a connection
            driver_info=None,
            maint_notifications_config=MaintNotificationsConfig(enabled=False),
        )
        self.redis = aioredis.Redis(connection_pool=pool)
        for name, source in (
            ("take", _TAKE),
            ("buckets", _BUCKETS),
            ("window", _WINDOW),
            ("socket", _SOCKET),
            ("unsocket", _UNSOCKET),
        ):
            self._scripts[name] = self.redis.register_script(source)
        self._task = asyncio.create_task(self._renew())

    async def stop(self) -> None:
        """Stop renewing and forget this node's sockets in Redis; each step is bounded
        (:data:`STOP_SECONDS`), so a Redis that hangs never holds up a node's shutdown."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._task, STOP_SECONDS)
        if self.redis is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.redis.delete(self._socket_key), STOP_SECONDS)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.redis.aclose(), STOP_SECONDS)

    def _resting(self) -> bool:
        """Whether Redis failed less than :data:`RETRY_REDIS` seconds ago: it is not asked
        again before (a Redis away costs no call a connection timeout)."""
        return self._down and time.monotonic() < self._retry_at

    async def _run(self, script: str, keys: list[str], args: list[Any]) -> Any:
        """Run one of the scripts; raises :class:`_RedisAway` when Redis does not answer."""
        if self._resting():
            raise _RedisAway
        try:
            answer = await self._scripts[script](keys=keys, args=args)
        except Exception as exc:
            self._away(exc)
            raise _RedisAway from exc
        self._answered()
        return answer

    def _away(self, exc: BaseException) -> None:
        self._retry_at = time.monotonic() + RETRY_REDIS
        if not self._down:
            log.error(
                "node %s: Redis does not answer (%r): the limits are counted on this node"
                " alone until it does",
                self.node,
                exc,
            )
        self._down = True

    def _answered(self) -> None:
        if self._down:
            log.warning("node %s: Redis answers again: the limits are the cluster's", self.node)
            self._rewrite = True
        self._down = False

    async def _renew(self) -> None:
        """Keep this node's socket counts alive; if they expired (Redis restarted, or the
        node was held up past their lifetime), write them again from this node's own."""
        every = self.cluster.config.renew_every
        while True:
            await asyncio.sleep(every)
            self._drop_stale()
            redis = self.redis
            assert redis is not None
            try:
                alive = await redis.pexpire(self._socket_key, self._socket_ttl_ms)
                if not alive or self._rewrite:
                    self._rewrite = False
                    await self._write_sockets(redis)
            except Exception as exc:
                log.debug("node %s: socket counts not renewed: %r", self.node, exc)

    async def _write_sockets(self, redis: Redis) -> None:
        """This node's hash, written again from its own counts (less the sockets whose
        admission is in flight: those add themselves; at worst a socket is not counted
        until it closes, never counted twice)."""
        counts = collections.Counter({f"p:{p}": n for p, n in self.hub.sockets.items()})
        counts.update({f"a:{a}": n for a, n in self.hub.address_sockets.items()})
        counts.subtract(self._opening)
        kept = {k: n for k, n in counts.items() if n > 0}
        async with redis.pipeline(transaction=True) as pipe:
            pipe.delete(self._socket_key)
            if kept:
                pipe.hset(self._socket_key, mapping=kept)  # type: ignore[arg-type]
                pipe.pexpire(self._socket_key, self._socket_ttl_ms)
            await pipe.execute()

    # -- messages ------------------------------------------------------------------------

    def admit_now(self, player: int) -> bool | None:
        local = self.hub.bucket(player)
        if not local.take():
            return False  # the shared bucket has no more tokens than this node's
        held = self._held.get(player)
        if held is not None:
            tokens, taken = held
            if time.monotonic() - taken < HOLD_SECONDS:
                if tokens > 1:
                    self._held[player] = (tokens - 1, taken)
                else:
                    del self._held[player]
                return True
            del self._held[player]
        return None

    async def ask(self, player: int) -> bool:
        """Redis's answer for a message whose node token :meth:`admit_now` took."""
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        if not self._asks:
            asyncio.get_running_loop().call_soon(self._send_asks)
        self._asks.append((player, future))
        if not await future:
            # the token stays this node's: its bucket still bounds the shared one
            self.hub.bucket(player).give_back()
            return False
        return True

    def _send_asks(self) -> None:
        """The messages of one event-loop turn (of every socket) ask Redis together: one
        script call, one round trip."""
        asks, self._asks = self._asks, []
        if asks:
            task = asyncio.create_task(self._ask(asks))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _ask(self, asks: list[tuple[int, asyncio.Future[bool]]]) -> None:
        """One script call for the messages of an event-loop turn, each player's bucket in
        it once (one command: no pipeline, no script check before it); what a player was
        granted beyond its messages is held for its next ones."""
        limits = self.limits
        waiting: dict[int, list[asyncio.Future[bool]]] = {}
        for player, future in asks:
            waiting.setdefault(player, []).append(future)
        keys = [f"{_PREFIX}:bucket:{player}" for player in waiting]
        args: list[Any] = [limits.messages_per_second, limits.burst, self._bucket_ttl_ms]
        for futures in waiting.values():
            args += [len(futures), max(0, self.chunk - len(futures))]
        granted: list[int]
        try:
            granted = [int(g) for g in await self._run("take", keys, args)]
        except _RedisAway:
            granted = [len(f) for f in waiting.values()]  # this node's buckets had tokens
        now = time.monotonic()
        for (player, futures), tokens in zip(waiting.items(), granted, strict=True):
            for i, future in enumerate(futures):
                if not future.done():
                    future.set_result(i < tokens)
            if tokens > len(futures):
                kept, taken = self._held.get(player, (0, now))  # asked again meanwhile
                kept *= now - taken < HOLD_SECONDS
                self._held[player] = (kept + tokens - len(futures), now)

    def _drop_stale(self) -> None:
        """Forget the tokens held longer than :data:`HOLD_SECONDS` (unused, they refuse
        nothing for long: the shared bucket refills)."""
        now = time.monotonic()
        stale = [p for p, (_, taken) in self._held.items() if now - taken >= HOLD_SECONDS]
        for player in stale:
            del self._held[player]

    # -- invite-code lookups ------------------------------------------------------------

    async def invite_lookup(self, player: int, address: str | None) -> None:
        buckets = lookup_buckets(self.limits, player, address)
        args: list[Any] = []
        for _, _, per_minute in buckets:
            rate, burst = lookup_rate(per_minute)
            args += [rate, burst, int(math.ceil(burst / rate) * 1000) + 1000]
        keys = [f"{_PREFIX}:lookups:{whose}:{key}" for whose, key, _ in buckets]
        try:
            empty = int(await self._run("buckets", keys, args))
        except _RedisAway:
            self.hub.invite_lookup(player, address)
            return
        if empty:
            whose, _, per_minute = buckets[empty - 1]
            raise too_many_lookups(whose, per_minute)

    # -- registrations -------------------------------------------------------------------

    async def registering(self, address: str | None) -> None:
        if address is None:
            return
        limit = self.limits.registrations_per_address
        try:
            wait = await self._run(
                "window",
                [f"{_PREFIX}:registrations:{address}"],
                [limit, 3600, _unique()],
            )
        except _RedisAway:
            self.hub.registering(address)
            return
        if int(wait) >= 0:
            raise ServerError(
                "too_many_registrations",
                f"{limit} players were registered from your address in the last hour"
                f" (the limit); try again in {max(1, int(wait))} s",
                429,
            )

    # -- sockets -------------------------------------------------------------------------

    def _socket_keys(self) -> list[str]:
        others = sorted(n for n in self.cluster.nodes if n != self.node)
        return [self._socket_key, *(f"{_PREFIX}:sockets:{n}" for n in others)]

    async def open_socket(self, player: int, address: str | None) -> None:
        self.hub.open_socket(player, address)  # this node's own count first: it is a part
        limits = self.limits
        fields = [f"p:{player}"] + ([] if address is None else [f"a:{address}"])
        self._opening.update(fields)
        try:
            refused = await self._run(
                "socket",
                self._socket_keys(),
                [
                    f"p:{player}",
                    limits.sockets_per_player,
                    "" if address is None else f"a:{address}",
                    limits.sockets_per_address,
                    self._socket_ttl_ms,
                ],
            )
        except _RedisAway:
            return
        finally:
            self._opening.subtract(fields)
            for field in fields:
                if self._opening[field] <= 0:
                    del self._opening[field]
        if refused:
            self.hub.close_socket(player, address)
            if refused == 1:
                raise ServerError(
                    "too_many_sockets",
                    f"this player already has {limits.sockets_per_player} open sockets (the limit)",
                    429,
                )
            raise ServerError(
                "too_many_sockets",
                f"your address already has {limits.sockets_per_address} open sockets (the limit)",
                429,
            )

    async def close_socket(self, player: int, address: str | None) -> None:
        self.hub.close_socket(player, address)
        fields = [f"p:{player}"] + ([] if address is None else [f"a:{address}"])
        with contextlib.suppress(_RedisAway):
            await self._run("unsocket", [self._socket_key], fields)

    # -- rooms ---------------------------------------------------------------------------

    async def check_rooms(
        self,
        player: int,
        address: str | None,
        code: str,
        options: RoomOptions,
        game_options: dict[str, Any],
        seat: int | None,
    ) -> None:
        limits = self.limits
        self._check_player_rooms(player)
        if (
            _bots_only(code, options, game_options, seat)
            and self._bot_rooms(player) >= limits.bot_rooms_per_player
        ):
            raise ServerError(
                "too_many_bot_rooms",
                f"you already have {limits.bot_rooms_per_player} open rooms of bots only"
                " (the limit); close one first",
                429,
            )
        if address is not None and await self._address_rooms(address) >= limits.rooms_per_address:
            raise ServerError(
                "too_many_rooms_address",
                f"{limits.rooms_per_address} open rooms were created from your address"
                " (the limit); wait until some finish",
                429,
            )

    async def check_join(self, player: int) -> None:
        self._check_player_rooms(player)

    @contextlib.asynccontextmanager
    async def serial(self, player: int) -> AsyncIterator[None]:
        """The cluster's lock of ``player`` (a Redis lock, redis-py's ``Lock``) around a room
        creation or join: calls through two nodes at once are checked one after the other.
        With Redis away, the node's own counts stand (as for every limit)."""
        redis = self.redis
        lock = None
        if redis is not None and not self._resting():
            lock = redis.lock(f"{_PREFIX}:serial:{player}", timeout=10, blocking_timeout=5)
            try:
                got = await lock.acquire()
            except Exception as exc:
                self._away(exc)
                lock = None
            else:
                if not got:
                    raise ServerError(
                        "busy",
                        "another room request of yours is still being handled; try again",
                        429,
                    )
        try:
            yield
        finally:
            if lock is not None:
                with contextlib.suppress(Exception):
                    await lock.release()

    def created(self, room_id: int, address: str | None) -> None:
        if address is None or self.redis is None:
            return
        task = asyncio.get_running_loop().create_task(self._add_room(room_id, address))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _add_room(self, room_id: int, address: str) -> None:
        assert self.redis is not None
        key = f"{_PREFIX}:rooms:{address}"
        with contextlib.suppress(Exception):
            async with self.redis.pipeline(transaction=True) as pipe:
                pipe.sadd(key, room_id)
                pipe.expire(key, 7 * 86_400)
                await pipe.execute()

    def _check_player_rooms(self, player: int) -> None:
        limit = self.limits.rooms_per_player
        if self._player_rooms(player) >= limit:
            raise ServerError(
                "too_many_rooms",
                f"you already have {limit} open rooms (the limit); finish or leave one first",
                429,
            )

    def _player_rooms(self, player: int) -> int:
        """Open rooms the player owns or sits in (a seat of its own, not a bot's)."""
        seated = exists().where(
            t.room_seats.c.room_id == t.rooms.c.id,
            t.room_seats.c.player_id == player,
            not_(t.room_seats.c.is_bot),
        )
        query = (
            select(func.count())
            .select_from(t.rooms)
            .where(_open(), or_(t.rooms.c.owner_id == player, seated))
        )
        with self.hub.store.engine.connect() as conn:
            return int(conn.execute(query).scalar() or 0)

    def _bot_rooms(self, player: int) -> int:
        """Open rooms the player created in which bots take every seat."""
        human = exists().where(
            t.room_seats.c.room_id == t.rooms.c.id,
            or_(not_(t.room_seats.c.is_bot), t.room_seats.c.player_id.is_not(None)),
        )
        query = (
            select(func.count())
            .select_from(t.rooms)
            .where(and_(_open(), t.rooms.c.owner_id == player, not_(human)))
        )
        with self.hub.store.engine.connect() as conn:
            return int(conn.execute(query).scalar() or 0)

    async def _address_rooms(self, address: str) -> int:
        """Open rooms created from ``address`` (through any node)."""
        redis = self.redis
        key = f"{_PREFIX}:rooms:{address}"
        try:
            assert redis is not None
            if self._resting():
                raise _RedisAway
            members = await redis.smembers(key)
        except Exception:
            return sum(1 for r in self.hub.rooms.values() if r.address == address and r.open)
        ids = [int(m) for m in members]
        if not ids:
            return 0
        query = select(t.rooms.c.id).where(t.rooms.c.id.in_(ids), _open())
        with self.hub.store.engine.connect() as conn:
            still = {int(r) for r in conn.execute(query).scalars()}
        over = [i for i in ids if i not in still]
        if over:
            with contextlib.suppress(Exception):
                await redis.srem(key, *over)
        return len(still)


def _bots_only(
    code: str, options: RoomOptions, game_options: dict[str, Any], seat: int | None
) -> bool:
    """Whether the room asked for would have bots in every seat (a room the hub refuses
    for another reason counts as not: the hub says why)."""
    if seat is not None or options.bots == 0:
        return False
    if options.seats is not None:
        return options.bots >= options.seats
    from paiju.games import game as make_game

    try:
        return options.bots >= make_game(code, **game_options).default_seats
    except Exception:
        return False


def _open() -> Any:
    return t.rooms.c.status.in_(("waiting", "playing"))


class _RedisAway(Exception):
    """Redis did not answer: count on this node alone."""


def _unique() -> str:
    import secrets

    return secrets.token_hex(8)
