"""More of the table page (docs/TABLES.md) against the real backend: the lucky grab
(R3, F3 step 4) shown to everyone at the table after the cut, the turn timer's countdown in the
server's time on a page whose clock is wrong (R9), and who went out in the round's result (R7)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.support.browser_stack import Stack
from tests.support.page_flows import api_call
from tests.support.table_flows import (
    create_table,
    cut_at,
    join_table,
    lucky_cut,
    new_player,
    play_until,
    two_players,
)

# The page's clock six years ahead of the server's (the stack's clock is 2030-01-01): a deadline
# read against it would be long past.
SKEWED_CLOCK = """
(() => {
  const skew = 6 * 365 * 86400 * 1000;
  const Real = Date;
  class Skewed extends Real {
    constructor(...args) { if (args.length === 0) super(Real.now() + skew); else super(...args); }
    static now() { return Real.now() + skew; }
  }
  globalThis.Date = Skewed;
})();
"""


@pytest.fixture
def two(browser: Browser, stack: Stack) -> Iterator[tuple[Page, Page]]:
    """Two people, each in their own browser profile (their own session cookie)."""
    with two_players(browser, stack) as pages:
        yield pages


def test_the_lucky_grab_is_shown_to_everyone_at_the_table(
    two: tuple[Page, Page], stack: Stack
) -> None:
    """R3/F3 step 4: Ada cuts where a Q♠ or joker lies; she and Bea (another browser, told by the
    live stream) both see the grab with Ada's name and the cards face up."""
    ada, bea = two
    link = create_table(ada, "Ada", ["human"])
    join_table(bea, link, "Bea")
    expect(ada.locator("#waiting-seats")).to_contain_text("Bea")
    ada.locator("#start-button").click()
    expect(ada.locator("#cut-control")).to_be_visible()  # two seats: the creator cuts (R2)
    table_id = ada.url.rsplit("/", 1)[1]
    k, grabbed = lucky_cut(stack.redis_url, table_id)
    cut_at(ada, k)
    for page in (ada, bea):
        box = page.locator("#lucky")
        expect(box).to_be_visible()
        expect(box).to_contain_text("Ada")
        expect(box.locator(".preview-cards > *")).to_have_count(len(grabbed))
    table = bea.request.get(f"/api/tables/{table_id}").json()["table"]
    assert table["seat"] == 1 and len(table["lucky"]) == len(grabbed)
    assert table["rounds"][0]["cut"] == k


def test_the_countdown_is_the_servers_on_a_page_with_a_wrong_clock(
    browser: Browser, stack: Stack
) -> None:
    """R9: the page's clock is six years ahead; the countdown still shows the server's time left
    (deadline − T.now), not zero."""
    ctx = new_player(browser, stack, scripts=(SKEWED_CLOCK,))
    page = ctx.new_page()
    assert page.evaluate("() => new Date().getUTCFullYear()") >= 2031
    create_table(page, "Ada", ["zen"], timer=90)
    page.locator("#start-button").click()
    box = page.locator("#countdown")
    expect(box).to_be_visible()
    expect(box).to_contain_text("Ada")
    shown = int(re.findall(r"\d+", str(box.text_content()))[-1])
    assert 0 < shown <= 90
    ctx.close()


def test_the_round_result_names_who_went_out(browser: Browser, stack: Stack) -> None:
    """R7.1: a round ended by going out names its winner (T.rounds[].winner) on the page; one
    ended by the stock (R7.2) says there is no winner."""
    ctx = new_player(browser, stack)
    page = ctx.new_page()
    create_table(page, "Ada", ["zen"], timer=90)
    page.locator("#start-button").click()
    expect(page.locator("#cut-control")).to_be_visible()
    table_id = page.url.rsplit("/", 1)[1]
    table = play_until(
        api_call(page),
        table_id,
        0,
        lambda t: bool(t["rounds"]) and t["rounds"][0]["scores"] is not None,
    )
    first = table["rounds"][0]
    outcome = page.locator("#round-outcome")
    expect(page.locator("#round-result")).to_be_visible()
    if first["end"] == "out":
        assert first["winner"] in (0, 1) and first["doubled"] is False  # no hand_out_double
        expect(outcome).to_contain_text(["Ada", "Bot 1"][first["winner"]])
        expect(outcome).to_contain_text("hat ausgemacht")
    else:
        assert first["winner"] is None
        expect(outcome).to_contain_text("ohne Sieger")
    ctx.close()


def test_everyone_sees_the_countdown_and_each_seats_presence(
    two: tuple[Page, Page], stack: Stack
) -> None:
    """R9: the turn timer's countdown is shown to every seat, not only to the one to act; each
    human seat's presence is shown and goes off when that person's page closes."""
    ada, bea = two
    link = create_table(ada, "Ada", ["human", "beginner"], timer=90)
    join_table(bea, link, "Bea")
    expect(ada.locator("#waiting-seats")).to_contain_text("Bea")
    ada.locator("#start-button").click()
    for page in (ada, bea):  # Bea cuts first (R2: the seat before the dealer, seat 2): her clock
        expect(page.locator("#countdown")).to_be_visible()
        expect(page.locator("#countdown")).to_contain_text("Bea")
    expect(ada.locator("#seat-strip [data-presence='1'].on")).to_be_visible()
    expect(bea.locator("#seat-strip [data-presence='0'].on")).to_be_visible()
    bea.close()
    expect(ada.locator("#seat-strip [data-presence='1'].off")).to_be_visible(timeout=30_000)
    expect(ada.locator("#seat-strip [data-presence='1'].on")).to_have_count(0)
