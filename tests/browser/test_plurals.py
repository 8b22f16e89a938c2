"""Plural-aware strings ("1 Züge", "1 geprüfte Spiele", a raw "{n} geprüfte Spiele"):
templates/static/js/lib/i18n.js reads ICU-like "{n, plural, one {…} other {…}}" and picks the
form by the language's rules, in German, English and Dutch."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from service.pages.strings import LANGS
from tests.support.browser_stack import Stack
from tests.support.page_checks import raw_text
from tests.support.page_flows import start_game, wait_verified
from tests.support.table_player import Player

STRINGS = Path(__file__).resolve().parents[2] / "templates" / "static" / "i18n"
EXAMPLES: list[tuple[str, dict[str, Any]]] = [
    ("end.turns", {"n": 1}),
    ("end.turns", {"n": 2}),
    ("end.turns", {"n": 0}),
    ("rankings.total", {"n": 1}),
    ("rankings.total", {"n": 1234}),
    ("selection.count", {"n": 1}),
    ("hand.title", {"n": 1, "points": 100}),
    ("confirm.takeText", {"rest": 0}),
    ("confirm.move.lay", {"n": 2, "end": "low"}),
    ("confirm.move.lay", {"n": 2, "end": "none"}),
    ("streak.line", {"current": 1, "best": 1}),
    ("streak.line", {"current": 2, "best": 5}),
]


def formatted(page: Page, cases: list[tuple[str, dict[str, Any]]]) -> list[str]:
    result: list[str] = page.evaluate(
        """async (cases) => {
            const m = await import('/static/js/lib/i18n.js');
            return cases.map(([key, params]) => m.t(key, params));
        }""",
        cases,
    )
    return result


def test_plural_forms_in_every_language(page: Page) -> None:
    page.goto("/rules")
    assert formatted(page, EXAMPLES) == [
        "1 Zug",
        "2 Züge",
        "0 Züge",
        "1 geprüftes Spiel",
        "1.234 geprüfte Spiele",
        "1 Karte ausgewählt.",
        "Deine Hand (1 Karte, 100 Punkte)",
        "Die oberste Ablagekarte wird mit deinen Karten sofort ausgelegt; weitere Karten liegen"
        " nicht auf der Ablage.",
        "Du legst an Auslage 2 vorn an:",
        "Du legst an Auslage 2 an:",
        "Serie: 1 Tag · Rekord: 1",  # not "1 Tage"
        "Serie: 2 Tage · Rekord: 5",
    ]
    page.goto("/rules?lang=en")
    english = formatted(page, EXAMPLES)
    assert english[-2:] == ["Streak: 1 day · best: 1", "Streak: 2 days · best: 5"]
    assert english[:7] == [
        "1 turn",
        "2 turns",
        "0 turns",
        "1 verified game",
        "1,234 verified games",
        "1 card selected.",
        "Your hand (1 card, 100 points)",
    ]
    page.goto("/rules?lang=nl")
    dutch = formatted(page, EXAMPLES)
    assert dutch[-2:] == ["Reeks: 1 dag · beste: 1", "Reeks: 2 dagen · beste: 5"]
    assert dutch[:7] == [
        "1 beurt",
        "2 beurten",
        "0 beurten",
        "1 gecontroleerd spel",
        "1.234 gecontroleerde spellen",
        "1 kaart gekozen.",
        "Jouw hand (1 kaart, 100 punten)",
    ]
    page.goto("/rules?lang=de")


def test_every_string_formats_without_a_placeholder_left(page: Page) -> None:
    """Each string of every language, given its parameters (1 and 2 for every number), comes out
    with no brace left: a malformed plural or select would show."""
    for lang in LANGS:
        table: dict[str, str] = json.loads((STRINGS / f"{lang}.json").read_text("utf-8"))
        cases: list[tuple[str, dict[str, Any]]] = []
        for key, text in table.items():
            names = set(re.findall(r"\{\s*(\w+)", text))
            for n in (1, 2):
                cases.append((key, {name: n for name in names}))
        page.goto(f"/rules?lang={lang}")
        for (key, params), text in zip(cases, formatted(page, cases), strict=True):
            assert "{" not in text and "}" not in text, (lang, key, params, text)
    page.goto("/rules?lang=de")


# per language: one turn, its wrong plural, one verified game, the all-time count, its column
SINGULAR = {
    "de": ("1 Zug", "1 Züge", "1 geprüftes Spiel",
           r"^(1 Spieler|\d+ Spieler) in der ewigen Bestenliste$", "Summe"),
    "en": ("1 turn", "1 turns", "1 verified game",
           r"^(1 player|\d+ players) on the all-time board$", "Total"),
    "nl": ("1 beurt", "1 beurten", "1 gecontroleerd spel",
           r"^(1 speler|\d+ spelers) in de eeuwige ranglijst$", "Totaal"),
}  # fmt: skip


def test_one_turn_and_one_verified_game_on_the_pages(page: Page, stack: Stack) -> None:
    date = "2030-05-10"
    stack.clock.set_day(date)
    attempt = start_game(page, "Einzahl")
    Player(page).act("draw")
    Player(page).resign()
    wait_verified(page)
    assert "· 1 Zug\n" in page.locator("#share-text").input_value()
    for lang, (turn, wrong, games, players, column) in SINGULAR.items():
        page.goto(f"/play/{attempt}?lang={lang}")
        page.wait_for_selector("body[data-ready='1']")
        expect(page.locator("#end-summary")).to_contain_text(turn)
        assert wrong not in page.locator("#end-summary").inner_text()
        page.goto(f"/rankings?date={date}&tab=day")
        page.locator("#day-form button").click()
        expect(page.locator("#board-total")).to_have_text(games)
        page.locator("#tab-alltime").click()
        expect(page.locator("#board-total")).to_have_text(re.compile(players))
        expect(page.locator("#board-head")).to_contain_text(column)
        assert raw_text(page) == []  # the column head read "{n} geprüfte Spiele"
    page.goto("/rules?lang=de")


# A Gin hand or a table round won by one point ("Je wint de hand: 1 punten." in the accessibility
# sweep): every count of points a result can be 1 in is plural-aware.
ONE_POINT: list[tuple[str, dict[str, Any]]] = [
    ("gin.end.knock", {"you": "yes", "n": 1}),
    ("gin.end.knock", {"you": "no", "name": "Ada", "n": 1}),
    ("gin.end.gin", {"you": "no", "name": "Ada", "n": 1}),
    ("gin.end.undercut", {"you": "yes", "n": 1}),
    ("gin.replay.outcome", {"end": "E", "name": "Ada", "n": 1}),
    ("tables.roundBest", {"name": "Ada", "n": 1}),
    ("gin.end.knock", {"you": "yes", "n": 2}),
]
ONE_POINT_TEXT = {
    "de": [
        "Du gewinnst die Hand: 1 Punkt.",
        "Ada gewinnt die Hand: 1 Punkt.",
        "Gin von Ada: 1 Punkt.",
        "Unterboten! Du bekommst 1 Punkt.",
        "E: Ada bekommt 1 Punkt.",
        "Beste Runde: Ada (1 Punkt)",
        "Du gewinnst die Hand: 2 Punkte.",
    ],
    "en": [
        "You win the hand: 1 point.",
        "Ada wins the hand: 1 point.",
        "Gin by Ada: 1 point.",
        "Undercut! You score 1.",
        "E: Ada scores 1.",
        "Best round: Ada (1 point)",
        "You win the hand: 2 points.",
    ],
    "nl": [
        "Je wint de hand: 1 punt.",
        "Ada wint de hand: 1 punt.",
        "Gin van Ada: 1 punt.",
        "Undercut! Je scoort 1.",
        "E: Ada scoort 1.",
        "Beste ronde: Ada (1 punt)",
        "Je wint de hand: 2 punten.",
    ],
}


def test_a_result_of_one_point_is_singular(page: Page) -> None:
    for lang, texts in ONE_POINT_TEXT.items():
        page.goto(f"/rules?lang={lang}")
        assert formatted(page, ONE_POINT) == texts, lang
    page.goto("/rules?lang=de")
