"""A socket's texts on the direct path (paiju.server.reader): admitted, then answered in
the order they came, also while one of them waits for a cluster's shared bucket."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from paiju.server import reader
from paiju.server.reader import SocketReader


class FakeClient:
    def __init__(self) -> None:
        self.closed = False
        self.limited = 0
        self.player = type("P", (), {"id": 7})()

    def rate_limited(self, text: str = "") -> None:
        self.limited += 1

    def close(self, code: int, reason: str) -> None:
        self.closed = True


class FakeGuard:
    """A cluster's guard whose answers the test gives: ``now`` is what admit_now says for
    each text in turn (None: ask Redis), ``redis`` what each ask answers, once released."""

    shared = True

    def __init__(self, now: list[bool | None], redis: list[bool]) -> None:
        self.now, self.redis = now, redis
        self.release = asyncio.Event()
        self.asked = 0

    def admit_now(self, player: int) -> bool | None:
        return self.now.pop(0)

    async def ask(self, player: int) -> bool:
        self.asked += 1
        await self.release.wait()
        return self.redis.pop(0)


@pytest.fixture
def answered(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    monkeypatch.setattr(reader.inbox, "handle", lambda room, client, text: seen.append(text))
    return seen


def test_texts_behind_one_that_asks_redis_wait_and_keep_their_order(answered: list[str]) -> None:
    async def main() -> tuple[FakeClient, FakeGuard]:
        client = FakeClient()
        guard = FakeGuard(now=[True, None, True, False, True], redis=[True])
        read = SocketReader(Any, client, guard)  # type: ignore[arg-type]
        read("a")  # admitted at once
        read("b")  # asks Redis
        read("c")  # waits behind b, though its own token is at hand
        read("d")
        assert answered == ["a"]
        guard.release.set()
        for _ in range(10):
            await asyncio.sleep(0)
        read("e")  # nothing waits: at once
        return client, guard

    client, guard = asyncio.run(main())
    assert answered == ["a", "b", "c", "e"]  # d was over the node's own bucket
    assert client.limited == 1 and guard.asked == 1


def test_a_refusal_by_redis_is_a_rate_limit_and_the_rest_go_on(answered: list[str]) -> None:
    async def main() -> FakeClient:
        client = FakeClient()
        guard = FakeGuard(now=[None, None, True], redis=[False, True])
        read = SocketReader(Any, client, guard)  # type: ignore[arg-type]
        read("x")
        read("y")
        read("z")
        guard.release.set()
        for _ in range(10):
            await asyncio.sleep(0)
        return client

    client = asyncio.run(main())
    assert answered == ["y", "z"] and client.limited == 1


def test_a_closed_socket_answers_nothing(answered: list[str]) -> None:
    async def main() -> None:
        client = FakeClient()
        guard = FakeGuard(now=[None], redis=[True])
        read = SocketReader(Any, client, guard)  # type: ignore[arg-type]
        read("before close")
        client.closed = True
        read("after close")
        guard.release.set()
        for _ in range(10):
            await asyncio.sleep(0)

    asyncio.run(main())
    assert answered == []


def test_a_single_server_answers_each_text_as_it_is_read(answered: list[str]) -> None:
    guard = FakeGuard(now=[], redis=[])
    guard.shared = False  # its room's inbox checks the rate
    read = SocketReader(Any, FakeClient(), guard)  # type: ignore[arg-type]
    read("1")
    read("2")
    assert answered == ["1", "2"]
