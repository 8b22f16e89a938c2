"""Why a lay-off or a joker swap does not fit: the page works it out from the view it
holds (templates/static/js/pikdame/explain.js) and names the meld, the end and the card a joker
stands for. Checked in Chromium against the engine's own rule (R5, R6): the page finds a reason
exactly when the engine refuses, and the reason reads right in German and English."""

from __future__ import annotations

import random
from typing import Any

from playwright.sync_api import Page

from engine import Card, Meld
from service.errors import API_CODES, PAGE_CODES
from service.pages.strings import LANGS, strings

RANKS = "A23456789TJQK"
SUITS = "SHDC"


def random_meld(rng: random.Random) -> Meld:
    """A valid run (ring order, jokers in place) or set, as the engine builds it."""
    if rng.random() < 0.6:
        suit = rng.choice(SUITS)
        start = rng.randrange(13)
        cards = [RANKS[(start + i) % 13] + suit for i in range(rng.choice([3, 4, 5, 7, 12, 13]))]
        for i in rng.sample(range(len(cards)), rng.randint(0, min(2, len(cards) - 1))):
            cards[i] = "X"
        return Meld.build([Card.parse(c) for c in cards], "run")
    rank = rng.choice(RANKS)
    pool = [rank + s for s in SUITS for _ in range(2)]
    cards = rng.sample(pool, rng.randint(2, 7))
    cards += ["X"] * rng.randint(1 if len(cards) < 3 else 0, min(2, 8 - len(cards)))
    return Meld.build([Card.parse(c) for c in cards], "set")


def random_card(rng: random.Random, meld: Meld) -> str:
    """Mostly a card near the meld (same suit or rank), so both answers come up often."""
    first = next(str(c) for c in meld.cards if str(c) != "X")
    if rng.random() < 0.5:
        return rng.choice(RANKS) + first[1]
    if rng.random() < 0.5:
        return first[0] + rng.choice(SUITS)
    return rng.choice(RANKS) + rng.choice(SUITS)


def why_not(page: Page, cases: list[tuple[str, dict[str, Any]]]) -> list[str | None]:
    result: list[str | None] = page.evaluate(
        """async (cases) => {
            const m = await import('/static/js/pikdame/explain.js');
            return cases.map(([move, meld]) => m.whyNot(move, {melds: [[meld]]}));
        }""",
        cases,
    )
    return result


def test_a_reason_exactly_when_the_engine_refuses(page: Page) -> None:
    rng = random.Random(9)
    melds = [random_meld(rng) for _ in range(300)]
    lays = [(m, random_card(rng, m)) for m in melds]
    swaps = [(m, random_card(rng, m)) for m in melds if m.has_joker]
    page.goto("/rules")
    got_lay = why_not(page, [(f"lay {c} 1", m.to_json()) for m, c in lays])
    got_swap = why_not(page, [(f"swap 1 {c}", m.to_json()) for m, c in swaps])
    for (meld, card), why in zip(lays, got_lay, strict=True):
        assert (why is None) == meld.accepts(Card.parse(card)), (meld.to_json(), card, why)
    for (meld, card), why in zip(swaps, got_swap, strict=True):
        assert (why is None) == meld.swappable(Card.parse(card)), (meld.to_json(), card, why)
    assert sum(w is None for w in got_lay) > 20 and sum(w is not None for w in got_lay) > 100


RUN = {"kind": "run", "cards": ["4H", "5H", "X", "7H"]}
SET = {"kind": "set", "cards": ["9S", "9S", "9H", "X"]}
CASES = [
    ("lay 2H 1", RUN),
    ("lay 8S 1", RUN),
    ("swap 1 5H", RUN),
    ("lay 7H 1", SET),
    ("lay 9S 1", SET),
    ("swap 1 KD", SET),
    ("lay 9D 2", SET),
]


