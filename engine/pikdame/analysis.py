"""A move-by-move analysis of one seat's play in a Pik Dame or Tausende round (R1–R12): the
document ``pikdame-analysis/1`` (docs/ANALYSIS.md).

At every decision of the seat (take or draw, each meld, lay and joker swap, the discard; Tausende's
swap-up and pass too) the strongest bot (:data:`ANALYST`) answers from the seat's own view (R10),
and both moves are played out to the round's end by the bots (every seat by its own level, humans
and the analysed seat by the analyst). The difference of the seat's round score (R7) between the
two is what the decision cost.

Two modes:

- ``view`` (the default): only what the seat knew. The unseen cards are dealt anew for each sample,
  consistently with the view (the other hands' sizes, the stock's size, the cards a seat is known
  to hold because it took them from the pile), the other seats' hidden cards drawn from the belief
  their public play gives (engine.pikdame.belief, ``analysis-5``: their bots replayed on each
  particle), from a stream seeded by the view itself (``engine.core.analysis.sample_stream``): the
  document depends on the seat's views alone, never on a hidden card or the round's seed.
- ``deal``: once the cards are public, the real deal is played out once per move: "what would have
  happened" with the better move and everyone's later moves by the bots.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any, Final, NamedTuple

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
    standing_of,
    summary_json,
)
from engine.core.cards import NUM_KINDS, Counts, counts_of
from engine.core.records import commitment, parse_seed
from engine.pikdame.belief import Hands, Tracker, belief_worlds
from engine.pikdame.bots import choose_move
from engine.pikdame.bots.worlds import sample_world, work_of
from engine.pikdame.errors import FormatError, PikDameError, ReplayError
from engine.pikdame.match import GAME_FORMAT, deck_size
from engine.pikdame.moves import Move
from engine.pikdame.record import LOG_FORMAT, are_moves, read_fields
from engine.pikdame.rules import LEVELS, PLAIN_LEVELS, Rules, Seat
from engine.pikdame.state import State, deal_for
from engine.pikdame.version import engine_version
from engine.pikdame.view import View, view

ANALYSIS_FORMAT: Final = "pikdame-analysis/1"
MODES: Final = ("view", "deal")
#: The strongest bot (R10: beginner < advanced < zen): the moves are compared with its.
ANALYST: Final = "zen"
#: The ``view`` mode's samples (docs/ANALYSIS.md): a budget of work per round (play-out moves,
#: :func:`work_of`), so that any round analyses within a few seconds of one core whatever its
#: length (bench/bench_analysis.py; BENCHMARKS.md gives the times and intervals it yields).
SAMPLING: Final = Sampling(moves=20000, graph=8, least=8, most=200)
#: The bots whose choices from the seat's view are a judged decision's candidate moves, each
#: once, the analyst's first, the played move never (R10): the best shown is the one measured
#: best among them, and a negative cost says the played move measured better. Not the
#: beginner's: each candidate costs a play-out in every deal, and the weakest bot's choice is
#: seldom the best.
CANDIDATES: Final = (ANALYST, "advanced")
#: The most samples a caller may ask for per decision.
MAX_SAMPLES: Final = 1000
#: Round points (R7) a decision must cost for each mark (docs/ANALYSIS.md).
MARKS: Final = Marks(inaccuracy=10, mistake=25, blunder=50)
#: A play-out longer than this many moves is a bug, not a round (R4.4 ends every round).
MAX_PLAYOUT: Final = 5000
_TAG: Final = ANALYSIS_FORMAT
#: Whether the ``view`` mode draws the other seats' hidden cards from the belief given their
#: public play (engine.pikdame.belief, ``analysis-5``) or uniformly (before; the bench's "old").
BELIEF = True


def learn(known: list[Counts], before: State, after: State, seat: int, move: Move) -> None:
    """What the table learns of ``seat``'s hand from ``move`` (public facts only): the cards it
    plays leave what it is known to hold; the cards that come into its hand from the table (the
    pile's rest on a take, R4.1; the face-up card on a swap-up, R12.2; an opening short of 30
    taken back, R12.3) are known to be there. A draw teaches nothing."""
    if move.kind in ("draw", "resign"):
        return
    played = list(move.cards)
    if move.kind == "take":
        played.remove(before.discard[-1])
    mine = known[seat]
    for c in played:
        if mine[c]:
            mine[c] -= 1
    was, now = before.hands[seat], after.hands[seat]
    counts = counts_of(played)
    for kind in range(NUM_KINDS):
        came = now[kind] - was[kind] + counts[kind]
        if came > 0:
            mine[kind] += came


class _Analyst:
    """One analysis run: the seat, the mode and the bots that play out every seat."""

    def __init__(self, seat: int, mode: str, levels: list[str]) -> None:
        self.seat = seat
        self.mode = mode
        self.levels = levels

    def play_out(self, state: State, levels: Sequence[str]) -> PlayOut:
        """Every seat's bot (of ``levels``) plays to the round's end: (the seat's round score,
        R7; its standing against the others, :func:`standing_of`; the work, :func:`work_of`
        each move)."""
        work = 0
        for _ in range(MAX_PLAYOUT):
            outcome = state.outcome
            if outcome is not None:
                scores = outcome.round_scores
                return scores[self.seat], standing_of(scores, self.seat), work
            s = state.turn
            v = view(state, s)
            work += work_of(v)
            state.push(choose_move(levels[s], v), s)
        raise PikDameError(f"a play-out ran past {MAX_PLAYOUT} moves")

    def worlds(
        self,
        state: State,
        v: View,
        known: Sequence[Counts],
        tag: str = _TAG,
        belief: list[Hands] | None = None,
    ) -> Iterator[State]:
        """The states a decision is judged in: the real one (``deal``), or deal after deal of
        the unseen cards from a stream seeded by the seat's knowledge and ``tag`` (``view``),
        the other seats' hidden cards drawn from ``belief`` (engine.pikdame.belief) if given."""
        if self.mode == "deal":
            yield state.copy()
            return
        knowledge = {"view": v.to_json(), "history": [list(h) for h in v.history]}
        stream = sample_stream(tag, knowledge)
        if belief is not None:
            yield from belief_worlds(v, known, belief, stream)
        while True:
            yield sample_world(v, known, stream)

    def finish_turn(self, state: State) -> dict[str, Any]:
        """The position once the analyst has finished the seat's turn (R4.2, R4.3)."""
        seat = self.seat
        while state.outcome is None and state.turn == seat and state.phase == "play":
            state.push(choose_move(ANALYST, view(state, seat)), seat)
        return state.to_position()

    def decision(
        self,
        state: State,
        known: Sequence[Counts],
        index: int,
        turn: int,
        played: Move,
        belief: list[Hands] | None = None,
    ) -> Decision:
        """The decision the seat met in ``state`` (to move) and answered with ``played``."""
        seat = self.seat
        v = view(state, seat)
        known = [k[:] for k in known]
        levels = list(self.levels)  # as they are at this decision (a table's changes, R9)
        best = state.copy().push(choose_move(ANALYST, v), seat)
        same = None
        if str(best) == str(played):
            same = "move"
        elif state.phase == "play":
            # the verdict needs no hidden card (a turn's plays touch the seat's own cards and
            # melds only), so any world consistent with the view gives it
            probe = next(self.worlds(state, v, known, _TAG + "/probe"))
            a, b = probe.copy(), probe
            a.push(best, seat)
            b.push(played, seat)
            if self.finish_turn(a) == self.finish_turn(b):
                same = "turn"
        candidates: list[Move] = [best]
        if same is None:
            for level in CANDIDATES[1:]:
                move = state.copy().push(choose_move(level, v), seat)
                if all(str(move) != str(c) for c in [played, *candidates]):
                    candidates.append(move)

        def samples(both: bool) -> Iterator[tuple[Results, int]]:
            moves = [played, *candidates] if both else [best]
            return paired_samples(
                self.worlds(state, v, known, _TAG, belief),
                moves,
                seat,
                lambda line: self.play_out(line, levels),
            )

        return Decision(
            index,
            turn,
            state.phase,
            str(played),
            str(best),
            same,
            state.phase == "draw",
            samples,
            tuple(str(c) for c in candidates),
        )


