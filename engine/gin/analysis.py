"""A move-by-move analysis of one seat's play in a hand of Gin (GIN.md G4–G7): the document
``gin-analysis/1`` (docs/ANALYSIS.md).

At every decision of the seat (take or pass the first upcard, take or draw, the discard, knock or
not and with which melds, the defence and its lay-offs) the strong bot (:data:`ANALYST`) answers
from the seat's own view (G9), and both moves are played out to the hand's end by the bots (the
other seat by its own level, a human by the analyst). The difference of the seat's hand result
(its score minus the other's, G6) between the two is what the decision cost.

Two modes, as Pik Dame's (``engine.pikdame.analysis``): ``view`` deals the unseen cards anew for
each sample, consistently with the seat's view (the other hand's size, the cards it took from the
pile and still holds, its melds once it knocked), the other's hidden cards drawn from the belief
its public play gives (engine.gin.belief, ``analysis-4``: its bot replayed on each particle),
from streams seeded by the seat's views, so the document depends on nothing the seat could not
see; ``deal`` plays the real hand out once per move, once the match's seed is public.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any, Final

from engine.core.analysis import (
    ANALYSIS_VERSION,
    Decision,
    Marks,
    PlayOut,
    Results,
    Sampling,
    evaluate,
    paired_samples,
    sample_stream,
    summary_json,
)
from engine.core.errors import EngineError, FormatError, ReplayError
from engine.core.records import Seat, commitment, parse_seed
from engine.gin.belief import Belief, Tracker, belief_worlds
from engine.gin.bots import LEVELS, PLAIN_LEVELS, choose_move
from engine.gin.bots.worlds import sample_world
from engine.gin.match import GinMatch
from engine.gin.moves import Move
from engine.gin.record import ENGINE_VERSION, LOG_FORMAT, read_record
from engine.gin.state import HandState
from engine.gin.view import View, view

ANALYSIS_FORMAT: Final = "gin-analysis/1"
MODES: Final = ("view", "deal")
#: The stronger of the two bots (G9): the moves are compared with its.
ANALYST: Final = "strong"
#: The ``view`` mode's samples: a budget of play-out moves per hand, so that a hand analyses
#: within 1 s on one core (bench/bench_analysis.py; BENCHMARKS.md gives the intervals it yields).
SAMPLING: Final = Sampling(moves=6000, graph=8, least=8, most=200)
#: The bots whose choices from the seat's view are a judged decision's candidate moves, each
#: once, the analyst's first, the played move never (G9): the best shown is the one measured
#: best among them, and a negative cost says the played move measured better.
CANDIDATES: Final = (ANALYST, "plain")
MAX_SAMPLES: Final = 1000
#: Hand-result points (G6) a decision must cost for each mark (docs/ANALYSIS.md).
MARKS: Final = Marks(inaccuracy=2, mistake=5, blunder=10)
#: A play-out longer than this is a bug, not a hand (G7 and the take limit end every hand).
MAX_PLAYOUT: Final = 1000
_TAG: Final = ANALYSIS_FORMAT


def hand_result(state: HandState, seat: int) -> int:
    """The seat's result of a finished hand: its score minus the other's (G6; 0 at the wall)."""
    outcome = state.outcome
    assert outcome is not None
    return outcome.scores[seat] - outcome.scores[1 - seat]


def _settled(state: HandState) -> Any:
    """What a move leaves that matters for the rest of the hand: the outcome once the hand is
    over, else the position with a knock's melds in a fixed order (their order is notation)."""
    if state.outcome is not None:
        return state.outcome.to_json()
    position = state.to_position()
    if position["knock"] is not None:
        position["knock"]["melds"] = sorted(position["knock"]["melds"])
    return position


