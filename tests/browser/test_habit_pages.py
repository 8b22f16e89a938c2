"""The daily habit's pages in Chromium, German and English: the place in the field
(histogram with the player's mark, share text without a card), the statistics page (SVG drawn by
the page), a league created and shown through its page, the streak on the start page."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.support.browser_stack import Stack
from tests.support.page_flows import api_call
from tests.support.player import play_to_end

CARD = re.compile(r"\b(?:[2-9TJQKA][CDHS]|X)\b")  # F1 notation: no card in a share text
WORDS = {
    "de": {
        "field": "Dein Platz im Feld",
        "stats": "Deine Statistik",
        "streak": "Serie: 1 Tag ·",  # one day, not "1 Tage"
        "empty": "Noch keine Ergebnisse",
    },
    "en": {
        "field": "Your place in the field",
        "stats": "Your statistics",
        "streak": "Streak: 1 day ·",
        "empty": "No results yet",
    },
}
DAYS = {"de": "2030-07-02", "en": "2030-07-04"}


@pytest.mark.parametrize("lang", ["de", "en"])
def test_field_stats_and_league_pages(page: Page, stack: Stack, lang: str) -> None:
    stack.clock.set_day(DAYS[lang])
    words = WORDS[lang]
    page.goto(f"/?lang={lang}")
    page.wait_for_selector("body[data-ready='1']")
    call = api_call(page)
    status, started = call("POST", f"/api/daily/{DAYS[lang]}/attempts", {"name": f"Habit {lang}"})
    assert status == 201, started
    attempt = started["attempt"]["id"]
    play_to_end(call, attempt, use_hints=False)

    page.goto(f"/play/{attempt}")
    expect(page.locator("#verify-status")).to_have_attribute(
        "data-state", "verified", timeout=90_000
    )
    expect(page.locator("#field-link")).to_be_visible()
    # alone in the day's field: the place, and no percentage (it read "– %")
    expect(page.locator("#share-text")).to_have_value(re.compile(r"(Platz|place) 1/1"))
    assert "– %" not in page.locator("#share-text").input_value()
    assert CARD.search(page.locator("#share-text").input_value()) is None

    page.locator("#field-link").click()
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("h1")).to_have_text(words["field"])
    expect(page.locator("#field-histogram svg rect.bar.mark")).to_have_count(1)
    expect(page.locator("#field-share")).to_have_value(re.compile(DAYS[lang]))
    assert CARD.search(page.locator("#field-share").input_value()) is None

    page.goto("/stats")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("h1")).to_have_text(words["stats"])
    expect(page.locator("#stats-games")).to_have_text("1")
    expect(page.locator("#stats-histogram svg rect.bar")).to_have_count(1)

    page.goto("/")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#streak")).to_contain_text(words["streak"])

    page.goto("/leagues")
    page.wait_for_selector("body[data-ready='1']")
    page.locator("#league-name").fill("   ")  # blank: the service's 422, shown
    page.locator("#create-button").click()
    expect(page.locator("#league-error")).not_to_be_empty()
    page.locator("#league-name").fill(f"Runde {lang}")
    page.locator("#create-button").click()
    page.wait_for_url(re.compile(r"/leagues/[A-Z0-9]{8}$"))
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#league-title")).to_have_text(f"Runde {lang}")
    expect(page.locator("#league-day")).to_contain_text(f"Habit {lang}")
    # Alone in the day's field: no matchpoints, so no all-time entry yet (spec reading).
    expect(page.locator("#league-all")).to_contain_text(words["empty"])
    page.locator("#league-leave").click()
    expect(page.locator("#league-join")).to_be_visible()

    page.goto("/leagues/ZZZZZZZZ")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#league-error")).not_to_be_empty()