def _playing(level: str | None) -> str:
    """The bot that plays a seat of ``level`` out: its own, the analyst for a Meister's."""
    return level if level in PLAIN_LEVELS else ANALYST


def analyse_round(
    start: State,
    moves: Sequence[tuple[int, str]],
    seat: int,
    *,
    seats: Sequence[Seat] | None = None,
    level_changes: Mapping[int, Sequence[tuple[int, str]]] | None = None,
    mode: str = "view",
    samples: int | None = None,
    source: dict[str, Any] | None = None,
    table: bool = False,
) -> dict[str, Any]:
    """The ``pikdame-analysis/1`` document of ``seat``'s play in the round that ``moves`` play
    from ``start`` (each ``(seat, move)`` in F2 notation, as a record's). ``table``: a round of
    a game played to a target, whose decisions are costed in the seat's standing against the
    others as well (each entry's ``standing``, docs/ANALYSIS.md).

    ``seats`` says who plays out each seat (a bot its level; a human, like the analysed seat, the
    analyst); ``level_changes`` maps a move's index to the level changes made before it (R9,
    tables); ``samples`` fixes the samples per decision (default: :data:`SAMPLING`'s budget);
    ``source`` names the record (format, engine, round) for the document. Raises
    :class:`ReplayError` for an illegal move (with its index) and :class:`FormatError` for a bad
    argument."""
    n = start.players
    if type(seat) is not int or not 0 <= seat < n:
        raise FormatError(f"the seat is 0 … {n - 1}", seat)
    if mode not in MODES:
        raise FormatError(f"the mode is one of {', '.join(MODES)}", mode)
    if samples is not None and (type(samples) is not int or not 2 <= samples <= MAX_SAMPLES):
        raise FormatError(f"samples is 2 … {MAX_SAMPLES}", samples)
    seat_list = list(seats) if seats is not None else [Seat("human", name="?")] * n
    if len(seat_list) != n:
        raise FormatError("one seat per player", seats)
    # a Meister seat is played out by the analyst: its own play-outs inside the analysis' would
    # multiply the time by its deals (issue 40 item 8, docs/ANALYSIS.md)
    levels = [_playing(s.level) if s.kind == "bot" else ANALYST for s in seat_list]
    levels[seat] = ANALYST
    analyst = _Analyst(seat, mode, levels)
    state = start.copy()
    known: list[Counts] = [[0] * NUM_KINDS for _ in range(n)]
    # the belief's policies: a bot seat's level (a Meister's its own), a human's soft model
    policies = [s.level if s.kind == "bot" and s.level in LEVELS else "human" for s in seat_list]
    tracker = Tracker(start, seat, policies, known) if mode == "view" and BELIEF else None
    found: list[Decision] = []
    turn = 0
    for index, (mover, text) in enumerate(moves):
        for changed, level in (level_changes or {}).get(index, ()):
            if changed != seat and 0 <= changed < n and level in LEVELS:
                levels[changed] = _playing(level)
                policies[changed] = level
        after = state.copy()
        try:
            done = after.push(text, mover)
        except PikDameError as e:
            raise ReplayError(e.code, f"move {index} ({text!r}): {e.message}", index) from None
        if done.kind != "resign" and mover == seat and state.turn == seat:
            turn += state.phase == "draw" or turn == 0  # a position may start mid-turn
            belief = None if tracker is None else tracker.belief()
            if belief is not None:  # a snapshot: the filter goes on
                belief = [[h[:] for h in hands] for hands in belief]
            found.append(analyst.decision(state, known, index, turn, done, belief))
        if tracker is not None and mover != seat and after.outcome is None:
            # (a move that ends the round tells the seat nothing it still needs, and going out
            # hides its last card face down from the others, R4.3)
            tracker.policies = policies
            tracker.observe(state, mover, done, known)
        if mover != seat:
            learn(known, state, after, mover, done)
        if tracker is not None:
            tracker.settle(view(after, seat), known)
        state = after
    sampling = SAMPLING if samples is None else replace(SAMPLING, fixed=samples)
    standing = n - 1 if table else None
    entries, graph, work = evaluate(found, sampling, mode == "deal", MARKS, standing)
    outcome = state.outcome
    result = None if outcome is None else outcome.round_scores[seat]
    return {
        "format": ANALYSIS_FORMAT,
        "engine": engine_version(start.rules.tausende),
        "source": source,
        "rules": start.rules.to_json(),
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


def _seed_of(given: bytes | None, written: Any, committed: Any) -> bytes:
    """The round's seed: the caller's (the service holds it while secret) or the record's; it
    must match the record's commitment (F4)."""
    if given is None:
        if written is None:
            raise FormatError(
                "the record's seed is not revealed: the analysis deals the seat's "
                "cards from it, so only the holder of the seed can run it",
                None,
            )
        given = parse_seed(written)
    if len(given) != 32:
        raise FormatError("a seed is 32 bytes (F3)", None)
    if committed != commitment(given):
        raise FormatError("the seed does not match the record's commitment (F4)", None)
    return given


class _Round(NamedTuple):
    """A record's round as the analysis replays it."""

    start: State
    moves: list[tuple[int, str]]
    seats: tuple[Seat, ...]
    changes: dict[int, list[tuple[int, str]]]
    number: int


def _round_of_log(record: dict[str, Any], seed: bytes | None) -> _Round:
    rules, seats, deal, moves = read_fields(record)
    key = _seed_of(seed, deal.get("seed"), deal.get("commitment"))
    start = State.from_deal(
        deal_for(key, rules, deal["dealer"], deal["cut"]), rules, deal["dealer"]
    )
    return _Round(start, [(m["seat"], m["move"]) for m in moves], seats, {}, 1)


def _round_of_game(record: dict[str, Any], number: int, seed: bytes | None) -> _Round:
    try:
        rules = Rules.from_json(record.get("rules"))
    except PikDameError as e:
        raise FormatError(f"record rules: {e.message}", None) from None
    seats_json, rounds = record.get("seats"), record.get("rounds")
    if not isinstance(seats_json, list) or len(seats_json) != rules.players:
        raise FormatError("record seats: one per player", None)
    seats = [Seat.from_json(s, LEVELS) for s in seats_json]
    if not isinstance(rounds, list) or not 1 <= number <= len(rounds):
        raise FormatError(f"the record has no round {number}", None)
    if not all(isinstance(entry, dict) for entry in rounds[:number]):
        raise FormatError("record rounds: objects", None)
    for i, earlier in enumerate(rounds[: number - 1], start=1):
        for at_changes in _level_changes(earlier, i).values():  # R9: they still hold
            for changed, level in at_changes:
                if 0 <= changed < rules.players:
                    seats[changed] = Seat("bot", level=level)
    entry = rounds[number - 1]
    key = _seed_of(seed, entry.get("seed"), entry.get("commitment"))
    dealer, cut, moves = entry.get("dealer"), entry.get("cut"), entry.get("moves")
    total = deck_size(rules)
    if type(dealer) is not int or not 0 <= dealer < rules.players:
        raise FormatError(f"round {number}: the dealer is a seat", None)
    if type(cut) is not int or not 1 <= cut <= total - 1:
        raise FormatError(f"round {number}: cut 1 … {total - 1}", None)
    if not are_moves(moves, rules.players):
        raise FormatError(f"round {number}: moves are a list of {{seat, move}}", None)
    start = State.from_deal(deal_for(key, rules, dealer, cut), rules, dealer, round=number)
    changes = _level_changes(entry, number)
    return _Round(start, [(m["seat"], m["move"]) for m in moves], tuple(seats), changes, number)


def _level_changes(entry: dict[str, Any], number: int) -> dict[int, list[tuple[int, str]]]:
    """A table round's bot level changes (R9, docs/TABLES.md) by the index of the move they
    precede: ``{at: [(seat, level), …]}``."""
    changes: dict[int, list[tuple[int, str]]] = {}
    try:
        for change in entry.get("levels", []):
            level = str(change["level"])
            if level not in LEVELS:
                raise ValueError(level)
            changes.setdefault(int(change["at"]), []).append((int(change["seat"]), level))
    except (TypeError, KeyError, ValueError):
        raise FormatError(
            f"round {number}: levels are a list of {{at, seat, level}}", None
        ) from None
    return changes


def analyse(
    record: Any,
    seat: int | None = None,
    *,
    round: int = 1,
    mode: str = "view",
    samples: int | None = None,
    seed: bytes | None = None,
) -> dict[str, Any]:
    """The analysis of ``seat``'s play (default: the record's first human seat) in a daily record
    (``pikdame-log/1``) or in round ``round`` of a table's game record (``pikdame-game/1``).

    ``seed`` is the round's seed while the record keeps it secret (the service's); else the
    record's own. The document never holds the seed nor, in the ``view`` mode, anything the seat
    could not see. Raises :class:`FormatError` or :class:`ReplayError` (an illegal move)."""
    if not isinstance(record, dict):
        raise FormatError("a record is a JSON object", None)
    kind = record.get("format")
    if kind == LOG_FORMAT:
        if round != 1:
            raise FormatError(f"a daily record holds one round, not round {round}", None)
        found = _round_of_log(record, seed)
    elif kind == GAME_FORMAT:
        found = _round_of_game(record, round, seed)
    else:
        raise FormatError(f"a record has format {LOG_FORMAT!r} or {GAME_FORMAT!r}", None)
    if seat is None:
        humans = [i for i, s in enumerate(found.seats) if s.kind == "human"]
        seat = humans[0] if humans else 0
    source = {"format": kind, "engine": record.get("engine"), "round": found.number}
    return analyse_round(
        found.start,
        found.moves,
        seat,
        seats=found.seats,
        level_changes=found.changes,
        mode=mode,
        samples=samples,
        source=source,
        table=kind == GAME_FORMAT,
    )


def analyse_position(doc: Any, *, mode: str = "view", samples: int | None = None) -> dict[str, Any]:
    """The analysis of ``{"position": F5, "moves": [{seat, move}, …], "seat": N, "seats": [F6
    seats] (optional)}``: a hand-made situation played on from a position (F5)."""
    if not isinstance(doc, dict) or not {"position", "moves", "seat"} <= set(doc):
        raise FormatError('input is {"position": F5, "moves": [{seat, move}, …], "seat": N}', None)
    start = State.from_position(doc["position"])
    n = start.players
    moves = doc["moves"]
    if not are_moves(moves, n):
        raise FormatError("moves are a list of {seat, move}", None)
    seat = doc["seat"]
    if type(seat) is not int:
        raise FormatError("seat is a number", None)
    seats_json = doc.get("seats")
    seats = None
    if seats_json is not None:
        if not isinstance(seats_json, list) or len(seats_json) != n:
            raise FormatError("seats: one per player", None)
        seats = [Seat.from_json(s, LEVELS) for s in seats_json]
    return analyse_round(
        start,
        [(m["seat"], m["move"]) for m in moves],
        seat,
        seats=seats,
        mode=mode,
        samples=samples,
    )


__all__ = [
    "ANALYSIS_FORMAT",
    "ANALYST",
    "GAME_FORMAT",
    "MARKS",
    "MAX_SAMPLES",
    "MODES",
    "SAMPLING",
    "analyse",
    "analyse_position",
    "analyse_round",
    "learn",
    "sample_world",
]
