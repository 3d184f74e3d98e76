"""What runs on the event loop's thread while a test's code runs (:class:`LoopWatch`): the
statements a store's engine executes there, and how often the loop turned meanwhile (as a
room of the process answering its sockets would)."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Iterator
from typing import Any

from sqlalchemy import Engine, event

__all__ = ["LoopWatch"]


class LoopWatch:
    """Counts ``engine``'s statements by thread from its creation (every engine's, given
    the class), and, inside ``async with``, the turns of the loop. Statements containing
    one of ``skip`` are not counted."""

    def __init__(self, engine: Engine | type[Engine], skip: tuple[str, ...] = ()) -> None:
        self.engine = engine
        self.skip = skip
        self.seen: list[tuple[int, str]] = []
        self.loop_thread: int | None = None
        self.turns = 0
        self._going = False
        self._beat: asyncio.Task[None] | None = None
        event.listen(engine, "before_cursor_execute", self._seen)

    def _seen(self, conn: Any, cursor: Any, statement: str, *rest: Any) -> None:
        if not any(s in statement for s in self.skip):
            self.seen.append((threading.get_ident(), statement))

    @contextlib.contextmanager
    def aside(self) -> Iterator[None]:
        """The test's own queries (reading what was stored): not counted."""
        n = len(self.seen)
        try:
            yield
        finally:
            del self.seen[n:]

    def on_loop(self) -> list[str]:
        """The statements run on the loop's thread (inside ``async with``)."""
        return [s for t, s in self.seen if t == self.loop_thread]

    async def __aenter__(self) -> LoopWatch:
        self.loop_thread = threading.get_ident()
        self._going = True

        async def turning() -> None:
            while self._going:
                self.turns += 1
                await asyncio.sleep(0)

        self._beat = asyncio.create_task(turning())
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._going = False
        if self._beat is not None:
            await self._beat
        event.remove(self.engine, "before_cursor_execute", self._seen)
