"""What players see on ``/spielen`` and at a table, in Chromium through the nginx front (issue 38,
"What players see"; docs/LOBBY.md): the quick match asks an anonymous player's name before it
queues; the lobby's counters follow the queue live; the public games playing are listed with
presence and whose turn, and a visitor watches one in its public view; a finished quick-match
table is not gone back to; the bots' pace is offered only where a bot sits; a lost connection
shows a banner that clears itself, with the network errors it left."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import APIRequestContext, Browser, BrowserContext, Page, expect

from tests.support.browser_stack import Stack

HUMAN: dict[str, Any] = {"kind": "human"}


@pytest.fixture
def two(browser: Browser, stack: Stack) -> Iterator[list[BrowserContext]]:
    """Two fresh profiles (two players who do not know each other)."""
    contexts = [
        browser.new_context(base_url=stack.base_url, viewport={"width": 1280, "height": 900})
        for _ in range(2)
    ]
    yield contexts
    for ctx in contexts:
        ctx.close()


def opened(ctx: BrowserContext, path: str, errors: list[str]) -> Page:
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path)
    page.wait_for_selector("body[data-ready='1']")
    return page


def lobby_page(ctx: BrowserContext, errors: list[str]) -> Page:
    page = opened(ctx, "/spielen", errors)
    expect(page.locator("#lobby-online")).not_to_be_empty()  # the lobby's stream answered
    return page


def started_bot_table(request: APIRequestContext) -> str:
    """Ada against a beginner bot at Pik Dame, started through the API: the table's id."""
    made = request.post(
        "/api/tables",
        data={
            "game": "pikdame",
            "name": "Ada",
            "seats": [HUMAN, {"kind": "bot", "level": "beginner"}],
        },
    )
    assert made.status == 201, made.text()
    table_id: str = made.json()["table"]["id"]
    assert request.post(f"/api/tables/{table_id}/start", data={}).status == 200
    return table_id


def test_the_lobby_asks_a_name_counts_live_and_shows_games_to_watch(
    two: list[BrowserContext], browser: Browser, stack: Stack
) -> None:
    errors: list[str] = []
    ada_ctx, bo_ctx = two
    bo = lobby_page(bo_ctx, errors)
    expect(bo.locator("#lobby-online")).to_contain_text("0 in der Schnellsuche")
    ada = lobby_page(ada_ctx, errors)
    expect(ada.locator("#lobby-name")).to_be_visible()

    # No name, no queue: it is asked for, not made up ("Gast")
    ada.select_option("#match-game", "gin")
    ada.uncheck("#match-bots")
    ada.click("#match-button")
    expect(ada.locator("#match-error")).to_have_text("Gib zuerst deinen Namen ein.")
    expect(ada.locator("#lobby-name")).to_be_focused()
    assert ada.request.get("/api/match").status in (401, 404)  # not queued
    ada.fill("#lobby-name", "Ada")
    ada.click("#match-button")
    expect(ada.locator("#match-waiting")).to_be_visible()

    # Bo's counters follow without a reload (the lobby's stream is told of the queue)
    expect(bo.locator("#lobby-online")).to_contain_text("1 in der Schnellsuche")
    ada.click("#match-leave")
    expect(bo.locator("#lobby-online")).to_contain_text("0 in der Schnellsuche")

    # A public game between Ada and Cy shows in Bo's lobby as playing, whose turn and presence
    made = ada.request.post(
        "/api/tables",
        data={"game": "pikdame", "name": "Ada", "seats": [HUMAN, HUMAN], "public": True},
    )
    assert made.status == 201, made.text()
    table_id = made.json()["table"]["id"]
    joined = browser.new_context(base_url=stack.base_url)  # Cy, through the API
    try:
        seated = joined.request.post(f"/api/tables/{table_id}/join", data={"name": "Cy"})
        assert seated.status == 200, seated.text()
        turn = seated.json()["table"]["turn"]
        entry = bo.locator(f"#lobby-playing .lobby-table[data-table='{table_id}']")
        expect(entry).to_contain_text("Ada")
        expect(entry).to_contain_text("Cy")
        expect(entry.locator(".lobby-seat.turn")).to_contain_text(["Ada", "Cy"][turn])
        expect(entry.locator(".lobby-seat.turn")).to_contain_text("am Zug")

        # Ada at her all-human table: no bots, no bots' pace to choose
        at_table = opened(ada_ctx, f"/tables/{table_id}", errors)
        expect(at_table.locator("#seat-strip")).to_contain_text("Cy")
        expect(at_table.locator("#speed")).to_be_hidden()

        # Bo watches: the public view, no hand, no invite, told he is watching
        entry.locator(".lobby-watch").click()
        bo.wait_for_url(f"**/tables/{table_id}")
        bo.wait_for_selector("body[data-ready='1']")
        expect(bo.locator("#watch-note")).to_have_text(
            f"Du schaust zu · {['Ada', 'Cy'][turn]} ist am Zug."
        )
        expect(bo.locator("#seat-strip")).to_contain_text("Ada")
        expect(bo.locator("#seat-strip")).to_contain_text("Cy")
        expect(bo.locator("#hand .card")).to_have_count(0)
        expect(bo.locator("#resign")).to_be_hidden()

        # a public Gin match is watched alike (its own page, the same shell)
        gin = ada.request.post(
            "/api/tables",
            data={"game": "gin", "name": "Ada", "seats": [HUMAN, HUMAN], "public": True},
        )
        assert gin.status == 201, gin.text()
        gin_id = gin.json()["table"]["id"]
        gin_seated = joined.request.post(f"/api/tables/{gin_id}/join", data={"name": "Cy"})
        assert gin_seated.status == 200, gin_seated.text()
        gin_turn = ["Ada", "Cy"][gin_seated.json()["table"]["turn"]]
        watcher = opened(bo_ctx, f"/tables/{gin_id}", errors)
        expect(watcher.locator("#watch-note")).to_have_text(
            f"Du schaust zu · {gin_turn} ist am Zug."
        )
        expect(watcher.locator("#resign")).to_be_hidden()
        expect(watcher.locator("#talk-seats")).to_contain_text("Cy")
    finally:
        joined.close()

    # A table with a bot offers the bots' pace
    bot_id = started_bot_table(ada.request)
    bot_table = opened(ada_ctx, f"/tables/{bot_id}", errors)
    expect(bot_table.locator("#speed")).to_be_visible()
    assert errors == []


