"""The bots' answers are shown one by one (the acting seat lit, the move list growing), never as
one jump to the final table."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.support.browser_stack import Stack
from tests.support.page_flows import start_game
from tests.support.table_player import Player, wait_idle


def test_bot_moves_are_played_back_one_by_one(page: Page, stack: Stack) -> None:
    stack.clock.set_day("2030-02-14")
    start_game(page, "Zuschauer")
    page.locator("#speed").select_option("normal")
    player = Player(page)
    player.act("draw")
    player.select([0])
    page.locator("#actions button[data-action=discard]").click()
    page.locator("#confirm-ok").click()
    log = page.locator("#log li")
    expect(page.locator(".seat.acting")).to_have_count(1)
    expect(page.locator("#status")).to_contain_text("Bot 1:")
    seen = log.count()
    expect(log).not_to_have_count(seen)  # more lines arrive while we watch
    expect(page.locator("#seat-2.acting, #seat-3.acting")).to_have_count(1)
    wait_idle(page)
    assert log.count() > seen
    expect(page.locator(".seat.acting")).to_have_count(0)
    lines = log.all_inner_texts()
    bots = [line for line in lines if line.startswith("Bot")]
    assert bots and bots[0].startswith("Bot 1:"), lines  # in seat order
