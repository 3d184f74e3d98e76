"""The WebSocket protocol: every message a client sends or receives, as Pydantic models.

A client connects to ``/ws/rooms/{room}`` and authenticates (``Authorization: Bearer``
header, ``?token=`` or a first :class:`Hello`); a seated player's socket then acts for
its seat, anyone else's is a spectator's. ``docs/protocol.md`` documents each message
with examples; :data:`CLIENT_MESSAGES` and :data:`SERVER_MESSAGES` are the full lists.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from paiju.fairness import CLIENT_SEED_PATTERN

__all__ = [
    "CLIENT_MESSAGES",
    "ERROR_CODES",
    "SERVER_MESSAGES",
    "ActionMsg",
    "Again",
    "AutoPass",
    "AutoPassing",
    "Chat",
    "ChatMsg",
    "ClientMessage",
    "Continue",
    "Control",
    "Dissolve",
    "DissolveMsg",
    "DissolveVote",
    "Draft",
    "Drafted",
    "ErrorMsg",
    "HandOver",
    "HandStarted",
    "Hello",
    "Location",
    "MatchInfo",
    "MatchSummaryMsg",
    "NearbyMsg",
    "NearbyPair",
    "Ping",
    "Pong",
    "Preview",
    "Ready",
    "Report",
    "Reported",
    "Resume",
    "RoomInfo",
    "StateMsg",
    "Sync",
    "Timer",
    "Update",
    "Welcome",
    "client_message",
]

Ref = str | int | None
Control = Literal["player", "away", "tuoguan", "bot", "open"]
"""Who plays a seat now: its connected player; its player, disconnected (``away``); a bot
standing in for its player (托管); a bot seat; nobody yet (``open``)."""


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid")


# ---------------------------------------------------------------- client -> server


class Hello(_Msg):
    """Authenticate a socket opened without a token (the first message)."""

    type: Literal["hello"] = "hello"
    token: str = Field(max_length=200)


class ActionMsg(_Msg):
    """Take an action for the socket's own seat. ``action`` is the game's JSON form."""

    type: Literal["action"] = "action"
    action: dict[str, Any]
    id: Ref = None
    """Echoed as ``ref`` in the answer (the actor's ``update`` or an ``error``)."""
    seat: int | None = None
    """Optional: the seat the client believes it holds; a different seat is an error."""
    game: int | None = None
    """Optional: the game (hand) id the action is for; a stale id is an error."""


class Resume(_Msg):
    """Take the seat back from the bot (托管); any action does it too."""

    type: Literal["resume"] = "resume"
    id: Ref = None


class Continue(_Msg):
    """继续: the player has seen the result; the next hand may be dealt. The next hand
    waits (up to the room's ``pause``) until every connected human seat has said so."""

    type: Literal["continue"] = "continue"
    id: Ref = None


class Again(_Msg):
    """再来一局: a seated player of a finished room asks for a new match at the same table
    (a new room with the same game, options, players and bots; ``room`` names it)."""

    type: Literal["again"] = "again"
    id: Ref = None


class Ready(_Msg):
    """准备: the player is ready to start; a full room starts once every human seat is
    ready (rooms with ``ready_check``), or at the owner's start, or after ``fill_after``."""

    type: Literal["ready"] = "ready"
    ready: bool = True
    id: Ref = None


class Draft(_Msg):
    """The arrangement the player has on the table but has not confirmed (a 十三张
    ``arrange`` action, say): if the time runs out it is played instead of the bot's
    choice, when it is legal and does not foul. ``null`` withdraws it."""

    type: Literal["draft"] = "draft"
    action: dict[str, Any] | None = None
    id: Ref = None


class Sync(_Msg):
    """Ask for the full current state again."""

    type: Literal["sync"] = "sync"
    id: Ref = None


class Ping(_Msg):
    type: Literal["ping"] = "ping"
    id: Ref = None


class ClientSeed(_Msg):
    """The seat's seed for the next deal (docs/fairness.md): send it after the room's
    ``next_commitment`` is published; the deal comes from the server seed and every
    seat's client seed. A seed counts for one deal; the last one sent before it counts."""

    type: Literal["client_seed"] = "client_seed"
    seed: str = Field(pattern=CLIENT_SEED_PATTERN)
    id: Ref = None


class AutoPass(_Msg):
    """要不起: whether the server passes for the seat whenever pass is its only legal
    action - after a pause drawn as a person's, its clock running as on any turn (a room
    with ``quick_pass``: after a short beat, no clock). Off until a client turns it on; it
    lasts while the socket's player holds the seat in this room."""

    type: Literal["auto_pass"] = "auto_pass"
    on: bool = True
    id: Ref = None


class Chat(_Msg):
    """快捷语 / 表情: one of the table's stock phrases (a code), an emote, or - where the
    operator allows it (limit ``chat_text_max``) - a short text. Seated players only."""

    type: Literal["chat"] = "chat"
    phrase: str | None = Field(None, max_length=40)
    emote: str | None = Field(None, max_length=40)
    text: str | None = Field(None, max_length=2000)
    id: Ref = None


class Report(_Msg):
    """举报: the seat's free text is abusive (logged; two reports stop its free text)."""

    type: Literal["report"] = "report"
    seat: int = Field(ge=0, le=15)
    id: Ref = None


class Dissolve(_Msg):
    """申请解散: a seated player asks to end the room. The other human seats answer with
    :class:`DissolveVote` within the limit ``dissolve_time`` (no answer counts as agreement;
    bots agree); if all agree the room ends after the hand in play, with its 总结算. One
    request per player every ``dissolve_every`` seconds."""

    type: Literal["dissolve"] = "dissolve"
    id: Ref = None


class DissolveVote(_Msg):
    """A seated player's answer to the request to end the room: agree or refuse."""

    type: Literal["dissolve_vote"] = "dissolve_vote"
    agree: bool
    id: Ref = None


class Location(_Msg):
    """GPS距离提醒: the point the player's browser gave (``navigator.geolocation``), sent
    only once they allowed it at the table; both null: taken back. The server keeps it
    in memory until the room's first deal and tells the table distances only (answer:
    ``nearby``); after the first deal it is refused (``location_late``)."""

    type: Literal["location"] = "location"
    lat: float | None = Field(None, ge=-90, le=90)
    lon: float | None = Field(None, ge=-180, le=180)
    id: Ref = None


ClientMessage = (
    Hello
    | ActionMsg
    | Resume
    | Continue
    | Again
    | Ready
    | Draft
    | Sync
    | Ping
    | ClientSeed
    | AutoPass
    | Chat
    | Report
    | Dissolve
    | DissolveVote
    | Location
)
CLIENT_MESSAGES: tuple[type[_Msg], ...] = (
    Hello,
    ActionMsg,
    Resume,
    Continue,
    Again,
    Ready,
    Draft,
    Sync,
    Ping,
    ClientSeed,
    AutoPass,
    Chat,
    Report,
    Dissolve,
    DissolveVote,
    Location,
)
_CLIENT_TYPES = {m.model_fields["type"].default: m for m in CLIENT_MESSAGES}


def client_message(obj: dict[str, Any]) -> ClientMessage | None:
    """Parse a client message whose type is known; None for an unknown ``type``.

    Raises pydantic's ValidationError for a known type with bad fields.
    """
    kind = obj.get("type")
    cls = _CLIENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        return None
    result: ClientMessage = cls.model_validate(obj)  # type: ignore[assignment]
    return result


# ---------------------------------------------------------------- server -> client


class Timer(_Msg):
    """A running decision timer: when it runs out, the bot decides for the seat."""

    seat: int
    limit: float
    remaining: float


class MatchInfo(_Msg):
    """How long the room's match is, and the game's words for a hand and a match."""

    option: str | None
    """The game option that sets the length (``hands``: 局, 麻将's ``quan``: 圈); null
    where the game ends its match itself (打弹子 plays to ``target``)."""
    length: int | None
    """The match's length in ``option``'s units."""
    hands: int | None = None
    """The room option ``hands``: exactly so many hands instead of the game's match."""
    hand_word: list[str]
    """A hand in Chinese and English (``["局", "hand"]``; 打弹子 ``["盘", "deal"]``)."""
    match_word: list[str]
    """The match (``["场", "match"]``; 打弹子 ``["局", "match"]``)."""


class RoomInfo(_Msg):
    """A room as the lobby shows it."""

    id: int
    code: str
    name_zh: str
    name_en: str
    status: Literal["waiting", "playing", "finished", "closed"]
    seats: int
    players: list[str | None]
    """Display name per seat; ``"bot"`` for a bot seat, null for an open seat."""
    control: list[Control]
    options: dict[str, Any]
    game_options: dict[str, Any]
    hands_played: int
    game: int | None = None
    """The id of the hand in play (or just played)."""
    owner: int | None = None
    """The player id of the room's creator (who may start it early)."""
    seat_players: list[int | None] = Field(default_factory=list)
    """The player id holding each seat (null: open or a bot): the lobby offers 回到座位
    for a room where you hold a seat."""
    ready: list[bool] = Field(default_factory=list)
    """准备 per seat before the first deal (rooms with ``ready_check``)."""
    invite: str | None = None
    """The room's invite code (邀请码, :mod:`paiju.server.invites`): typed in a lobby, it
    finds the room through ``GET /api/invites/{code}``."""
    next_commitment: str | None = None
    """sha256 (hex) of the server seed of the room's next deal (docs/fairness.md)."""
    node: str | None = None
    """The server node that plays the room (a cluster of nodes; null: a single server)."""
    ws: str | None = None
    """The room's WebSocket URL on that node (a cluster of nodes; null: a single server)."""
    match: MatchInfo | None = None
    """The room's match: its length and the game's words (null: not known here)."""
    next_room: int | None = None
    """再来一局: the room that plays the next match at this table, once a player asked."""


class Suggestions(_Msg):
    """推荐: the engine's advice for the asking player's seat in the hand in play."""

    room: int
    game: int | None
    seat: int | None
    suggestions: list[dict[str, Any]]
    """Actions in their JSON form, best first (十三张 arrangements, 佳佳宝 groupings); empty
    when the seat is not to act or the game has no solver."""


class Preview(_Msg):
    """An action checked for the asking player's seat without playing it."""

    room: int
    game: int
    seat: int
    preview: dict[str, Any] | None
    """What the action would show (十三张: ``{"front", "middle", "back", "categories",
    "foul"}``), null when the game has nothing to show; an illegal action is an error."""


class Welcome(_Msg):
    """The first message after authentication: who you are in this room."""

    type: Literal["welcome"] = "welcome"
    room: RoomInfo
    player: int
    name: str
    seat: int | None
    """Your seat, or null for a spectator."""
    limits: dict[str, float]


class RoomMsg(_Msg):
    """The room changed before its first deal (a player joined or left, a socket came or
    went) or it started: its :class:`RoomInfo` now, sent to every socket of the room."""

    type: Literal["room"] = "room"
    room: RoomInfo


class HandStarted(_Msg):
    """A hand begins: the commitment to its secret seed is published before the deal."""

    type: Literal["hand_started"] = "hand_started"
    room: int
    game: int
    hand_no: int
    commitment: str
    """sha256 (hex) of the hand's server seed, revealed in ``hand_over``."""
    client_seeds: list[str] | None = None
    """The seats' client seeds the hand was dealt with ("" for a seat that sent none;
    null: no seat sent one)."""
    next_commitment: str | None = None
    """sha256 (hex) of the next hand's server seed: send ``client_seed`` for it now."""


class Seeded(_Msg):
    """Your ``client_seed`` is taken for the next deal (the one ``next_commitment`` names)."""

    type: Literal["seeded"] = "seeded"
    room: int
    seat: int
    seed: str
    next_commitment: str
    id: Ref = None


class Drafted(_Msg):
    """Your ``draft`` is kept (``draft``: whether one is kept now, false after ``null``)."""

    type: Literal["drafted"] = "drafted"
    room: int
    seat: int
    draft: bool
    id: Ref = None


class AutoPassing(_Msg):
    """Your ``auto_pass`` (要不起) is set: ``on``, whether the server passes for your seat
    when pass is its only legal action."""

    type: Literal["auto_passing"] = "auto_passing"
    room: int
    seat: int
    on: bool
    id: Ref = None


class StateMsg(_Msg):
    """The full current state for this socket (on joining, on ``sync``, on a control change)."""

    type: Literal["state"] = "state"
    room: int
    game: int
    version: int
    """How many actions the hand has had."""
    view: dict[str, Any]
    timers: list[Timer]
    control: list[Control]
    legal: list[dict[str, Any]] | None = None
    """Your legal actions when you are to act and the game can list them (else null)."""
    ref: Ref = None
    kept: dict[str, Any] | None = None
    """The decision you sent in the open hidden window (a 麻将 claim window), kept until
    it closes; null otherwise. Only your own socket is told."""


class Update(_Msg):
    """An action was accepted and stored: the events this socket may see and its new view."""

    type: Literal["update"] = "update"
    room: int
    game: int
    version: int
    seat: int | None
    """The seat that acted (null: an action the game hides from you, such as another
    seat's decision in a mahjong claim window)."""
    actor: Literal["player", "bot", "timeout"] | None
    events: list[dict[str, Any]]
    view: dict[str, Any]
    timers: list[Timer]
    control: list[Control]
    legal: list[dict[str, Any]] | None = None
    """Your legal actions when you are to act and the game can list them (else null)."""
    ref: Ref = None
    """The client's ``id`` of the action, on the acting socket only."""


class HandOver(_Msg):
    """The hand is settled (and in the ledger): the seed is revealed for anyone to verify."""

    type: Literal["hand_over"] = "hand_over"
    room: int
    game: int
    scores: list[int]
    """The game's settlement per seat."""
    deltas: list[int]
    """The ledger (积分) change per seat: the scores times the room's stake."""
    seed: str
    """The server seed: its sha256 is ``commitment``."""
    commitment: str
    client_seeds: list[str] | None = None
    deal_seed: str
    """What the hand was dealt from: ``seed``, or ``seed:client_seed_0:…`` (fairness.md)."""
    next_commitment: str | None = None
    """sha256 (hex) of the next hand's server seed (null when the room is finished)."""
    room_finished: bool
    next_hand_in: float | None
    """Seconds until the next hand is dealt at the latest (null when the room is
    finished); it comes sooner once every seat in ``waiting`` has sent ``continue``."""
    waiting: list[int] = Field(default_factory=list)
    """The human seats whose 继续 the next hand still waits for (sent again as it shrinks)."""


class SeatTotal(_Msg):
    """One seat's line of the 总结算."""

    seat: int
    player: int | None
    """The player id of the seat's last hand (null: a bot)."""
    name: str | None
    """Its display name (``"bot"`` for a bot)."""
    points: int
    """The sum of the seat's settlements."""
    total: int
    """积分: ``points`` times the room's stake."""
    won: int
    """Hands the seat won (settled above 0)."""
    winner: bool
    """大赢家: the highest total, above 0."""


class MatchSummaryMsg(_Msg):
    """总结算: the whole room once its match is over, sent to every seat and spectator
    (and again to a socket that connects later); ``GET /api/rooms/{id}/summary`` too."""

    type: Literal["match_summary"] = "match_summary"
    room: int
    code: str
    hands: int
    """Hands played."""
    stake: int
    seats: list[SeatTotal]
    winners: list[int]
    """The seats of the 大赢家 (none when nobody ended above 0)."""
    cut_short: bool = False
    """The room's ``hands`` ended it before the game's own match would have."""
    next_room: int | None = None
    ended_by_vote: bool = False
    """The players voted to end the room (申请解散) before its match was over."""


class DissolveMsg(_Msg):
    """申请解散: a request to end the room and its answers, sent to every socket when it
    is asked, at each answer and when it is decided (and to a socket that connects
    while it is open, or after it was agreed while the last hand is played)."""

    type: Literal["dissolve"] = "dissolve"
    room: int
    seat: int
    """The asking seat."""
    name: str | None = None
    """The asking seat's player's name."""
    answers: list[Literal["asked", "agree", "refuse", "bot", "timeout"] | None]
    """Each seat's answer: ``asked`` (the asker), ``agree``, ``refuse``, ``bot`` (a bot
    seat agrees), ``timeout`` (no answer in time: agreement), null (awaited)."""
    limit: float
    """Seconds the others have to answer."""
    remaining: float | None
    """Seconds left to answer (null once decided)."""
    result: Literal["agreed", "refused"] | None = None
    """Null while open; ``agreed``: the room ends (``ends``); ``refused``: it plays on."""
    ends: Literal["now", "after_hand"] | None = None
    """Once agreed: the room ended now (no hand was in play) or ends after the hand."""
    id: Ref = None
    """The asker's or the answerer's message ``id``, on the message its message caused."""


class ErrorMsg(_Msg):
    """A message the server could not accept; the connection stays open (except auth)."""

    type: Literal["error"] = "error"
    code: str
    message: str
    """The developers' English sentence."""
    ref: Ref = None
    reason: str | None = None
    """A refusal's stable player-facing reason (``must_follow``), with its ``params``."""
    params: dict[str, Any] = Field(default_factory=dict)
    text: dict[str, str] | None = None
    """What the player is told, by language: ``{"zh": …, "en": …}`` (null: show the code)."""


class Pong(_Msg):
    type: Literal["pong"] = "pong"
    id: Ref = None


class ChatMsg(_Msg):
    """A seat's phrase, emote or text, sent to every socket of the room."""

    type: Literal["chat"] = "chat"
    room: int
    seat: int
    phrase: str | None = None
    emote: str | None = None
    text: str | None = None


class Reported(_Msg):
    """The answer to a report: the seat, and whether its free text is stopped now."""

    type: Literal["reported"] = "reported"
    seat: int
    muted: bool
    id: Ref = None


class NearbyPair(_Msg):
    """Two seats that share a network address (同IP), or whose players' shared locations
    are closer than the operator's ``nearby_distance`` (``metres``, whole metres; null:
    not that close, or not both shared one)."""

    seats: list[int]
    same_address: bool
    metres: int | None = None


class NearbyMsg(_Msg):
    """防作弊, before the room's first deal, to every socket of the room whenever it
    changes (and to a socket that joins while it has something to say): the pairs of
    seats that sit near each other, which seats shared a location, and the operator's
    distance (metres; 0: no distance is told)."""

    type: Literal["nearby"] = "nearby"
    room: int
    pairs: list[NearbyPair]
    shared: list[bool]
    limit: float
    id: Ref = None
    """The ``location`` message's ``id`` on the answer to it."""


SERVER_MESSAGES: tuple[type[_Msg], ...] = (
    Welcome,
    RoomMsg,
    HandStarted,
    Seeded,
    Drafted,
    AutoPassing,
    StateMsg,
    Update,
    HandOver,
    MatchSummaryMsg,
    DissolveMsg,
    ErrorMsg,
    Pong,
    ChatMsg,
    Reported,
    NearbyMsg,
)

ERROR_CODES: dict[str, str] = {
    "bad_json": "the message is not valid JSON",
    "bad_message": "a JSON message of a known type with missing or wrong fields",
    "unknown_type": "the message's type is not one of the client messages",
    "too_large": "the message is longer than the server's limit",
    "rate_limited": "too many messages per second on this connection",
    "bad_token": "missing or unknown bearer token (the socket is closed, code 4401)",
    "no_room": "no such room (the socket is closed, code 4404)",
    "spectator": "a spectator's socket cannot act",
    "wrong_seat": "the message names a seat this token does not hold",
    "stale": "the message names a game (hand) that is not in play",
    "no_hand": "no hand is in play in this room",
    "not_your_turn": "the seat may not act now",
    "illegal_action": "the rules do not allow this action now",
    "storage_failure": "the action could not be stored; it was not applied (the database"
    " refused this room's write itself: the room is closed)",
    "internal": "the game engine failed on this action; it was not applied",
    "replaced": "another socket took this seat (the old one is closed, code 4409)",
    "slow_consumer": "the client did not read its messages (closed, code 4408)",
    "token_expired": "the token has expired (the socket is closed, code 4401)",
    "too_many_sockets": "the player or its address has its limit of sockets (closed, 4429)",
    "room_closed": "the room's owner or the operator closed the room",
    "no_next_hand": "a client seed for a room that deals no further hand",
    "no_result": "a continue (继续) while no hand's result is shown",
    "room_playing": "a ready (准备) after the room has started",
    "chat_too_fast": "chat messages of this seat come faster than the server's chat limits",
    "chat_off": "free chat text is off at this server (phrases and emotes only)",
    "chat_too_long": "the chat text is longer than the server's chat_text_max",
    "chat_muted": "the seat's free text was stopped after reports; phrases and emotes only",
    "match_not_over": "再来一局 before the room's match is over",
    "again_failed": "再来一局 failed: the next match's room could not be made (ask again)",
    "deal_delayed": "the next hand could not be stored yet; it is dealt once it is",
    "dissolve_not_now": "申请解散 in a room that is not playing (waiting, finished or closed)",
    "dissolve_pending": "申请解散 while a vote is open, or after one agreed",
    "dissolve_too_soon": "申请解散 again within the limit dissolve_every of the last request",
    "no_dissolve_vote": "an answer to 申请解散 while no vote is open",
    "dissolve_answered": "an answer from the asker or a seat that answered already",
    "location_late": "a location sent after the room's first deal (it counts before it only)",
}
