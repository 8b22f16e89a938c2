"""The site around the table: rules (German, English switch), rankings (today, a day, all-time,
around me), and the archive of closed days (fairness check, unranked replay, replay viewer)."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, expect

from engine import commitment, daily_seed
from tests.support.browser_stack import SECRET, Stack
from tests.support.page_flows import start_game, wait_verified
from tests.support.table_player import Player


def test_rules_in_german_with_english_switch(page: Page, stack: Stack) -> None:
    page.goto("/rules")
    expect(page.locator("h1")).to_have_text("Spielregeln: Pik Dame")
    expect(page.locator("#rules")).to_contain_text("K-A-2 und B-D-K-A-2 sind gültig")
    expect(page.locator("#rules")).to_contain_text("Pik Dame ♠")
    page.locator("#lang-switch a[hreflang=en]").click()
    expect(page.locator("h1")).to_have_text("Rules: Pik Dame")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    # The choice sticks for the whole site.
    page.goto("/")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("h1")).to_have_text("Daily challenge")
    expect(page.locator("nav")).to_contain_text("Rankings")
    page.locator("#lang-switch a[hreflang=de]").click()
    expect(page.locator("h1")).to_have_text("Tages-Challenge")


def test_today_page_shows_the_day(page: Page, stack: Stack) -> None:
    date = "2030-02-20"
    stack.clock.set_day(date)
    page.goto("/")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#day-date")).to_contain_text("20. Februar 2030")
    expect(page.locator("#day-commitment")).to_have_text(
        commitment(daily_seed(SECRET.encode(), date))
    )
    expect(page.locator("#countdown")).to_have_text(
        re.compile(r"^([01]\d|2[0-4]):[0-5]\d:[0-5]\d$")
    )
    # An empty name is refused with an explanation, and nothing starts.
    page.locator("#start-button").click()
    expect(page.locator("#start-error")).to_contain_text("Bitte gib einen Namen ein")
    assert page.url.endswith("/")


def test_archive_rankings_and_replay_of_a_closed_day(
    page: Page, stack: Stack, artifacts: Path
) -> None:
    day = "2030-03-01"
    stack.clock.set_day(day)
    attempt = start_game(page, "Archiv <i>")
    player = Player(page)
    player.play_turn()
    player.play_turn()
    player.resign()
    wait_verified(page)

    # Before the day closes, the replay viewer refuses to spoil it to anyone else (a browser of
    # its own); the player who finished it sees it again (tests/browser/test_own_replay.py).
    stranger = page.context.browser.new_context(base_url=stack.base_url)  # type: ignore[union-attr]
    other = stranger.new_page()
    other.goto(f"/replay/{attempt}")
    expect(other.locator("#replay-error")).to_contain_text("erst nach Tagesende")
    refused = other.request.get(f"/replay/{attempt}/positions")
    assert refused.status == 409 and "positions" not in refused.json()
    stranger.close()

    # Rankings today: the name is shown escaped, as text.
    page.goto("/rankings")
    expect(page.locator("#board-body")).to_contain_text("Archiv <i>")
    page.locator("#tab-alltime").click()
    expect(page.locator("#board-head")).to_contain_text("Bester Tag")
    expect(page.locator("#board-body")).to_contain_text("Archiv <i>")
    page.locator("#tab-around").click()
    expect(page.locator("#board-body tr.mine")).to_contain_text("Archiv <i>")

    # The next day: the archive shows the seed; the browser checks it against the commitment.
    stack.clock.set_day("2030-03-02")
    page.goto("/archive")
    item = page.locator(f"li.day[data-date='{day}']")
    seed = daily_seed(SECRET.encode(), day).hex()
    expect(item.locator("code.seed")).to_have_text(seed)
    item.locator("button.check").click()
    expect(item.locator(".check-result")).to_have_attribute("data-ok", "true")
    page.screenshot(path=str(artifacts / "archive.png"), full_page=True)

    # Rankings of that day link to the replay viewer, which steps through the record.
    item.locator("a", has_text="Rangliste").click()
    expect(page.locator("#tab-day")).to_have_attribute("aria-selected", "true")
    page.locator("#board-body a", has_text="Archiv <i>").click()
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#replay-step")).to_contain_text("Nach dem Geben")
    expect(page.locator("#replay-seats .seat")).to_have_count(4)
    expect(page.locator("#replay-seats .seat").first.locator(".replay-hand .card")).to_have_count(
        15
    )
    page.locator("#forward").click()
    expect(page.locator("#replay-step")).to_contain_text("Zug 1 von")
    expect(page.locator("#replay-seats .seat").first.locator(".replay-hand .card")).to_have_count(
        16
    )
    page.keyboard.press("End")
    expect(page.locator("#replay-result")).to_contain_text("Ergebnis")
    page.screenshot(path=str(artifacts / "replay.png"), full_page=True)

    # "Wiederholen" starts the same seeded match, unranked.
    page.goto("/archive")
    page.locator(f"li.day[data-date='{day}'] button.practice").click()
    page.wait_for_url("**/play/**")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#practice-flag")).to_be_visible()
    Player(page).act("draw")
    expect(page.locator("#hand li")).to_have_count(16)
    # Defect (issue 38): a practice game's end screen showed an empty share box; a practice
    # game has nothing to share (no rank, no score of the day), so it shows none.
    page.locator("#resign").click()
    page.locator("#confirm-ok").click()
    expect(page.locator("#verify-status")).to_have_attribute("data-state", "practice")
    expect(page.locator("#share-text")).to_be_hidden()
    expect(page.locator("#share-copy")).to_be_hidden()
