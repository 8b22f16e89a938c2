"""Seeing the cards: the settings page's four-colour deck (♠ black, ♥ red, ♦ blue, ♣ green),
larger cards and high contrast, remembered on the device and, signed in, with the account (a
second device that signs in takes them); every animation and transition stops for a player who
asked the system for less motion; at 200 % zoom (a 1280 px window is 640 CSS px wide) no page or
table scrolls sideways."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from service.pages.strings import strings
from tests.support.browser_stack import Stack
from tests.support.page_checks import overflow
from tests.support.page_flows import advance_to_melds, api_call
from tests.support.table_flows import create_table
from tests.support.virtual_passkeys import virtual_authenticator

DE = strings("de")
BLUE, GREEN, RED = "rgb(11, 79, 179)", "rgb(11, 107, 44)", "rgb(179, 20, 27)"
SUIT_COLOURS = """() => Object.fromEntries([...document.querySelectorAll('#settings-preview .card')]
  .map((c) => [c.dataset.card, getComputedStyle(c).color]))"""
CARD_WIDTH = "() => document.querySelector('#settings-preview .card').getBoundingClientRect().width"


def test_the_settings_stay_on_the_device(page: Page) -> None:
    page.goto("/settings")
    page.wait_for_selector("body[data-ready='1']")
    colours = page.evaluate(SUIT_COLOURS)
    assert colours["TD"] == colours["AH"] == RED  # two colours: ♦ red like ♥
    normal = page.evaluate(CARD_WIDTH)
    page.get_by_label(DE["settings.deck.four"]).check()
    page.get_by_label(DE["settings.size.larger"]).check()
    page.get_by_label(DE["settings.contrast"]).check()
    expect(page.get_by_role("status")).to_have_text(DE["settings.saved"])
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    expect(page.get_by_label(DE["settings.deck.four"])).to_be_checked()
    expect(page.get_by_label(DE["settings.size.larger"])).to_be_checked()
    expect(page.get_by_label(DE["settings.contrast"])).to_be_checked()
    html = page.locator("html")
    expect(html).to_have_attribute("data-deck", "four")
    expect(html).to_have_attribute("data-size", "larger")
    expect(html).to_have_attribute("data-contrast", "high")
    colours = page.evaluate(SUIT_COLOURS)
    assert colours["TD"] == "rgb(0, 61, 153)"  # high contrast: a darker blue, and green
    assert colours["7C"] == "rgb(0, 86, 31)"
    assert page.evaluate(CARD_WIDTH) > normal * 1.4
    page.get_by_label(DE["settings.contrast"]).uncheck()
    colours = page.evaluate(SUIT_COLOURS)
    assert (colours["TD"], colours["7C"], colours["AH"]) == (BLUE, GREEN, RED)
    assert colours["QS"] == "rgb(17, 17, 17)"
    # the lesson's cards, another page: the same deck
    page.goto("/lernen/pikdame")
    diamond = page.locator(".card.suit-D").first
    expect(diamond).to_have_css("color", BLUE)
    # the language, a choice of three
    page.goto("/settings")
    page.get_by_label("Nederlands").check()
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    expect(page.get_by_role("heading", level=1)).to_have_text("Instellingen")


@pytest.fixture
def devices(browser: Browser, stack: Stack) -> Iterator[tuple[BrowserContext, BrowserContext]]:
    """Two profiles on http://localhost:PORT (a passkey's relying party is a domain)."""
    base = stack.base_url.replace("127.0.0.1", "localhost")
    made = [browser.new_context(base_url=base) for _ in range(2)]
    yield made[0], made[1]
    for ctx in made:
        ctx.close()


