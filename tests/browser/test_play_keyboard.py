"""A whole daily round played with the keyboard only, to the verified rank."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.support.browser_stack import Stack
from tests.support.page_flows import start_game, wait_verified
from tests.support.table_player import Player, hand, wait_idle


def test_keyboard_controls_prepare_and_cancel(page: Page, stack: Stack) -> None:
    stack.clock.set_day("2030-02-02")
    start_game(page, "Tasten")
    player = Player(page, keyboard=True)
    # Screen readers: every card and control has a name.
    card_name = re.compile(r"^((Pik|Herz|Karo|Kreuz) (Ass|[2-9]|10|Bube|Dame|König)|Joker)$")
    for item in page.locator("#hand li").all():
        expect(item).to_have_accessible_name(card_name)
    for button in page.locator("button:visible").all():
        assert (button.get_attribute("aria-label") or button.inner_text()).strip()
    expect(page.locator("#hand")).to_have_accessible_name(re.compile("Deine Hand"))
    page.keyboard.press(player.key("hand"))
    first = page.locator("#hand li").first
    expect(first).to_be_focused()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#hand li").nth(1)).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#hand li[aria-selected=true]")).to_have_count(1)
    page.keyboard.press("Escape")
    expect(page.locator("#hand li[aria-selected=true]")).to_have_count(0)
    # An action only prepares: Escape closes the panel and nothing is sent.
    page.keyboard.press(player.key("draw"))
    expect(page.locator("#confirm")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#confirm")).to_be_hidden()
    expect(page.locator("#hand li")).to_have_count(15)
    # Discarding in the draw phase is explained in German, from the API's error code.
    player.select([0])
    page.keyboard.press(player.key("discard"))
    page.keyboard.press("Enter")
    wait_idle(page)
    expect(page.locator("#message")).to_contain_text("Erst ziehen")
    expect(page.locator("#hand li")).to_have_count(15)
    expect(page.locator("#hand li[aria-selected=true]")).to_have_count(1)  # kept to correct

    # Sorting by rank and back by suit keeps the same cards.
    by_suit = hand(page)
    page.keyboard.press(player.key("sort"))
    by_rank = hand(page)
    assert sorted(by_rank) == sorted(by_suit)
    order = "A23456789TJQKX"
    assert [order.index(c[0]) for c in by_rank] == sorted(order.index(c[0]) for c in by_rank)
    page.keyboard.press(player.key("sort"))
    assert hand(page) == by_suit


def test_keyboard_round_to_verified_rank(page: Page, stack: Stack, artifacts: Path) -> None:
    stack.clock.set_day("2030-02-03")
    start_game(page, "Tastatur")
    player = Player(page, keyboard=True)
    player.play_round()
    score, rank = wait_verified(page)
    assert rank == 1  # the only verified player of the day
    expect(page.locator("#end")).to_contain_text(f"{score:+d}".replace("-", "−"))
    assert player.turns > 0 and player.melds_laid >= 1, player
    page.screenshot(path=str(artifacts / "end-screen-keyboard.png"), full_page=True)
