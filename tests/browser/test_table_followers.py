"""What follows a table reaches every seated player, and the turn timer's moves say so
(docs/TABLES.md): a Gin match between two friends ends, Ada deals it again ("Wiederholen") and
starts it, and Bea, whose page was reloaded at the end, is led to the new table by the stream
without reloading; opening the old table again offers the new one. A rematch asked by Bea leads
Ada there the same way. The moves the turn timer made (R9) read "Zeit abgelaufen" in the move
list of a Pik Dame and of a Gin table."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from playwright.sync_api import Browser, Page, expect

from service.tables import store as tables
from tests.support.browser_stack import Stack
from tests.support.table_flows import two_players

LIFETIMES = tables.Lifetimes(3600, 3600)


@pytest.fixture
def two(browser: Browser, stack: Stack) -> Iterator[tuple[Page, Page]]:
    """Ada and Bea, each in their own browser profile (their own session cookie)."""
    with two_players(browser, stack) as pages:
        yield pages


def table_id_of_url(url: str) -> str:
    return url.split("?")[0].rstrip("/").rsplit("/", 1)[1]


def table_id_of(page: Page) -> str:
    return table_id_of_url(page.url)


def api(page: Page, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    """The API with the page's own session cookie."""
    answer = page.request.fetch(
        path,
        method=method,
        data=None if body is None else json.dumps(body),
        headers={"Content-Type": "application/json"} if body is not None else {},
    )
    assert answer.ok, answer.text()
    return answer.json()


def finished_gin_match(ada: Page, bea: Page) -> str:
    """Ada makes a Gin table for a friend, Bea joins by the link, Ada starts, both agree to
    resign (R8): the match is over on both pages. Returns the table id."""
    seats = [{"kind": "human"}, {"kind": "human"}]
    made = api(ada, "POST", "/api/tables", {"game": "gin", "name": "Ada", "seats": seats})
    table_id = made["table"]["id"]
    ada.goto(f"/tables/{table_id}")
    ada.wait_for_selector("body[data-ready='1']")
    bea.goto(f"/t/{made['invite']}")
    bea.wait_for_selector("body[data-ready='1']")
    bea.locator("#name").fill("Bea")
    bea.locator("#join-button").click()
    bea.wait_for_url(f"**/tables/{table_id}")
    expect(ada.locator("#waiting-seats")).to_contain_text("Bea")
    ada.locator("#start-button").click()
    expect(bea.locator("#table")).to_be_visible()
    api(ada, "POST", f"/api/tables/{table_id}/resign", {})
    api(bea, "POST", f"/api/tables/{table_id}/resign", {})
    for p in (ada, bea):
        expect(p.locator("#standings")).to_be_visible()
    return str(table_id)


