"""The whole site has an English switch: the table, its keys and its explanations included."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.support.browser_stack import Stack
from tests.support.table_player import Player, hand, points, wait_idle


def test_table_in_english_and_back(page: Page, stack: Stack) -> None:
    stack.clock.set_day("2030-02-12")
    page.goto("/?lang=en")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#start-button")).to_have_text("Start the game")
    page.locator("#name").fill("Eve")
    page.locator("#start-button").click()
    page.wait_for_url("**/play/**")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#status")).to_contain_text("Your turn")
    expect(page.locator("#actions")).to_contain_text("Take the pile")
    expect(page.locator("#hand")).to_have_attribute("aria-labelledby", "hand-title")
    total = sum(points(c) for c in hand(page))
    expect(page.locator("#hand-title")).to_have_text(f"Your hand (15 cards, {total} points)")
    first = page.locator("#hand li").first
    assert " of " in (first.locator(".sr").inner_text() or "")

    player = Player(page, keyboard=True)
    assert player.key("draw") == "d"
    player.select([0])
    page.keyboard.press(player.key("discard"))
    page.keyboard.press("Enter")
    wait_idle(page)
    expect(page.locator("#message")).to_contain_text("first draw")

    page.locator("#lang-switch a[hreflang=de]").click()
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#status")).to_contain_text("Du bist am Zug")
    expect(page.locator("#hand li")).to_have_count(15)
