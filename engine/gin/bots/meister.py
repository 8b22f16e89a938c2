"""The Meister (G9, issue 40 item 8): the analysis' best move, played at a table.

At a decision the candidates are the moves ``strong`` and ``plain`` choose from the seat's view
(the analysis' candidates, engine.gin.analysis.CANDIDATES). If they agree, that move at once;
else each is played out to the hand's end on the same sampled deals (paired), both seats by
``strong``, and ``strong``'s is kept unless ``plain``'s measured a better hand result (the
seat's score minus the other's, G6) with 95% confidence (engine.core.analysis.paired_choice).

Blind like every bot: the deals are built from the view alone (:func:`bots.worlds.sample_world`:
what the other took and still holds, its knock's melds) from a stream seeded by the view
(``sample_stream``); deterministic: the number of deals comes from a budget of play-out moves,
counted, never clocked (no deal starts once it is spent).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from engine.core.analysis import PlayOut, paired_choice, sample_stream
from engine.core.errors import EngineError
from engine.gin.bots import plain, strong
from engine.gin.bots.worlds import sample_world
from engine.gin.moves import Move
from engine.gin.state import HandState
from engine.gin.view import View, view

#: The level whose move is the candidates' first and which plays both seats in a play-out.
STRONGEST: Final = "strong"
#: Play-out moves per decision (a Gin bot's move is about 0.1 ms of one core): well within 2 s
#: of CPU per decision (BENCHMARKS.md, "Meister").
WORK: Final = 18000
#: At least this many deals whatever their work.
LEAST: Final = 2
MAX_PLAYOUT: Final = 1000
_TAG: Final = "gin-meister/1"


def _play_out(state: HandState, seat: int) -> PlayOut:
    """Both seats by ``strong`` to the hand's end: (the seat's score minus the other's, G6, as
    its result and its standing; the moves, the work)."""
    for moves in range(MAX_PLAYOUT):
        outcome = state.outcome
        if outcome is not None:
            result = outcome.scores[seat] - outcome.scores[1 - seat]
            return result, result, moves
        s = state.turn
        state.push(strong.choose(view(state, s)), s)
    raise EngineError(f"a play-out ran past {MAX_PLAYOUT} moves")


def choose(v: View, work: int | None = None) -> Move:
    """The Meister's move in ``v``, within ``work`` play-out moves."""
    first = strong.choose(v)
    candidates = [first]
    other = plain.choose(v)
    if str(other) != str(first):
        candidates.append(other)
    if len(candidates) == 1:
        return first
    stream = sample_stream(_TAG, {"view": v.to_json()})

    def worlds() -> Iterator[HandState]:
        while True:
            yield sample_world(v, stream)

    budget = WORK if work is None else work  # read at the call: tests set a small one

    def play_out(line: HandState) -> PlayOut:
        return _play_out(line, v.seat)

    return candidates[paired_choice(worlds(), candidates, v.seat, play_out, LEAST, budget)]


__all__ = ["LEAST", "STRONGEST", "WORK", "choose"]
