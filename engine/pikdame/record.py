"""Game records (FORMATS.md F6): the document that names a round's rules, seats, deal facts and
every move, written from a game and read back with every field checked.

Replaying a record (recomputing every bot move) is :mod:`engine.pikdame.replay`'s business.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeGuard

from engine.core.records import Seat, commitment, parse_seed
from engine.pikdame.cards import TOTAL_CARDS
from engine.pikdame.errors import FormatError, PikDameError
from engine.pikdame.rules import LEVELS, Outcome, Rules
from engine.pikdame.version import engine_version

LOG_FORMAT: Final = "pikdame-log/1"


@dataclass(frozen=True)
class DealFacts:
    """What a record says about the deal (F6 ``deal``): the dealer, the cut, the commitment."""

    dealer: int
    cut: int
    commitment: str


def write(
    rules: Rules,
    seats: Sequence[Seat],
    deal: DealFacts,
    history: Sequence[tuple[int, str]],
    outcome: Outcome | None,
    seed: bytes | None,
    engine: str | None = None,
) -> dict[str, Any]:
    """The game record (F6); ``seed`` is written only when given (after the day closed)."""
    return {
        "format": LOG_FORMAT,
        "engine": engine or engine_version(rules.tausende),  # the version whose bots played
        "rules": rules.to_json(),
        "seats": [s.to_json() for s in seats],
        "deal": {
            "dealer": deal.dealer,
            "cut": deal.cut,
            "commitment": deal.commitment,
            "seed": None if seed is None else seed.hex(),
        },
        "moves": [{"seat": s, "move": m} for s, m in history],
        "result": None if outcome is None else outcome.to_json(),
    }


def read_fields(record: Any) -> tuple[Rules, tuple[Seat, ...], dict[str, Any], list[Any]]:
    if not isinstance(record, dict) or record.get("format") != LOG_FORMAT:
        raise FormatError(f"a game record has format {LOG_FORMAT!r}", record)
    try:
        rules = Rules.from_json(record.get("rules"))
    except PikDameError as e:
        raise FormatError(f"record rules: {e.message}", record) from None
    seats_json = record.get("seats")
    if not isinstance(seats_json, list) or len(seats_json) != rules.players:
        raise FormatError("record seats: one per player", record)
    seats = tuple(Seat.from_json(s, LEVELS) for s in seats_json)
    deal = record.get("deal")
    if not isinstance(deal, dict):
        raise FormatError("record deal: {dealer, cut, commitment, seed}", record)
    dealer, cut = deal.get("dealer"), deal.get("cut")
    if type(dealer) is not int or not 0 <= dealer < rules.players:
        raise FormatError("record deal.dealer: a seat", record)
    if type(cut) is not int or not 1 <= cut <= TOTAL_CARDS - 1:
        raise FormatError("record deal.cut: 1 … 109", record)
    moves = record.get("moves")
    if not are_moves(moves, rules.players):
        raise FormatError("record moves: a list of {seat, move}", record)
    return rules, seats, deal, moves


def are_moves(moves: Any, players: int) -> TypeGuard[list[Any]]:
    """Whether ``moves`` is a record's move list: ``{seat, move}`` objects with real seats."""
    return isinstance(moves, list) and all(
        isinstance(m, dict)
        and type(m.get("seat")) is int
        and 0 <= m["seat"] < players
        and isinstance(m.get("move"), str)
        for m in moves
    )


__all__ = [
    "LOG_FORMAT",
    "DealFacts",
    "are_moves",
    "commitment",
    "parse_seed",
    "read_fields",
    "write",
]
