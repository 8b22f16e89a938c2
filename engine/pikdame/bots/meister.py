"""The Meister (R10, issue 40 item 8): the analysis' best move, played at a table.

At a decision the candidates are the moves ``zen`` and ``advanced`` choose from the seat's view
(the analysis' candidates, engine.pikdame.analysis.CANDIDATES). If they agree, that move at once;
else each is played out to the round's end on the same sampled deals (paired), every seat by
``zen``, and the one with the highest total round score (R7) of the seat wins (a tie: ``zen``'s).

Blind like every bot: the deals are built from the view alone (:func:`known_cards` replays the
public history for the cards a seat is known to hold; :func:`bots.worlds.sample_world` deals
the rest) from a stream seeded by the view and its history (``sample_stream``), never by a seed
of the deal; deterministic: the number of deals comes from a budget of work
(:func:`bots.worlds.work_of`), counted, never clocked (no deal starts once it is spent).
Tausende (R12) has no Meister of its own: a Meister seat there plays ``zen``'s Tausende move.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from engine.core.analysis import PlayOut, paired_choice, sample_stream
from engine.core.cards import NUM_KINDS, Card, Counts
from engine.pikdame.bots import advanced, zen
from engine.pikdame.bots.worlds import sample_world, work_of
from engine.pikdame.errors import PikDameError
from engine.pikdame.moves import Move
from engine.pikdame.state import State
from engine.pikdame.view import View, view

#: The level whose moves are the candidates' first and which plays every seat in a play-out.
STRONGEST: Final = "zen"
#: Work per decision (units of :func:`work_of`, about 0.2 ms of one core each): up to about 4 s
#: of CPU for a decision that spends it all, over issue 40's 2 s (bench/results/meister.md; a
#: smaller budget changes the moves: a new version).
WORK: Final = 20000
#: At least this many deals whatever their work (one deal is no comparison at all).
LEAST: Final = 2
MAX_PLAYOUT: Final = 5000
_TAG: Final = "pikdame-meister/1"


def known_cards(v: View) -> list[Counts]:
    """Per seat, the cards the table knows it holds, worked out from the public history alone
    (R4.1: a take puts the pile's rest into the taker's hand; every card it plays later leaves
    what it is known to hold). The pile is replayed from the round's empty start: discards go
    on it, a take empties it. A joker won by a swap is not counted (it then stays among the
    unseen cards: the worlds are still consistent with the view, only less informed)."""
    known: list[Counts] = [[0] * NUM_KINDS for _ in range(v.rules.players)]
    pile: list[Card] = []
    for seat, text in v.history:
        if text in ("draw", "resign") or not text or " " not in text:
            continue
        try:
            move = Move.parse(text)
        except PikDameError:  # a face-down going-out card: the round is over anyway
            continue
        played = list(move.cards)
        if move.kind == "take" and pile:
            top = pile.pop()
            if top in played:
                played.remove(top)
            for c in pile:
                known[seat][c] += 1
            pile = []
        for c in played:
            if known[seat][c]:
                known[seat][c] -= 1
        if move.kind == "discard" and move.cards:
            pile.append(move.cards[0])
    return known


def _play_out(state: State, seat: int) -> PlayOut:
    """Every seat by ``zen`` to the round's end: (the seat's round score, R7, as its result and
    its standing; the work, ``work_of`` each move)."""
    spent = 0
    for _ in range(MAX_PLAYOUT):
        outcome = state.outcome
        if outcome is not None:
            score = outcome.round_scores[seat]
            return score, score, spent
        s = state.turn
        w = view(state, s)
        spent += work_of(w)
        state.push(zen.choose(w), s)
    raise PikDameError(f"a play-out ran past {MAX_PLAYOUT} moves")


def choose(v: View, work: int | None = None) -> Move:
    """The Meister's move in ``v`` (Pik Dame; Tausende: ``zen``'s), within ``work`` units."""
    if v.rules.tausende:
        from engine.pikdame.bots import tausende

        return tausende.choose(STRONGEST, v)
    first = zen.choose(v)
    candidates = [first]
    other = advanced.choose(v)
    if str(other) != str(first):
        candidates.append(other)
    if len(candidates) == 1:
        return first
    known = known_cards(v)
    knowledge = {"view": v.to_json(), "history": [list(h) for h in v.history]}
    stream = sample_stream(_TAG, knowledge)

    def worlds() -> Iterator[State]:
        while True:
            yield sample_world(v, known, stream)

    budget = WORK if work is None else work  # read at the call: tests set a small one

    def play_out(line: State) -> PlayOut:
        return _play_out(line, v.seat)

    return candidates[paired_choice(worlds(), candidates, v.seat, play_out, LEAST, budget)]


__all__ = ["LEAST", "STRONGEST", "WORK", "choose", "known_cards"]
