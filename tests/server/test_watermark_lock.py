"""The id watermark beside a SQLite file: a deal takes an id of the block reserved already
without waiting for the journal's writer thread, which may be saving (and syncing) the
ids stored at that moment; an id past the block is reserved, written and synced, first."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from paiju.server import watermark
from paiju.server.watermark import Watermark


def test_an_id_of_the_reserved_block_is_given_while_the_writer_saves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mark = Watermark(tmp_path / "paiju.db.ids")
    mark.check(0, 0, fresh=True, allow=False, shown="paiju.db")
    first = mark.reserved
    assert first >= Watermark.BLOCK  # the start reserved a block, on disk
    assert json.loads(mark.path.read_text())["reserved"] == first
    syncing, synced = threading.Event(), threading.Event()
    writer_thread: list[int] = []
    real_fsync = os.fsync

    def slow_fsync(fd: int) -> None:  # a slow disk, for the writer thread's save only
        if threading.get_ident() in writer_thread:
            syncing.set()
            synced.wait(10)
        real_fsync(fd)

    monkeypatch.setattr(watermark.os, "fsync", slow_fsync)
    monkeypatch.setattr(Watermark, "SAVE_EVERY", 0.0)  # the writer saves at once

    def store_hands() -> None:  # the journal's writer: hands up to 5 committed
        writer_thread.append(threading.get_ident())
        mark.stored_up_to(5)

    writer = threading.Thread(target=store_hands)
    writer.start()
    try:
        assert syncing.wait(5)
        given = threading.Thread(target=mark.reserve, args=(first - 1,))
        given.start()
        given.join(2)
        assert not given.is_alive(), "an id of the reserved block waited for the writer's save"
        past = threading.Thread(target=mark.reserve, args=(first + 1,))
        past.start()
        past.join(0.2)
        assert past.is_alive()  # a new block is written and synced first: it waits its turn
    finally:
        synced.set()
        writer.join()
    past.join(5)
    assert mark.reserved == first + 1 + Watermark.BLOCK
    saved = json.loads(mark.path.read_text())
    assert saved["reserved"] == mark.reserved and saved["stored"] == 5
