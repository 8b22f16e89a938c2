"""Replaying a game record (FORMATS.md F6): every move checked, every bot move recomputed from
the bot's own view (R10) and compared, the result compared with the record's.

The worker verifies attempts through :func:`replay`; ``python -m engine replay`` (F7) too.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from engine.core.records import bot_mismatch, commitment, parse_seed
from engine.pikdame.bots import choose_move
from engine.pikdame.errors import FormatError, PikDameError, ReplayError
from engine.pikdame.game import Game
from engine.pikdame.record import read_fields
from engine.pikdame.releases import Chooser
from engine.pikdame.rules import Seat
from engine.pikdame.state import State, deal_for
from engine.pikdame.version import engine_version
from engine.pikdame.view import view


def replay(record: Any, seed: bytes | None = None, bots: Chooser = choose_move) -> Game:
    """Replay a game record (F6) from its seed: every move checked, every bot move recomputed
    (by ``bots``: the current ones unless given, e.g. the record's own version's from
    engine.pikdame.releases) and compared, the result compared with the record's. Raises
    :class:`ReplayError`."""
    try:
        rules, seats, deal, moves = read_fields(record)
        if seed is None:
            seed = parse_seed(deal.get("seed"))
        if not isinstance(seed, bytes) or len(seed) != 32:
            raise FormatError("a seed is 32 bytes (F3)", seed)
        committed = deal.get("commitment")
        if committed != commitment(seed):  # a missing commitment cannot be checked either (F4)
            raise FormatError("the seed does not match the record's commitment (F4)", committed)
    except FormatError as e:
        raise ReplayError("bad_format", e.message, None, record) from None
    d = deal_for(seed, rules, deal["dealer"], deal["cut"])
    game = Game(
        rules,
        seats,
        deal["dealer"],
        d.cut,
        commitment(seed),
        State.from_deal(d, rules, deal["dealer"]),
    )
    check_moves(game, moves, record, bots=bots)
    result = record.get("result")
    outcome = game.state.outcome
    if result is not None and (outcome is None or outcome.to_json() != result):
        actual = None if outcome is None else outcome.to_json()
        raise ReplayError(
            "score_mismatch",
            f"the record's result {json.dumps(result)} is not the replay's {json.dumps(actual)}",
            None,
            record,
        )
    return game


def check_moves(
    game: Game,
    moves: Sequence[Any],
    record: Any,
    *,
    first_index: int = 0,
    levels: Mapping[int, Sequence[tuple[int, str]]] | None = None,
    bots: Chooser = choose_move,
) -> None:
    """Push a round's recorded moves onto ``game``: each checked, each bot move recomputed from
    the bot's view (R10) and compared. ``levels`` maps a move's index in the round to the bot
    level changes made before it (tables, R9); ``first_index`` numbers the moves in errors."""
    state = game.state
    rules = game.rules
    for j, entry in enumerate(moves):
        i = first_index + j
        for seat_changed, level in (levels or {}).get(j, ()):
            game.seats = tuple(
                Seat("bot", level=level) if n == seat_changed else s
                for n, s in enumerate(game.seats)
            )
        seats = game.seats
        seat, text = entry["seat"], entry["move"]
        if seats[seat].kind == "bot" and state.outcome is None and seat != state.turn:
            # R10: a bot moves only on its turn; `resign` by any seat (F2) is a human's word (R8).
            raise ReplayError(
                "not_your_turn", f"move {i} ({text!r}): seat {seat} is a bot not to move", i, record
            )
        try:
            expected = None
            if seats[seat].kind == "bot" and state.outcome is None and seat == state.turn:
                level = seats[seat].level
                assert level is not None
                expected = state.canonical(bots(level, view(state, seat)))
            done = state.push(text, seat)  # parsed once, in this ruleset's notation
        except PikDameError as e:
            raise ReplayError(e.code, f"move {i} ({text!r}): {e.message}", i, record) from None
        # equal moves print alike, so only unequal ones are compared as recorded (F2's text)
        if expected is not None and expected != done and str(expected) != str(done):
            raise bot_mismatch(i, seat, expected, text, record, engine_version(rules.tausende))


__all__ = ["check_moves", "replay"]
