"""A Tausende table in the browser (RULES.md R12), against the real backend: made on the
"Spielen" page with an R12.8 option, a human seat plays turns with the page (a swap-up in the
swapping round, draws and discards), and the page shows who has opened (R12.3), each meld's owner
(R12.5), the swapping round (R12.2), the pot rule (R12.4), the rules link, in German and English;
no card the seat may not know is in the page or the stream it received (R10)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.support.browser_stack import Stack
from tests.support.page_checks import raw_text
from tests.support.page_flows import api_call
from tests.support.table_flows import CAPTURE_STREAM, create_table, my_turn
from tests.support.tables import assert_nothing_hidden, play_game


@pytest.fixture
def ada(browser: Browser, stack: Stack) -> Iterator[Page]:
    ctx: BrowserContext = browser.new_context(
        base_url=stack.base_url, viewport={"width": 1280, "height": 900}
    )
    ctx.add_init_script("localStorage.setItem('pikdame.speed', JSON.stringify('veryfast'))")
    ctx.add_init_script(CAPTURE_STREAM)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    ctx.close()
    assert not errors, errors


def settled(page: Page) -> None:
    """The page's own move and the bots' answers have played out (send() clears data-busy)."""
    page.wait_for_function("() => !document.body.dataset.busy", timeout=60_000)


def table_of(page: Page) -> dict[str, Any]:
    table_id = page.url.split("/tables/")[1].split("?")[0]
    status, body = api_call(page)("GET", f"/api/tables/{table_id}", None)
    assert status == 200, body
    return dict(body["table"])


def tausende_points(cards: list[str]) -> int:
    """R12.1: 2–9 = 5; 10, J, Q, K = 10; A = 20; joker = 25; Q♠ = 100."""
    worth = {"X": 25, "QS": 100}
    return sum(worth.get(c, 20 if c[0] == "A" else 10 if c[0] in "TJQK" else 5) for c in cards)


def pick(page: Page, card: str) -> None:
    page.locator(f"#hand li[data-card='{card}']").first.click()
    expect(page.locator("#hand li.selected")).to_have_count(1)


def costliest(hand: list[str]) -> str:
    order = "A KQJT98765432"
    cards = [c for c in hand if c not in ("QS", "X")] or [c for c in hand if c != "QS"]
    return sorted(cards, key=lambda c: -1 if c == "X" else order.index(c[0]))[0]


def play_turn(page: Page, swapped: list[bool]) -> None:
    """One turn of seat 0 through the page: a swap-up once, else draw and discard a card."""
    my_turn(page)
    table = table_of(page)
    view = table["view"]
    if view["phase"] == "draw" and view["swaps"] is not None and not swapped:
        card = costliest(view["hand"])
        pick(page, card)
        page.locator("[data-tausende='swap-up']").click()
        settled(page)
        expect(page.locator("#log li.mine").first).to_contain_text("tauscht die offene Karte")
        swapped.append(True)
        return
    if view["phase"] == "draw":
        before = page.locator("#hand li").count()
        page.locator("#actions button[data-action=draw]").click()
        page.locator("#confirm-ok").click()
        expect(page.locator("#hand li")).to_have_count(before + 1)
        settled(page)
        view = table_of(page)["view"]
    if "QS" in view["hand"]:
        # R12.6 through the page: the refusal is explained and the hand is unchanged
        size = page.locator("#hand li").count()
        pick(page, "QS")
        page.locator("#actions button[data-action=discard]").click()
        page.locator("#confirm-ok").click()
        expect(page.locator("#message")).to_contain_text("Pik-Dame")
        settled(page)
        expect(page.locator("#hand li")).to_have_count(size)
        page.keyboard.press("Escape")
    pick(page, costliest(view["hand"]))
    page.locator("#actions button[data-action=discard]").click()
    page.locator("#confirm-ok").click()
    settled(page)


def test_a_tausende_table_shows_openers_owners_and_the_swapping_round(
    ada: Page, stack: Stack
) -> None:
    create_table(ada, "Ada", ["zen", "advanced"], game="tausende", options=("ace_high_only",))
    ada.locator("#start-button").click()
    # three seats: the bot before the dealer cuts at once (R2), seat 0 begins the swapping round
    expect(ada.locator("#tausende")).to_be_visible()
    expect(ada.locator("#table-title")).to_contain_text("Tausende")
    expect(ada.locator("#tausende-rules-link")).to_have_attribute("href", "/rules/tausende")
    expect(ada.locator("#tausende [data-options]")).to_contain_text("Ass nur hoch")
    expect(ada.locator("#tausende [data-opened]")).to_have_count(3)
    expect(ada.locator("#tausende [data-state='no']")).to_have_count(3)
    expect(ada.locator("#tausende-swapping")).to_contain_text("Tauschrunde")
    expect(ada.locator("[data-note='pot']")).to_contain_text("erst nach deiner Eröffnung")
    hand = table_of(ada)["view"]["hand"]
    expect(ada.locator("#hand-title")).to_contain_text(f"{tausende_points(hand)} Punkte")
    table_id = ada.url.rsplit("/", 1)[1]
    client: redis.Redis[str] = redis.Redis.from_url(stack.redis_url, decode_responses=True)
    swapped: list[bool] = []
    checked = False  # R12.8: no one goes out in the turn they open, so seat 0 sees the opener
    for _ in range(30):
        table = table_of(ada)
        if table["status"] != "playing" or table["round"] > 1:
            break
        assert_nothing_hidden(client, table_id, 0, ada.content())
        opened = [s for s, o in enumerate(table["view"]["opened"]) if o]
        if opened and swapped:
            # R12.3: the opener is marked; R12.5: its melds are shown with their owner
            seat = opened[0]
            expect(ada.locator(f"#tausende [data-opened='{seat}']")).to_have_attribute(
                "data-state", "yes"
            )
            expect(ada.locator(f"#tausende [data-opened='{seat}']")).to_contain_text("hat eröffnet")
            melds = ada.locator(f"#tausende [data-meld-owner='{seat}']")
            expect(melds.first).to_be_visible()
            expect(melds.first).to_have_attribute("data-address", f"{seat}.1")
            expect(ada.locator(f"#tausende [data-owner='{seat}'] h3")).to_contain_text(
                "Auslagen von"
            )
            checked = True
            break
        play_turn(ada, swapped)
    else:
        raise AssertionError("no bot opened in 30 turns")
    assert swapped and checked
    assert raw_text(ada) == []
    stream = [json.loads(m) for m in ada.evaluate("() => window.__stream")]
    assert stream and all(m["table"]["game"] == "tausende" for m in stream)
    for message in stream[-3:]:
        if message["table"]["round"] == table_of(ada)["round"]:
            assert_nothing_hidden(client, table_id, 0, json.dumps(message))
    # English second (lib/i18n.js): the same panel in English
    ada.goto(f"/tables/{table_id}?lang=en")
    ada.wait_for_selector("body[data-ready='1']")
    expect(ada.locator("#tausende-rules-link")).to_have_text("Tausende rules")
    expect(ada.locator("#tausende [data-options]")).to_contain_text("ace high only")
    expect(ada.locator("#tausende [data-state='yes']").first).to_contain_text("has opened")


def test_a_finished_tausende_game_replays_in_the_viewer(ada: Page) -> None:
    """The whole game through the API (the page's own session), then the standings and the
    replay viewer step through every round of the Tausende record (swap-ups, S.N lay-offs)."""
    create_table(ada, "Ada", ["advanced"], game="tausende")
    ada.locator("#start-button").click()
    expect(ada.locator("#cut-control")).to_be_visible()
    table_id = ada.url.rsplit("/", 1)[1]
    table = play_game(api_call(ada), table_id, 0)
    assert table["status"] == "finished"
    expect(ada.locator("#standings")).to_be_visible(timeout=60_000)
    ada.locator("#replay-link").click()
    ada.wait_for_selector("body[data-ready='1']")
    expect(ada.locator("#replay-rounds button")).to_have_count(len(table["rounds"]))
    ada.keyboard.press("End")
    expect(ada.locator("#replay-seats .seat")).to_have_count(2)
    for _ in range(5):
        ada.keyboard.press("ArrowLeft")
    ada.locator("#replay-rounds button").last.click()
    ada.keyboard.press("Home")
    for _ in range(5):
        ada.keyboard.press("ArrowRight")
    assert raw_text(ada) == []