class _Analyst:
    """One analysis run: the seat, the mode and the bots that play out both seats."""

    def __init__(self, seat: int, mode: str, levels: list[str]) -> None:
        self.seat = seat
        self.mode = mode
        self.levels = levels

    def play_out(self, state: HandState) -> PlayOut:
        """Both bots play to the hand's end: (the seat's hand result, G6, which in a duel is its
        standing against the other too; the moves, the analysis's work: a Gin bot's move costs
        about the same wherever it falls)."""
        levels = self.levels
        for moves in range(MAX_PLAYOUT):
            if state.outcome is not None:
                result = hand_result(state, self.seat)
                return result, result, moves
            s = state.turn
            state.push(choose_move(levels[s], view(state, s)), s)
        raise EngineError(f"a play-out ran past {MAX_PLAYOUT} moves")

    def worlds(self, state: HandState, v: View, public: Belief | None) -> Iterator[HandState]:
        """The real hand (``deal``), or deal after deal of the unseen cards (``view``), the
        other's hidden cards drawn from what its public play tells (engine.gin.belief)."""
        if self.mode == "deal":
            yield state.copy()
            return
        stream = sample_stream(_TAG, {"view": v.to_json()})
        yield from belief_worlds(v, public, stream)

    def decision(
        self,
        state: HandState,
        index: int,
        turn: int,
        played: Move,
        turn_start: bool,
        public: Belief | None = None,
    ) -> Decision:
        seat = self.seat
        v = view(state, seat)
        best_state = state.copy()
        best = best_state.push(choose_move(ANALYST, v), seat)
        played_state = state.copy()
        played_state.push(played, seat)
        same = "move" if _settled(best_state) == _settled(played_state) else None
        candidates, settled = [best], [_settled(best_state)]
        if same is None:
            for level in CANDIDATES[1:]:
                other_state = state.copy()
                move = other_state.push(choose_move(level, v), seat)
                if _settled(other_state) not in [*settled, _settled(played_state)]:
                    candidates.append(move)
                    settled.append(_settled(other_state))

        def samples(both: bool) -> Iterator[tuple[Results, int]]:
            moves = [played, *candidates] if both else [best]
            return paired_samples(self.worlds(state, v, public), moves, seat, self.play_out)

        return Decision(
            index,
            turn,
            state.phase,
            str(played),
            str(best),
            same,
            turn_start,
            samples,
            tuple(str(c) for c in candidates),
        )


