"""The site installed as an app, in Chromium through the shipped nginx: the manifest linked from
the page is valid (its icons load at their sizes), the service worker registers at the root and a
returning player's page takes its static files from it; a new release (a static file whose
content, so whose ``?v=`` hash, changed) is served new and its old cache entry dropped; without a
network a page shows the offline page, and the API is never answered from the cache."""

from __future__ import annotations

import json
import re
import struct
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Response, expect

from service.pages import assets
from service.pages.pages import STATIC
from tests.support.browser_stack import Stack

# a file one page uses (the lessons' look) whose content the test changes for a "release"
PROBE = "css/learn.css"
KEPT_URLS = """async () => {
  const files = await caches.open("pikdame-static");
  return (await files.keys()).map((r) => new URL(r.url).pathname + new URL(r.url).search);
}"""


@pytest.fixture
def installed(browser: Browser, stack: Stack) -> Iterator[BrowserContext]:
    """A fresh profile with service workers allowed (the suite's other profiles block them)."""
    ctx = browser.new_context(base_url=stack.base_url, service_workers="allow")
    yield ctx
    ctx.close()


@pytest.fixture
def release() -> Iterator[Path]:
    """The probe file as it ships; restored (and its version forgotten) after the test."""
    path = STATIC / PROBE
    shipped = path.read_bytes()
    yield path
    path.write_bytes(shipped)
    assets.version.cache_clear()


def until(page: Page, script: str, arg: object = None, seconds: float = 15) -> None:
    """Until ``script`` (its promise awaited) is true in the page."""
    deadline = time.monotonic() + seconds
    while not page.evaluate(script, arg):
        assert time.monotonic() < deadline, script
        page.wait_for_timeout(50)


def controlled(page: Page) -> None:
    """Until the site's worker controls the page (registered, activated, claimed)."""
    until(
        page,
        "async () => (await navigator.serviceWorker.ready).active !== null"
        " && navigator.serviceWorker.controller !== null",
    )


def test_the_manifest_is_linked_and_valid(page: Page) -> None:
    page.goto("/?lang=nl")
    href = page.locator("link[rel=manifest]").get_attribute("href")
    assert href == "/manifest.webmanifest"
    answer = page.request.get(href)
    assert answer.status == 200
    assert answer.headers["content-type"].startswith("application/manifest+json")
    manifest = json.loads(answer.text())
    assert manifest["lang"] == "nl" and manifest["display"] == "standalone"
    assert manifest["start_url"] == "/" and manifest["name"]
    for icon in manifest["icons"]:
        fetched = page.request.get(icon["src"])
        assert fetched.status == 200, icon
        assert fetched.headers["content-type"].startswith(icon["type"]), icon
        if icon["type"] == "image/png":
            width, height = struct.unpack(">II", fetched.body()[16:24])
            assert f"{width}x{height}" == icon["sizes"]
    assert (
        page.locator("meta[name=theme-color]").get_attribute("content") == manifest["theme_color"]
    )


def test_the_worker_serves_a_returning_player_and_a_new_release(
    installed: BrowserContext, release: Path
) -> None:
    page = installed.new_page()
    page.goto("/lernen/pikdame")
    controlled(page)
    scope = page.evaluate("async () => (await navigator.serviceWorker.ready).scope")
    assert scope.endswith("/")
    old = assets.version(STATIC, PROBE)
    # the returning player: the page's static files from the worker, none from the network
    served: list[Response] = []
    page.on("response", lambda response: served.append(response))
    page.reload()
    expect(page.locator("h1")).to_be_visible()
    statics = [r for r in served if "/static/" in r.url]
    assert statics and all(r.from_service_worker for r in statics), [
        (r.url, r.from_service_worker) for r in statics if not r.from_service_worker
    ]
    assert any(r.url.endswith(f"{PROBE}?v={old}") for r in statics)
    assert f"/static/{PROBE}?v={old}" in page.evaluate(KEPT_URLS)
    # the API is never the worker's
    api = page.request.get("/api/daily")
    assert api.status == 200
    assert not any("/api/" in url for url in page.evaluate(KEPT_URLS))

    # a new release: the file changed, so its hash, so the worker's script
    release.write_bytes(release.read_bytes() + b"\n/* a new release */\n")
    assets.version.cache_clear()
    new = assets.version(STATIC, PROBE)
    assert new != old
    page.evaluate("async () => (await navigator.serviceWorker.getRegistration()).update()")
    until(
        page,
        """async (stale) => {
          const kept = (await (await caches.open("pikdame-static")).keys()).map((r) => r.url);
          return !kept.some((u) => u.endsWith(stale));
        }""",
        f"{PROBE}?v={old}",
    )
    served.clear()
    page.reload()
    expect(page.locator("h1")).to_be_visible()
    probe = [r for r in served if f"/static/{PROBE}" in r.url]
    assert probe and probe[0].url.endswith(f"?v={new}"), [r.url for r in probe]
    assert probe[0].from_service_worker
    assert "a new release" in probe[0].text()
    kept = page.evaluate(KEPT_URLS)
    assert f"/static/{PROBE}?v={new}" in kept
    assert f"/static/{PROBE}?v={old}" not in kept


def test_offline_a_page_says_so(installed: BrowserContext) -> None:
    page = installed.new_page()
    page.goto("/?lang=en")
    controlled(page)
    installed.set_offline(True)
    try:
        page.goto("/rankings")
        expect(page.locator("h1")).to_have_text("You are offline")
        expect(page.locator("#offline-text")).to_contain_text("never come from the cache")
        # its look is the site's, from the worker's cache
        assert (
            page.evaluate("() => getComputedStyle(document.querySelector('.site-header')).display")
            == "flex"
        )
        assert not any("/api/" in url for url in page.evaluate(KEPT_URLS))
    finally:
        installed.set_offline(False)
    page.goto("/rankings")
    expect(page.locator("h1")).not_to_have_text(re.compile("offline"))
