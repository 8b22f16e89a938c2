"""The end screen waits for the verdict with the long poll `GET /api/attempts/{id}/verification
?wait=S` (answered as soon as the verdict exists) instead of asking every second; where the
service does not offer it (404), it polls the attempt with a growing pause."""

from __future__ import annotations

from playwright.sync_api import Page, Request

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
