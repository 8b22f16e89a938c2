"""What one seat may know (GIN.md G9): the only input of bots, and what pages and the API show.

One function, :func:`view`, copies the public facts of a hand and the seat's own cards; the other
hand, the stock's order and the seed never enter a :class:`View`. The other seat's face-down
knock card (G6) is hidden too, in the knock and in the history (written ``knock ??``). The
knocker's remaining cards become public when it knocks (its melds and deadwood are declared), the
defender's when it defends.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any, Final

from engine.core.errors import FormatError
from engine.gin.cards import NAMES, from_mask, names, parse_card
from engine.gin.melds import Defence, arrange, best_defence, meld_names
from engine.gin.moves import Move
from engine.gin.state import HandOutcome, HandState, Knock

#: How the other seat's knock card is written in a view (it was discarded face down, G6).
FACE_DOWN: Final = "??"


@dataclass(frozen=True)
class View:
    """A seat's knowledge of the match. Card sets are 52-bit masks (engine.gin.cards)."""

    seat: int
    hand_no: int
    dealer: int
    turn: int
    phase: str
    must_draw: bool
    #: whether ``take`` is legal now for the seat to move (G4, G5, the take limit)
    can_take: bool
    hand: int
    taken: int | None
    discard: tuple[int, ...]
    stock_size: int
    other_size: int
    #: cards each seat took from the discard pile and still holds (public: everyone saw them)
    took: tuple[int, int]
    #: cards the other seat discarded face up in this hand, in order
    other_discards: tuple[int, ...]
    #: the other seat's cards where public: after its knock, or after its defence
    revealed: int | None
    knock: Knock | None
    defence: Defence | None
    outcome: HandOutcome | None
    history: tuple[tuple[int, str], ...]
    totals: tuple[int, int] = (0, 0)
    results: tuple[HandOutcome, ...] = ()
    match_winner: int | None = None

    @property
    def my_turn(self) -> bool:
        return self.outcome is None and self.match_winner is None and self.turn == self.seat

    @property
    def other(self) -> int:
        return 1 - self.seat

    def to_json(self) -> dict[str, Any]:
        """API shape of a Gin view: every card in F1, the seat's exact minimum deadwood with one
        arrangement reaching it, and in the defend phase the best defence (the page pre-selects
        it)."""
        deadwood, melds = arrange(self.hand)
        suggestion = None
        if self.my_turn and self.phase == "defend" and self.knock is not None:
            suggestion = str(suggested_defence(self))
        discards = None
        if self.my_turn and self.phase == "discard":
            discards = discard_options(self.hand, self.taken)
        return {
            "seat": self.seat,
            "hand_no": self.hand_no,
            "dealer": self.dealer,
            "turn": self.turn,
            "phase": self.phase,
            "must_draw": self.must_draw,
            "can_take": self.can_take,
            "hand": names(from_mask(self.hand)),
            "deadwood": deadwood,
            "melds": [meld_names(m) for m in melds],
            "taken": None if self.taken is None else NAMES[self.taken],
            "discard": [NAMES[c] for c in self.discard],
            "stock_size": self.stock_size,
            "other_size": self.other_size,
            "took": [names(from_mask(t)) for t in self.took],
            "revealed": None if self.revealed is None else names(from_mask(self.revealed)),
            "knock": None if self.knock is None else self.knock.to_json(),
            "defence": None if self.defence is None else self.defence.to_json(),
            "suggestion": suggestion,
            "discards": discards,
            "outcome": None if self.outcome is None else self.outcome.to_json(),
            "history": [{"seat": s, "move": m} for s, m in self.history],
            "totals": list(self.totals),
            "results": [r.to_json() for r in self.results],
            "match_winner": self.match_winner,
        }


def discard_options(hand: int, taken: int | None) -> dict[str, dict[str, Any]]:
    """For each card the seat may let go of now (not the card just taken, G5): the exact minimum
    deadwood of the ten cards left and one arrangement reaching it. The page shows it when a card
    is selected and declares these melds in its knock (G6, G9: the deadwood shown is exact)."""
    out: dict[str, dict[str, Any]] = {}
    for card in from_mask(hand):
        if card == taken:
            continue
        deadwood, melds = arrange(hand & ~(1 << card))
        out[NAMES[card]] = {"deadwood": deadwood, "melds": [meld_names(m) for m in melds]}
    return out


def suggested_defence(v: View) -> Move:
    """The defender's exact best answer (G6) as a ``defend`` move."""
    assert v.knock is not None
    best = best_defence(v.hand, v.knock.melds, v.knock.gin)
    return Move(
        "defend",
        None,
        tuple(tuple(from_mask(m)) for m in best.melds),
        tuple((c, i + 1) for c, i in best.layoffs),
    )


def public_move(mover: int, text: str, seat: int) -> str:
    """A move as ``seat`` saw it: the other seat's knock card is face down (G6, D15)."""
    if mover != seat and text.startswith("knock "):
        _, _, groups = text[len("knock ") :].partition(" ")
        return f"knock {FACE_DOWN} {groups}".rstrip()
    return text


def public_moves(moves: Iterable[tuple[int, str]], seat: int) -> list[tuple[int, str]]:
    """Moves (of any hands) as ``seat`` saw them (:func:`public_move`)."""
    return [(s, public_move(s, text, seat)) for s, text in moves]


def _public_history(state: HandState, seat: int) -> tuple[tuple[int, str], ...]:
    return tuple(public_moves(state.history, seat))


def _other_discards(state: HandState, seat: int) -> tuple[int, ...]:
    return tuple(
        parse_card(text[len("discard ") :])
        for s, text in state.history
        if s != seat and text.startswith("discard ")
    )


def view(
    state: HandState,
    seat: int,
    totals: tuple[int, int] = (0, 0),
    results: tuple[HandOutcome, ...] = (),
    match_winner: int | None = None,
) -> View:
    """Seat ``seat``'s view of the hand ``state`` (and of the match, given its totals)."""
    if seat not in (0, 1):
        raise FormatError(f"a Gin seat is 0 or 1, not {seat!r}", seat)
    other = 1 - seat
    knock = state.knock
    if knock is not None and knock.seat != seat:
        knock = replace(knock, card=None)
    revealed = None
    if (knock is not None and knock.seat == other) or (
        knock is not None and state.defence is not None
    ):
        revealed = state.hands[other]
    return View(
        seat=seat,
        hand_no=state.hand_no,
        dealer=state.dealer,
        turn=state.turn,
        phase=state.phase,
        must_draw=state.must_draw,
        can_take=state.phase in ("upcard", "draw") and state.is_legal(Move("take")),
        hand=state.hands[seat],
        taken=state.taken if state.turn == seat else None,
        discard=tuple(state.discard),
        stock_size=len(state.stock),
        other_size=state.hands[other].bit_count(),
        took=(state.took[0], state.took[1]),
        other_discards=_other_discards(state, seat),
        revealed=revealed,
        knock=knock,
        defence=state.defence,
        outcome=state.outcome,
        history=_public_history(state, seat),
        totals=totals,
        results=results,
        match_winner=match_winner,
    )


__all__ = [
    "FACE_DOWN",
    "View",
    "discard_options",
    "public_move",
    "public_moves",
    "suggested_defence",
    "view",
]
