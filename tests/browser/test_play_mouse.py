"""A whole daily round played with the mouse in a real Chromium, to the verified rank."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.support.browser_stack import Stack
from tests.support.page_flows import start_game, wait_verified
from tests.support.table_player import Player, wait_idle


def test_mouse_round_to_verified_rank(page: Page, stack: Stack, artifacts: Path) -> None:
    stack.clock.set_day("2030-04-04")
    start_game(page, "Maus")
    expect(page.locator("#status")).to_contain_text("Du bist am Zug")
    expect(page.locator("#hand li")).to_have_count(15)
    page.screenshot(path=str(artifacts / "table-start.png"), full_page=True)

    player = Player(page)
    player.play_turn()
    wait_idle(page)
    page.screenshot(path=str(artifacts / "table.png"), full_page=True)
    # The whole discard pile on demand, top card first.
    toggle = page.locator("#pile-toggle")
    count = int(re.sub(r"\D", "", toggle.inner_text()))
    if count >= 2:
        toggle.click()
        expect(page.locator("#pile .card")).to_have_count(count)
        top = page.locator("#discard-top .card").get_attribute("data-card")
        expect(page.locator("#pile .card").first).to_have_attribute("data-card", top or "")
        toggle.click()
        expect(page.locator("#pile")).to_be_hidden()
    player.play_round()

    score, rank = wait_verified(page)
    assert rank >= 1
    expect(page.locator("#end table.scores tbody tr")).to_have_count(4)
    # the page writes its own text at once and the server's (place, streak) when it arrives
    expect(page.locator("#share-text")).to_have_value(re.compile(f"Platz {rank}/"))
    share = page.locator("#share-text").input_value()
    assert "2030-04-04" in share and f"Platz {rank}/" in share  # the server's text
    assert not re.search(r"(10|[2-9ABDKJQ])[♠♥♦♣]", share), share
    squares = "".join(line for line in share.splitlines() if re.fullmatch("[🟩⬜]+", line))
    assert len(squares) == player.turns and "🟩" in squares, share
    page.screenshot(path=str(artifacts / "end-screen.png"), full_page=True)
    page.set_viewport_size({"width": 360, "height": 780})
    page.locator("#end").screenshot(path=str(artifacts / "end-screen-phone.png"))
    page.set_viewport_size({"width": 1440, "height": 1000})

    page.locator("#end-rank a[href^='/rankings']").click()
    row = page.locator("#board-body tr.mine")
    expect(row).to_contain_text("Maus")
    expect(row).to_contain_text(f"{score:+d}".replace("-", "−") if score else "0")
    # The day is chosen so that the round needs every kind of action at least once.
    assert player.melds_laid >= 1, player
    assert player.lays + player.takes >= 1, player
