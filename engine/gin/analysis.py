"""A move-by-move analysis of one seat's play in a hand of Gin (GIN.md G4–G7): the document
``gin-analysis/1`` (docs/ANALYSIS.md).

At every decision of the seat (take or pass the first upcard, take or draw, the discard, knock or
not and with which melds, the defence and its lay-offs) the strong bot (:data:`ANALYST`) answers
from the seat's own view (G9), and both moves are played out to the hand's end by the bots (the
other seat by its own level, a human by the analyst). The difference of the seat's hand result
(its score minus the other's, G6) between the two is what the decision cost.

Two modes, as Pik Dame's (``engine.pikdame.analysis``): ``view`` deals the unseen cards anew for
each sample, consistently with the seat's view (:func:`sample_world`: the other hand's size, the
cards it took from the pile and still holds, its melds once it knocked), from a stream seeded by
the view itself, so the document depends on nothing the seat could not see; ``deal`` plays the
real hand out once per move, once the match's seed is public.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any, Final

from engine.core.analysis import (
    Decision,
    Marks,
    Sampling,
    evaluate,
    sample_stream,
    shuffle_pool,
    summary_json,
)
from engine.core.errors import EngineError, FormatError, ReplayError
from engine.core.records import Seat, commitment, parse_seed
from engine.core.rng import Stream
from engine.gin.bots import LEVELS, choose_move
from engine.gin.cards import DECK_SIZE, from_mask
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
SAMPLING: Final = Sampling(moves=7000, graph=8, least=8, most=48)
MAX_SAMPLES: Final = 1000
#: Hand-result points (G6) a decision must cost for each mark (docs/ANALYSIS.md).
MARKS: Final = Marks(inaccuracy=2, mistake=5, blunder=10)
#: A play-out longer than this is a bug, not a hand (G7 and the take limit end every hand).
MAX_PLAYOUT: Final = 1000
_TAG: Final = ANALYSIS_FORMAT
_ALL: Final = (1 << DECK_SIZE) - 1


def sample_world(v: View, stream: Stream) -> HandState:
    """A hand the seat of ``v`` cannot tell from the real one: its own cards, the pile, what the
    other seat took from it and still holds (or its whole hand once it knocked: its melds are
    declared, G6), every public count as the view shows them; the rest of the other hand and the
    stock from the unseen cards, shuffled by ``stream``. A hand-made position holding fewer than
    52 cards leaves some of them out of play."""
    seat, other = v.seat, v.other
    pile = 0
    for c in v.discard:
        pile |= 1 << c
    known = v.revealed if v.revealed is not None else v.took[other]
    unseen = _ALL & ~v.hand & ~pile & ~known
    need = v.other_size - known.bit_count()
    cards = from_mask(unseen)
    if need < 0 or need + v.stock_size > len(cards):
        raise FormatError("the hidden cards outnumber the unseen ones (G1)", None)
    shuffled = shuffle_pool(stream, cards)
    world = HandState(v.hand_no, v.dealer)
    world.turn, world.phase, world.must_draw = v.turn, v.phase, v.must_draw
    hands = [0, 0]
    hands[seat] = v.hand
    hands[other] = known
    for c in shuffled[:need]:
        hands[other] |= 1 << c
    world.hands = hands
    world.stock = shuffled[need : need + v.stock_size]
    world.discard = list(v.discard)
    world.taken = v.taken
    world.took = list(v.took)
    world.takes = sum(1 for _, text in v.history if text == "take")
    world.knock = v.knock
    world.history = list(v.history)
    return world


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

    def play_out(self, state: HandState) -> tuple[int, int]:
        """Both bots play to the hand's end: (the seat's hand result, G6; the moves)."""
        levels = self.levels
        for moves in range(MAX_PLAYOUT):
            if state.outcome is not None:
                return hand_result(state, self.seat), moves
            s = state.turn
            state.push(choose_move(levels[s], view(state, s)), s)
        raise EngineError(f"a play-out ran past {MAX_PLAYOUT} moves")

    def worlds(self, state: HandState, v: View) -> Iterator[HandState]:
        """The real hand (``deal``), or deal after deal of the unseen cards (``view``)."""
        if self.mode == "deal":
            yield state.copy()
            return
        stream = sample_stream(_TAG, {"view": v.to_json()})
        while True:
            yield sample_world(v, stream)

    def decision(
        self, state: HandState, index: int, turn: int, played: Move, turn_start: bool
    ) -> Decision:
        seat = self.seat
        v = view(state, seat)
        best_state = state.copy()
        best = best_state.push(choose_move(ANALYST, v), seat)
        played_state = state.copy()
        played_state.push(played, seat)
        same = "move" if _settled(best_state) == _settled(played_state) else None

        def samples(both: bool) -> Iterator[tuple[int, int | None, int]]:
            for world in self.worlds(state, v):
                played_score, moves = None, 0
                if both:
                    line = world.copy()
                    line.push(played, seat)
                    played_score, moves = self.play_out(line)
                world.push(best, seat)
                best_score, more = self.play_out(world)
                yield best_score, played_score, moves + more

        return Decision(index, turn, state.phase, str(played), str(best), same, turn_start, samples)


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
    levels = [s.level if s.kind == "bot" and s.level in LEVELS else ANALYST for s in seat_list]
    levels[seat] = ANALYST
    analyst = _Analyst(seat, mode, [str(level) for level in levels])
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
            found.append(analyst.decision(state, index, turn, done, turn_start))
        state = after
        if state.outcome is not None:
            break
    sampling = SAMPLING if samples is None else replace(SAMPLING, fixed=samples)
    entries, graph = evaluate(found, sampling, mode == "deal", MARKS)
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
    match = GinMatch(seed, fields.seats)
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
