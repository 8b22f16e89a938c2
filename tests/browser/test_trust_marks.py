"""The trust marks in Chromium, German and English: today's game without an account is
marked "ohne Wertung" where the operator ranks only accounts (the default), a signed-in-free
ranked game carries no mark where anonymous play is ranked, and a day's board is marked
"vorläufig" until the day and its grace have closed, and no longer afterwards."""

from __future__ import annotations

import datetime as dt

import pytest
from playwright.sync_api import Page, expect

from tests.support.browser_stack import Stack, settings_changed
from tests.support.page_flows import api_call
from tests.support.processes import wait_for

UNRANKED = {"de": "Ohne Wertung", "en": "Unranked"}
PROVISIONAL = {"de": "vorläufig", "en": "provisional"}
DAYS = {"de": "2030-09-02", "en": "2030-09-04"}


def start_from_the_start_page(page: Page, lang: str, name: str) -> str:
    page.goto(f"/?lang={lang}")
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#name", name)
    page.locator("#start-button").click()
    page.wait_for_url("**/play/**")
    page.wait_for_selector("body[data-ready='1']")
    return page.url.rsplit("/", 1)[-1].split("?")[0]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_anonymous_play_is_marked_ohne_wertung(page: Page, stack: Stack, lang: str) -> None:
    stack.clock.set_day(DAYS[lang])
    with settings_changed(stack, rank_anonymous=False):  # the default deployment
        attempt_id = start_from_the_start_page(page, lang, f"Anonym {lang}")
        expect(page.locator("#practice-flag")).to_be_visible()
        expect(page.locator("#practice-flag")).to_contain_text(UNRANKED[lang])
        attempt = page.request.get(f"/api/attempts/{attempt_id}").json()["attempt"]
        assert attempt["ranked"] is False


def test_ranked_anonymous_play_carries_no_mark(page: Page, stack: Stack) -> None:
    """Where the operator ranks anonymous play (PIKDAME_RANK_ANONYMOUS=1, the stack's setting)
    the same start is ranked and unmarked: the mark follows the ranking, not the sign-in."""
    stack.clock.set_day("2030-09-06")
    attempt_id = start_from_the_start_page(page, "de", "Gewertet")
    expect(page.locator("#practice-flag")).to_be_hidden()
    assert page.request.get(f"/api/attempts/{attempt_id}").json()["attempt"]["ranked"] is True


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_days_board_is_vorlaeufig_until_the_day_closes(
    page: Page, stack: Stack, lang: str
) -> None:
    day = {"de": "2030-09-08", "en": "2030-09-10"}[lang]
    stack.clock.set_day(day)
    name = f"Board {lang}"
    page.goto(f"/?lang={lang}")
    page.wait_for_selector("body[data-ready='1']")
    call = api_call(page)
    status, started = call("POST", f"/api/daily/{day}/attempts", {"name": name})
    assert status == 201, started
    attempt = started["attempt"]
    status, _ = call("POST", f"/api/attempts/{attempt['id']}/moves", {"move": "resign", "seq": 0})
    assert status == 200

    def verified() -> bool:
        path = f"/api/attempts/{attempt['id']}/verification?wait=10"
        return bool(call("GET", path, None)[1]["verification"]["status"] == "verified")

    wait_for(verified, timeout=120, interval=0)  # each call waits for the verdict itself

    def board() -> None:
        page.goto(f"/rankings?date={day}&lang={lang}")
        page.wait_for_selector("body[data-ready='1']")
        expect(page.locator("#board")).to_contain_text(name)

    board()
    expect(page.locator("#provisional")).to_be_visible()
    expect(page.locator("#provisional")).to_have_text(PROVISIONAL[lang])

    closed = dt.datetime.fromisoformat(day) + dt.timedelta(days=1, hours=3)  # 24:00 + grace
    stack.clock.moment = closed.replace(tzinfo=dt.UTC)
    board()
    expect(page.locator("#board-title")).not_to_contain_text(PROVISIONAL[lang])
    expect(page.locator("#provisional")).to_have_count(0)