def test_the_reasons_read_right_in_both_languages(page: Page) -> None:
    page.goto("/rules")
    german = why_not(page, [(move, meld) for move, meld in CASES])
    assert german == [
        "2♥ passt nicht an Auslage 1 (4♥ bis 7♥): Vorn passt nur 3♥, hinten nur 8♥.",
        "8♠ passt nicht an Auslage 1: Das ist eine Folge in Herz (4♥ bis 7♥).",
        "5♥ kann den Joker in Auslage 1 nicht ersetzen: Der Joker steht für 6♥ – nur genau"
        " diese Karte kann ihn ersetzen.",
        "7♥ passt nicht an Auslage 1: Das ist ein Satz mit dem Wert 9.",
        "9♠ passt nicht an Auslage 1: In diesem Satz liegt Pik schon zweimal (jede Farbe"
        " höchstens zweimal).",
        "K♦ kann den Joker in Auslage 1 nicht ersetzen: Der Joker steht in einem Satz mit dem"
        " Wert 9 – nur eine Karte dieses Werts kann ihn ersetzen.",
        "Eine Auslage 2 hast du nicht – du hast nur Auslage 1.",
    ]
    page.goto("/rules?lang=en")
    english = why_not(page, [(move, meld) for move, meld in CASES])
    assert english[0] == (
        "2♥ does not fit meld 1 (4♥ to 7♥): only 3♥ fits at the low end, only 8♥ at the high end."
    )
    assert english[2] == (
        "5♥ cannot replace the joker in meld 1: the joker stands for 6♥ – only exactly that card"
        " can replace it."
    )
    assert english[6] == "You have no meld 2 – you only have meld 1."
    page.goto("/rules?lang=de")


def test_same_suit_is_no_run_when_the_gaps_are_too_wide(page: Page) -> None:
    """The selection hint called 2♠ 7♠ B♠ a possible run (R5.2: the ring 7…2 still
    misses six cards)."""
    page.goto("/rules")
    got = page.evaluate(
        """async () => {
            const m = await import('/static/js/pikdame/notation.js');
            return [m.reading(['2S', '7S', 'JS']), m.runGap(['2S', '7S', 'JS']),
                    m.reading(['2S', '7S', 'X', 'X', 'X', 'X']),
                    m.reading(['QS', 'KS', 'AS', '2S']),
                    m.reading(['7S', '9S', 'X']), m.reading(['7S', '7S', '7S']),
                    m.reading(['9S', '9S', '9H', '9H', '9D', '9D', '9C', '9C', 'X'])];
        }"""
    )
    assert got == ["mixed", 6, "run", "run", "run", "mixed", "mixed"]


def test_the_selection_line_says_what_the_cards_can_become(page: Page) -> None:
    for lang, expected in {
        "de": [
            "3 Karten ausgewählt. Gleiche Farbe, aber keine Folge: dazwischen fehlen 6 Karten"
            " (ein Joker kann eine ersetzen).",
            "3 Karten ausgewählt. Gleiche Farbe – das kann eine Folge werden (15 Punkte).",
            "2 Karten ausgewählt. Diese Karten passen nicht zusammen.",
            "1 Karte ausgewählt.",
        ],
        "en": [
            "3 cards selected. Same suit, but no run: 6 cards are missing in between (a joker can"
            " stand in for one).",
            "3 cards selected. Same suit – this can become a run (15 points).",
            "2 cards selected. These cards do not go together.",
            "1 card selected.",
        ],
    }.items():
        page.goto(f"/rules?lang={lang}")
        got = page.evaluate(
            """async () => {
                const m = await import('/static/js/pikdame/explain.js');
                return [['2S', '7S', 'JS'], ['5S', '6S', '7S'], ['5S', '7H'], ['5S']]
                    .map((cards) => m.describeSelection(cards));
            }"""
        )
        assert got == expected, lang
    page.goto("/rules?lang=de")


def test_every_api_error_code_reads_as_its_text_in_every_language(page: Page) -> None:
    """Defect: "Das hat nicht geklappt (account_required)": the pages' one explainer
    (lib/explain.js) fell back to the raw code for some 14 codes. Every code the API can return
    (service.errors.API_CODES), and the pages' own for a failure without an error document
    (PAGE_CODES: nginx's 502 with the app away), now reads as its own text in German, English
    and Dutch."""
    for lang in LANGS:
        page.goto(f"/rules?lang={lang}")
        said: list[str] = page.evaluate(
            """async (codes) => {
                const {explain} = await import('/static/js/lib/explain.js');
                const {ApiError} = await import('/static/js/lib/api.js');
                return codes.map((code) => explain(new ApiError(400, code, 'message')));
            }""",
            [*API_CODES, *PAGE_CODES],
        )
        table = strings(lang)
        assert said == [table[f"err.{code}"] for code in [*API_CODES, *PAGE_CODES]], lang
