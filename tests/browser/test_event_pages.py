"""The week's tournament's pages through the shipped nginx front (issue 42, docs/EVENTS.md): a
signed-in player opens the event page, plays the week's first deal on the daily's table to the
round's end (Pik Dame; Gin's deal resigned), sees it verified, goes back to the event page from
the end screen and finds the deal's result against the field ("50 % des Feldes geschlagen") with
the field's scores charted, then the standings listing them apart as incomplete; after the close
the seeds, checked against the commitments, the replay of the deal and the month's season page.
axe, contrast, raw text and width are checked on each page as drawn. The stack's clock sets the
week: no real date matters."""

from __future__ import annotations

import re

import redis
from playwright.sync_api import Browser, Page, expect

from service import games
from service.events import deals, store
from tests.support.axe import violations
from tests.support.browser_stack import Stack
from tests.support.page_checks import low_contrast, overflow, raw_text, wrong_plurals
from tests.support.page_flows import VERIFY_TIMEOUT_MS
from tests.support.servers import role_url
from tests.support.table_player import Player
from tests.support.virtual_passkeys import signed_up

WEEK = "2030-W27"  # 2030-07-01 … 2030-07-07
NAME = "Turnierspielerin"
READY = "body[data-ready='1']"


def clean(page_errors: list[str], page: Page) -> None:
    """No grave axe finding, no faint text, nothing raw or wider than the screen."""
    assert violations(page) == []
    assert low_contrast(page) == []
    assert raw_text(page) + wrong_plurals(page) == []
    assert overflow(page) <= 0
    assert page_errors == []


def test_a_deal_of_the_week_played_and_scored_against_the_field(
    browser: Browser, stack: Stack
) -> None:
    stack.clock.set_day("2030-07-03")  # the Wednesday of WEEK
    # two others on deal 1, far below and far above any round's score: the player beats one of two
    rankings: redis.Redis[str] = redis.Redis.from_url(
        role_url(stack.redis_url, "PIKDAME_REDIS_RANKINGS_URL"), decode_responses=True
    )
    store.fold(rankings, "pikdame", WEEK, "field-low", 1, -100_000, 1)
    store.fold(rankings, "pikdame", WEEK, "field-high", 1, 100_000, 2)
    rankings.close()
    ctx = browser.new_context(  # passkeys need a domain: localhost, through the front
        base_url=stack.base_url.replace("127.0.0.1", "localhost"),
        viewport={"width": 1280, "height": 900},
        service_workers="block",
    )
    ctx.add_init_script("localStorage.setItem('pikdame.speed', JSON.stringify('veryfast'))")
    errors: list[str] = []
    try:
        page = signed_up(ctx, NAME, errors)
        page.goto("/")
        page.locator("#event-offer-link").click()
        page.wait_for_selector(READY)
        expect(page.locator("#event-week")).to_have_text(WEEK)
        expect(page.locator("#event-progress")).to_have_text("Blatt 1 von 6")
        expect(page.locator("#event-deals .event-deal")).to_have_count(6)
        expect(page.locator("#event-deals .hash")).to_have_count(6)  # commitments, no seed yet
        expect(page.locator("#event-anonymous")).to_have_count(0)  # signed in: ranked
        page.locator("#event-name").fill(NAME)
        page.locator("#event-start-button").click()
        page.wait_for_url(re.compile(r"/play/[\w-]+$"))
        page.wait_for_selector(READY)
        expect(page.locator("#table-date")).to_have_text(f"Turnier {WEEK}, Blatt 1")
        player = Player(page)
        player.play_round()  # the whole round against the three Zen-Meister bots
        assert player.turns > 0
        status = page.locator("#verify-status")
        expect(status).to_have_attribute("data-state", "verified", timeout=VERIFY_TIMEOUT_MS)
        expect(page.locator("#end-share")).to_be_hidden()
        page.locator("#end-event-link").click()
        page.wait_for_url(f"**/turnier/{WEEK}")
        page.wait_for_selector(READY)
        expect(page.locator("#event-progress")).to_have_text("Blatt 2 von 6")
        deal = page.locator("#deal-1")
        expect(deal.locator(".deal-status")).to_contain_text("geprüft")
        expect(deal.locator(".deal-result")).to_contain_text("50 % des Feldes geschlagen")
        expect(deal.locator(".deal-result")).to_contain_text("besser als 1 von 2, 0 gleich")
        expect(deal.locator("svg.chart rect.bar")).to_have_count(3)  # the field's three scores
        expect(deal.locator("svg.chart rect.bar.mark")).to_have_count(1)  # the player's own
        expect(page.locator("#event-start-button")).to_have_text("Blatt 2 spielen")
        clean(errors, page)
        page.locator("#event-standings-link").click()
        page.wait_for_selector(READY)
        expect(page.locator("#standings-state")).to_contain_text("Live")
        expect(page.locator("#standings-empty")).to_be_visible()  # no one played all six
        expect(page.locator("#standings-you")).to_contain_text("1 Blatt")
        expect(page.locator("#standings-incomplete li.mine")).to_contain_text(f"{NAME} (Du)")
        expect(page.locator("#standings-seeds-box")).to_be_hidden()  # seeds after the close
        clean(errors, page)
        # after the close (Sunday 24:00 plus the grace): final, the seeds, the own replay
        stack.clock.set_day("2030-07-08")
        page.reload()
        page.wait_for_selector(READY)
        expect(page.locator("#standings-state")).to_have_text("Endstand")
        expect(page.locator("#standings-seeds li")).to_have_count(6)
        expect(page.locator("#standings-seeds .seed-check[data-ok='true']")).to_have_count(6)
        clean(errors, page)
        page.locator("#seed-1 .deal-replay").click()
        page.wait_for_url(re.compile(r"/replay/[\w-]+$"))
        page.wait_for_selector(READY)
        expect(page.locator("#replay")).to_be_visible()
        expect(page.locator("#replay-analyse")).to_be_visible()
        # the month's season: July 2030's first event is final, with no one who played it all
        page.goto("/turnier/saison/2030-07")
        page.wait_for_selector(READY)
        expect(page.locator("#season-weeks li")).to_have_count(4)  # W27 … W30
        expect(page.locator(f"#season-weeks [data-week='{WEEK}']")).to_have_text("Endstand")
        expect(page.locator("#season-empty")).to_be_visible()
        clean(errors, page)
    finally:
        ctx.close()


