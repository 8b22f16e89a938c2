"""The Gin page's own card logic (static/js/gin/cards.js) run in Chromium against the engine:
whatever order a player picks lay-offs in, the page sends them in an order G6 accepts ("one after
another", each keeping its meld valid: docs/GIN_DECISIONS.md D10), and the page's deadwood of a
set of cards is G1's."""

from __future__ import annotations

import random
from typing import Any

from playwright.sync_api import Page

from engine.gin.bots import choose_move
from engine.gin.state import HandState
from engine.gin.view import view
from tests.support.gin_matches import seed

ORDER = """async ([melds, layoffs]) => {
  const cards = await import('/static/js/gin/cards.js');
  return cards.orderLayoffs(melds, layoffs);
}"""
DEADWOOD = """async (hands) => {
  const cards = await import('/static/js/gin/cards.js');
  return hands.map((h) => cards.deadwoodOf(h));
}"""


def defences(count: int) -> list[tuple[HandState, dict[str, Any]]]:
    """Defend turns of strong-vs-plain hands whose best defence lays off at least two cards."""
    found: list[tuple[HandState, dict[str, Any]]] = []
    k = 0
    while len(found) < count and k < 400:
        s = HandState.new(seed(f"page-logic/{k}"), 1 + k % 3, k % 2)
        k += 1
        while s.outcome is None:
            v = view(s, s.turn)
            if s.phase == "defend":
                doc = v.to_json()
                if str(doc["suggestion"]).count("@") >= 2:
                    found.append((s.copy(), doc))
            s.push(choose_move(("plain", "strong")[s.turn], v))
    return found


def test_g6_layoffs_in_any_chosen_order_are_sent_in_an_accepted_order(page: Page) -> None:
    page.goto("/rules")
    rng = random.Random(14)
    cases = defences(25)
    assert len(cases) >= 10
    for state, doc in cases:
        own, _, lays = doc["suggestion"][len("defend ") :].partition("/")
        layoffs = [[w.split("@")[0], int(w.split("@")[1])] for w in lays.split()]
        for _ in range(4):
            rng.shuffle(layoffs)
            ordered = page.evaluate(ORDER, [doc["knock"]["melds"], layoffs])
            assert sorted(map(tuple, ordered)) == sorted(map(tuple, layoffs))
            text = f"defend {own.strip()} / {' '.join(f'{c}@{n}' for c, n in ordered)}"
            assert state.is_legal(text.replace("defend  /", "defend /")), (text, doc["knock"])


def test_g1_the_pages_deadwood_of_cards_is_the_rules(page: Page) -> None:
    page.goto("/rules")
    rng = random.Random(1)
    names = [r + s for s in "SHDC" for r in "A23456789TJQK"]
    hands = [rng.sample(names, rng.randint(0, 11)) for _ in range(200)]
    values = dict(zip("A23456789TJQK", [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10], strict=True))
    assert page.evaluate(DEADWOOD, hands) == [sum(values[c[0]] for c in h) for h in hands]


KEEP = """async ([melds, layoffs]) => {
  const cards = await import('/static/js/gin/cards.js');
  return cards.orderLayoffs(melds, cards.fittingLayoffs(melds, layoffs));
}"""


def test_g6_taking_back_a_layoff_drops_those_that_no_longer_fit(page: Page) -> None:
    """A defect: with 8♠ then 9♠ laid onto a run ending at 7♠, taking back 8♠ left 9♠ selected,
    and the page sent a defence G6 refuses (422). Whichever lay-off the player takes back, what
    the page keeps is a legal defence."""
    page.goto("/rules")
    for state, doc in defences(25):
        own, _, lays = doc["suggestion"][len("defend ") :].partition("/")
        layoffs = [[w.split("@")[0], int(w.split("@")[1])] for w in lays.split()]
        for taken in layoffs:
            rest = [lay for lay in layoffs if lay != taken]
            kept = page.evaluate(KEEP, [doc["knock"]["melds"], rest])
            assert all(lay in rest for lay in kept)
            lays_text = " ".join(f"{c}@{n}" for c, n in kept)
            text = f"defend {own.strip()} / {lays_text}" if kept else f"defend {own.strip()}"
            assert state.is_legal(text.replace("defend  /", "defend /").strip()), text


RESULT = """async ([events, result]) => {
  const { createGinResults } = await import('/static/js/gin/results.js');
  const view = { results: [], totals: [0, 0] };
  const el = { result: document.createElement('section'), hands: document.createElement('div') };
  const board = { ui: { seenResults: null, declared: [] }, el, nameOf: (s) => `P${s}`,
    v: () => view, me: () => 0, other: () => 1 };
  const results = createGinResults(board);
  results.renderResult();
  results.noteEvents(events);
  view.results = [result];
  results.renderResult();
  return [...el.result.querySelectorAll('.gin-declared')].map((d) => [d.dataset.kind,
    [...d.querySelectorAll('.meld')].map((m) => m.dataset.meld)]);
}"""


def test_g6_a_hands_result_shows_its_own_knock_not_the_next_hands(page: Page) -> None:
    """Defect (CI, test_gin_table): one answer held the player's knock, the bot's defence, and
    the next hand's first turns in which the bot knocked at once; the result of the hand that
    ended showed the bot's new knock (KS KH KD KC | TH TD TC) instead of the player's. A defence
    ends its hand (G6): what was declared up to it is that hand's."""
    page.goto("/rules")
    events = [
        {"seat": 0, "move": "knock 2C AS AH AD | 7D 8D 9D TD"},
        {"seat": 1, "move": "defend 3S 4S 5S / JD@2"},
        {"seat": 1, "move": "take"},
        {"seat": 1, "move": "knock 2H KS KH KD KC | TH TD TC"},
    ]
    result = {"end": "knock", "winner": 0, "scores": [12, 0], "deadwood": [2, 14]}
    shown = page.evaluate(RESULT, [events, result])
    assert shown == [
        ["knock", ["AS AH AD", "7D 8D 9D TD"]],
        ["defend", ["3S 4S 5S"]],
    ]