def test_a_finished_quick_match_table_is_not_gone_back_to(
    context: BrowserContext, stack: Stack
) -> None:
    """After any quick match, /spielen led back to the finished table for as long as the ticket
    lived (ten minutes)."""
    errors: list[str] = []
    page = lobby_page(context, errors)
    asked = page.request.post(
        "/api/match",
        data={
            "game": "gin",
            "name": "Ada",
            "seats": 2,
            "turn_timer": 30,
            "rated": False,
            "bots_after": 5,
        },
    )
    assert asked.status == 201, asked.text()
    stack.clock.advance(seconds=6)  # a bot fills the free seat after the chosen wait
    match = page.request.get("/api/match").json()["match"]
    assert match["status"] == "matched", match
    table_id = match["table"]
    # while the game runs, /spielen takes the player back to it
    page.goto("/spielen")
    page.wait_for_url(f"**/tables/{table_id}")
    page.wait_for_selector("body[data-ready='1']")
    resigned = page.request.post(f"/api/tables/{table_id}/resign", data={})
    assert resigned.status == 200, resigned.text()
    expect(page.locator("#standings")).to_be_visible()
    page.goto("/spielen")
    expect(page.locator("body")).to_have_attribute("data-match", "matched")
    expect(page.locator("#match-form")).to_be_visible()
    assert "/spielen" in page.url
    assert errors == []


def test_a_lost_connection_shows_a_banner_that_clears_itself(
    context: BrowserContext, stack: Stack
) -> None:
    """The front was down for 22 s and the pages showed nothing; once it was back a stale error
    box stayed. At a table (its live stream) and in the lobby the banner says it and goes."""
    errors: list[str] = []
    table_id = started_bot_table(context.request)
    table = opened(context, f"/tables/{table_id}", errors)
    expect(table.locator("body")).to_have_attribute("data-stream", "open")
    banner = table.locator("#connection-banner")
    context.set_offline(True)
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("Verbindung unterbrochen")
    context.set_offline(False)
    expect(banner).to_be_hidden()
    expect(table.locator("body")).to_have_attribute("data-stream", "open")

    lobby = lobby_page(context, errors)
    lobby.fill("#lobby-name", "Ada")
    context.set_offline(True)
    banner = lobby.locator("#connection-banner")
    expect(banner).to_be_visible()
    lobby.click("#match-button")  # refused by the network: its error line says so
    expect(lobby.locator("#match-error")).to_contain_text("Keine Verbindung")
    context.set_offline(False)
    expect(banner).to_be_hidden()
    expect(lobby.locator("#match-error")).to_be_empty()  # not left standing once back
    assert errors == []
