"""The page can be added to a phone's home screen: a web app manifest (name, start address,
standalone display, colours) with icons of the sizes the phones ask for (192 and 512 px,
one maskable), linked from the page, each served as what it says it is."""

from __future__ import annotations

import struct
from typing import Any

import httpx
from web_helpers import WebServer


def test_the_page_links_a_manifest_with_its_icons(page: Any, server: WebServer) -> None:
    page.goto(page.base + "/")
    href = page.get_attribute("link[rel=manifest]", "href")
    assert href
    manifest = httpx.get(f"{server.base}{href}", timeout=10)
    assert manifest.status_code == 200
    data = manifest.json()
    assert data["name"] and data["short_name"] == "牌局"
    assert data["start_url"].startswith("/") and data["display"] == "standalone"
    assert data["theme_color"] == page.get_attribute("meta[name=theme-color]", "content")
    sizes = {}
    for icon in data["icons"]:
        got = httpx.get(f"{server.base}{icon['src']}", timeout=10)
        assert got.status_code == 200, icon
        assert got.headers["content-type"].startswith(icon["type"]), icon
        if icon["type"] == "image/png":
            assert got.content[:8] == b"\x89PNG\r\n\x1a\n"
            width, height = struct.unpack(">II", got.content[16:24])
            assert f"{width}x{height}" == icon["sizes"], icon
            sizes[icon["sizes"]] = icon.get("purpose", "any")
    assert {"192x192", "512x512"} <= set(sizes)
    assert any(i.get("purpose") == "maskable" for i in data["icons"])
    touch = page.get_attribute("link[rel=apple-touch-icon]", "href")
    assert httpx.get(f"{server.base}{touch}", timeout=10).status_code == 200
