"""The page writes a selection of cards as an F2 meld (templates/static/js/pikdame/notation.js).
Checked in Chromium against the engine: every valid meld, selected in any order, must come out
as a text the engine reads as a valid meld of exactly the selected cards."""

from __future__ import annotations

import random

from playwright.sync_api import Page

from engine import Meld, Move

RANKS = "A23456789TJQK"
SUITS = "SHDC"


def random_run(rng: random.Random) -> list[str]:
    suit = rng.choice(SUITS)
    start = rng.randrange(13)
    length = rng.randint(3, 9)
    cards = [RANKS[(start + i) % 13] + suit for i in range(length)]
    for i in rng.sample(range(length), rng.randint(0, length - 1)):
        cards[i] = "X"
    if sum(c != "X" for c in cards) == 1 and rng.random() < 0.5:
        cards = [c for c in cards if c != "X"] + ["X"] * (length - 1)
    rng.shuffle(cards)
    return cards


def random_set(rng: random.Random) -> list[str]:
    rank = rng.choice(RANKS)
    pool = [rank + s for s in SUITS for _ in range(2)]
    cards = rng.sample(pool, rng.randint(2, 6)) + ["X"] * rng.randint(0, 2)
    if len(cards) < 3:
        cards.append("X")
    rng.shuffle(cards)
    return cards


def engine_reads(text: str) -> list[str]:
    move = Move.parse(f"meld {text}")
    meld = Meld.build(move.cards, move.prefix)
    return sorted(str(c) for c in meld.cards)


def test_selections_become_melds_the_engine_accepts(page: Page) -> None:
    rng = random.Random(20301)
    cases = [random_run(rng) for _ in range(150)] + [random_set(rng) for _ in range(80)]
    # one natural card: the player answers "set or run?" (runs here; sets have two or more)
    kinds = ["run" if sum(c != "X" for c in cards) == 1 else None for cards in cases]
    page.goto("/rules")
    texts = page.evaluate(
        """async ([cases, kinds]) => {
            const m = await import('/static/js/pikdame/notation.js');
            return cases.map((cards, i) => m.meldText(cards, kinds[i]).text);
        }""",
        [cases, kinds],
    )
    for cards, text in zip(cases, texts, strict=True):
        assert engine_reads(text) == sorted(cards), (cards, text)


def test_known_spellings(page: Page) -> None:
    page.goto("/rules")
    got = page.evaluate(
        """async () => {
            const m = await import('/static/js/pikdame/notation.js');
            return [
                m.meldText(['9H', 'X', '7H']).text,
                m.meldText(['2H', 'KH', 'X']).text,
                m.meldText(['7H', 'X', 'X'], 'run').text,
                m.meldText(['7H', 'X', 'X'], 'run', 'low').text,
                m.meldText(['7H', 'X', '7S']).text,
                m.reading(['7H', '8S', '9H']),
                m.jokerCards({kind: 'run', cards: ['QH', 'X', 'AH', 'X']}),
            ];
        }"""
    )
    assert got == [
        "7H X 9H",
        "KH X 2H",
        "run 7H X X",
        "run X X 7H",
        "7H X 7S",
        "mixed",
        ["KH", "2H"],
    ]
