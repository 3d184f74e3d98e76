"""The console's pages in the browser: the staff a test signs in as (made with
``paiju admin staff add``, as an operator makes them), and the check that nothing spills
out of the page's width."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pyotp
from web_helpers import WebServer

__all__ = ["ADMIN", "OVERFLOW", "PASSWORD", "add_staff", "sign_in"]

PASSWORD = "lantern-drum-93"
ADMIN = (sys.executable, "-m", "paiju", "admin")
OVERFLOW = """() => {
  const root = document.documentElement, width = root.clientWidth, wide = [];
  if (root.scrollWidth > width) wide.push('page ' + root.scrollWidth);
  for (const el of document.querySelectorAll('main *')) {
    const box = el.getBoundingClientRect();
    if (box.width && (box.right > width + 0.5 || box.left < -0.5) && el.offsetParent)
      wide.push(el.id || el.className || el.tagName);
  }
  return wide;
}"""


def add_staff(server: WebServer, name: str) -> dict[str, Any]:
    made = subprocess.run(
        [
            *ADMIN,
            "staff",
            "add",
            name,
            "--role",
            "admin",
            "--password",
            PASSWORD,
            "--db",
            str(server.db),
            "--json",
        ],
        check=True,
        capture_output=True,
        text=True,
        timeout=60,
    )
    found: dict[str, Any] = json.loads(made.stdout)
    return found


def sign_in(page: Any, server: WebServer, name: str) -> None:
    """A new admin ``name`` signs in at /admin with a fresh authenticator code."""
    made = add_staff(server, name)
    page.goto(f"{server.base}/admin")
    page.fill("#si-name", name)
    page.fill("#si-password", PASSWORD)
    page.fill("#si-code", pyotp.TOTP(made["totp_secret"]).now())
    page.click("#si-go")
    page.wait_for_selector("#console:not([hidden])")