def test_the_friend_is_led_to_the_repeat_and_the_rematch_without_a_reload(
    two: tuple[Page, Page],
) -> None:
    ada, bea = two
    old = finished_gin_match(ada, bea)
    bea.reload()  # her page now opens on a finished table: it still hears what follows it
    bea.wait_for_selector("body[data-ready='1']")
    expect(bea.locator("#follower")).to_be_hidden()
    ada.locator("#repeat-end").click()  # "Wiederholen": a new table, started by Ada at once
    ada.wait_for_url(lambda url: table_id_of_url(url) != old)
    repeat = table_id_of(ada)
    expect(ada.locator("#table")).to_be_visible()
    # Bea is there too, in her seat, without reloading: the stream named the new table
    bea.wait_for_url(f"**/tables/{repeat}")
    bea.wait_for_selector("body[data-ready='1']")
    expect(bea.locator("#table")).to_be_visible()
    expect(bea.locator("#repeat-flag")).to_be_visible()
    assert api(bea, "GET", f"/api/tables/{repeat}")["table"]["seat"] == 1
    # opening the old table again: it names the new one and leads there
    bea.goto(f"/tables/{old}")
    bea.wait_for_selector("body[data-ready='1']")
    expect(bea.locator("#follower")).to_be_visible()
    expect(bea.locator("#follower-link")).to_have_attribute("href", f"/tables/{repeat}")
    bea.locator("#follower-link").click()
    bea.wait_for_url(f"**/tables/{repeat}")
    expect(bea.locator("#table")).to_be_visible()
    # the repeat ends too; Bea asks for a rematch and Ada, still on it, is led there
    api(ada, "POST", f"/api/tables/{repeat}/resign", {})
    api(bea, "POST", f"/api/tables/{repeat}/resign", {})
    for p in (ada, bea):
        expect(p.locator("#standings")).to_be_visible()
    bea.locator("#rematch").click()
    bea.wait_for_url(lambda url: table_id_of_url(url) != repeat)
    rematch = table_id_of(bea)
    ada.wait_for_url(f"**/tables/{rematch}")
    ada.wait_for_selector("body[data-ready='1']")
    expect(ada.locator("#waiting")).to_be_visible()
    expect(ada.locator("#start-button")).to_be_visible()  # she created it: she starts it
    ada.locator("#start-button").click()
    expect(bea.locator("#table")).to_be_visible()


def run_out(stack: Stack, table_id: str) -> None:
    """The worker's job at the table's deadline (R9), run now: the turn timer plays the turn."""
    client: redis.Redis[str] = redis.Redis.from_url(stack.redis_url, decode_responses=True)
    table = tables.load(client, table_id)
    assert table is not None and table.deadline_ms is not None
    assert tables.autoplay(client, table_id, table.seq, LIFETIMES, table.deadline_ms) is not None
    client.close()


@pytest.mark.parametrize(("lang", "mark"), [("de", "Zeit abgelaufen"), ("en", "Time ran out")])
def test_the_timers_moves_say_so_in_the_pik_dame_move_log(
    page: Page, stack: Stack, lang: str, mark: str
) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "level": "beginner"}]
    body = {"name": "Ada", "seats": seats, "rules": {"turn_timer": 30}}
    made = api(page, "POST", "/api/tables", body)
    table_id = made["table"]["id"]
    api(page, "POST", f"/api/tables/{table_id}/start", {})
    page.goto(f"/tables/{table_id}?lang={lang}")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#cut-box")).to_be_visible()
    run_out(stack, table_id)  # her cut
    expect(page.locator("#log li.timer")).to_have_count(1)
    expect(page.locator("#log li.timer")).to_contain_text(mark)
    run_out(stack, table_id)  # her first turn: draw … discard, then the bot answers
    timed = page.locator("#log li.timer")
    expect(timed.nth(1)).to_be_visible()
    assert timed.count() >= 3  # cut, draw, discard
    lines = page.locator("#log li")
    expect(lines.last).not_to_contain_text(mark)  # the bot's own moves are the bot's
    page.reload()  # the move list is kept with its marks
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#log li.timer").first).to_contain_text(mark)


def test_the_timers_moves_say_so_in_the_gin_move_log(page: Page, stack: Stack) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "level": "plain"}]
    body = {"game": "gin", "name": "Ada", "seats": seats, "rules": {"turn_timer": 30}}
    made = api(page, "POST", "/api/tables", body)
    table_id = made["table"]["id"]
    api(page, "POST", f"/api/tables/{table_id}/start", {})
    page.goto(f"/tables/{table_id}")
    page.wait_for_selector("body[data-ready='1']")
    seq = int(page.evaluate("document.body.dataset.seq"))
    run_out(stack, table_id)
    page.wait_for_function("s => Number(document.body.dataset.seq) > s", arg=seq)
    timed = page.locator(".gin-log li.timer")
    expect(timed.first).to_contain_text("Zeit abgelaufen")
    page.reload()  # from the view's history: the marks stay
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator(".gin-log li.timer").first).to_contain_text("Zeit abgelaufen")
