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

from functools import cache
from typing import Any, Final

from service import games
from service.games.adapter import Lesson, Step

#: The games that declare a lesson (``games.LESSONS``), as the registry offers them.
_TEACHING: Final = games.offering(games.LESSONS)
#: The games with a lesson, in the order the pages list them.
LESSONS: Final = tuple(game for game in games.LISTED if game in _TEACHING)
#: Each game's lesson (its adapter's ``lesson``).
BY_GAME: Final = {game: _TEACHING[game].lesson for game in LESSONS}


def positions(lesson: Lesson) -> list[dict[str, Any]]:
    """The engine's position before each step and after the last (raises the engine's error
    if a step is not legal: a broken script fails its test, never reaches a page). Each run
    starts from a copy of the lesson's deal, so the lesson's constant stays as written."""
    moves = [step.move for step in lesson.steps]
    return _TEACHING[lesson.game].lesson_positions(lesson.start, moves)


def scene(game: str, doc: dict[str, Any]) -> dict[str, Any]:
    """What the page shows of one position (from seat 0)."""
    return _TEACHING[game].scene(doc)


@cache
def document(game: str, lang: str = "de") -> dict[str, Any]:
    """The lesson as the page reads it: ``{"game", "rules", "steps": [...], "end": scene}``;
    each step carries its scene (the position before it) and what the learner must do."""
    lesson = BY_GAME[game]
    english = lesson.anchors_en  # the rules page's English and Dutch section ids
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
                "anchor": step.anchor if lang == "de" else english.get(step.anchor, step.anchor),
                "wrong": {key: code for key, (_, code) in step.wrong.items()},
                "scene": scene(game, doc),
            }
        )
    return {
        "game": game,
        "rules": lesson.rules_url,
        "cardless": list(lesson.cardless),
        "steps": steps,
        "end": scene(game, docs[-1]),
    }


__all__ = ["BY_GAME", "LESSONS", "Lesson", "Step", "document", "positions", "scene"]
