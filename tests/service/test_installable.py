"""The site as an installable app: the web app manifest (linked from every page, served as
application/manifest+json, in the page's language), its icons (the committed PNGs are exactly
what service/pages/icons.py draws), the service worker's script at the root (this release's
static files with their versions, never cached by the browser) and the offline page in every
language."""

from __future__ import annotations

import json
import re
import struct
import zlib

from flask import Flask

from service.pages import icons, offline
from service.pages.pages import STATIC
from service.pages.strings import LANGS, strings
from tests.support.lobby import signed_up


def png_pixels(data: bytes) -> tuple[int, int, bytes]:
    """A PNG's width, height and decompressed image data (its IDAT chunks joined)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, idat, size = 8, b"", (0, 0)
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        if kind == b"IHDR":
            size = struct.unpack(">II", body[:8])
            assert body[8:10] == bytes([8, 2])  # 8-bit RGB
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    return size[0], size[1], zlib.decompress(idat)


def test_the_icons_are_what_the_code_draws() -> None:
    small = (STATIC / "img" / "icon-192.png").read_bytes()
    assert png_pixels(small) == (192, 192, icons.pixels(192))
    assert png_pixels(icons.png(192)) == png_pixels(small)
    width, height, data = png_pixels((STATIC / "img" / "icon-512.png").read_bytes())
    assert (width, height, len(data)) == (512, 512, 512 * (1 + 3 * 512))


def test_every_page_links_the_manifest(app: Flask) -> None:
    client = app.test_client()
    for path in ("/", "/rules", "/spielen", "/settings", "/offline"):
        page = client.get(path).get_data(as_text=True)
        assert '<link rel="manifest" href="/manifest.webmanifest">' in page, path


def test_the_manifest_in_every_language(app: Flask) -> None:
    client = app.test_client()
    for lang in LANGS:
        answer = client.get(f"/manifest.webmanifest?lang={lang}")
        assert answer.status_code == 200
        assert answer.mimetype == "application/manifest+json"
        document = json.loads(answer.get_data(as_text=True))
        assert document["lang"] == lang
        assert document["name"] == strings(lang)["site.title"]
        assert document["start_url"] == "/" and document["scope"] == "/"
        assert document["display"] == "standalone"
        sizes = {icon["sizes"] for icon in document["icons"]}
        assert {"192x192", "512x512"} <= sizes
        for icon in document["icons"]:
            fetched = client.get(icon["src"])
            assert fetched.status_code == 200, icon
            assert fetched.mimetype == icon["type"], icon
            if icon["type"] == "image/png":
                width, height, _ = png_pixels(fetched.get_data())
                assert f"{width}x{height}" == icon["sizes"]


def test_the_worker_knows_this_releases_files(app: Flask) -> None:
    answer = app.test_client().get("/sw.js")
    assert answer.status_code == 200
    assert answer.mimetype == "text/javascript"
    assert answer.headers["Cache-Control"] == "no-cache"
    script = answer.get_data(as_text=True)
    found = re.search(r"^const ASSETS = (\{.*\});$", script, re.M)
    assert found is not None
    table = json.loads(found.group(1))
    assert table == offline.versions(STATIC)
    assert table["css/site.css"] and len(table["css/site.css"]) == 12
    assert all(name in table for name in offline.SHELL)
    assert script.endswith((STATIC / "js" / "sw.js").read_text(encoding="utf-8"))


def test_the_offline_page_in_every_language(app: Flask) -> None:
    client = app.test_client()
    for lang in LANGS:
        page = client.get(f"/offline?lang={lang}").get_data(as_text=True)
        assert strings(lang)["offline.title"] in page
        assert strings(lang)["offline.text"] in page


def test_the_offline_page_carries_no_account(app: Flask) -> None:
    """Defect: the service worker keeps /offline as it was asked at install, with the signed-in
    account's name (data-account-name): after signing out, and for the next account on the
    device, the kept page still named the last one. It now carries no account's data."""
    client = signed_up(app, "Offline Olga")
    assert "Offline Olga" in client.get("/").get_data(as_text=True)  # a page for the account
    page = client.get("/offline").get_data(as_text=True)
    assert "Offline Olga" not in page and "data-account-name" not in page
