"""A seat's hint at a table: the meld, lay and swap moves worth making now, from its view alone.

Pik Dame (R4.2, R5): the exact optimiser's best arrangement on the seat's own melds, as the daily's
hint (``optimiser.HINT``'s budget). Tausende (R12): there is no exact optimiser for R12's opening
and lay-offs on any meld, so the hint plays the strongest bot's play phase on a shadow of the
view (``bots.tausende.shadow``): an opening worth 30 when the seat has not opened (R12.3), then
melds and lay-offs while they are legal. That answer is never proven best (``exact`` False).

Both read only the :class:`View` (R10): the seat's own hand and the public table, never another
hand or the stock, so a hint can reveal no hidden card.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.cards import JOKER_CODE
from engine.core.errors import IllegalMoveError
from engine.pikdame.cards import QUEEN_OF_SPADES_CODE, TAUSENDE_POINTS
from engine.pikdame.errors import NotationError
from engine.pikdame.moves import Move
from engine.pikdame.view import View

#: At most this many moves in one Tausende hint (a hand of 15 cards lays far fewer).
MAX_MOVES = 30


@dataclass(frozen=True)
class Hint:
    """The moves, in an order the seat can send them; ``points``: what the seat's melds gain
    (Pik Dame, R4.2) or the points of the cards the seat lays (Tausende's ``laid``, R12.5);
    ``exact``: whether the answer is proven best."""

    moves: tuple[str, ...]
    points: int
    exact: bool


def seat_hint(seat_view: View) -> Hint:
    """The hint for the seat whose view this is, in its play phase (the caller checks the
    turn and phase)."""
    if seat_view.tausende is not None:
        return _tausende(seat_view)
    # Imported lazily: the optimiser is heavy to import.
    from engine.pikdame.optimiser import HINT, best_arrangement

    best = best_arrangement(seat_view.hand, seat_view.melds[seat_view.seat], HINT)
    return Hint(tuple(str(m) for m in best.moves), best.points, best.exact)


def _value(move: Move) -> tuple[int, int, str]:
    """A Tausende move's worth: the Q♠ first (it can never be thrown away, R12.6), then points."""
    return (
        QUEEN_OF_SPADES_CODE in move.cards,
        sum(TAUSENDE_POINTS[c] for c in move.cards),
        str(move),
    )


def _tausende(seat_view: View) -> Hint:
    from engine.pikdame.bots.tausende import MAX_MELD, _opening_plan, shadow
    from engine.pikdame.tausende import OPENING

    state = shadow(seat_view)
    seat = seat_view.seat
    before = state.laid[seat]
    moves: list[str] = []

    def push(move: Move) -> bool:
        try:
            moves.append(str(state.push(move, seat)))
        except (IllegalMoveError, NotationError):
            return False
        return True

    if not state.opened[seat]:
        melds = [m for m in state.legal_moves(max_meld=MAX_MELD) if m.kind == "meld"]
        plan = _opening_plan(melds, seat_view.hand, OPENING - state.turn_points)
        if not plan or not all(push(m) for m in sorted(plan, key=_value, reverse=True)):
            return Hint((), 0, False)  # no opening this turn: nothing may be laid (R12.3)
    while len(moves) < MAX_MOVES and state.outcome is None and state.phase == "play":
        legal = list(state.legal_moves(max_meld=MAX_MELD))
        melds = [m for m in legal if m.kind == "meld"]
        # a joker is swapped out or laid off only with few cards left (the zen bot's reading)
        offs = [
            m
            for m in legal
            if m.kind in ("lay", "swap")
            and (m.cards[0] != JOKER_CODE or len(state.hand(seat)) <= 3)
        ]
        choices = melds or offs
        if not choices or not push(max(choices, key=_value)):
            break
    return Hint(tuple(moves), state.laid[seat] - before, False)


__all__ = ["MAX_MOVES", "Hint", "seat_hint"]
