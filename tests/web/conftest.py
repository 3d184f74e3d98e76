"""Browser tests of the web client: a real ``paiju serve`` process and Debian's Chromium
driven by Playwright. Helpers live in ``web_helpers`` (this folder)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from web_helpers import (  # noqa: E402
    CHROMIUM,
    PHONE,
    DealServer,
    ScriptedServer,
    WebServer,
    launch_browser,
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A browser test that fails is run once more before it counts as failed. The suite
    runs a real server, Chromium and bots on two shared cores beside the other tests, and
    a page that is slow there (a timeout waiting for a bot, a frame painted late) is not a
    defect of the client; a defect fails both runs. Every rerun is listed in the summary
    ("rerun test summary info"), so that a test that needed one is seen and looked into.
    ``PAIJU_WEB_RERUNS=0`` turns it off (to hunt for such tests: each failure shown)."""
    reruns = int(os.environ.get("PAIJU_WEB_RERUNS", "1"))
    for item in items:
        if reruns and HERE in item.path.parents:
            item.add_marker(pytest.mark.flaky(reruns=reruns))


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """One ``paiju serve`` subprocess for the browser tests, on a free port."""
    srv = WebServer(tmp_path_factory.mktemp("web-server")).start()
    try:
        yield srv
    finally:
        srv.stop()


Started = TypeVar("Started", bound=WebServer)


def started(srv: Started, **env: str) -> Started:
    """``srv`` started, its process given the variables ``env`` besides this one's."""
    with pytest.MonkeyPatch.context() as mp:
        for name, value in env.items():
            mp.setenv(name, value)
        srv.start()
    return srv


@pytest.fixture(scope="session")
def deal_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DealServer]:
    """A ``paiju serve`` subprocess whose rooms deal what the test chose
    (:meth:`DealServer.choose`), with the clock routes."""
    folder = tmp_path_factory.mktemp("deal-server")
    srv = started(DealServer(folder), PAIJU_TEST_DEAL_FILE=str(folder / "chosen.json"))
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="module")
def plan() -> Any:
    """A 麻将 hand whose player is offered a 碰 or 吃, takes it and wins, against bots that
    discard what they draw and pass every claim (``majiang_play.find_seed``)."""
    from majiang_play import find_seed

    return find_seed()


@pytest.fixture(scope="module")
def scripted(tmp_path_factory: pytest.TempPathFactory, plan: Any) -> Iterator[ScriptedServer]:
    """A ``paiju serve`` subprocess that deals ``plan``'s hand in every room, with those
    bots and the clock routes."""
    folder = tmp_path_factory.mktemp("mj-web")
    seed_file = folder / "seed.txt"
    seed_file.write_text(plan.seed, encoding="utf-8")
    srv = started(ScriptedServer(folder), PAIJU_TEST_SEED_FILE=str(seed_file))
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Debian's Chromium, headless (Playwright's own browser download is not used)."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium package (.ci/run does)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = launch_browser(pw)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser: object, server: WebServer) -> Iterator[object]:
    """A fresh phone-sized page (its own localStorage: a new player); JS errors fail it."""
    context = browser.new_context(viewport=PHONE)  # type: ignore[attr-defined]
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.set_default_timeout(20_000)
    pg.base = server.base  # type: ignore[attr-defined]
    try:
        yield pg
    finally:
        context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"
