"""The web app manifest and its icons: what lets a phone add patience to its home screen.
The page links the manifest, the server sends it with its media type, and every icon it
names exists, in the type and size it claims."""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path

from test_api import make_client


def test_the_page_links_the_manifest_and_icons(tmp_path: Path) -> None:
    page = make_client(tmp_path).get("/").text
    assert re.search(r'<link rel="manifest" href="manifest\.webmanifest">', page)
    assert '<link rel="icon" href="icon.svg" type="image/svg+xml">' in page
    assert '<link rel="apple-touch-icon" href="icon-180.png">' in page
    icon = make_client(tmp_path).get("/icon-180.png")
    assert icon.status_code == 200
    assert png_size(icon.content) == (180, 180)


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's header."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_manifest_is_valid_and_its_icons_exist(tmp_path: Path) -> None:
    client = make_client(tmp_path)
    reply = client.get("/manifest.webmanifest")
    assert reply.status_code == 200
    assert reply.headers["content-type"].startswith("application/manifest+json")
    manifest = json.loads(reply.text)
    assert manifest["name"] == "Patience"
    assert manifest["short_name"]
    assert manifest["display"] in ("standalone", "fullscreen", "minimal-ui")
    assert client.get("/" + manifest["start_url"].removeprefix("./")).status_code == 200
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"])
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["background_color"])
    sizes = set()
    for icon in manifest["icons"]:
        got = client.get("/" + icon["src"])
        assert got.status_code == 200, icon["src"]
        assert got.headers["content-type"].startswith(icon["type"]), icon["src"]
        if icon["type"] == "image/png":
            width, height = png_size(got.content)
            assert icon["sizes"] == f"{width}x{height}", icon["src"]
            sizes.add(width)
        else:
            assert "<svg" in got.text
    # What Android asks for: a 192 and a 512 pixel icon, one usable as a maskable icon.
    assert {192, 512} <= sizes
    assert any("maskable" in icon.get("purpose", "") for icon in manifest["icons"])
