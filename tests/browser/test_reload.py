"""Reloading mid-game continues the same game, from the table and from the front page."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from tests.support.browser_stack import Stack
from tests.support.page_flows import start_game, wait_verified
from tests.support.table_player import Player, hand, wait_idle


def test_reload_mid_game_and_continue(page: Page, stack: Stack, artifacts: Path) -> None:
    stack.clock.set_day("2030-02-04")
    attempt = start_game(page, "Neuladen")
    expect(page.locator("#guide")).to_have_attribute("open", "")  # a first table: guide open
    player = Player(page)
    player.play_turn()
    player.act("draw")
    before = hand(page)
    log_size = page.locator("#opponents .meld [data-card]").count()
    moves_seen = page.locator("#log li").all_inner_texts()

    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert hand(page) == before
    expect(page.locator("#guide")).not_to_have_attribute("open", "")  # seen once is enough
    assert page.locator("#opponents .meld [data-card]").count() == log_size
    assert page.locator("#log li").all_inner_texts() == moves_seen
    expect(page.locator("#status")).to_contain_text("wirf zum Schluss")

    # The front page offers to continue, and starting again leads to the same game.
    page.goto("/")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#continue")).to_be_visible()
    expect(page.locator("#start-form")).to_be_hidden()
    page.locator("#continue-link").click()
    page.wait_for_selector("body[data-ready='1']")
    assert page.url.endswith(f"/play/{attempt}")
    assert hand(page) == before

    # Continue playing: discard, then a phone-sized look at the table.
    player.select([0])
    player.act("discard")
    wait_idle(page)
    page.set_viewport_size({"width": 360, "height": 780})
    page.screenshot(path=str(artifacts / "table-phone.png"), full_page=True)
    page.set_viewport_size({"width": 1440, "height": 1000})

    # Resigning ends the round at once; the result is verified like any other.
    page.locator("#resign").click()
    page.locator("#confirm-ok").click()
    wait_idle(page)
    expect(page.locator("#end-summary")).to_contain_text("Aufgegeben")
    wait_verified(page)


def test_second_start_same_day_continues(page: Page, stack: Stack) -> None:
    """A player whose browser forgot the game id but holds the session is led back to it."""
    stack.clock.set_day("2030-02-05")
    attempt = start_game(page, "Zweimal")
    page.evaluate("() => localStorage.clear()")
    page.goto("/")
    page.wait_for_selector("body[data-ready='1']")
    page.locator("#name").fill("Zweimal")
    page.locator("#start-button").click()
    page.wait_for_url(f"**/play/{attempt}")


def test_two_tabs_the_stale_one_is_refreshed(page: Page, stack: Stack) -> None:
    """The stale tab takes the current table and the whole move list (it showed an
    empty move history)."""
    stack.clock.set_day("2030-02-06")
    attempt = start_game(page, "Zwei Tabs")
    other = page.context.new_page()
    other.goto(f"/play/{attempt}")
    other.wait_for_selector("body[data-ready='1']")
    Player(page).play_turn()  # the first tab plays a whole turn, the bots answer
    Player(page).act("draw")
    moves = page.locator("#log li").all_inner_texts()
    assert len(moves) >= 4, moves
    stale = Player(other)
    other.locator("#actions button[data-action=draw]").click()
    other.locator("#confirm-ok").click()
    wait_idle(other)
    expect(other.locator("#message")).to_contain_text("inzwischen geändert")
    assert hand(other) == hand(page)  # refreshed to the current table
    assert other.locator("#log li").all_inner_texts() == moves
    stale.select([0])
    stale.act("discard")
    other.close()
