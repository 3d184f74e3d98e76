"""Server tests: their helpers (``server_helpers``) live in this folder, and the toy game
of ``tests/toy.py`` is registered for the whole session (the server subprocesses register
it too, through ``launch.py``) for each test module, and removed after it."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
for folder in (str(HERE), str(HERE.parent)):
    if folder not in sys.path:
        sys.path.insert(0, folder)

from paiju import games  # noqa: E402
from toy import TOY_TOML  # noqa: E402

catalog_module = importlib.import_module("paiju.catalog")


@pytest.fixture(scope="module", autouse=True)
def toy_family(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The toy family and its variant file, for one test module."""
    path = tmp_path_factory.mktemp("toy") / "toy.toml"
    path.write_text(TOY_TOML, encoding="utf-8")
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(games.FAMILIES, "toy", games.Family("玩具", "Toy", game="toy:ToyGame"))
        mp.setattr(catalog_module, "_extra_files", [*catalog_module._extra_files, str(path)])
        catalog_module._load.cache_clear()
        yield path
    catalog_module._load.cache_clear()
