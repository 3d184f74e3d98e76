"""The options of a room (:class:`RoomOptions`) and the server's limits (:class:`Limits`)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from paiju.bots import LEVELS

__all__ = ["Level", "Limits", "RoomOptions", "RoomStatus", "Tuoguan"]

Tuoguan = Literal["off", "timeout", "disconnect", "both"]
Level = Literal["easy", "normal", "hard"]
RoomStatus = Literal["waiting", "playing", "finished", "closed"]
"""``closed``: stopped before its match ended (by its owner, the operator, or a storage
failure); its hand in play, if any, is void."""


class RoomOptions(BaseModel):
    """The options of a room (the game's own options go separately, to ``game(code, …)``)."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    seats: int | None = Field(None, ge=1, le=16, description="Seats (default: the game's most).")
    bots: int = Field(0, ge=0, le=16, description="How many seats (the last ones) bots take.")
    stake: int = Field(1, ge=1, le=1_000_000, description="积分 per point of settlement.")
    time_limit: float | None = Field(
        None,
        ge=0,
        le=3600,
        description="Seconds per decision; then the seat's own unconfirmed arrangement is "
        "played if it is legal, else the bot decides (0: no limit; default: the game's, "
        "75 s to arrange 十三张, 45 s for 佳佳宝, 30 s otherwise).",
    )
    tuoguan_after: int = Field(
        2,
        ge=1,
        le=100,
        description="Timeouts in a row after which the seat goes 托管 (with tuoguan "
        "'timeout' or 'both'); a decision of the player's own starts the count again.",
    )
    tuoguan: Tuoguan = Field(
        "both",
        description="托管: after a timeout ('timeout') and/or a disconnection ('disconnect') "
        "the bot keeps playing the seat until its player is back; 'off': the bot only "
        "makes the timed-out decision.",
    )
    reconnect_grace: float = Field(
        10.0, ge=0, le=3600, description="Seconds a disconnected seat waits before 托管."
    )
    bot_delay: float = Field(0.5, ge=0, le=30, description="Seconds a bot waits before acting.")
    level: Level = Field(
        "normal",
        description="The bot seats' level: 'easy' (简单), 'normal' (普通, the rule bot) or "
        "'hard' (困难, a search on sampled deals, thinking off the event loop); the Chinese "
        "names are accepted. 托管 always plays 'normal'.",
    )
    claim_window: float = Field(
        3.0,
        gt=0,
        le=60,
        description="Seconds every hidden decision window (a mahjong claim window, after "
        "every discard and 补杠) stays open, for every seat, whatever anyone holds or "
        "decides; then the decisions are played and the outcome shown to all.",
    )
    claim_time: float = Field(
        0.0,
        ge=0,
        le=60,
        description="Seconds a player's seat that can claim (吃, 碰, 杠, 胡) is given to "
        "decide: the claim window stays open past claim_window until every such seat has "
        "decided or this is up (that the table waits then shows that someone could claim). "
        "0, or no more than claim_window: every window closes at claim_window.",
    )
    pause: float = Field(
        60.0,
        ge=0,
        le=600,
        description="Seconds the result stays up before the next hand at most; the next "
        "hand comes as soon as every connected human seat has tapped 继续 (continue).",
    )
    seed_wait: float = Field(
        3.0,
        ge=0,
        le=60,
        description="Seconds the room's first deal waits, its commitment published, for "
        "the seated players' client seeds; it comes as soon as every human seat has sent "
        "one (later deals: their commitment comes with the hand before).",
    )
    ready_check: bool = Field(
        True,
        description="准备: a full room starts once every human seat is ready (or at the "
        "owner's start), not the instant its last seat is taken.",
    )
    hands: int | None = Field(
        None,
        ge=1,
        le=10_000,
        description="Exactly this many hands instead of the game's match (整局: the game "
        "option hands, 8 局 by default; 麻将 quan 圈; 打弹子 to its target).",
    )
    quick_pass: bool = Field(
        False,
        description="要不起 the quick way: a seat whose player turned auto-pass on and that "
        "can only pass shows no clock and passes after 1.2 s - faster, but every seat sees "
        "who cannot beat. Off (the default): its clock runs and its pass comes after a "
        "pause drawn as a person's, so that its turn looks like any other.",
    )
    refuse_nearby: bool = Field(
        False,
        description="防作弊: refuse a seat to a player who comes from the network address "
        "of a player seated already (同IP), or whose shared location is closer to one "
        "than the server's nearby_distance (GPS); off: the table is only told, before "
        "the first deal.",
    )
    spectators: bool = Field(True, description="Whether others may watch.")
    listed: bool = Field(
        True,
        description="Whether the public lobby lists the room (a club's tables are not "
        "listed: its members find them in the club's lobby).",
    )
    seat_levels: list[Level] | None = Field(
        None,
        min_length=1,
        max_length=16,
        description="Each seat's bot level, where the bot seats differ (a duplicate event's "
        "table of bot entrants); else every bot seat plays ``level``.",
    )
    event: int | None = Field(
        None,
        ge=1,
        description="The duplicate event (复式赛) whose table this room is: its deals are the "
        "event's (the same seeds at every table of the event, committed to as any deal; no "
        "client seed changes them), and every hand starts as a match's first.",
    )
    fill_after: float | None = Field(
        30.0,
        ge=0,
        le=86_400,
        description="Seconds after which bots take the seats still open and the room "
        "starts (null: wait for players or the owner's start).",
    )

    @field_validator("level", mode="before")
    @classmethod
    def _level_name(cls, value: object) -> object:
        return LEVELS.get(value, value) if isinstance(value, str) else value

    @field_validator("seat_levels", mode="before")
    @classmethod
    def _level_names(cls, value: object) -> object:
        if isinstance(value, list):
            return [LEVELS.get(x, x) if isinstance(x, str) else x for x in value]
        return value

    def seat_level(self, seat: int) -> str:
        """The level of the bot in ``seat``."""
        levels = self.seat_levels
        return levels[seat] if levels is not None and seat < len(levels) else self.level


