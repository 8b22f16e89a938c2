"""Page flows of the tables shared by the browser tests: make a table on the
"Spielen" page, join it by its invite link, start it, and play simple turns through the page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

from tests.support.tables import Call, play_turn

# Wraps EventSource before any page script: every message of the table's stream, as received.
CAPTURE_STREAM = """
window.__stream = [];
const Original = window.EventSource;
window.EventSource = class extends Original {
  constructor(...args) {
    super(...args);
    this.addEventListener("table", (e) => window.__stream.push(e.data));
  }
};
"""


def create_table(
    page: Page,
    name: str,
    seats: list[str],
    lang: str = "de",
    timer: int = 0,
    game: str = "pikdame",
    options: tuple[str, ...] = (),
) -> str:
    """On /spielen: seat 0 is the creator; ``seats`` names the others, "human" or a bot level;
    ``game`` and its ``options`` (Tausende's R12.8 checkboxes). Returns the invite link shown in
    the waiting room."""
    page.goto(f"/spielen?lang={lang}")
    page.wait_for_selector("body[data-ready='1']")
    if game != "pikdame":
        page.locator(f"input[name=game][value='{game}']").check()
    for option in options:
        page.locator(f"#{option}").check()
    page.locator(f"input[name=players][value='{len(seats) + 1}']").check()
    page.locator("#name").fill(name)
    for n, kind in enumerate(seats, start=1):
        if kind == "human":
            page.locator(f"#kind-{n}").select_option("human")
        else:
            page.locator(f"#kind-{n}").select_option("bot")
            page.locator(f"#level-{n}").select_option(kind)
    if timer:
        page.locator("#turn-timer").select_option(str(timer))
    page.locator("#create-button").click()
    page.wait_for_url("**/tables/*")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#waiting")).to_be_visible()
    link = page.locator("#invite-link").input_value()
    assert "/t/" in link
    return link


def join_table(page: Page, link: str, name: str) -> None:
    page.goto(link)
    page.wait_for_selector("body[data-ready='1']")
    page.locator("#name").fill(name)
    page.locator("#join-button").click()
    page.wait_for_url("**/tables/*")
    page.wait_for_selector("body[data-ready='1']")


def my_turn(page: Page) -> None:
    """Wait (auto-wait, no timing) until it is this page's player's turn."""
    expect(page.locator("#table.my-turn")).to_be_visible(timeout=60_000)


def draw(page: Page) -> None:
    """Draw from the stock (the hand grows by one)."""
    before = page.locator("#hand li").count()
    page.locator("#actions button[data-action=draw]").click()
    page.locator("#confirm-ok").click()
    expect(page.locator("#hand li")).to_have_count(before + 1)


def discard_first(page: Page) -> str:
    """Discard the first card of the hand; returns it."""
    card = str(page.locator("#hand li").first.get_attribute("data-card"))
    page.locator("#hand li").first.click()
    page.locator("#actions button[data-action=discard]").click()
    page.locator("#confirm-ok").click()
    return card


def play_until(
    call: Call, table_id: str, seat: int, done: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    """Play ``seat`` through the API with the scripted player of tests/support/tables.py (cut in
    the middle, draw, discard the costliest card) until ``done(T)``; returns that table."""
    status, body = call("GET", f"/api/tables/{table_id}", None)
    assert status == 200, body
    table: dict[str, Any] = body["table"]
    for _ in range(5000):
        if done(table):
            return table
        assert table["status"] == "playing" and table["turn"] == seat, table
        table = play_turn(call, table)
    raise AssertionError("not done in 5000 moves")
