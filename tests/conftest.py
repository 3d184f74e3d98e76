"""Shared fixtures: the toy game registered as a family for protocol and CLI tests."""

from __future__ import annotations

import asyncio
import importlib
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from paiju import games

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from toy import TOY_TOML  # noqa: E402

# ``paiju.catalog`` the attribute is the catalog() function; the module is reached by name.
catalog_module = importlib.import_module("paiju.catalog")


@pytest.fixture
def toy_variants(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Register the toy family and its variant file; undone after the test."""
    monkeypatch.setitem(games.FAMILIES, "toy", games.Family("玩具", "Toy", game="toy:ToyGame"))
    path = tmp_path / "toy.toml"
    path.write_text(TOY_TOML, encoding="utf-8")
    monkeypatch.setattr(catalog_module, "_extra_files", [str(path)])
    catalog_module._load.cache_clear()
    yield path
    catalog_module._load.cache_clear()


WEB = HERE / "web"


@pytest.fixture(autouse=True)
def no_browser_loop_outside_the_browser_tests(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test outside tests/web runs with no event loop marked as running.

    Playwright's sync API, once a worker has opened the browser for a browser test, leaves
    its own loop marked as running in that worker's thread between calls; a later test in
    the same worker that calls ``asyncio.run`` would then be refused ("cannot be called
    from a running event loop"). That loop is set aside for the test and put back after,
    so the order in which xdist hands tests to a worker does not matter."""
    if WEB in request.path.parents:
        yield
        return
    held = asyncio._get_running_loop()
    if held is None:
        yield
        return
    asyncio._set_running_loop(None)
    try:
        yield
    finally:
        asyncio._set_running_loop(held)
