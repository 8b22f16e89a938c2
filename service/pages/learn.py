"""The guided first rounds ("Lernen"): one short scripted hand per game on a fixed deal.

Each lesson is a start position and a list of steps. A step is either the learner's (the page
highlights the cards and the button; only that move continues it) or the opponent's (the page
shows it and goes on). The page never plays a rule itself: every position it shows is the
engine's own, stepped through here with the script's moves, so a lesson cannot show a move the
rules forbid (tests/service/test_learn.py checks every step and its stated effect). A step may
name wrong moves the learner is likely to try with the engine's error code; the test checks the
engine refuses each with that code (R4.1, G5, R12.3, R12.6 ...).

What the page gets per step is a "scene" of the position before it, from the learner's seat 0:
the own hand, the other hand's size (its cards only once the hand is over), the stock's size,
the discard pile's top and size, the melds on the table, and the game's counters (Gin's
deadwood, Tausende's opening points). A lesson's deal is made up and public: nothing secret.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Final

from engine import State
from engine.gin import HandState, min_deadwood, parse_card, to_mask

#: The games with a lesson, in the order the pages list them.
LESSONS: Final = ("pikdame", "gin", "tausende")


@dataclass(frozen=True)
class Step:
    """One step: the move in the engine's notation and what the learner does for it.

    ``action`` is the page's button (``draw``, ``take``, ``meld``, ``lay``, ``discard``,
    ``knock``; ``next`` for the opponent's moves), ``cards`` the hand cards to select first,
    ``target`` the meld to click for a lay-off (``seat.number``), ``text`` the i18n key of the
    explanation (``<text>.hint`` is said after a wrong try), ``rule`` the rule it cites and
    ``anchor`` that rule's section on the rules page. ``wrong`` maps a likely wrong try, as
    the page writes it (the action, then the selected cards in canonical order S H D C, A … K),
    to the engine's move for it and the error code the engine answers (the page explains the
    code; the test checks the engine's answer).
    """

    move: str
    action: str
    text: str
    rule: str
    anchor: str
    cards: tuple[str, ...] = ()
    target: str | None = None
    wrong: dict[str, tuple[str, str]] = field(default_factory=dict)

    @property
    def mine(self) -> bool:
        return self.action != "next"


@dataclass(frozen=True)
class Lesson:
    game: str
    rules_url: str
    start: dict[str, Any]
    steps: tuple[Step, ...]


PIKDAME: Final = Lesson(
    game="pikdame",
    rules_url="/rules",
    start={
        "format": "pikdame-position/1",
        "rules": {"players": 2, "hand_out_double": False, "strict_1000": False},
        "round": 1,
        "dealer": 1,
        "turn": 0,
        "phase": "draw",
        "opened_at_turn_start": False,
        "hands": [
            ["7H", "8H", "9H", "KS", "KD", "5C", "6C", "TH", "2D"],
            ["7C", "4S", "JD", "QS"],
        ],
        "melds": [[], []],
        "stock": ["KC", "9S", "3D", "8D"],
        "discard": [],
        "removed": [],
        "totals": [0, 0],
    },
    steps=(
        Step("draw", "draw", "learn.pikdame.draw", "R4.1", "zug"),
        Step(
            "meld 7H 8H 9H",
            "meld",
            "learn.pikdame.run",
            "R5.2",
            "kombinationen",
            cards=("7H", "8H", "9H"),
        ),
        Step(
            "meld KS KD KC",
            "meld",
            "learn.pikdame.set",
            "R5.1",
            "kombinationen",
            cards=("KS", "KD", "KC"),
        ),
        Step("discard 2D", "discard", "learn.pikdame.discard", "R4.3", "zug", cards=("2D",)),
        Step("draw", "next", "learn.pikdame.otherDraws", "R4.1", "zug"),
        Step("discard 7C", "next", "learn.pikdame.otherDiscards", "R4.3", "zug"),
        Step(
            "take 5C 6C 7C",
            "take",
            "learn.pikdame.take",
            "R4.1",
            "zug",
            cards=("5C", "6C"),
            wrong={"take TH 5C": ("take TH 5C 7C", "invalid_meld")},
        ),
        Step("lay TH 1", "lay", "learn.pikdame.lay", "R4.2", "zug", cards=("TH",), target="0.1"),
        Step("discard 2D", "discard", "learn.pikdame.out", "R4.3", "zug", cards=("2D",)),
    ),
)

GIN: Final = Lesson(
    game="gin",
    rules_url="/rules/gin",
    start={
        "format": "gin-position/1",
        "hand": 1,
        "dealer": 1,
        "turn": 0,
        "phase": "draw",
        "must_draw": False,
        "hands": [
            ["5S", "6S", "7S", "9D", "9C", "2H", "3H", "4H", "KC", "QD"],
            ["AS", "2S", "3S", "JH", "JS", "JD", "4C", "7C", "8D", "TC"],
        ],
        "stock": ["KH", "8S", "6D", "5D"],
        "discard": ["3D", "9H"],
        "taken": None,
        "took": [[], []],
        "takes": 0,
        "knock": None,
        "defence": None,
        "outcome": None,
    },
    steps=(
        Step("take", "take", "learn.gin.take", "G5", "g-zug"),
        Step(
            "discard KC",
            "discard",
            "learn.gin.discard",
            "G6",
            "g-klopfen",
            cards=("KC",),
            wrong={"discard 9H": ("discard 9H", "take_not_allowed")},
        ),
        Step("draw", "next", "learn.gin.otherDraws", "G5", "g-zug"),
        Step("discard KH", "next", "learn.gin.otherDiscards", "G5", "g-zug"),
        Step("draw", "draw", "learn.gin.draw", "G5", "g-zug"),
        Step(
            "knock QD 5S 6S 7S 8S | 9H 9D 9C | 2H 3H 4H",
            "knock",
            "learn.gin.gin",
            "G6",
            "g-klopfen",
            cards=("QD",),
        ),
        Step("defend AS 2S 3S | JS JH JD", "next", "learn.gin.defend", "G6", "g-klopfen"),
    ),
)

TAUSENDE: Final = Lesson(
    game="tausende",
    rules_url="/rules/tausende",
    start={
        "format": "pikdame-position/1",
        "rules": {
            "players": 2,
            "hand_out_double": False,
            "strict_1000": False,
            "ruleset": "tausende",
            "ace_high_only": False,
            "no_joker_swap": False,
            "go_out_on_opening": False,
        },
        "round": 1,
        "dealer": 1,
        "turn": 0,
        "phase": "draw",
        "opened_at_turn_start": False,
        "hands": [
            ["9H", "TH", "JH", "5S", "5D", "QS", "9C", "4D", "7D"],
            ["2S", "KH", "KD", "8H"],
        ],
        "melds": [[], [{"kind": "run", "cards": ["6C", "7C", "8C"]}]],
        "stock": ["5C", "3S", "4S"],
        "discard": ["JS"],
        "removed": [],
        "totals": [0, 0],
        "opened": [False, True],
        "laid": [0, 15],
        "swaps": None,
        "turn_points": 0,
    },
    steps=(
        Step(
            "draw",
            "draw",
            "learn.tausende.draw",
            "R12.3",
            "t-eroeffnung",
            wrong={"take": ("take 9H TH JH", "take_not_allowed")},
        ),
        Step(
            "meld 9H TH JH",
            "meld",
            "learn.tausende.run",
            "R12.3",
            "t-eroeffnung",
            cards=("9H", "TH", "JH"),
        ),
        Step(
            "meld 5S 5D 5C",
            "meld",
            "learn.tausende.open",
            "R12.3",
            "t-eroeffnung",
            cards=("5S", "5D", "5C"),
        ),
        Step(
            "lay 9C 1.1",
            "lay",
            "learn.tausende.lay",
            "R12.5",
            "t-auslagen",
            cards=("9C",),
            target="1.1",
        ),
        Step(
            "discard 4D",
            "discard",
            "learn.tausende.discard",
            "R12.6",
            "t-dame",
            cards=("4D",),
            wrong={"discard QS": ("discard QS", "queen_kept")},
        ),
    ),
)

#: The rules pages' section ids in English and Dutch where they differ from the German ones.
ANCHORS_EN: Final = {
    "zug": "turn",
    "kombinationen": "melds",
    "t-eroeffnung": "t-opening",
    "t-auslagen": "t-melds",
    "t-dame": "t-queen",
}

BY_GAME: Final = {lesson.game: lesson for lesson in (PIKDAME, GIN, TAUSENDE)}


def _scene_pikdame(state: State) -> dict[str, Any]:
    doc = state.to_position()
    melds = [
        {"seat": seat, "number": i + 1, "cards": meld["cards"]}
        for seat, own in enumerate(doc["melds"])
        for i, meld in enumerate(own)
    ]
    over = doc.get("outcome")
    counters: dict[str, Any] = {}
    if "opened" in doc:
        counters = {"opened": doc["opened"][0], "turnPoints": doc["turn_points"]}
    return {
        "hand": doc["hands"][0],
        "other": len(doc["hands"][1]),
        "otherCards": doc["hands"][1] if over else None,
        "stock": len(doc["stock"]),
        "discard": doc["discard"][-1] if doc["discard"] else None,
        "pile": len(doc["discard"]),
        "melds": melds,
        "counters": counters,
        "outcome": {"winner": over["winner"], "scores": over["round_scores"]} if over else None,
    }


def _scene_gin(state: HandState) -> dict[str, Any]:
    doc = state.to_position()
    knock = doc["knock"]
    melds: list[dict[str, Any]] = []
    if knock is not None:
        melds = [
            {"seat": knock["seat"], "number": i + 1, "cards": cards}
            for i, cards in enumerate(knock["melds"])
        ]
    defence = doc["defence"]
    if defence is not None:
        melds += [
            {"seat": 1, "number": i + 1, "cards": cards} for i, cards in enumerate(defence["melds"])
        ]
    hand = doc["hands"][0]
    over = doc["outcome"]
    laid = {card for meld in melds if meld["seat"] == 0 for card in meld["cards"]}
    own = [card for card in hand if card not in laid]
    return {
        "hand": own,
        "other": len(doc["hands"][1]),
        "otherCards": doc["hands"][1] if over else None,
        "stock": len(doc["stock"]),
        "discard": doc["discard"][-1] if doc["discard"] else None,
        "pile": len(doc["discard"]),
        "melds": melds,
        "counters": {"deadwood": min_deadwood(to_mask(parse_card(c) for c in hand))},
        "outcome": {"winner": over["winner"], "scores": over["scores"]} if over else None,
    }


def positions(lesson: Lesson) -> list[dict[str, Any]]:
    """The engine's position before each step and after the last (raises the engine's error
    if a step is not legal: a broken script fails its test, never reaches a page). Each run
    starts from a copy of the lesson's deal, so the module's constant stays as written."""
    docs: list[dict[str, Any]] = []
    if lesson.game == "gin":
        hand = HandState.from_position(copy.deepcopy(lesson.start))
        docs.append(hand.to_position())
        for step in lesson.steps:
            hand.push(step.move)
            docs.append(hand.to_position())
        return docs
    state = State.from_position(copy.deepcopy(lesson.start))
    docs.append(state.to_position())
    for step in lesson.steps:
        state.push(step.move)
        docs.append(state.to_position())
    return docs


def scene(game: str, doc: dict[str, Any]) -> dict[str, Any]:
    """What the page shows of one position (from seat 0)."""
    if game == "gin":
        return _scene_gin(HandState.from_position(copy.deepcopy(doc)))
    return _scene_pikdame(State.from_position(copy.deepcopy(doc)))


@cache
def document(game: str, lang: str = "de") -> dict[str, Any]:
    """The lesson as the page reads it: ``{"game", "rules", "steps": [...], "end": scene}``;
    each step carries its scene (the position before it) and what the learner must do."""
    lesson = BY_GAME[game]
    docs = positions(lesson)
    steps = []
    for step, doc in zip(lesson.steps, docs, strict=False):
        steps.append(
            {
                "action": step.action,
                "cards": list(step.cards),
                "target": step.target,
                "move": step.move,
                "text": step.text,
                "rule": step.rule,
                "anchor": step.anchor if lang == "de" else ANCHORS_EN.get(step.anchor, step.anchor),
                "wrong": {key: code for key, (_, code) in step.wrong.items()},
                "scene": scene(game, doc),
            }
        )
    return {
        "game": game,
        "rules": lesson.rules_url,
        "steps": steps,
        "end": scene(game, docs[-1]),
    }
