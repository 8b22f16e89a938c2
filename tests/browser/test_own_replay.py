"""A player's own replay: the end screen of a finished daily attempt links to it at once, while
the day is open (as the player saw the game: the bots' hands face down), and the statistics
page's "Meine Spiele" lists the game with the same link."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.support.browser_stack import Stack
from tests.support.page_flows import start_game
from tests.support.table_player import Player


def test_the_end_screen_links_to_the_own_replay_and_my_games_lists_it(
    page: Page, stack: Stack
) -> None:
    stack.clock.set_day("2030-04-02")
    attempt = start_game(page, "Rita")
    player = Player(page)
    player.play_turn()
    player.resign()

    link = page.locator("#end-replay")
    expect(link).to_be_visible()
    link.click()
    page.wait_for_url(f"**/replay/{attempt}")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#replay-own")).to_be_visible()
    expect(page.locator("#replay-error")).to_have_text("")
    # seat 0's own hand face up, every bot's hand face down (the day's deal is still secret)
    seats = page.locator("#replay-seats .seat")
    expect(seats.nth(0).locator(".card.back")).to_have_count(0)
    expect(seats.nth(1).locator(".card.back").first).to_be_visible()
    expect(seats.nth(1).locator(".card:not(.back)")).to_have_count(0)
    page.locator("#last").click()
    expect(page.locator("#replay-result")).not_to_have_text("")

    page.goto("/stats")
    games = page.locator("#my-games li")
    expect(games).to_have_count(1)
    expect(games.first).to_contain_text("Pik Dame des Tages")
    games.first.locator("a.replay-link").click()
    page.wait_for_url(f"**/replay/{attempt}")
    page.wait_for_selector("body[data-ready='1']")


def test_a_finished_gin_match_links_to_its_own_replay(page: Page, stack: Stack) -> None:
    day = "2030-04-03"
    stack.clock.set_day(day)
    page.goto("/")
    made = page.request.post(f"/api/daily/{day}/attempts", data={"name": "Gina", "game": "gin"})
    assert made.status == 201, made.text()
    attempt = made.json()["attempt"]
    moved = page.request.post(
        f"/api/attempts/{attempt['id']}/moves", data={"move": "resign", "seq": attempt["seq"]}
    )
    assert moved.status == 200, moved.text()
    page.goto(f"/gin/play/{attempt['id']}")
    page.wait_for_selector("body[data-ready='1']")
    page.locator("#end-replay").click()
    page.wait_for_url(f"**/gin/replay/{attempt['id']}")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#replay-own")).to_be_visible()
    expect(page.locator("#load-error")).to_be_hidden()
    # the bot's hand face down, the player's own face up
    expect(page.locator("#replay-seats [data-seat='1'] .card.back").first).to_be_visible()
    expect(page.locator("#replay-seats [data-seat='0'] .card.back")).to_have_count(0)
