"""Browser test fixtures: the real stack (Redis from tests/conftest.py, the app on a real HTTP
server, an rq worker) and a real headless Chromium driven by Playwright."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

from tests.support.browser_stack import Stack, start_stack

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
CHROMIUM = "/usr/bin/chromium"
GERMAN = "de-DE"
# Two shared cores: give every expectation room before calling it a failure.
expect.set_options(timeout=15_000)

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.integration)


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="package")
def stack(redis_url: str, artifacts: Path) -> Iterator[Stack]:
    """Started for the browser tests and stopped after them (its worker must not outlive them)."""
    running = start_stack(redis_url, artifacts)
    yield running
    running.close()


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    """Chromium whose every profile is a German browser unless a test says otherwise: the pages
    follow Accept-Language when no language was chosen, and Playwright's own default is en-US
    (Chromium's --lang does not change it)."""
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        plain = chromium.new_context

        def german(**options: Any) -> BrowserContext:
            options.setdefault("locale", GERMAN)
            return plain(**options)

        chromium.new_context = german  # type: ignore[method-assign]
        yield chromium
        chromium.close()


@pytest.fixture
def context(browser: Browser, stack: Stack) -> Iterator[BrowserContext]:
    """A fresh browser profile (a new player, a German browser) with fast bot playback. The site's
    service worker is left out (requests go to the network as they are, page.route sees them all):
    test_installable.py runs it in a profile of its own."""
    ctx = browser.new_context(
        base_url=stack.base_url,
        viewport={"width": 1440, "height": 1000},
        service_workers="block",
    )
    ctx.add_init_script("localStorage.setItem('pikdame.speed', JSON.stringify('veryfast'))")
    yield ctx
    ctx.close()


@pytest.fixture
def page(context: BrowserContext) -> Iterator[Page]:
    """A page that fails the test on any JavaScript error or CSP violation."""
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    tab.on(
        "console",
        lambda m: errors.append(f"console: {m.text}") if m.type == "error" else None,
    )
    yield tab
    real = [e for e in errors if "Failed to load resource" not in e]
    assert not real, real


@pytest.fixture
def strangers(browser: Browser, stack: Stack) -> Iterator[list[BrowserContext]]:
    """Three fresh profiles on http://localhost:PORT (passkeys need a domain, not an IP)."""
    base = stack.base_url.replace("127.0.0.1", "localhost")
    contexts = [
        browser.new_context(base_url=base, viewport={"width": 1280, "height": 900})
        for _ in range(3)
    ]
    yield contexts
    for ctx in contexts:
        ctx.close()
