"""The bots' answers are shown one by one (the acting seat lit, the move list growing), never as
one jump to the final table."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.support.browser_stack import Stack
from tests.support.page_flows import start_game
from tests.support.table_player import Player, hand, wait_idle


def test_bot_moves_are_played_back_one_by_one(page: Page, stack: Stack) -> None:
    """The bots' moves play back one by one while the player's own discard has already left the
    hand (it stayed there during the 5-10 s of playback)."""
    stack.clock.set_day("2030-02-14")
    start_game(page, "Zuschauer")
    page.locator("#speed").select_option("normal")
    player = Player(page)
    player.act("draw")
    cards = len(hand(page))
    player.select([0])
    page.locator("#actions button[data-action=discard]").click()
    page.locator("#confirm-ok").click()
    log = page.locator("#log li")
    expect(page.locator(".seat.acting")).to_have_count(1)
    expect(page.locator("#status")).to_contain_text("Bot 1:")
    # while a bot is still being played back, the hand is already one card shorter
    page.wait_for_function(
        "(n) => document.body.dataset.busy === '1' && document.querySelector('.seat.acting')"
        " && document.querySelectorAll('#hand li').length === n"
        " && document.querySelector('#hand-title').textContent.includes(n + ' Karten')",
        arg=cards - 1,
    )
    seen = log.count()
    expect(log).not_to_have_count(seen)  # more lines arrive while we watch
    expect(page.locator("#seat-2.acting, #seat-3.acting")).to_have_count(1)
    wait_idle(page)
    assert log.count() > seen
    expect(page.locator(".seat.acting")).to_have_count(0)
    lines = log.all_inner_texts()
    bots = [line for line in lines if line.startswith("Bot")]
    assert bots and bots[0].startswith("Bot 1:"), lines  # in seat order
