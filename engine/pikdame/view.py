"""What one seat may know (RULES.md R10): the only input of bots, API responses and pages.

Computed by one function, :func:`view`, so hidden cards (other hands, the stock's order, the seed)
cannot leak by construction: nothing downstream ever holds the state itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from engine.core.cards import NAMES, Card
from engine.pikdame.melds import Meld
from engine.pikdame.rules import Outcome, Rules
from engine.pikdame.state import State

#: How a seat that did not go out sees the going-out move: a discard, face down (R4.3).
FACE_DOWN_DISCARD: Final = "discard"


@dataclass(frozen=True)
class View:
    """A seat's knowledge. ``to_json`` is API.md's ``V``; the other fields serve bots."""

    seat: int
    turn: int
    phase: str
    hand: tuple[Card, ...]
    melds: tuple[tuple[Meld, ...], ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    discard: tuple[Card, ...]
    removed: tuple[Card, ...]
    can_draw: bool
    can_take: bool
    outcome: Outcome | None
    rules: Rules
    round: int
    dealer: int
    totals: tuple[int, ...]
    opened_at_turn_start: bool
    history: tuple[tuple[int, str], ...]
    #: Tausende (R12): who has opened, the points each seat laid, the swapping round's swaps,
    #: the opening points of this turn (all public); None in Pik Dame.
    tausende: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "seat": self.seat,
            "turn": self.turn,
            "phase": self.phase,
            "hand": [NAMES[c] for c in self.hand],
            "melds": [[m.to_json() for m in ms] for ms in self.melds],
            "hand_sizes": list(self.hand_sizes),
            "stock_size": self.stock_size,
            "discard": [NAMES[c] for c in self.discard],
            "removed": [NAMES[c] for c in self.removed],
            "can_draw": self.can_draw,
            "can_take": self.can_take,
            "outcome": None if self.outcome is None else self.outcome.to_json(),
        }
        if self.tausende is not None:
            doc["ruleset"] = "tausende"
            doc.update(self.tausende)
        return doc


def _built(**fields: Any) -> View:
    """A :class:`View` of every field, its ``__dict__`` filled at once: the frozen dataclass's
    ``__init__`` sets its 19 fields one ``object.__setattr__`` at a time, a tenth of the view's
    cost, and a replay builds one for every bot decision (tests pin that every field is set)."""
    built: View = object.__new__(View)
    built.__dict__.update(fields)
    return built


def view(state: State, seat: int) -> View:
    """Seat ``seat``'s view of ``state``.

    The face-down going-out card (R4.3) is hidden from everyone but the seat that played it: it
    went out of play unseen, so only its owner's view lists it among ``removed``, and the others
    see that last move in the history as a bare :data:`FACE_DOWN_DISCARD`.
    """
    removed = tuple(state.removed)
    history = tuple(state.history)
    outcome = state.outcome
    if outcome is not None and outcome.end == "out" and outcome.winner != seat:
        removed = removed[:-1]
        history = (*history[:-1], (history[-1][0], FACE_DOWN_DISCARD))
    mine = outcome is None and state.turn == seat
    return _built(
        seat=seat,
        turn=state.turn,
        phase=state.phase,
        hand=tuple(state.hand(seat)),
        melds=tuple(tuple(ms) for ms in state.melds),
        hand_sizes=tuple(state.hand_sizes),
        stock_size=len(state.stock),
        discard=tuple(state.discard),
        removed=removed,
        can_draw=mine and state.phase == "draw" and bool(state.stock),
        can_take=mine and state.can_take(),
        outcome=outcome,
        rules=state.rules,
        round=state.round,
        dealer=state.dealer,
        totals=tuple(state.totals),
        opened_at_turn_start=state.opened_at_turn_start,
        history=history,
        tausende=state.ruleset_fields(),
    )