def analyse_hand(
    start: HandState,
    moves: Sequence[tuple[int, str]],
    seat: int,
    *,
    seats: Sequence[Seat] | None = None,
    mode: str = "view",
    samples: int | None = None,
    first_index: int = 0,
    source: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The ``gin-analysis/1`` document of ``seat``'s play in the hand that ``moves`` play from
    ``start`` (each ``(seat, move)`` in G8 notation). ``seats`` says who plays out each seat (a
    bot its level, a human the analyst); ``samples`` fixes the samples per decision (default:
    :data:`SAMPLING`'s budget); ``first_index`` numbers the moves as the record does. Raises
    :class:`ReplayError` for an illegal move and :class:`FormatError` for a bad argument."""
    if type(seat) is not int or seat not in (0, 1):
        raise FormatError("the seat is 0 or 1", seat)
    if mode not in MODES:
        raise FormatError(f"the mode is one of {', '.join(MODES)}", mode)
    if samples is not None and (type(samples) is not int or not 2 <= samples <= MAX_SAMPLES):
        raise FormatError(f"samples is 2 … {MAX_SAMPLES}", samples)
    seat_list = list(seats) if seats is not None else [Seat("human", name="?")] * 2
    if len(seat_list) != 2:
        raise FormatError("two seats (G2)", seats)
    # a Meister seat is played out by the analyst, never by the Meister (its own play-outs
    # inside the analysis' would multiply the time by its deals; docs/ANALYSIS.md)
    levels = [
        s.level if s.kind == "bot" and s.level in PLAIN_LEVELS else ANALYST for s in seat_list
    ]
    levels[seat] = ANALYST
    analyst = _Analyst(seat, mode, [str(level) for level in levels])
    other = seat_list[1 - seat]
    policy = other.level if other.kind == "bot" and other.level in LEVELS else "human"
    tracker = Tracker(start, seat, str(policy))
    state = start.copy()
    found: list[Decision] = []
    turn = 0
    for j, (mover, text) in enumerate(moves):
        index = first_index + j
        after = state.copy()
        try:
            done = after.push(text, mover)
        except EngineError as e:
            raise ReplayError(e.code, f"move {index} ({text!r}): {e.message}", index) from None
        if done.kind != "resign" and mover == seat and state.turn == seat:
            turn_start = state.phase != "discard"
            turn += turn_start or turn == 0  # a position may start mid-turn
            found.append(analyst.decision(state, index, turn, done, turn_start, tracker.belief()))
        tracker.observe(state, mover, done)
        state = after
        if state.outcome is not None:
            break
    sampling = SAMPLING if samples is None else replace(SAMPLING, fixed=samples)
    entries, graph, work = evaluate(found, sampling, mode == "deal", MARKS)
    result = None if state.outcome is None else hand_result(state, seat)
    return {
        "format": ANALYSIS_FORMAT,
        "engine": ENGINE_VERSION,
        "source": source,
        "seat": seat,
        "mode": mode,
        "analyst": ANALYST,
        "sampling": None if mode == "deal" else sampling.to_json(),
        "marks": MARKS.to_json(),
        "decisions": entries,
        "graph": graph,
        "summary": summary_json(entries, result),
        "analysis": ANALYSIS_VERSION,
        "work": work,
    }


def analyse(
    record: Any,
    seat: int | None = None,
    *,
    hand: int = 1,
    mode: str = "view",
    samples: int | None = None,
    seed: bytes | None = None,
) -> dict[str, Any]:
    """The analysis of ``seat``'s play (default: the record's first human seat) in hand ``hand``
    of a match record (``gin-log/1``). ``seed`` is the match seed while the record keeps it
    secret (the service's); else the record's own. The document never holds the seed nor, in the
    ``view`` mode, anything the seat could not see. Raises :class:`FormatError` or
    :class:`ReplayError` (an illegal move)."""
    fields = read_record(record)
    if seed is None:
        if fields.seeds.get("seed") is None:
            raise FormatError(
                "the record's seed is not revealed: the analysis deals the seat's cards from "
                "it, so only the holder of the seed can run it",
                None,
            )
        seed = parse_seed(fields.seeds["seed"])
    if len(seed) != 32 or fields.seeds.get("commitment") != commitment(seed):
        raise FormatError("the seed does not match the record's commitment", None)
    if type(hand) is not int or hand < 1:
        raise FormatError("a hand number is 1, 2, 3 …", None)
    match = GinMatch(seed, fields.seats, fields.one_hand)
    start: HandState | None = None
    first = 0
    moves: list[tuple[int, str]] = []
    for index, (mover, text) in enumerate(fields.moves):
        number = match.state.hand_no
        if number > hand or match.finished:
            break
        if number == hand:
            if start is None:
                start, first = match.state.copy(), index
            moves.append((mover, text))
        try:
            match.push(text, mover)
        except EngineError as e:
            raise ReplayError(e.code, f"move {index} ({text!r}): {e.message}", index) from None
    if start is None:
        raise FormatError(f"the record has no hand {hand}", None)
    if seat is None:
        humans = [i for i, s in enumerate(fields.seats) if s.kind == "human"]
        seat = humans[0] if humans else 0
    source = {"format": LOG_FORMAT, "engine": record.get("engine"), "hand": hand}
    return analyse_hand(
        start,
        moves,
        seat,
        seats=fields.seats,
        mode=mode,
        samples=samples,
        first_index=first,
        source=source,
    )


def analyse_position(doc: Any, *, mode: str = "view", samples: int | None = None) -> dict[str, Any]:
    """The analysis of ``{"position": gin-position/1, "moves": [{seat, move}, …], "seat": N,
    "seats": [two seats] (optional)}``: a hand-made situation played on from a position."""
    if not isinstance(doc, dict) or not {"position", "moves", "seat"} <= set(doc):
        raise FormatError(
            'input is {"position": gin-position/1, "moves": [{seat, move}, …], "seat": N}', None
        )
    start = HandState.from_position(doc["position"])
    moves = doc["moves"]
    if not isinstance(moves, list) or not all(
        isinstance(m, dict) and m.get("seat") in (0, 1) and isinstance(m.get("move"), str)
        for m in moves
    ):
        raise FormatError("moves are a list of {seat, move}", None)
    seats_json = doc.get("seats")
    seats = None
    if seats_json is not None:
        if not isinstance(seats_json, list) or len(seats_json) != 2:
            raise FormatError("seats: two (G2)", None)
        seats = [Seat.from_json(s, LEVELS) for s in seats_json]
    return analyse_hand(
        start,
        [(int(m["seat"]), m["move"]) for m in moves],
        doc["seat"],
        seats=seats,
        mode=mode,
        samples=samples,
    )


__all__ = [
    "ANALYSIS_FORMAT",
    "ANALYST",
    "MARKS",
    "MAX_SAMPLES",
    "MODES",
    "SAMPLING",
    "analyse",
    "analyse_hand",
    "analyse_position",
    "hand_result",
    "sample_world",
]
