"""Phones: no page scrolls sideways, hand cards stay big enough to read and tap, and one
portrait screen (390 × 844) holds everything a turn needs."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, ViewportSize, expect

from tests.support.browser_stack import Stack
from tests.support.page_checks import outside_viewport, overflow, overlaps
from tests.support.page_flows import start_game
from tests.support.table_player import Player, wait_idle

PHONE: ViewportSize = {"width": 360, "height": 780}
PORTRAIT: ViewportSize = {"width": 390, "height": 844}
# What a turn needs in sight: the piles, the last moves, the own melds, the hand, the actions.
TURN_PARTS = [
    "#stock .card",
    "#discard-top .card",
    "#log-title",
    "#log",
    "#own-title",
    "#own-melds",
    "#hand-title",
    "#hand li",
    "#actions button",
    "#status",
]


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


def assert_turn_fits(page: Page) -> None:
    page.evaluate("() => window.scrollTo(0, 0)")
    assert page.evaluate("() => window.scrollY") == 0
    assert outside_viewport(page, TURN_PARTS) == []
    # the status banner covers nothing: not the pile labels, not the hand
    for other in ("#stock-title", "#discard-title", "#hand li", "#opponents"):
        assert overlaps(page, "#status", other) == [], other


def test_one_portrait_screen_holds_a_turn(page: Page, stack: Stack, artifacts: Path) -> None:
    """At 390 × 844 the piles, the last moves, the own melds, the hand and the action
    buttons are all on screen without scrolling; the bots are compact (their melds on demand)
    and the guide folds away once the player has played."""
    stack.clock.set_day("2030-02-17")
    page.set_viewport_size(PORTRAIT)
    start_game(page, "Hochformat")
    expect(page.locator("#guide")).to_have_attribute("open", "")  # the first look: guide open
    page.locator("#guide summary").click()  # a newcomer reads it and folds it
    assert_turn_fits(page)
    page.screenshot(path=str(artifacts / "phone-390-start.png"))
    expect(page.locator("#opponents .seat-melds").first).not_to_have_attribute("open", "")

    player = Player(page)
    player.play_turn()
    wait_idle(page)
    expect(page.locator("#guide")).not_to_have_attribute("open", "")
    assert_turn_fits(page)
    page.screenshot(path=str(artifacts / "phone-390-played.png"))
    # a bot's melds open on demand (its panel then takes the whole row) and close again
    page.locator("#seat-1 .seat-melds summary").click()
    expect(page.locator("#seat-1 .seat-melds")).to_have_attribute("open", "")
    assert overflow(page) <= 0
    page.screenshot(path=str(artifacts / "phone-390-bot-melds.png"))
    page.locator("#seat-1 .seat-melds summary").click()

    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#guide")).not_to_have_attribute("open", "")  # played once: collapsed
    assert_turn_fits(page)
