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
#: The only ``rules`` a record may carry (added to gin-log/1, docs/GIN_FORMATS.md): one hand, the
#: week's tournament's deal (docs/EVENTS.md). A record without ``rules`` is a match to 100 (G2),
#: as every record written before.
ONE_HAND: Final[dict[str, Any]] = {"hands": 1}


@dataclass(frozen=True)
class RecordFields:
    """A record's checked fields: the seats, ``{commitment, seed}`` and the moves; hands,
    totals and result stay as written (the replay compares them, storage reads them)."""

    seats: tuple[Seat, Seat]
    seeds: dict[str, Any]
    moves: list[tuple[int, str]]
    #: whether the match is one hand (``rules``: the week's tournament's deal); else to 100 (G2)
    one_hand: bool = False


def write_record(
    seats: tuple[Seat, Seat],
    commitment: str,
    seed: bytes | None,
    moves: list[tuple[int, str]],
    hands: list[dict[str, Any]],
    totals: list[int],
    result: dict[str, Any] | None,
    one_hand: bool = False,
) -> dict[str, Any]:
    """The ``gin-log/1`` document; the seed only when given (revealed); ``rules`` only for a
    one-hand match, so a match to 100 writes the document it always wrote."""
    rules = {"rules": dict(ONE_HAND)} if one_hand else {}
    return {
        "format": LOG_FORMAT,
        "engine": ENGINE_VERSION,
        **rules,
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
    if set(record) - {"rules"} != _KEYS:
        raise FormatError(f"a Gin record has the keys {sorted(_KEYS)} (and maybe rules)", record)
    one_hand = "rules" in record
    if one_hand and (record["rules"] != ONE_HAND or type(record["rules"]["hands"]) is not int):
        raise FormatError(f"record rules: absent (a match to 100) or {ONE_HAND}", record)
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
    return RecordFields(seats, seeds, [(m["seat"], m["move"]) for m in moves], one_hand)


__all__ = [
    "ENGINE_VERSION",
    "LOG_FORMAT",
    "ONE_HAND",
    "RULES_VERSION",
    "RecordFields",
    "read_record",
    "write_record",
]
