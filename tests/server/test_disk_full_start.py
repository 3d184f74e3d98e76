"""A server started while its disk is still full stops with one line saying so and where,
not a traceback: the watermark of ids (``paiju.db.ids``) cannot be written, or SQLite
cannot migrate the database file."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from paiju.cli.app import main
from paiju.server.store import Store
from paiju.server.watermark import Watermark


def _full(*args: object, **kwargs: object) -> None:
    raise OSError(errno.ENOSPC, "No space left on device")


def test_a_restart_on_a_full_disk_says_so_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "paiju.db"
    Store(str(db), owner=True).close()  # a database served before
    monkeypatch.setattr(Watermark, "_save", _full)
    with pytest.raises(SystemExit) as stopped:
        main(["serve", "--db", str(db), "--port", "1"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Traceback" not in err, err
    assert err.startswith("paiju: error: the disk is full")
    assert str(db) + ".ids" in err


def test_a_database_sqlite_cannot_write_for_a_full_disk_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import paiju.server.store as store_module

    def full_disk(engine: object) -> None:
        from sqlalchemy.exc import OperationalError

        raise OperationalError("CREATE TABLE", {}, Exception("database or disk is full"))

    monkeypatch.setattr(store_module, "migrate", full_disk)
    with pytest.raises(store_module.PaijuError) as refused:
        Store(str(tmp_path / "new.db"), owner=True)
    assert str(refused.value).startswith("the disk is full")
    assert "new.db" in str(refused.value)
