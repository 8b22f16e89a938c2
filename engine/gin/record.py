"""Gin match records ``gin-log/1`` (GIN.md G9, docs/GIN_FORMATS.md): writing a record's fields and
reading them back, without the match (``engine/gin/match.py`` builds and rebuilds itself from
these fields; ``engine/gin/replay.py`` verifies a record by playing it again).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from engine.core.errors import FormatError
from engine.core.records import Seat
from engine.gin.bots import BOTS_VERSION, LEVELS

LOG_FORMAT: Final = "gin-log/1"
RULES_VERSION: Final = "1"
ENGINE_VERSION: Final = f"pikdame-gin/rules-{RULES_VERSION}/bots-{BOTS_VERSION}"
_KEYS: Final = frozenset(
    ("format", "engine", "seats", "seeds", "moves", "hands", "totals", "result")
)


@dataclass(frozen=True)
class RecordFields:
    """A record's checked fields: the seats, ``{commitment, seed}`` and the moves; hands,
    totals and result stay as written (the replay compares them, storage reads them)."""

    seats: tuple[Seat, Seat]
    seeds: dict[str, Any]
    moves: list[tuple[int, str]]


def write_record(
    seats: tuple[Seat, Seat],
    commitment: str,
    seed: bytes | None,
    moves: list[tuple[int, str]],
    hands: list[dict[str, Any]],
    totals: list[int],
    result: dict[str, Any] | None,
) -> dict[str, Any]:
    """The ``gin-log/1`` document; the seed only when given (revealed)."""
    return {
        "format": LOG_FORMAT,
        "engine": ENGINE_VERSION,
        "seats": [s.to_json() for s in seats],
        "seeds": {"commitment": commitment, "seed": None if seed is None else seed.hex()},
        "moves": [{"seat": s, "move": m} for s, m in moves],
        "hands": hands,
        "totals": totals,
        "result": result,
    }


def read_record(record: Any) -> RecordFields:
    """Check a record's shape (G9) and read its seats, seeds and moves; raises FormatError."""
    if not isinstance(record, dict) or record.get("format") != LOG_FORMAT:
        raise FormatError(f"a Gin record has format {LOG_FORMAT!r}", record)
    if set(record) != _KEYS:
        raise FormatError(f"a Gin record has the keys {sorted(_KEYS)}", record)
    seats_json = record["seats"]
    if not isinstance(seats_json, list) or len(seats_json) != 2:
        raise FormatError("record seats: two", record)
    seats = (Seat.from_json(seats_json[0], LEVELS), Seat.from_json(seats_json[1], LEVELS))
    seeds = record["seeds"]
    if not isinstance(seeds, dict) or set(seeds) != {"commitment", "seed"}:
        raise FormatError("record seeds: {commitment, seed}", record)
    moves = record["moves"]
    if not isinstance(moves, list) or not all(
        isinstance(m, dict)
        and set(m) == {"seat", "move"}
        and m["seat"] in (0, 1)
        and type(m["seat"]) is int
        and isinstance(m["move"], str)
        for m in moves
    ):
        raise FormatError("record moves: a list of {seat: 0 or 1, move}", record)
    if not isinstance(record["hands"], list):
        raise FormatError("record hands: a list of hand results", record)
    return RecordFields(seats, seeds, [(m["seat"], m["move"]) for m in moves])


__all__ = [
    "ENGINE_VERSION",
    "LOG_FORMAT",
    "RULES_VERSION",
    "RecordFields",
    "read_record",
    "write_record",
]
