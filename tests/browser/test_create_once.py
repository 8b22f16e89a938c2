"""The pages that create (``/spielen``'s table, ``/leagues``' league) send an Idempotency-Key per
submission and ask again with the same key when the answer is lost: here the real server makes
the table or league, its answer reaches the page as a 503 (Playwright swaps it), the page retries
on its own and lands on the one resource made (docs/TABLES.md). A second submission: a new key."""

from __future__ import annotations

import re

import pytest
import redis
from playwright.sync_api import Page, Route

from tests.support.browser_stack import Stack

LOST = {
    "status": 503,
    "headers": {"Content-Type": "application/json", "Retry-After": "1"},
    "body": '{"error": {"code": "unavailable", "message": "storage not confirmed"}}',
}


def lose_first_answer(page: Page, path: str, sent: list[str]) -> None:
    """The first POST to ``path`` reaches the server; the page gets a 503 instead of its answer."""

    def handle(route: Route) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        sent.append(route.request.headers.get("idempotency-key", ""))
        answer = route.fetch()
        if len(sent) == 1:
            route.fulfill(**LOST)  # type: ignore[arg-type]
        else:
            route.fulfill(response=answer)

    page.route(f"**{path}", handle)


def count(stack: Stack, pattern: str) -> int:
    client: redis.Redis[str] = redis.Redis.from_url(stack.redis_url, decode_responses=True)
    try:
        return len(list(client.scan_iter(pattern)))
    finally:
        client.close()


def test_a_table_whose_answer_was_lost_is_made_once(page: Page, stack: Stack) -> None:
    sent: list[str] = []
    page.goto("/spielen")
    page.wait_for_selector("body[data-ready='1']")
    before = count(stack, "pd:invite:*")
    lose_first_answer(page, "/api/tables", sent)
    page.locator("#name").fill("Ada")
    page.locator("#create-button").click()
    page.wait_for_url("**/tables/*")
    page.wait_for_selector("body[data-ready='1']")
    assert len(sent) == 2 and sent[0] == sent[1] and re.fullmatch(r"[0-9a-f]{32}", sent[0])
    assert count(stack, "pd:invite:*") == before + 1
    page.goto("/spielen")
    page.wait_for_selector("body[data-ready='1']")
    page.locator("#name").fill("Ada")
    page.locator("#create-button").click()
    page.wait_for_url("**/tables/*")
    assert len(sent) == 3 and sent[2] != sent[0]  # a new submission, a new key
    assert count(stack, "pd:invite:*") == before + 2


@pytest.mark.parametrize("lang", ["de"])
def test_a_league_whose_answer_was_lost_is_made_once(page: Page, stack: Stack, lang: str) -> None:
    sent: list[str] = []
    page.goto(f"/leagues?lang={lang}")
    page.wait_for_selector("body[data-ready='1']")
    before = count(stack, "pd:{l:*}:league")
    lose_first_answer(page, "/api/leagues", sent)
    page.locator("#league-name").fill("Stammtisch")
    page.locator("#create-button").click()
    page.wait_for_url(re.compile(r"/leagues/[A-Z0-9]{8}$"))
    page.wait_for_selector("body[data-ready='1']")
    assert len(sent) == 2 and sent[0] == sent[1]
    assert count(stack, "pd:{l:*}:league") == before + 1
