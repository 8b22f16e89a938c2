"""A 360-px phone: no page scrolls sideways, hand cards stay big enough to read and tap."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, ViewportSize

from tests.browser.flows import start_game
from tests.browser.stack import Stack

PHONE: ViewportSize = {"width": 360, "height": 780}


def overflow(page: Page) -> int:
    return int(page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth"))


def test_pages_fit_a_phone(page: Page, stack: Stack, artifacts: Path) -> None:
    stack.clock.set_day("2030-02-16")
    page.set_viewport_size(PHONE)
    attempt = start_game(page, "Telefon mit langem Namen")
    assert overflow(page) <= 0
    box = page.locator("#hand li .card").first.bounding_box()
    assert box is not None and box["width"] >= 36 and box["height"] >= 50, box
    rank_px = page.locator("#hand li .card .corner b").first.evaluate(
        "(el) => parseFloat(getComputedStyle(el).fontSize)"
    )
    assert rank_px >= 11
    page.screenshot(path=str(artifacts / "table-phone-start.png"), full_page=True)
    for path in ("/", "/rankings", "/archive", "/rules", f"/replay/{attempt}", "/rules?lang=en"):
        page.goto(path)
        page.wait_for_load_state("networkidle")
        assert overflow(page) <= 0, path
