"""The end screen follows the verification from queued to rejected, with the reason, when the
stored live score was tampered with (what a cheat would look like to the verifier)."""

from __future__ import annotations

import signal

import redis
from playwright.sync_api import Page, expect

from service.common import keys
from tests.support.browser_stack import Stack
from tests.support.page_flows import start_game
from tests.support.table_player import Player


def test_tampered_score_is_rejected_on_the_end_screen(page: Page, stack: Stack) -> None:
    stack.clock.set_day("2030-02-18")
    attempt = start_game(page, "Schummler")
    player = Player(page)
    player.act("draw")
    player.select([0])
    player.act("discard")
    client = redis.Redis.from_url(stack.redis_url, decode_responses=True)
    stack.worker.send_signal(signal.SIGSTOP)  # hold verification while the record is changed
    try:
        player.resign()
        status = page.locator("#verify-status")
        expect(status).to_have_attribute("data-state", "queued")
        expect(status).to_contain_text("Warteschlange")
        score = int(client.hget(keys.attempt(attempt), "score") or 0)
        client.hset(keys.attempt(attempt), "score", str(score + 500))
    finally:
        stack.worker.send_signal(signal.SIGCONT)
        client.close()
    expect(status).to_have_attribute("data-state", "rejected", timeout=60_000)
    expect(status).to_contain_text("abgelehnt: Die Nachprüfung hat eine andere Wertung ergeben.")
    expect(status).to_contain_text("(score_mismatch)")
    expect(page.locator("#rank-value")).to_have_count(0)
    assert "Rang" not in page.locator("#share-text").input_value()
