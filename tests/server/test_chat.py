"""快捷语 and 表情 on a real server: a seated player's stock phrase or emote reaches every
socket of the room (spectators too), at a seat's pace (chat_seconds, chat_per_minute);
unknown codes, another game's phrase, a spectator's message and free text (off by
default) are refused with their codes; with the operator's chat_text_max a short text is
cleaned and passed, a long one refused, and two players' reports stop a seat's text."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from server_helpers import Player, Server

from paiju.server.chat import EMOTES, PHRASES, phrases_for
from server_process import TEST_LIMITS


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("chat")).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def texting(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("chat-text"))
    srv.limits = {**TEST_LIMITS, "chat_text_max": 12, "chat_seconds": 0}
    srv.start()
    yield srv
    srv.stop()


async def table(server: Server, humans: int) -> tuple[int, list[Player], Player]:
    """A 1301 room of ``humans`` players and bots (the hand waits: no clock), every
    player connected, and a spectator."""
    room, tokens = server.table("1301", humans, seats=humans + 1, time_limit=0)
    players = [await Player(server, tok, room).connect() for tok in tokens]
    watcher = await Player(server, server.register("看客"), room).connect()
    assert watcher.seat is None
    return room, players, watcher


async def chat_of(player: Player, **fields: Any) -> dict[str, Any]:
    return await player.expect("chat", timeout=5, **fields)


def test_phrase_and_emote_reach_every_socket_at_the_seats_pace(server: Server) -> None:
    async def run() -> None:
        room, (a, b), watcher = await table(server, 2)
        await a.send({"type": "chat", "phrase": "hurry", "id": 1})
        for who in (a, b, watcher):
            msg = await chat_of(who, seat=a.seat)
            assert (msg["room"], msg["phrase"]) == (room, "hurry")
            assert msg["text"] is None and msg["emote"] is None
        # the seat's pace: a second message at once is refused, nothing is sent
        await a.send({"type": "chat", "emote": "thumbs", "id": 2})
        err = await a.expect("error", timeout=5, ref=2)
        assert err["code"] == "chat_too_fast" and err["text"]["zh"].startswith("说得太快了")
        await b.send({"type": "chat", "emote": "flower"})
        msg = await chat_of(watcher, seat=b.seat)
        assert msg["emote"] == "flower"
        assert not [m for m in watcher.messages if m.get("emote") == "thumbs"]
        for p in (a, b, watcher):
            await p.close()

    asyncio.run(run())


def test_what_is_refused(server: Server) -> None:
    """Another family's phrase, unknown codes, two kinds at once, free text (off by
    default), a spectator's phrase: each refused with its code."""
    assert "cant_beat" in phrases_for("jiayibing") and "cant_beat" not in phrases_for("shisanzhang")

    async def run() -> None:
        _, (a,), watcher = await table(server, 1)
        cases = [
            ({"phrase": "cant_beat"}, "bad_message"),
            ({"phrase": "nonsense"}, "bad_message"),
            ({"emote": "poo"}, "bad_message"),
            ({"phrase": "hurry", "emote": "smile"}, "bad_message"),
            ({"text": "你好"}, "chat_off"),
        ]
        for i, (fields, code) in enumerate(cases):
            await a.send({"type": "chat", **fields, "id": i})
            err = await a.expect("error", timeout=5, ref=i)
            assert err["code"] == code, (fields, err)
        await watcher.send({"type": "chat", "phrase": "hurry", "id": "w"})
        err = await watcher.expect("error", timeout=5, ref="w")
        assert err["code"] == "spectator"
        await watcher.send({"type": "report", "seat": 0, "id": "r"})
        assert (await watcher.expect("error", timeout=5, ref="r"))["code"] == "spectator"
        assert not [m for m in a.messages if m["type"] == "chat"]
        await a.close()
        await watcher.close()

    asyncio.run(run())


def test_operator_text_is_cleaned_limited_and_stopped_by_two_reports(texting: Server) -> None:
    async def run() -> None:
        _, (a, b, c), watcher = await table(texting, 3)
        await a.send({"type": "chat", "text": "  快点\u3000 吧  "})
        assert (await chat_of(watcher, seat=a.seat))["text"] == "快点 吧"
        await a.send({"type": "chat", "text": "x" * 13, "id": "long"})
        assert (await a.expect("error", timeout=5, ref="long"))["code"] == "chat_too_long"
        await a.send({"type": "chat", "text": "a\u200bb", "id": "zw"})
        assert (await a.expect("error", timeout=5, ref="zw"))["code"] == "bad_message"
        await b.send({"type": "report", "seat": a.seat, "id": 1})
        assert (await b.expect("reported", timeout=5))["muted"] is False
        await b.send({"type": "report", "seat": b.seat, "id": 2})  # not oneself
        assert (await b.expect("error", timeout=5, ref=2))["code"] == "bad_seat"
        await c.send({"type": "report", "seat": a.seat, "id": 3})
        assert (await c.expect("reported", timeout=5))["muted"] is True
        await a.send({"type": "chat", "text": "还说", "id": "m"})
        assert (await a.expect("error", timeout=5, ref="m"))["code"] == "chat_muted"
        await a.send({"type": "chat", "phrase": "sorry"})  # phrases still go
        assert (await chat_of(b, seat=a.seat))["phrase"] == "sorry"
        for p in (a, b, c, watcher):
            await p.close()

    asyncio.run(run())


def test_the_tables_of_phrases() -> None:
    assert len(set(EMOTES)) == len(EMOTES)
    for family, codes in PHRASES.items():
        assert len(set(codes)) == len(codes), family
        assert not set(codes) & set(PHRASES[""]) or family == "", family
