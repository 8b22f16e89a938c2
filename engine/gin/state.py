"""One hand of Gin (GIN.md G3–G8): the state, its moves, legal moves and outcome.

:meth:`HandState.push` checks a move completely before it changes anything, so a rejected move
leaves the state exactly as it was. The error code of a rejected move is the first that applies in
:data:`CODES` order (as F7 orders Pik Dame's). Hands are 52-bit masks (engine.gin.cards).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import product
from typing import Any, Final

from engine.core.errors import EngineError, IllegalMoveError
from engine.gin import position
from engine.gin.cards import NAMES, from_mask, mask_points, to_mask
from engine.gin.deal import deal
from engine.gin.errors import CODES
from engine.gin.melds import (
    Defence,
    deadwood_of,
    extends,
    is_meld,
    layoff_options,
    meld_collections,
    meld_names,
    meldable,
    min_deadwood,
)
from engine.gin.moves import Move, parse_move
from engine.gin.rules import (
    BONUS,
    ENDS,
    KNOCK_LIMIT,
    MAX_TAKES,
    PHASES,
    WALL,
    HandOutcome,
    Knock,
)

POSITION_FORMAT: Final = position.FORMAT
#: The phases in which each move kind may be played (G4–G6).
_PHASES_OF: Final = {
    "pass": ("upcard",),
    "take": ("upcard", "draw"),
    "draw": ("draw",),
    "discard": ("discard",),
    "knock": ("discard",),
    "defend": ("defend",),
}


#: The moves without a choice in them, built once (moves are immutable values).
_TAKE: Final = Move("take")
_PASS: Final = Move("pass")
_DRAW: Final = Move("draw")
_RESIGN: Final = Move("resign")
_DISCARDS: Final = tuple(Move("discard", c) for c in range(52))


def _illegal(code: str, message: str, move: Move) -> IllegalMoveError:
    return IllegalMoveError(code, f"{move}: {message}", str(move))


class HandState:
    """One hand: both hands (masks), the stock (top first), the discard pile (top last), whose
    turn and phase, the card taken from the pile this turn, the knock and the outcome."""

    __slots__ = (
        "dealer",
        "defence",
        "discard",
        "hand_no",
        "hands",
        "history",
        "knock",
        "must_draw",
        "outcome",
        "phase",
        "stock",
        "taken",
        "takes",
        "took",
        "turn",
    )

    def __init__(self, hand_no: int, dealer: int) -> None:
        self.hand_no = hand_no
        self.dealer = dealer
        self.hands = [0, 0]
        self.stock: list[int] = []
        self.discard: list[int] = []
        self.turn = 1 - dealer
        self.phase = "upcard"
        self.must_draw = False
        self.taken: int | None = None
        self.took = [0, 0]
        self.takes = 0
        self.knock: Knock | None = None
        self.defence: Defence | None = None
        self.outcome: HandOutcome | None = None
        self.history: list[tuple[int, str]] = []

    @staticmethod
    def new(seed: bytes, hand_no: int, dealer: int) -> HandState:
        """G3/G4: the dealt hand, the non-dealer offered the upcard."""
        d = deal(seed, hand_no, dealer)
        state = HandState(hand_no, dealer)
        state.hands = [to_mask(d.hands[0]), to_mask(d.hands[1])]
        state.discard = [d.upcard]
        state.stock = list(d.stock)
        return state

    @property
    def players(self) -> int:
        return 2

    @property
    def finished(self) -> bool:
        """Whether the hand is over: no move is legal any more."""
        return self.outcome is not None

    def copy(self) -> HandState:
        other = HandState(self.hand_no, self.dealer)
        for name in HandState.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = list(self.hands)
        other.took = list(self.took)
        other.stock = list(self.stock)
        other.discard = list(self.discard)
        other.history = list(self.history)
        return other

    # -- moves ---------------------------------------------------------------------------------

    def push(self, move: Move | str, seat: int | None = None) -> Move:
        """Apply ``move`` by ``seat`` (default: the seat to move). Raises :class:`EngineError`
        (``syntax``, or an :class:`IllegalMoveError` with its G9 code), changing nothing."""
        if isinstance(move, str):
            move = parse_move(move)
        if seat is None:
            seat = self.turn
        apply = self._check(move, seat)
        apply()
        self.history.append((seat, str(move)))
        return move

    def is_legal(self, move: Move | str, seat: int | None = None) -> bool:
        try:
            if isinstance(move, str):
                move = parse_move(move)
            self._check(move, self.turn if seat is None else seat)
        except EngineError:
            return False
        return True

    def _check(self, move: Move, seat: int) -> Callable[[], None]:
        """Validate ``move``; return the function that applies it."""
        if self.outcome is not None:
            raise _illegal("round_over", f"hand {self.hand_no} is over", move)
        if seat not in (0, 1):
            raise _illegal("not_your_turn", f"there is no seat {seat}", move)
        if move.kind == "resign":
            resigned = HandOutcome("resign", 1 - seat, (0, 0))
            return lambda: self._end(resigned)
        if seat != self.turn:
            raise _illegal("not_your_turn", f"it is seat {self.turn}'s turn", move)
        kind, phase = move.kind, self.phase
        allowed = _PHASES_OF[kind]
        if phase not in allowed:
            raise _illegal("wrong_phase", f"{kind} is not a move of the {phase} phase", move)
        if kind == "pass":
            return self._apply_pass
        if kind == "take":
            if self.must_draw:
                raise _illegal(
                    "take_not_allowed", "both passed the upcard: draw from the stock (G4)", move
                )
            if not self.discard:
                raise _illegal("take_not_allowed", "the discard pile is empty", move)
            if self.takes >= MAX_TAKES:
                raise _illegal(
                    "take_not_allowed", f"{MAX_TAKES} takes from the pile in this hand", move
                )
            return self._apply_take
        if kind == "draw":
            return self._apply_draw
        if kind == "discard":
            return self._check_discard(move)
        if kind == "knock":
            return self._check_knock(move)
        return self._check_defend(move)

    def _check_card(self, move: Move) -> int:
        card = move.card
        assert card is not None
        if card == self.taken:
            raise _illegal(
                "take_not_allowed",
                "a card taken from the discard pile stays in hand this turn (G5)",
                move,
            )
        if not self.hands[self.turn] >> card & 1:
            raise _illegal("card_not_in_hand", f"{NAMES[card]} is not in hand", move)
        return card

    def _check_groups(self, move: Move, hand: int, exclude: int) -> tuple[int, ...]:
        """The declared groups as masks: cards in ``hand`` (card_not_in_hand), none in
        ``exclude`` or in two groups, each a meld (invalid_meld)."""
        masks = []
        for group in move.groups:
            for c in group:
                if not hand >> c & 1:
                    raise _illegal("card_not_in_hand", f"{NAMES[c]} is not in hand", move)
        used = exclude
        for group in move.groups:
            mask = to_mask(group)
            if len(group) != mask.bit_count() or mask & used:
                raise _illegal("invalid_meld", "a card belongs to at most one meld (G6)", move)
            if not is_meld(mask):
                raise _illegal(
                    "invalid_meld", f"{' '.join(meld_names(mask))} is not a meld (G6)", move
                )
            used |= mask
            masks.append(mask)
        return tuple(masks)

    def _check_discard(self, move: Move) -> Callable[[], None]:
        card = self._check_card(move)

        def apply() -> None:
            self.hands[self.turn] &= ~(1 << card)
            self.took[self.turn] &= ~(1 << card)
            self.discard.append(card)
            self.taken = None
            if len(self.stock) <= WALL:
                self._end(HandOutcome("wall", None, (0, 0)))
                return
            self.turn = 1 - self.turn
            self.phase = "draw"

        return apply

    def _check_knock(self, move: Move) -> Callable[[], None]:
        card = self._check_card(move)
        rest = self.hands[self.turn] & ~(1 << card)
        melds = self._check_groups(move, self.hands[self.turn], 1 << card)
        deadwood = deadwood_of(rest, melds)
        if deadwood > KNOCK_LIMIT:
            raise _illegal(
                "knock_not_allowed",
                f"the declared melds leave {deadwood} points of deadwood; at most "
                f"{KNOCK_LIMIT} (G6)",
                move,
            )

        def apply() -> None:
            self.hands[self.turn] = rest
            self.took[self.turn] &= rest
            self.knock = Knock(self.turn, card, melds, deadwood)
            self.taken = None
            self.turn = 1 - self.turn
            self.phase = "defend"

        return apply

    def _check_defend(self, move: Move) -> Callable[[], None]:
        knock = self.knock
        assert knock is not None
        hand = self.hands[self.turn]
        for c in [*(c for group in move.groups for c in group), *(c for c, _ in move.layoffs)]:
            if not hand >> c & 1:
                raise _illegal("card_not_in_hand", f"{NAMES[c]} is not in hand", move)
        for c, n in move.layoffs:
            if n > len(knock.melds):
                raise _illegal(
                    "no_such_meld",
                    f"{NAMES[c]}@{n}: the knocker declared {len(knock.melds)}",
                    move,
                )
        laid = to_mask(c for c, _ in move.layoffs)
        if laid.bit_count() != len(move.layoffs):
            raise _illegal("invalid_meld", "a card is laid off once", move)
        melds = self._check_groups(move, hand, laid)
        if move.layoffs and knock.gin:
            raise _illegal("invalid_meld", "no lay-offs on gin (G6)", move)
        extended = list(knock.melds)
        for c, n in move.layoffs:
            if not extends(extended[n - 1], c):
                raise _illegal(
                    "invalid_meld",
                    f"{NAMES[c]} does not extend meld {n} "
                    f"({' '.join(meld_names(extended[n - 1]))}) (G6)",
                    move,
                )
            extended[n - 1] |= 1 << c
        deadwood = deadwood_of(hand & ~laid, melds)
        defence = Defence(melds, tuple((c, n - 1) for c, n in move.layoffs), deadwood)
        return lambda: self._score(knock, defence)

    def _score(self, knock: Knock, defence: Defence) -> None:
        """G6: gin 25 + defender's deadwood; knock: the difference to the knocker, or the
        undercut 25 + the difference to the defender (25 at a tie)."""
        self.defence = defence
        k, d = knock.deadwood, defence.deadwood
        scores = [0, 0]
        if k == 0:
            end, winner, points = "gin", knock.seat, BONUS + d
        elif d > k:
            end, winner, points = "knock", knock.seat, d - k
        else:
            end, winner, points = "undercut", 1 - knock.seat, BONUS + k - d
        scores[winner] = points
        deadwood = [0, 0]
        deadwood[knock.seat], deadwood[1 - knock.seat] = k, d
        self._end(HandOutcome(end, winner, (scores[0], scores[1]), (deadwood[0], deadwood[1])))

    def _apply_pass(self) -> None:
        if self.turn == self.dealer:  # both passed: the non-dealer must draw (G4)
            self.must_draw = True
            self.phase = "draw"
        self.turn = 1 - self.turn

    def _apply_take(self) -> None:
        card = self.discard.pop()
        self.hands[self.turn] |= 1 << card
        self.took[self.turn] |= 1 << card
        self.takes += 1
        self.taken = card
        self.phase = "discard"

    def _apply_draw(self) -> None:
        card = self.stock.pop(0)
        self.hands[self.turn] |= 1 << card
        self.taken = None
        self.must_draw = False
        self.phase = "discard"

    def _end(self, outcome: HandOutcome) -> None:
        self.outcome = outcome

    # -- legal moves ---------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move of the seat to move (``resign`` last), each in canonical form.

        Knocks: every discard with every collection of disjoint melds (in order of their lowest
        card) leaving ≤ 10; defences: every collection of own melds with every legal set of
        lay-offs (each run's chains in order). Other orders of the same groups are legal too.
        """
        if self.outcome is not None:
            return []
        phase = self.phase
        if phase == "upcard":
            return [_TAKE, _PASS, _RESIGN]  # the upcard phase is the hand's first take
        if phase == "draw":
            if not self.must_draw and self.takes < MAX_TAKES and self.discard:
                return [_DRAW, _TAKE, _RESIGN]
            return [_DRAW, _RESIGN]
        moves = list(self._discards_and_knocks() if phase == "discard" else self._defences())
        moves.append(_RESIGN)
        return moves

    def _discards_and_knocks(self) -> Iterator[Move]:
        hand = self.hands[self.turn]
        cards = [c for c in from_mask(hand) if c != self.taken]
        for c in cards:
            yield _DISCARDS[c]
        # A card outside every meld of the hand is outside every meld of the hand without the
        # discard too: its points are deadwood in any knock. Most hands of a playout stop here.
        loose = hand & ~meldable(hand)
        for c in cards:
            rest = hand & ~(1 << c)
            if mask_points(rest & loose) > KNOCK_LIMIT or min_deadwood(rest) > KNOCK_LIMIT:
                continue
            for melds in meld_collections(rest):
                if deadwood_of(rest, melds) <= KNOCK_LIMIT:
                    yield Move("knock", c, tuple(tuple(from_mask(m)) for m in melds))

    def _defences(self) -> Iterator[Move]:
        knock = self.knock
        assert knock is not None
        hand = self.hands[self.turn]
        for melds in meld_collections(hand):
            rest = hand
            for m in melds:
                rest &= ~m
            groups = tuple(tuple(from_mask(m)) for m in melds)
            if knock.gin:
                yield Move("defend", None, groups)
                continue
            options = [layoff_options(m, i, rest) for i, m in enumerate(knock.melds)]
            for combo in product(*options):
                laid = [(c, i + 1) for part in combo for c, i in part]
                if to_mask(c for c, _ in laid).bit_count() == len(laid):
                    yield Move("defend", None, groups, tuple(laid))

    # -- position documents --------------------------------------------------------------------

    def to_position(self) -> dict[str, Any]:
        """The ``gin-position/1`` document (docs/GIN_FORMATS.md): the whole hand, hidden cards
        included (server side and analysis only; a seat sees :func:`engine.gin.view.view`)."""
        return position.write(
            position.Position(
                self.hand_no,
                self.dealer,
                self.turn,
                self.phase,
                self.must_draw,
                (self.hands[0], self.hands[1]),
                self.stock,
                self.discard,
                self.taken,
                (self.took[0], self.took[1]),
                self.takes,
                self.knock,
                self.defence,
                self.outcome,
            )
        )

    @staticmethod
    def from_position(doc: Any) -> HandState:
        """Read a ``gin-position/1`` document (:func:`engine.gin.position.read`); raises
        :class:`FormatError` (``bad_format``) for anything malformed or against the rules of the
        table."""
        p = position.read(doc)
        state = HandState(p.hand_no, p.dealer)
        state.turn, state.phase, state.must_draw = p.turn, p.phase, p.must_draw
        state.hands = list(p.hands)
        state.stock, state.discard = list(p.stock), list(p.discard)
        state.taken, state.took, state.takes = p.taken, list(p.took), p.takes
        state.knock, state.defence, state.outcome = p.knock, p.defence, p.outcome
        return state


__all__ = [
    "BONUS",
    "CODES",
    "ENDS",
    "KNOCK_LIMIT",
    "MAX_TAKES",
    "PHASES",
    "POSITION_FORMAT",
    "WALL",
    "HandOutcome",
    "HandState",
    "Knock",
]
