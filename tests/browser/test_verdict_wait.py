"""The end screen waits for the verdict with the long poll `GET /api/attempts/{id}/verification
?wait=S` (answered as soon as the verdict exists) instead of asking every second; where the
service does not offer it (404), it polls the attempt with a growing pause."""

from __future__ import annotations

import json

from playwright.sync_api import Page, Request, Route, expect

from tests.support.browser_stack import Stack
from tests.support.page_flows import start_game, wait_verified
from tests.support.table_player import Player


def test_the_end_screen_long_polls_for_the_verdict(page: Page, stack: Stack) -> None:
    stack.clock.set_day("2030-05-20")
    attempt = start_game(page, "Geduld")
    seen: list[tuple[str, int]] = []

    def finished(request: Request) -> None:
        response = request.response()
        seen.append((request.url.split("/api/", 1)[-1], response.status if response else 0))

    page.on("requestfinished", finished)
    Player(page).resign()
    wait_verified(page)
    waits = [(url, status) for url, status in seen if url.startswith(f"attempts/{attempt}/verif")]
    assert waits, seen
    assert all("wait=25" in url for url, _ in waits), waits
    polls = [url for url, _ in seen if url == f"attempts/{attempt}"]
    if waits[0][1] == 404:  # no long poll on this service: the attempt is polled instead
        assert len(waits) == 1 and polls, seen
    else:  # the long poll answered: nothing polls the attempt
        assert all(status == 200 for _, status in waits) and not polls, seen


def test_a_busy_servers_retry_after_is_honoured(page: Page, stack: Stack) -> None:
    """When too many requests already wait for verdicts, the service answers the long poll at
    once, still ``queued``, with ``Retry-After`` (docs/API_LAYER.md). The end screen asked again
    at once, up to 40 times back to back; it now waits as asked. The first long poll is
    answered so here with an hour's Retry-After: no second one follows while the test watches,
    and the screen says the game is queued."""
    stack.clock.set_day("2030-05-21")
    attempt = start_game(page, "Ruhig")
    asked: list[str] = []

    def busy(route: Route) -> None:
        asked.append(route.request.url)
        if len(asked) == 1:
            route.fulfill(
                status=200,
                headers={"Content-Type": "application/json", "Retry-After": "3600"},
                body=json.dumps({"verification": {"status": "queued"}}),
            )
        else:
            route.continue_()

    page.route(f"**/api/attempts/{attempt}/verification*", busy)
    Player(page).resign()
    expect(page.locator("#verify-status")).to_have_attribute("data-state", "queued")
    page.wait_for_timeout(1500)  # the old page had asked again within milliseconds
    assert len(asked) == 1, asked
