"""The Gin daily's pages (docs/GIN_DAILY.md) in the browser, against the real backend
and its rq worker: the daily page offers Gin beside Pik Dame, a Gin attempt starts and is played
with the keyboard on the same Gin board as the tables, survives a reload, shows only the
player's view's cards, ends with the score and the verified verdict, and the Gin rankings and
archive (the game switch) list it."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.support.browser_stack import Stack
from tests.support.gin_flows import hand_order, play_by_keys
from tests.support.page_checks import overflow, raw_text
from tests.support.page_flows import api_call
from tests.support.tables import CARD


def view_cards(view: dict[str, Any]) -> set[str]:
    """Every card the seat's view names (the page may show these and no other)."""
    cards = set(view["hand"]) | set(view["discard"]) | set(view["took"][0]) | set(view["took"][1])
    cards |= set(view["revealed"] or [])
    for meld in (view["knock"] or {}).get("melds", []):
        cards |= set(meld)
    return cards


def attempt_of(page: Page, attempt_id: str) -> dict[str, Any]:
    status, body = api_call(page)("GET", f"/api/attempts/{attempt_id}", None)
    assert status == 200, body
    result: dict[str, Any] = body["attempt"]
    return result


def wait_seq_after(page: Page, seq: int) -> None:
    page.wait_for_function(
        "s => Number(document.body.dataset.seq) > s"
        " && !document.querySelector('#gin-board').dataset.busy",
        arg=seq,
    )


@pytest.mark.parametrize(("lang", "phone"), [("de", True), ("en", False)])
def test_a_gin_daily_played_on_the_page(page: Page, stack: Stack, lang: str, phone: bool) -> None:
    stack.clock.set_day("2031-03-0" + ("4" if lang == "de" else "5"))
    if phone:
        page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"/?lang={lang}")
    page.wait_for_selector("body[data-gin-ready='1']")
    status, day = api_call(page)("GET", "/api/daily?game=gin", None)
    if status != 200 or day.get("game") != "gin":
        pytest.skip("this backend has no Gin daily yet (docs/GIN_DAILY.md)")
    expect(page.locator("#gin-day-commitment")).to_have_text(day["commitment"])
    page.locator("#gin-name").fill("Gina")
    page.locator("#gin-start-button").click()
    page.wait_for_url("**/gin/play/*")
    page.wait_for_selector("body[data-ready='1']")
    attempt_id = page.url.rstrip("/").rsplit("/", 1)[1]
    attempt = attempt_of(page, attempt_id)
    assert attempt["game"] == "gin"
    assert overflow(page) <= 0
    if phone:  # one portrait screen holds the status, the piles, the deadwood and the hand
        for selector in ("#gin-status", "#gin-pile-top", "#gin-deadwood", "#gin-hand"):
            box = page.locator(selector).bounding_box()
            assert box is not None and box["y"] + box["height"] <= 844, (selector, box)
    for i in range(40):  # a few turns with the keyboard
        view = attempt["view"]
        assert page_cards(page) <= view_cards(view), page_cards(page) - view_cards(view)
        expect(page.locator("#gin-deadwood")).to_have_attribute(
            "data-deadwood", str(view["deadwood"])
        )
        play_by_keys(page, view, lang)
        wait_seq_after(page, attempt["seq"])
        attempt = attempt_of(page, attempt_id)
        if attempt["status"] == "finished":
            break
        if i == 10:
            page.reload()  # the match lives on the server
            page.wait_for_selector("body[data-ready='1']")
            assert sorted(hand_order(page)) == sorted(attempt["view"]["hand"])
    if attempt["status"] != "finished":
        page.locator("#resign").click()
        page.locator("#table-confirm-ok").click()
    expect(page.locator("#end")).to_be_visible()
    expect(page.locator("#end-verification")).to_have_attribute(
        "data-status", "verified", timeout=90_000
    )
    # the spoiler-free share text names the game, never a card
    expect(page.locator("#share-text")).to_have_value(
        re.compile("^Gin Romm" if lang == "de" else "^Gin Rummy")
    )
    assert not CARD.search(page.locator("#share-text").input_value())
    assert not raw_text(page)
    page.goto("/rankings?game=gin")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#board-body")).to_contain_text("Gina")
    expect(page.locator("#game-switch a[data-game=gin]")).to_have_attribute("aria-current", "page")
    page.goto("/archive?game=gin")
    page.wait_for_selector("body[data-ready='1']")
    assert not raw_text(page)
    # once the day has closed: the replay viewer (the daily's link leads on to Gin's own)
    day_after = dt.date.fromisoformat(day["date"]) + dt.timedelta(days=3)
    stack.clock.set_day(day_after.isoformat())
    page.goto(f"/replay/{attempt_id}")
    page.wait_for_url(f"**/gin/replay/{attempt_id}")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#replay-seats [data-seat] .card")).to_have_count(20)  # the first deal
    page.keyboard.press("End")
    expect(page.locator("#replay-knock .gin-after")).to_be_visible()
    assert not raw_text(page)
    # and the closed day's match again as practice, from the Gin archive (unranked)
    page.goto("/archive?game=gin")
    page.wait_for_selector("body[data-ready='1']")
    page.locator(f"li.day[data-date='{day['date']}'] button.practice").click()
    page.wait_for_url("**/gin/play/*")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#practice-flag")).to_be_visible()
    practice = attempt_of(page, page.url.rstrip("/").rsplit("/", 1)[1])
    assert practice["ranked"] is False and practice["game"] == "gin"


def page_cards(page: Page) -> set[str]:
    """The cards on the board but the last hand's result box (that hand's laid-down groups:
    public when laid down, and the next hand is dealt anew)."""
    return {
        str(c)
        for c in page.locator("#gin-board [data-card]").evaluate_all(
            "els => els.filter(e => !e.closest('#gin-result')).map(e => e.dataset.card)"
        )
    }
