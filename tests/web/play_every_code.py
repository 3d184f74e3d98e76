"""Play one hand of every 十三张, 宝子 and 佳佳宝 code through the browser client, against
bots, and report which settle without a JavaScript error (a long run: not a test).

    .venv/bin/python tests/web/play_every_code.py [CODE ...]

It starts its own ``paiju serve`` and drives Debian's Chromium like the browser tests;
a player sits at seat 1 of a 4-seat room (seat 0 is the first banker) and takes every
decision through the UI: bets by chip, 十三张 rows by taps (strongest back first),
佳佳宝 groups by taps, declares where it must.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from web_helpers import PHONE, WebServer, enter, launch_browser, open_room  # noqa: E402

from paiju.cards import format_cards, parse_cards  # noqa: E402
from paiju.catalog import catalog, find_variant  # noqa: E402
from paiju.games.shisanzhang.game import greedy_arrangement  # noqa: E402
from paiju.games.shisanzhang.spec import params_of  # noqa: E402

FAMILIES = ("shisanzhang", "baozi", "jiajiabao")


def arrange(page: Any, code: str) -> None:
    hand = [e.get_attribute("data-card") for e in page.query_selector_all(".hand-zone .card")]
    if len(hand) != 13:
        return
    rows = greedy_arrangement(
        parse_cards(" ".join(hand)), params_of(find_variant(code)).row_rules()
    )
    for name, row in zip(("front", "middle", "back"), rows, strict=True):
        if len(page.query_selector_all(f".row-zone[data-row='{name}'] .card")) == len(row):
            continue
        for card in row:
            page.click(f".hand-zone .card[data-card='{format_cards([card])}']")
        page.click(f".row-zone[data-row='{name}'] .row-label")
    page.click("#ssz-submit")


def play(page: Any, code: str) -> bool:
    """One hand at seat 1; True when the settlement shows."""
    open_room(page, code, seats=4, bots=0, seat=1)
    page.click("#start-now")
    end = time.monotonic() + 60
    while time.monotonic() < end:
        page.wait_for_timeout(300)
        if page.query_selector("#settlement"):
            return True
        try:
            if page.query_selector("#declare"):
                page.click("#declare")
            elif page.query_selector(".bet-chip"):
                page.click(".bet-chip >> nth=0")
            elif page.query_selector("#group-panel .card"):
                page.click("#group-panel .card >> nth=0")
                page.click("#group-panel .card >> nth=1")
                page.click("#group-submit")
            elif page.query_selector("#ssz-submit"):
                arrange(page, code)
        except Exception as exc:  # the table re-rendered under the click: try again
            print(f"  {code}: retrying after {type(exc).__name__}")
    return False


def main(codes: list[str]) -> int:
    from playwright.sync_api import sync_playwright

    codes = codes or [v.code for v in catalog() if v.family in FAMILIES]
    started = time.monotonic()
    failed: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        server = WebServer(Path(folder)).start()
        try:
            with sync_playwright() as pw:
                browser = launch_browser(pw)
                for code in codes:
                    context = browser.new_context(viewport=PHONE)
                    page = context.new_page()
                    page.set_default_timeout(15_000)
                    page.base = server.base
                    errors: list[str] = []
                    page.on("pageerror", lambda exc, errors=errors: errors.append(str(exc)))
                    try:
                        enter(page, f"p{code}")
                        ok = play(page, code) and not errors
                    except Exception as exc:
                        ok, errors = False, [*errors, repr(exc)[:200]]
                    print(f"{code:<12} {'settled' if ok else 'FAILED'} {errors or ''}")
                    if not ok:
                        failed.append(code)
                    context.close()
                browser.close()
        finally:
            server.stop()
    took = time.monotonic() - started
    print(
        f"{len(codes) - len(failed)}/{len(codes)} codes settled through the UI in {took:.0f} s"
        f" ({took / max(1, len(codes)):.1f} s a hand); failed: {failed or 'none'}"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
