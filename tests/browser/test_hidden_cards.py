"""The page never receives a hidden card: every response the browser gets during a game is
checked against the truth, recomputed here with the engine from the secret seed."""

from __future__ import annotations

import json

from playwright.sync_api import Page, Response

from engine import DAILY_DEALER, DAILY_RULES, State, daily_seed, view
from tests.support.browser_stack import SECRET, Stack
from tests.support.page_checks import keys_of
from tests.support.page_flows import start_game
from tests.support.table_player import Player, finished, wait_idle

HIDDEN_KEYS = {"hands", "stock", "seed_hex", "position", "state"}


def test_page_receives_only_the_players_view(page: Page, stack: Stack) -> None:
    date = "2030-02-10"
    stack.clock.set_day(date)
    bodies: list[tuple[str, str]] = []

    def record(response: Response) -> None:
        if response.url.startswith(stack.base_url) and response.status != 304:
            bodies.append((response.url, response.text()))

    page.on("response", record)
    attempt = start_game(page, "Geheim")
    player = Player(page)
    for _ in range(4):
        player.play_turn()
        wait_idle(page)
        # Opponents' areas show face-up cards only inside their melds.
        shown = page.locator("#opponents [data-card]").count()
        assert shown == page.locator("#opponents .meld [data-card]").count()
    player.resign()
    assert finished(page)

    seed = daily_seed(SECRET.encode(), date)
    log = page.request.get(f"/api/attempts/{attempt}/log").json()
    assert log["deal"]["seed"] is None  # the day is still open
    moves = [(m["seat"], m["move"]) for m in log["moves"]]
    state = State.new_round(seed, DAILY_RULES, DAILY_DEALER, log["deal"]["cut"])
    truth = [view(state, 0).to_json()]
    for seat, move in moves:
        state.push(move, seat)
        truth.append(view(state, 0).to_json())

    attempts_seen = 0
    for url, text in bodies:
        assert seed.hex() not in text, url
        if "/api/" not in url:
            continue
        body = json.loads(text)
        assert not (keys_of(body) & HIDDEN_KEYS), (url, keys_of(body) & HIDDEN_KEYS)
        found = body.get("attempt")
        if isinstance(found, dict) and "view" in found:
            attempts_seen += 1
            assert found["view"] == truth[found["seq"]], url
    assert attempts_seen >= 8
