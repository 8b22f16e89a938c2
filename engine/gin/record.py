"""Gin match records ``gin-log/1`` (GIN.md G9, docs/GIN_FORMATS.md) and their verified replay.

:func:`replay` deals every hand from the seed, applies every move, recomputes every bot move from
that bot's own view and compares it, and compares the record's hand results and totals with the
replay's: a forged record fails with ``bot_mismatch`` or ``score_mismatch`` and the move index.
"""

from __future__ import annotations

import json
from typing import Any, Final

from engine.core.errors import EngineError, FormatError, ReplayError
from engine.core.records import commitment, parse_seed, version_note
from engine.gin.bots import BOTS_VERSION, LEVELS, choose_move
from engine.gin.match import GinMatch, HandResult, Seat
from engine.gin.moves import parse_move
from engine.gin.state import HandOutcome, HandState

LOG_FORMAT: Final = "gin-log/1"
RULES_VERSION: Final = "1"
ENGINE_VERSION: Final = f"pikdame-gin/rules-{RULES_VERSION}/bots-{BOTS_VERSION}"
_KEYS: Final = frozenset(
    ("format", "engine", "seats", "seeds", "moves", "hands", "totals", "result")
)


def to_record(match: GinMatch, seed: bytes | None) -> dict[str, Any]:
    return {
        "format": LOG_FORMAT,
        "engine": ENGINE_VERSION,
        "seats": [s.to_json() for s in match.seats],
        "seeds": {"commitment": match.commitment, "seed": None if seed is None else seed.hex()},
        "moves": [{"seat": s, "move": m} for s, m in match.moves],
        "hands": [r.to_json() for r in match.results],
        "totals": list(match.totals),
        "result": match.result_json(),
    }


def _fields(record: Any) -> tuple[tuple[Seat, Seat], dict[str, Any], list[tuple[int, str]]]:
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
    return seats, seeds, [(m["seat"], m["move"]) for m in moves]


def replay(record: Any, seed: bytes | None = None) -> GinMatch:
    """Replay and verify a ``gin-log/1`` record from its seed (the record's, unless given).

    Raises :class:`ReplayError` with a G9 code: ``bad_format`` (the record, its seed or its
    commitment), the code of an illegal move, ``bot_mismatch`` or ``score_mismatch``."""
    try:
        seats, seeds, moves = _fields(record)
        if seed is None:
            seed = parse_seed(seeds["seed"])
        if len(seed) != 32:
            raise FormatError("a seed is 32 bytes (G3)", seed)
        if seeds["commitment"] != commitment(seed):
            raise FormatError("the seed does not match the record's commitment", seeds)
    except FormatError as e:
        raise ReplayError("bad_format", e.message, None, record) from None
    match = GinMatch(seed, seats)
    for i, (seat, text) in enumerate(moves):
        try:
            move = parse_move(text)
            expected = None
            state = match.state
            is_bot = seats[seat].kind == "bot"
            if is_bot and not match.finished and state.outcome is None:
                if seat != state.turn:
                    raise ReplayError(
                        "not_your_turn",
                        f"move {i} ({text!r}): seat {seat} is a bot not to move",
                        i,
                        record,
                    )
                level = seats[seat].level
                assert level is not None
                expected = choose_move(level, match.view(seat))
            done = match.push(move, seat)
        except ReplayError:
            raise
        except EngineError as e:
            raise ReplayError(e.code, f"move {i} ({text!r}): {e.message}", i, record) from None
        if expected is not None and str(expected) != str(done):
            raise ReplayError(
                "bot_mismatch",
                f"move {i}: seat {seat}'s bot plays {expected}, the record says {text!r}"
                + version_note(record, ENGINE_VERSION),
                i,
                record,
            )
    _compare(record, "hands", [r.to_json() for r in match.results])
    _compare(record, "totals", list(match.totals))
    _compare(record, "result", match.result_json())
    return match


def _compare(record: dict[str, Any], key: str, actual: Any) -> None:
    if record[key] != actual:
        raise ReplayError(
            "score_mismatch",
            f"the record's {key} {json.dumps(record[key])} are not the replay's "
            f"{json.dumps(actual)}",
            None,
            record,
        )


def from_storage(data: Any) -> GinMatch:
    """Rebuild a match from :meth:`GinMatch.to_json` without replaying it."""
    try:
        record, position = data["record"], data["position"]
        seats, seeds, moves = _fields(record)
        seed = parse_seed(seeds["seed"])
        match = GinMatch(seed, seats)
        match.state = HandState.from_position(position)
        match.moves = moves
        match.results = [
            HandResult(
                h["hand"],
                h["dealer"],
                HandOutcome.from_json({k: h[k] for k in ("end", "winner", "scores", "deadwood")}),
            )
            for h in record["hands"]
        ]
        totals = record["totals"]
        match.totals = [int(totals[0]), int(totals[1])]
        result = record["result"]
        match.winner = None if result is None else int(result["winner"])
    except (KeyError, TypeError, IndexError, ValueError) as e:
        raise FormatError(f"a stored Gin match: {e!r}", data) from None
    return match


__all__ = ["ENGINE_VERSION", "LOG_FORMAT", "from_storage", "parse_seed", "replay", "to_record"]