def test_the_settings_follow_the_account(devices: tuple[BrowserContext, BrowserContext]) -> None:
    phone = devices[0].new_page()
    cdp, key = virtual_authenticator(phone)
    phone.goto("/account")
    phone.wait_for_selector("body[data-ready='1']")
    phone.fill("#account-name", "Vierfarb")
    phone.click("#signup-button")
    expect(phone.locator("#signed-in")).to_be_visible()
    phone.goto("/settings")
    phone.wait_for_selector("body[data-ready='1']")
    phone.get_by_label(DE["settings.deck.four"]).check()
    expect(phone.get_by_role("status")).to_have_text(DE["settings.savedAccount"])
    phone.get_by_label(DE["settings.size.large"], exact=True).check()
    expect(phone.get_by_role("status")).to_have_text(DE["settings.savedAccount"])
    stored = phone.request.get("/api/account/settings").json()["settings"]
    assert (stored["deck"], stored["size"]) == ("four", "large")

    # another device: the same passkey signs in, and the account's settings become the device's
    laptop = devices[1].new_page()
    passkeys = cdp.send("WebAuthn.getCredentials", {"authenticatorId": key})["credentials"]
    virtual_authenticator(laptop, passkeys)
    laptop.goto("/")
    expect(laptop.locator("html")).not_to_have_attribute("data-deck", "four")
    laptop.goto("/account")
    laptop.wait_for_selector("body[data-ready='1']")
    laptop.click("#signin-button")
    expect(laptop.locator("#signed-in")).to_be_visible()
    laptop.goto("/rules")
    expect(laptop.locator("html")).to_have_attribute("data-deck", "four")
    expect(laptop.locator("html")).to_have_attribute("data-size", "large")
    laptop.goto("/settings")
    expect(laptop.get_by_label(DE["settings.deck.four"])).to_be_checked()


def test_less_motion_stops_every_animation(page: Page, stack: Stack) -> None:
    stack.clock.set_day("2030-07-03")
    page.emulate_media(reduced_motion="reduce")
    page.goto("/")
    page.wait_for_selector("body[data-ready='1']")
    status, started = api_call(page)("POST", "/api/daily/2030-07-03/attempts", {"name": "Ruhig"})
    assert status == 201, started
    page.goto(f"/play/{started['attempt']['id']}")
    page.wait_for_selector("body[data-ready='1']")
    moving = page.evaluate(
        """() => {
          const long = (d) => d.split(",").some((x) => parseFloat(x) > 0.01);
          return [...document.querySelectorAll("*")].map((el) => [el, getComputedStyle(el)])
            .filter(([, s]) => long(s.animationDuration) || long(s.transitionDuration))
            .map(([el, s]) => [el.tagName, el.className, s.animationDuration,
                               s.transitionDuration]);
        }"""
    )
    assert moving == [], moving


PAGES_AT_200 = ("/", "/rules", "/rules/gin", "/spielen", "/settings", "/rankings", "/archive",
                "/stats", "/account", "/lernen/pikdame")  # fmt: skip


def test_nothing_scrolls_sideways_at_200_percent(page: Page, stack: Stack) -> None:
    """A 1280 × 800 window at 200 % zoom: 640 × 400 CSS px; the largest cards too."""
    stack.clock.set_day("2030-06-02")
    page.set_viewport_size({"width": 640, "height": 400})
    for path in PAGES_AT_200:
        page.goto(path)
        page.wait_for_load_state("networkidle")
        assert overflow(page) <= 0, (path, overflow(page))
    call = api_call(page)
    status, started = call("POST", "/api/daily/2030-06-02/attempts", {"name": "Zoom"})
    assert status == 201, started
    attempt = started["attempt"]["id"]
    advance_to_melds(call, attempt)
    for size in ("normal", "larger"):
        page.evaluate(
            "(size) => localStorage.setItem('pikdame.settings', JSON.stringify({size}))", size
        )
        page.goto(f"/play/{attempt}")
        page.wait_for_selector("body[data-ready='1']")
        assert overflow(page) <= 0, (size, overflow(page))
    create_table(page, "Zoom", ["beginner"], game="tausende")
    page.locator("#start-button").click()
    expect(page.locator("#cut-button, #hand li").first).to_be_visible()
    assert overflow(page) <= 0, overflow(page)
    page.goto("/spielen")
    status, made = call(
        "POST",
        "/api/tables",
        {
            "game": "gin",
            "name": "Zoom",
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "plain"}],
        },
    )
    assert status == 201, made
    page.goto(f"/tables/{made['table']['id']}")
    page.get_by_role("button", name=DE["tables.start"]).click()
    expect(page.get_by_role("listbox", name=DE["gin.hand"])).to_be_visible()
    assert overflow(page) <= 0, overflow(page)
    assert re.search(r"/tables/", page.url)
