"""Verified replay of a Gin match record ``gin-log/1`` (GIN.md G9).

:func:`replay` deals every hand from the seed, applies every move, recomputes every bot move from
that bot's own view and compares it, and compares the record's hand results and totals with the
replay's: a forged record fails with ``bot_mismatch`` or ``score_mismatch`` and the move index.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from engine.core.errors import EngineError, FormatError, ReplayError
from engine.core.records import bot_mismatch, commitment, parse_seed
from engine.gin.bots import choose_move
from engine.gin.match import GinMatch
from engine.gin.moves import Move, parse_move
from engine.gin.record import ENGINE_VERSION, read_record
from engine.gin.view import View


def replay(
    record: Any,
    seed: bytes | None = None,
    chooser: Callable[[str, View], Move] = choose_move,
) -> GinMatch:
    """Replay and verify a ``gin-log/1`` record from its seed (the record's, unless given), with
    the bots ``chooser`` (today's, unless given: the daily's verifier passes the bots of the
    record's own version, engine.gin.releases).

    Raises :class:`ReplayError` with a G9 code: ``bad_format`` (the record, its seed or its
    commitment), the code of an illegal move, ``bot_mismatch`` or ``score_mismatch``."""
    try:
        fields = read_record(record)
        if seed is None:
            seed = parse_seed(fields.seeds["seed"])
        if len(seed) != 32:
            raise FormatError("a seed is 32 bytes (G3)", seed)
        if fields.seeds["commitment"] != commitment(seed):
            raise FormatError("the seed does not match the record's commitment", fields.seeds)
    except FormatError as e:
        raise ReplayError("bad_format", e.message, None, record) from None
    seats = fields.seats
    match = GinMatch(seed, seats, fields.one_hand)
    for i, (seat, text) in enumerate(fields.moves):
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
                expected = chooser(level, match.view(seat))
            done = match.push(move, seat)
        except ReplayError:
            raise
        except EngineError as e:
            raise ReplayError(e.code, f"move {i} ({text!r}): {e.message}", i, record) from None
        if expected is not None and str(expected) != str(done):
            raise bot_mismatch(i, seat, expected, text, record, ENGINE_VERSION)
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


__all__ = ["replay"]
