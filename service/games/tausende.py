"""Tausende's adapter (RULES.md R12, engine/pikdame/tausende.py): a ruleset of Pik Dame's engine
with 108 cards, played to 1000 at tables, with R12.8's options chosen when the table is made.
No daily challenge: its daily part is Pik Dame's, never offered (``offers`` no ``Daily``)."""

from __future__ import annotations

from typing import Final

from engine.pikdame.rules import PLAIN_LEVELS, TAUSENDE_OPTIONS, Rules
from engine.pikdame.version import TAUSENDE_ENGINE_VERSION
from service.games.adapter import (
    ANALYSIS,
    HOUSE_RULES,
    LESSONS,
    TABLES,
    Lesson,
    Option,
    Pages,
    Step,
    TableForm,
)
from service.games.pikdame import PikDame

LESSON: Final = Lesson(
    game="tausende",
    rules_url="/rules/tausende",
    anchors_en={"t-eroeffnung": "t-opening", "t-auslagen": "t-melds", "t-dame": "t-queen"},
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


#: What the API's documentation adds to "Tausende only (R12.8)" for each R12.8 option.
API_WORDS: Final = {
    "ace_high_only": ": no A-2-3",
    "no_joker_swap": "",
    "go_out_on_opening": ": going out in the turn one opens",
}


class Tausende(PikDame):
    """Tausende to 1000 (R12, R8): Pik Dame's whole game with R12's ruleset and R12.8's options
    chosen at the table's creation. The cut is 1 … 107 (R12.1: 108 cards), no lucky grab."""

    name = "tausende"
    title = "Tausende"
    engine_version = TAUSENDE_ENGINE_VERSION
    #: no daily challenge: its daily part is Pik Dame's, never offered
    offers = (TABLES, HOUSE_RULES, ANALYSIS, LESSONS)
    marked = True
    pages = Pages(prefix="/tausende", rules="/rules/tausende")  # no daily pages: its rules
    lesson = LESSON
    options = ("strict_1000", *TAUSENDE_OPTIONS)
    #: no Meister: its play-outs are Pik Dame's (a Meister seat would play zen's Tausende move)
    levels = PLAIN_LEVELS
    #: R12.7: no hand-out doubling; R8's strict 1000 and R12.8's options, with its rules a click
    #: away
    form = TableForm(
        lead="tables.newLead",
        options=(
            Option("strict_1000", "tables.strict1000"),
            *(
                Option(key, f"tausende.option.{key}", f"Tausende only (R12.8){API_WORDS[key]}")
                for key in TAUSENDE_OPTIONS
            ),
        ),
        rules_link="tausende.rulesLink",
    )

    def rules_of(self, players: int, options: dict[str, bool]) -> Rules:
        # R12.7: no hand-out doubling; R8's strict_1000 and R12.8's options as the table chose
        chosen = {key: options.get(key, False) for key in TAUSENDE_OPTIONS}
        return Rules(players, False, options.get("strict_1000", False), "tausende", **chosen)


ADAPTER: Final = Tausende()

__all__ = ["ADAPTER", "LESSON", "Tausende"]
