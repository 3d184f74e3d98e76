"""The options of a room (:class:`RoomOptions`) and the server's limits (:class:`Limits`)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Limits", "RoomOptions", "RoomStatus", "Tuoguan"]

Tuoguan = Literal["off", "timeout", "disconnect", "both"]
RoomStatus = Literal["waiting", "playing", "finished"]


class RoomOptions(BaseModel):
    """The options of a room (the game's own options go separately, to ``game(code, …)``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

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
    pause: float = Field(
        60.0,
        ge=0,
        le=600,
        description="Seconds the result stays up before the next hand at most; the next "
        "hand comes as soon as every connected human seat has tapped 继续 (continue).",
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
        description="Hands to play; default: one match (整局), as the game counts it.",
    )
    spectators: bool = Field(True, description="Whether others may watch.")
    fill_after: float | None = Field(
        30.0,
        ge=0,
        le=86_400,
        description="Seconds after which bots take the seats still open and the room "
        "starts (null: wait for players or the owner's start).",
    )


class Limits(BaseModel):
    """The server's limits; each exceeded limit gets an error message, not a dropped server."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    max_message_bytes: int = 16_384
    messages_per_second: float = 20.0
    burst: int = 40
    rooms_per_player: int = 20
    outbox: int = 2_000
    hello_timeout: float = 10.0
