"""A session's device name, from the browser's user agent (``ua-parser``)."""

from __future__ import annotations

from functools import lru_cache

from ua_parser import parse

__all__ = ["device_name"]


@lru_cache(maxsize=1024)
def device_name(user_agent: str | None, given: str | None = None) -> str:
    """What the list of sessions calls a device: the name the client gave, else the
    browser and system of its user agent ("Mobile Safari · iOS 17 · iPhone"), else the
    agent's first word.

    >>> device_name("python-httpx/0.28.1")
    'python-httpx'
    >>> device_name(None, "Ann's phone")
    "Ann's phone"
    """
    if given and given.strip():
        return " ".join(given.split())[:80]
    if not user_agent:
        return "unknown device"
    found = parse(user_agent[:512])
    parts = []
    if found.user_agent is not None:
        parts.append(found.user_agent.family)
    if found.os is not None:
        version = f" {found.os.major}" if found.os.major else ""
        parts.append(found.os.family + version)
    if found.device is not None and found.device.family not in ("Other", "Spider"):
        parts.append(found.device.family)
    if parts:
        return " · ".join(parts)[:120]
    return user_agent.split("/", 1)[0].split()[0][:40] or "unknown device"