def test_a_gin_deal_of_the_week_resigned_and_scored_against_the_field(
    browser: Browser, stack: Stack
) -> None:
    """Gin's week (its one hand against the strong bot) on the same pages, chosen by ?game=:
    from the home page's link, the deal is played on Gin's daily table, resigned (G8), scored
    −123 by the server's verification (docs/EVENTS.md), and the end screen leads back to Gin's
    event page with the result against a field of two."""
    game = next(name for name in deals.EVENT_GAMES if games.get(name).marked)
    stack.clock.set_day("2030-07-03")  # the Wednesday of WEEK
    rankings: redis.Redis[str] = redis.Redis.from_url(
        role_url(stack.redis_url, "PIKDAME_REDIS_RANKINGS_URL"), decode_responses=True
    )
    store.fold(rankings, game, WEEK, "gin-low", 1, -200, 1)  # below a resignation's −123
    store.fold(rankings, game, WEEK, "gin-high", 1, 200, 2)
    rankings.close()
    ctx = browser.new_context(
        base_url=stack.base_url.replace("127.0.0.1", "localhost"),
        viewport={"width": 1280, "height": 900},
        service_workers="block",
    )
    errors: list[str] = []
    try:
        page = signed_up(ctx, "Ginturnier", errors)
        page.goto("/")
        page.locator(f".event-offer a[href='/turnier?game={game}']").click()
        page.wait_for_selector(READY)
        expect(page.locator(f"#game-switch a[data-game={game}]")).to_have_attribute(
            "aria-current", "page"
        )
        expect(page.locator("#event-week")).to_have_text(WEEK)
        expect(page.locator("#event-progress")).to_have_text("Blatt 1 von 6")
        expect(page.locator("#event-deals .event-deal")).to_have_count(6)
        page.locator("#event-name").fill("Ginturnier")
        page.locator("#event-start-button").click()
        page.wait_for_url(re.compile(rf"{games.get(game).pages.prefix}/play/[\w-]+$"))
        page.wait_for_selector(READY)
        expect(page.locator("#table-date")).to_have_text(f"Turnier {WEEK}, Blatt 1")
        page.locator("#resign").click()
        page.locator("#table-confirm-ok").click()
        expect(page.locator("#end")).to_be_visible()
        expect(page.locator("#end-verification")).to_have_attribute(
            "data-status", "verified", timeout=VERIFY_TIMEOUT_MS
        )
        expect(page.locator("#end-event-score")).to_have_attribute("data-score", "-123")
        expect(page.locator("#end-event-score")).to_contain_text("−123")
        expect(page.locator("#end-share")).to_be_hidden()
        expect(page.locator("#end-rankings")).to_be_hidden()
        page.locator("#end-event-link").click()
        page.wait_for_url(f"**/turnier/{WEEK}?game={game}")
        page.wait_for_selector(READY)
        expect(page.locator("#event-progress")).to_have_text("Blatt 2 von 6")
        deal = page.locator("#deal-1")
        expect(deal.locator(".deal-status")).to_contain_text("geprüft")
        expect(deal.locator(".deal-result")).to_contain_text("50 % des Feldes geschlagen")
        expect(deal.locator("svg.chart rect.bar")).to_have_count(3)
        expect(deal.locator("svg.chart rect.bar.mark")).to_have_count(1)
        expect(page.locator("#event-standings-link")).to_have_attribute(
            "href", f"/turnier/{WEEK}/stand?game={game}"
        )
        clean(errors, page)
    finally:
        ctx.close()
