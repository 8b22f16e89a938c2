"""The rankings page pages through a day's board and the all-time board."""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any

from playwright.sync_api import Page, expect

from tests.support.browser_stack import Stack

PLAYERS = 27
PAGE = 20


def call(stack: Stack, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(stack.base_url + path, data, headers, method=method)
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def test_rankings_pages(page: Page, stack: Stack) -> None:
    date = "2030-05-01"
    stack.clock.set_day(date)
    for i in range(PLAYERS):  # API clients: a new player each (no cookie), each resigns at once
        started = call(stack, "POST", f"/api/daily/{date}/attempts", {"name": f"Spieler {i:02}"})
        attempt = started["attempt"]
        call(
            stack,
            "POST",
            f"/api/attempts/{attempt['id']}/moves",
            {"move": "resign", "seq": attempt["seq"]},
            started["token"],
        )
    deadline = time.monotonic() + 90
    while call(stack, "GET", f"/api/leaderboard/{date}?limit=1")["total"] < PLAYERS:
        assert time.monotonic() < deadline, "verification did not finish"
        time.sleep(0.3)

    page.goto("/rankings")
    expect(page.locator("#tab-today")).to_have_attribute("aria-selected", "true")
    rows = page.locator("#board-body tr")
    expect(rows).to_have_count(PAGE)
    expect(page.locator("#page-info")).to_have_text("Seite 1 von 2")
    expect(page.locator("#prev")).to_be_disabled()
    first_page = rows.all_inner_texts()
    page.locator("#next").click()
    expect(rows).to_have_count(PLAYERS - PAGE)
    expect(page.locator("#page-info")).to_have_text("Seite 2 von 2")
    expect(page.locator("#next")).to_be_disabled()
    expect(rows.first.locator("td").first).to_have_text(str(PAGE + 1))
    assert not set(rows.all_inner_texts()) & set(first_page)
    page.locator("#prev").click()
    expect(rows.first.locator("td").first).to_have_text("1")

    # A past day by the date picker.
    page.locator("#tab-day").click()
    page.locator("#day-input").fill(date)
    page.locator("#day-form button").click()
    expect(page.locator("#board-total")).to_contain_text(str(PLAYERS))
