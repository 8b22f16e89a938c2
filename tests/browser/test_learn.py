"""The guided first rounds in Chromium against the real stack: a learner completes the Pik Dame
and the Gin round by clicking the highlighted cards and buttons, a wrong try is explained and
changes nothing, and the home page offers the round to a new visitor only (not after "Nein
danke", not after a finished lesson)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from service.pages import learn
from tests.support.page_checks import low_contrast, overflow, raw_text, wrong_plurals

SIZES: dict[str, ViewportSize] = {
    "phone": {"width": 390, "height": 844},
    "desktop": {"width": 1280, "height": 800},
}


def _select(page: Page, cards: tuple[str, ...]) -> None:
    for card in cards:
        page.locator(f'#learn-hand button[data-card="{card}"]').click()


HINTED = re.compile(r"\blearn-hint\b")
BUTTONS = {
    "draw": "#learn-draw",
    "take": "#learn-take",
    "meld": "#learn-meld",
    "discard": "#learn-discard-button",
    "knock": "#learn-knock",
    "next": "#learn-next",
}


def _play(page: Page, game: str) -> None:
    """Make every step of the lesson as the page asks: its cards, then its button or meld."""
    lesson = learn.BY_GAME[game]
    for n, step in enumerate(lesson.steps, start=1):
        expect(page.locator("#learn-progress")).to_contain_text(f"{n} von {len(lesson.steps)}")
        for card in step.cards:
            expect(page.locator(f'#learn-hand button[data-card="{card}"]')).to_have_class(HINTED)
        _select(page, step.cards)
        if step.action == "lay":
            page.locator(f'#learn-melds button[data-target="{step.target}"]').click()
        else:
            page.locator(BUTTONS[step.action]).click()
        expect(page.locator("#learn-feedback")).to_have_text("")


def test_pikdame_round_by_clicking_with_a_wrong_try_explained(page: Page) -> None:
    page.goto("/lernen/pikdame")
    expect(page.locator("h1")).to_have_text("Pik Dame lernen")
    expect(page.locator("#learn-rule-link")).to_have_attribute("href", "/rules#zug")
    # A wrong first try: discarding before drawing is explained and changes nothing.
    _select(page, ("2D",))
    page.locator("#learn-discard-button").click()
    expect(page.locator("#learn-feedback")).to_contain_text("Nicht ganz.")
    expect(page.locator("#learn-feedback")).to_contain_text("Ziehen")
    expect(page.locator("#learn-hand button")).to_have_count(9)
    page.locator('#learn-hand button[data-card="2D"]').click()  # unselect, then the lesson
    _play(page, "pikdame")
    expect(page.locator("#learn-done")).to_be_visible()
    expect(page.locator("#learn-result")).to_have_text("Rundenwertung: du +70, Gegner −120.")
    expect(page.locator("#learn-melds .learn-meld")).to_have_count(3)
    expect(page.locator("#learn-other .card:not(.back)")).to_have_count(4)  # the hand shown
    assert page.evaluate("localStorage.getItem('pikdame.learned')") == '["pikdame"]'


def test_pikdame_take_with_the_wrong_cards_is_explained(page: Page) -> None:
    page.goto("/lernen/pikdame")
    for step in learn.BY_GAME["pikdame"].steps[:6]:
        _select(page, step.cards)
        page.locator(BUTTONS[step.action]).click()
    expect(page.locator("#learn-progress")).to_contain_text("7 von 9")
    _select(page, ("5C", "TH"))
    page.locator("#learn-take").click()
    expect(page.locator("#learn-feedback")).to_contain_text("keine gültige Kombination")
    expect(page.locator("#learn-progress")).to_contain_text("7 von 9")


def test_gin_round_by_clicking_to_gin_in_english(page: Page) -> None:
    page.goto("/lernen/gin?lang=en")
    expect(page.locator("h1")).to_have_text("Learn Gin Rummy")
    page.locator("#learn-take").click()
    expect(page.locator("#learn-counters")).to_have_text("")  # 11 cards: no deadwood yet
    _select(page, ("9H",))
    page.locator("#learn-discard-button").click()
    expect(page.locator("#learn-feedback")).to_contain_text("may not be discarded")
    page.locator('#learn-hand button[data-card="9H"]').click()
    _select(page, ("KC",))
    page.locator("#learn-discard-button").click()
    expect(page.locator("#learn-counters")).to_have_text("Deadwood: 10")
    for _ in range(2):
        page.locator("#learn-next").click()
    page.locator("#learn-draw").click()
    _select(page, ("QD",))
    page.locator("#learn-knock").click()
    page.locator("#learn-next").click()
    expect(page.locator("#learn-done")).to_be_visible()
    expect(page.locator("#learn-result")).to_have_text("Round score: you +54, opponent 0.")


def test_tausende_round_by_clicking(page: Page) -> None:
    page.goto("/lernen/tausende")
    _play(page, "tausende")
    expect(page.locator("#learn-done")).to_be_visible()
    expect(page.locator("#learn-hand button")).to_have_count(2)


def test_home_offers_the_round_to_a_new_visitor_until_dismissed(page: Page) -> None:
    page.goto("/")
    offer = page.locator("#learn-offer")
    expect(offer).to_be_visible()
    expect(offer).to_contain_text("Neu hier? Lerne Pik Dame in 2 Minuten")
    expect(page.locator("#learn-offer-link")).to_have_attribute("href", "/lernen/pikdame")
    page.locator("#learn-offer-dismiss").click()
    expect(offer).to_be_hidden()
    page.reload()
    expect(page.locator("#learn-offer[data-checked]")).to_be_attached()
    expect(offer).to_be_hidden()


def test_home_offer_is_not_shown_after_a_finished_lesson_or_a_game(page: Page) -> None:
    page.goto("/lernen/tausende")
    _play(page, "tausende")
    page.goto("/")
    expect(page.locator("#learn-offer[data-checked]")).to_be_attached()
    expect(page.locator("#learn-offer")).to_be_hidden()
    page.evaluate("localStorage.clear(); localStorage.setItem('pikdame.name', '\"Ada\"')")
    page.reload()
    expect(page.locator("#learn-offer[data-checked]")).to_be_attached()
    expect(page.locator("#learn-offer")).to_be_hidden()


def test_rules_pages_link_the_lessons(page: Page) -> None:
    page.goto("/rules")
    page.locator('#learn-link a[href="/lernen/pikdame"]').click()
    expect(page.locator("h1")).to_have_text("Pik Dame lernen")
    page.goto("/rules/tausende?lang=en")
    page.locator('#learn-link a[href="/lernen/tausende"]').click()
    expect(page.locator("h1")).to_have_text("Learn Tausende")


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_step_of_every_lesson_reads_and_fits(page: Page, lang: str, size: str) -> None:
    """At every step and at the end: no raw placeholder, no "1 Karten", nothing wider than the
    screen, every text readable (WCAG AA), in both languages on a phone and a desktop."""
    page.set_viewport_size(SIZES[size])
    for game in learn.LESSONS:
        page.goto(f"/lernen/{game}?lang={lang}")
        for step in [*learn.BY_GAME[game].steps, None]:
            where = f"{game} {lang} {size} before {step.move if step else 'the end'}"
            assert raw_text(page) == [], where
            assert wrong_plurals(page) == [], where
            assert overflow(page) <= 0, where
            assert low_contrast(page) == [], where
            if step is None:
                break
            _select(page, step.cards)
            if step.action == "lay":
                page.locator(f'#learn-melds button[data-target="{step.target}"]').click()
            else:
                page.locator(BUTTONS[step.action]).click()
        expect(page.locator("#learn-done")).to_be_visible()
