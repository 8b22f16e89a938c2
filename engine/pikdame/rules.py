"""The values that describe a Pik Dame game and how its rounds end: rules (R9), seats (R9),
outcomes and their scoring (R7), the goal (R8).

Plain values with no state behind them, so the state, the position document (F5), the record (F6)
and the view all read them without reading one another. A second ruleset of this game (Tausende,
R12) would be a further option here, read by the rules that differ.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from engine.core.cards import Counts
from engine.core.records import Seat  # every game's seat (R9, G9); re-exported here
from engine.pikdame.cards import counts_points
from engine.pikdame.errors import PikDameError
from engine.pikdame.melds import Meld, melds_points

GOAL: Final = 1000
#: The bot levels a seat can have (R10); the bots themselves live in ``engine.pikdame.bots``.
#: ``meister`` plays out the others' moves on sampled deals (bots/meister.py): a table's level.
LEVELS: Final = ("beginner", "advanced", "zen", "meister")
#: The levels that play by judgement alone (the analysis' play-outs use only these).
PLAIN_LEVELS: Final = ("beginner", "advanced", "zen")
#: How a round ends (R7): someone went out, the stock ran out, or a seat resigned (R8).
ENDS: Final = ("out", "stock", "resign")


#: The rulesets of this game: Pik Dame (R1–R11) and Tausende (R12), named by ``rules.ruleset``.
RULESETS: Final = ("pikdame", "tausende")
#: R12.8's options, off by default, only for Tausende.
TAUSENDE_OPTIONS: Final = ("ace_high_only", "no_joker_swap", "go_out_on_opening")


@dataclass(frozen=True)
class Rules:
    """The options of a game that the engine needs (R9; bots and timers live elsewhere), the
    ruleset (``pikdame`` or ``tausende``, R12) and Tausende's options (R12.8)."""

    players: int = 4
    hand_out_double: bool = False
    strict_1000: bool = False
    ruleset: str = "pikdame"
    ace_high_only: bool = False
    no_joker_swap: bool = False
    go_out_on_opening: bool = False

    @property
    def tausende(self) -> bool:
        return self.ruleset == "tausende"

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "players": self.players,
            "hand_out_double": self.hand_out_double,
            "strict_1000": self.strict_1000,
        }
        if self.tausende:  # absent = pikdame, so Pik Dame's documents stay byte for byte (F5, F6)
            doc["ruleset"] = self.ruleset
            for key in TAUSENDE_OPTIONS:
                doc[key] = getattr(self, key)
        return doc

    @staticmethod
    def from_json(obj: Any) -> Rules:
        keys = {"players", "hand_out_double", "strict_1000"}
        if isinstance(obj, dict) and obj.get("ruleset") == "tausende":
            keys |= {"ruleset", *TAUSENDE_OPTIONS}
        elif isinstance(obj, dict) and "ruleset" in obj and obj["ruleset"] != "pikdame":
            raise PikDameError(f"rules.ruleset is one of {', '.join(RULESETS)}", obj)
        elif isinstance(obj, dict):
            keys.add("ruleset")
        if not isinstance(obj, dict) or set(obj) - keys:
            raise PikDameError("rules are {players, hand_out_double, strict_1000}", obj)
        players = obj.get("players", 4)
        hod = obj.get("hand_out_double", False)
        strict = obj.get("strict_1000", False)
        if type(players) is not int or players not in (2, 3, 4):
            raise PikDameError("rules.players is 2, 3 or 4", obj)
        if not isinstance(hod, bool) or not isinstance(strict, bool):
            raise PikDameError("rules.hand_out_double and rules.strict_1000 are true or false", obj)
        options = {key: obj.get(key, False) for key in TAUSENDE_OPTIONS}
        if not all(isinstance(v, bool) for v in options.values()):
            raise PikDameError(f"rules.{'/'.join(TAUSENDE_OPTIONS)} are true or false", obj)
        if obj.get("ruleset", "pikdame") == "tausende":
            if hod:
                raise PikDameError("Tausende has no hand-out doubling (R12.7)", obj)
            return Rules(players, False, strict, "tausende", **options)
        return Rules(players, hod, strict)

    def reached_goal(self, total: int) -> bool:
        """R8: 1000 points reached (or passed, with ``strict_1000``)."""
        return total > GOAL if self.strict_1000 else total >= GOAL


@dataclass(frozen=True)
class Outcome:
    """How a round ended (R7): ``end`` is ``out``, ``stock`` or ``resign``."""

    end: str
    winner: int | None
    round_scores: tuple[int, ...]
    doubled: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "end": self.end,
            "winner": self.winner,
            "round_scores": list(self.round_scores),
            "doubled": self.doubled,
        }


def score_round(
    rules: Rules,
    end: str,
    winner: int | None,
    opened_at_turn_start: bool,
    melds: Sequence[Sequence[Meld]],
    hands: Sequence[Counts],
) -> Outcome:
    """Score a finished round (R7.1): own melds up, cards in hand down (not for the seat that
    went out), doubled when a seat goes out in one go with ``hand_out_double`` (R7.2)."""
    doubled = end == "out" and rules.hand_out_double and not opened_at_turn_start
    scores = []
    for seat in range(rules.players):
        score = melds_points(melds[seat])
        if seat != winner:
            score -= counts_points(hands[seat])
        scores.append(score * 2 if doubled else score)
    return Outcome(end, winner, tuple(scores), doubled)


__all__ = [
    "ENDS",
    "GOAL",
    "LEVELS",
    "PLAIN_LEVELS",
    "RULESETS",
    "TAUSENDE_OPTIONS",
    "Outcome",
    "Rules",
    "Seat",
    "score_round",
]
