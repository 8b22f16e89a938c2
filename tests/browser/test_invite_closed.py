"""The invite page of a table no one can join any more (the defect left in session 3): a
full waiting table or a started one shows why, in German and English, with no join form and a way
onward; a seated player opening their own invite is taken to the table. Pik Dame and Gin, against
the real backend in Chromium; the page shows no token and no card."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.support.browser_stack import Stack
from tests.support.page_flows import api_call

SAYS = {
    "de": {"full": "Dieser Tisch ist schon voll", "playing": "läuft die Partie schon",
           "home": "Zur Startseite", "new": "Eigenen Tisch anlegen"},
    "en": {"full": "This table is already full", "playing": "is already being played",
           "home": "To the start page", "new": "Make your own table"},
}  # fmt: skip
# Gin's second seat as a bot (to start with one human) and a full table's two humans.
SEATS = {"pikdame": "advanced", "gin": "plain"}


@pytest.fixture
def people(browser: Browser, stack: Stack) -> Iterator[Callable[[], Page]]:
    """New people, each in their own browser profile (their own session cookie)."""
    made: list[BrowserContext] = []
    errors: list[str] = []

    def person() -> Page:
        ctx = browser.new_context(base_url=stack.base_url, viewport={"width": 390, "height": 844})
        made.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto("/spielen")
        page.wait_for_selector("body[data-ready='1']")
        return page

    yield person
    for ctx in made:
        ctx.close()
    assert not errors, errors


def make(page: Page, game: str, seats: list[dict[str, str]]) -> dict[str, str]:
    status, made = api_call(page)(
        "POST", "/api/tables", {"game": game, "name": "Ada", "seats": seats}
    )
    assert status == 201, made
    return {"id": made["table"]["id"], "invite": made["invite"], "token": made["token"]}


def closed_page(page: Page, invite: str, lang: str, why: str, secrets: list[str]) -> None:
    """The invite page says ``why`` no one can join, has no form and offers a way onward."""
    page.goto(f"/t/{invite}?lang={lang}")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#join-closed")).to_contain_text(SAYS[lang][why])
    expect(page.locator("#join-form")).to_have_count(0)
    expect(page.locator("#name")).to_have_count(0)
    expect(page.locator("#join-onward a[href='/']")).to_contain_text(SAYS[lang]["home"])
    expect(page.locator("#join-onward a[href='/spielen']")).to_contain_text(SAYS[lang]["new"])
    html = page.content()
    for secret in secrets:
        assert secret not in html
    preview = json.loads(page.locator("#table-preview").text_content() or "{}")
    assert sorted(preview) == ["game", "rules", "seats", "status"]
    assert all(sorted(s) in (["kind", "name"], ["kind", "level"]) for s in preview["seats"])


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("game", ["pikdame", "gin"])
def test_a_full_table_says_so_and_its_players_go_to_the_table(
    people: Callable[[], Page], game: str, lang: str
) -> None:
    ada, bea, cem = people(), people(), people()
    table = make(ada, game, [{"kind": "human"}, {"kind": "human"}])
    status, joined = api_call(bea)("POST", f"/api/tables/join/{table['invite']}", {"name": "Bea"})
    assert status == 200, joined
    closed_page(cem, table["invite"], lang, "full", [table["token"], joined["token"]])
    for seated in (ada, bea):  # their own invite link takes them to the table
        seated.goto(f"/t/{table['invite']}?lang={lang}")
        seated.wait_for_url(re.compile(rf"/tables/{table['id']}"))
        seated.wait_for_selector("body[data-ready='1']")


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("game", ["pikdame", "gin"])
def test_a_started_table_says_so_and_its_players_go_to_the_table(
    people: Callable[[], Page], game: str, lang: str
) -> None:
    ada, cem = people(), people()
    table = make(ada, game, [{"kind": "human"}, {"kind": "bot", "level": SEATS[game]}])
    status, started = api_call(ada)("POST", f"/api/tables/{table['id']}/start", {})
    assert status == 200, started
    closed_page(cem, table["invite"], lang, "playing", [table["token"]])
    html = cem.content()
    for card in (started["table"]["view"] or {}).get("hand", []):  # none of Ada's cards
        assert f'"{card}"' not in html
    ada.goto(f"/t/{table['invite']}?lang={lang}")
    ada.wait_for_url(re.compile(rf"/tables/{table['id']}"))
    ada.wait_for_selector("body[data-ready='1']")
