"""Tausende's adapter (RULES.md R12, engine/pikdame/tausende.py): a ruleset of Pik Dame's engine
with 108 cards, played to 1000 at tables, with R12.8's options chosen when the table is made.
No daily challenge: its daily part is Pik Dame's, never offered (``daily`` False)."""

from __future__ import annotations

from typing import Final

from engine.pikdame.rules import TAUSENDE_OPTIONS, Rules
from engine.pikdame.version import TAUSENDE_ENGINE_VERSION
from service.games.adapter import Lesson, Pages, Step
from service.games.pikdame import PikDame

LESSON: Final = Lesson(
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


class Tausende(PikDame):
    """Tausende to 1000 (R12, R8): Pik Dame's whole game with R12's ruleset and R12.8's options
    chosen at the table's creation. The cut is 1 … 107 (R12.1: 108 cards), no lucky grab."""

    name = "tausende"
    title = "Tausende"
    engine_version = TAUSENDE_ENGINE_VERSION
    daily = False
    marked = True
    has_par = False
    pages = Pages(prefix="/tausende", rules="/rules/tausende")  # no daily pages: its rules
    lesson = LESSON
    options = ("strict_1000", *TAUSENDE_OPTIONS)

    def rules_of(self, players: int, options: dict[str, bool]) -> Rules:
        # R12.7: no hand-out doubling; R8's strict_1000 and R12.8's options as the table chose
        chosen = {key: options.get(key, False) for key in TAUSENDE_OPTIONS}
        return Rules(players, False, options.get("strict_1000", False), "tausende", **chosen)


ADAPTER: Final = Tausende()

__all__ = ["ADAPTER", "LESSON", "Tausende"]
