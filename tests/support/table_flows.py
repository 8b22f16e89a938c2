"""Page flows of the tables shared by the browser tests: make a table on the
"Spielen" page, join it by its invite link, start it, and play simple turns through the page."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import redis
from playwright.sync_api import Browser, BrowserContext, Page, expect

from engine.pikdame.deal import deal
from engine.pikdame.match import Match
from service.tables import store as tables
from tests.support.browser_stack import Stack
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


def new_player(
    browser: Browser,
    stack: Stack,
    width: int = 1280,
    height: int = 900,
    touch: bool = False,
    scripts: tuple[str, ...] = (),
) -> BrowserContext:
    """A new person in their own browser profile (their own session cookie) with fast bot
    playback and the table stream's messages captured (``CAPTURE_STREAM``); ``touch``: a phone
    driven by taps; ``scripts``: more scripts to run before the pages' own."""
    ctx = browser.new_context(
        base_url=stack.base_url,
        viewport={"width": width, "height": height},
        has_touch=touch,
        is_mobile=touch,
    )
    ctx.add_init_script("localStorage.setItem('pikdame.speed', JSON.stringify('veryfast'))")
    for script in (CAPTURE_STREAM, *scripts):
        ctx.add_init_script(script)
    return ctx


@contextlib.contextmanager
def two_players(
    browser: Browser, stack: Stack, scripts: tuple[str, ...] = ()
) -> Iterator[tuple[Page, Page]]:
    """Two people, each a page in a profile of their own; on the way out, no page threw."""
    contexts = [new_player(browser, stack, scripts=scripts) for _ in range(2)]
    pages = (contexts[0].new_page(), contexts[1].new_page())
    errors: list[str] = []
    for p in pages:
        p.on("pageerror", lambda e: errors.append(str(e)))
    yield pages
    for ctx in contexts:
        ctx.close()
    assert not errors, errors


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


def lucky_cut(redis_url: str, table_id: str, most: bool = False) -> tuple[int, tuple[int, ...]]:
    """The test peeks at the pending round's seed (never sent to anyone) for a cut point whose
    card is a lucky one (F3 step 4): the cut K and the grabbed card ids; with ``most``, the
    point that grabs the most cards (the longest line to show)."""
    client: redis.Redis[str] = redis.Redis.from_url(redis_url, decode_responses=True)
    table = tables.load(client, table_id)
    assert table is not None
    match = table.loaded()
    assert isinstance(match, Match) and match.pending is not None
    seed = match.pending[1]
    found: list[tuple[int, tuple[int, ...]]] = []
    for k in range(1, 110):
        d = deal(seed, match.rules.players, match.dealer, k)
        if d.lucky:
            found.append((k, d.lucky))
            if not most:
                break
    assert found, "no lucky card at any cut point"
    return max(found, key=lambda kl: len(kl[1]))


def cut_at(page: Page, k: int) -> None:
    """Cut at card ``k`` with the cut slider's keys (R2), as a player without a mouse would."""
    page.locator("#cut-range").focus()
    page.keyboard.press("Home")
    for _ in range(k - 1):
        page.keyboard.press("ArrowRight")
    expect(page.locator("#cut-value")).to_contain_text(str(k))
    page.locator("#cut-button").click()