class Limits(BaseModel):
    """The server's limits (docs/protocol.md, "Limits"); each exceeded limit gets its
    error code, never a dropped server. The operator changes them with ``paiju serve
    --limit NAME=VALUE``."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    # -- one socket's messages (the bucket is the player's: all its sockets share it)
    max_message_bytes: int = Field(16_384, ge=256)
    messages_per_second: float = Field(20.0, gt=0)
    burst: int = Field(40, ge=1)
    outbox: int = Field(2_000, ge=10)
    outbox_bytes: int = Field(
        262_144,
        ge=16_384,
        description="Bytes of messages a socket may leave unread (queued by the server "
        "beyond what its connection buffers); past them it is closed (4408 slow_consumer).",
    )
    hello_timeout: float = Field(10.0, gt=0)
    # -- rooms
    rooms_per_player: int = Field(20, ge=1, description="Open rooms a player owns or sits in.")
    rooms_per_address: int = Field(
        40, ge=1, description="Open rooms created from one client address."
    )
    bot_rooms_per_player: int = Field(
        2, ge=0, description="Open rooms a player created in which bots take every seat."
    )
    min_bot_delay: float = Field(
        0.5,
        ge=0,
        description="The shortest bot_delay (and time_limit other than 0) a room may set: "
        "bots play at a human pace unless the operator lowers it.",
    )
    dissolve_time: float = Field(
        60.0,
        gt=0,
        description="Seconds the other seats have to answer a request to end the room "
        "(申请解散); no answer counts as agreement.",
    )
    dissolve_every: float = Field(
        120.0, ge=0, description="Seconds between two requests of one player to end a room."
    )
    invite_lookups_per_minute: int = Field(
        30, ge=1, description="Invite-code lookups of one player a minute (burst a fifth)."
    )
    invite_lookups_per_address: int = Field(
        120, ge=1, description="Invite-code lookups from one address a minute (burst a fifth)."
    )
    nearby_distance: float = Field(
        200.0,
        ge=0,
        le=100_000,
        description="GPS距离提醒: metres under which two seated players who shared their "
        "location are told, before the first deal, that they sit close (0: never).",
    )
    # -- players
    registrations_per_address: int = Field(
        20, ge=1, description="Registrations from one client address per hour."
    )
    token_days: float = Field(90.0, gt=0, description="Days a bearer token stays valid.")
    # -- clubs (亲友圈)
    clubs_per_player: int = Field(20, ge=1, description="Clubs a player may belong to.")
    clubs_founded_per_player: int = Field(5, ge=1, description="Open clubs a player may own.")
    members_per_club: int = Field(500, ge=2, description="Members a club may have.")
    presets_per_club: int = Field(30, ge=1, description="Presets (玩法) a club may keep.")
    # -- connections
    sockets_per_player: int = Field(8, ge=1, description="Open WebSockets of one player.")
    sockets_per_address: int = Field(256, ge=1, description="Open WebSockets of one address.")
    connections_per_address: int = Field(
        512, ge=1, description="Open TCP connections (HTTP or WebSocket) of one address."
    )
    max_body_bytes: int = Field(65_536, ge=1_024, description="The largest HTTP request body.")
    header_timeout: float = Field(
        10.0, gt=0, description="Seconds a connection has to send a complete request head."
    )
    keep_alive: float = Field(5.0, gt=0, description="Seconds an idle HTTP connection is kept.")
    ws_ping_interval: float = Field(
        20.0, gt=0, description="Seconds between pings of a WebSocket (a dead peer is closed)."
    )
    ws_compression: bool = Field(
        False,
        description="Whether a WebSocket may negotiate permessage-deflate, as browsers offer:"
        " about half the traffic or less, for about 40 KiB more memory a socket (its"
        " compressor's state) and every text compressed once per socket.",
    )
    # -- heavy requests (replays, proofs, suggestions: paiju.server.heavy)
    heavy_workers: int = Field(
        1, ge=1, le=64, description="Threads that compute replays, proofs and suggestions."
    )
    heavy_queue: int = Field(
        8, ge=0, description="Such jobs that may wait for a thread; past them 503 server_busy."
    )
    heavy_per_minute: int = Field(
        60, ge=1, description="Replays, proofs and suggestions of one address a minute."
    )
    heavy_per_client: int = Field(
        2, ge=1, description="Replays, proofs and suggestions of one address under way at once."
    )
    review_workers: int = Field(
        1,
        ge=1,
        le=64,
        description="Worker processes that make 复盘 reviews (off the tables' interpreter).",
    )
    review_queue: int = Field(
        4, ge=0, description="Reviews that may wait for a process; past them 503 server_busy."
    )
    heavy_cache_bytes: int = Field(
        32 * 2**20, ge=0, description="Bytes of finished hands' replays and proofs kept."
    )
    # -- table chat (快捷语, 表情)
    chat_seconds: float = Field(
        3.0, ge=0, description="Least seconds between two chat messages of one seat."
    )
    chat_per_minute: int = Field(12, ge=1, description="Chat messages of one seat a minute.")
    chat_text_max: int = Field(
        0,
        ge=0,
        le=500,
        description="Longest free chat text; 0 (the default): phrases and emotes only.",
    )
