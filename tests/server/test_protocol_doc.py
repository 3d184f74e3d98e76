"""docs/protocol.md lists every limit and every error code the server sends.

The issue: "docs/protocol.md lists every limit and error code".
"""

from __future__ import annotations

import re
from pathlib import Path

from paiju.server.messages import ERROR_CODES
from paiju.server.options import Limits

ROOT = Path(__file__).resolve().parent.parent.parent
DOC = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
SERVER = ROOT / "src" / "paiju" / "server"

_RAISED = re.compile(
    r"""(?:ServerError\(\s*|\.error\(\s*|_refuse\(\s*websocket,\s*|\.close\(\s*|"code":\s*)"""
    r"""["']([a-z_]+)["']"""
)


def _codes_in_source() -> set[str]:
    codes: set[str] = set()
    for path in SERVER.rglob("*.py"):
        codes.update(_RAISED.findall(path.read_text(encoding="utf-8")))
    return codes


def test_every_error_code_the_server_sends_is_documented() -> None:
    codes = _codes_in_source() | set(ERROR_CODES)
    assert {"too_many_registrations", "body_too_large", "storage_failure"} <= codes
    missing = sorted(c for c in codes if f"`{c}`" not in DOC)
    assert not missing, f"docs/protocol.md does not list {missing}"


def test_every_limit_is_documented() -> None:
    missing = sorted(name for name in Limits.model_fields if f"`{name}`" not in DOC)
    assert not missing, f"docs/protocol.md section 7 does not list {missing}"
