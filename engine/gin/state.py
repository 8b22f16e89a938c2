"""One hand of Gin (GIN.md G3–G8): the state, its moves, legal moves and outcome.

:meth:`HandState.push` checks a move completely before it changes anything, so a rejected move
leaves the state exactly as it was. The error code of a rejected move is the first that applies in
:data:`CODES` order (as F7 orders Pik Dame's). Hands are 52-bit masks (engine.gin.cards).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import product
from typing import Any, Final

from engine.core.errors import EngineError, FormatError, IllegalMoveError
from engine.gin.cards import NAMES, from_mask, mask_points, names, parse_card, to_mask
from engine.gin.deal import HAND_CARDS, deal
from engine.gin.melds import (
    Defence,
    deadwood_of,
    extends,
    is_meld,
    layoff_options,
    meld_collections,
    meld_names,
)
from engine.gin.moves import Move, parse_move

#: G9's stable error codes; a rejected move gets the first of the first nine that applies.
CODES: Final = (
    "syntax",
    "round_over",
    "not_your_turn",
    "wrong_phase",
    "take_not_allowed",
    "card_not_in_hand",
    "no_such_meld",
    "invalid_meld",
    "knock_not_allowed",
    "bot_mismatch",
    "score_mismatch",
    "bad_format",
)
POSITION_FORMAT: Final = "gin-position/1"
#: upcard: the first upcard is offered (G4); draw: draw or take (G5.1); discard: discard or knock
#: (G5.2); defend: the defender answers a knock (G6).
PHASES: Final = ("upcard", "draw", "discard", "defend")
KNOCK_LIMIT: Final = 10  # G6: declared deadwood ≤ 10
BONUS: Final = 25  # G6: gin bonus and undercut bonus
WALL: Final = 2  # G7: a discard that leaves the stock at 2 cards or fewer ends the hand drawn
#: The phases in which each move kind may be played (G4–G6).
_PHASES_OF: Final = {
    "pass": ("upcard",),
    "take": ("upcard", "draw"),
    "draw": ("draw",),
    "discard": ("discard",),
    "knock": ("discard",),
    "defend": ("defend",),
}
ENDS: Final = ("gin", "knock", "undercut", "wall", "resign")
#: Takes from the discard pile per hand (OpenSpiel's kMaxNumDrawUpcardActions): without a bound two
#: players could pass cards back and forth through the pile for ever, since a take leaves the
#: stock as it is. After the 50th take of a hand, only ``draw`` is left.
MAX_TAKES: Final = 50


@dataclass(frozen=True)
class Knock:
    """A knock (G6): the knocker, its face-down discard (None in the other seat's view), its
    declared melds (numbered 1, 2 … in this order) and their deadwood."""

    seat: int
    card: int | None
    melds: tuple[int, ...]
    deadwood: int

    @property
    def gin(self) -> bool:
        return self.deadwood == 0

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "card": None if self.card is None else NAMES[self.card],
            "melds": [meld_names(m) for m in self.melds],
            "deadwood": self.deadwood,
        }


@dataclass(frozen=True)
class HandOutcome:
    """How a hand ended and what each seat scored in it (G6, G7)."""

    end: str
    winner: int | None
    scores: tuple[int, int]
    deadwood: tuple[int, int] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "end": self.end,
            "winner": self.winner,
            "scores": list(self.scores),
            "deadwood": None if self.deadwood is None else list(self.deadwood),
        }

    @staticmethod
    def from_json(obj: Any) -> HandOutcome:
        ok = (
            isinstance(obj, dict)
            and set(obj) == {"end", "winner", "scores", "deadwood"}
            and obj["end"] in ENDS
            and (obj["winner"] is None or obj["winner"] in (0, 1))
            and _int_pair(obj["scores"])
            and (obj["deadwood"] is None or _int_pair(obj["deadwood"]))
        )
        if not ok:
            raise FormatError("an outcome is {end, winner, scores: [a, b], deadwood}", obj)
        dw = obj["deadwood"]
        return HandOutcome(
            obj["end"], obj["winner"], tuple(obj["scores"]), None if dw is None else tuple(dw)
        )


def _int_pair(v: Any) -> bool:
    return isinstance(v, list) and len(v) == 2 and all(type(x) is int and x >= 0 for x in v)


def card_of(knock: Knock) -> int:
    """The knock card of a full state's knock (never None outside a view)."""
    assert knock.card is not None
    return knock.card


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
            moves = [Move("take"), Move("pass")]  # the upcard phase is the hand's first take
        elif phase == "draw":
            may_take = not self.must_draw and self.takes < MAX_TAKES and bool(self.discard)
            moves = [Move("draw")] + ([Move("take")] if may_take else [])
        elif phase == "discard":
            moves = list(self._discards_and_knocks())
        else:
            moves = list(self._defences())
        moves.append(Move("resign"))
        return moves

    def _discards_and_knocks(self) -> Iterator[Move]:
        hand = self.hands[self.turn]
        cards = [c for c in from_mask(hand) if c != self.taken]
        for c in cards:
            yield Move("discard", c)
        for c in cards:
            rest = hand & ~(1 << c)
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
        return {
            "format": POSITION_FORMAT,
            "hand": self.hand_no,
            "dealer": self.dealer,
            "turn": self.turn,
            "phase": self.phase,
            "must_draw": self.must_draw,
            "hands": [names(from_mask(h)) for h in self.hands],
            "stock": [NAMES[c] for c in self.stock],
            "discard": [NAMES[c] for c in self.discard],
            "taken": None if self.taken is None else NAMES[self.taken],
            "took": [names(from_mask(t)) for t in self.took],
            "takes": self.takes,
            "knock": None if self.knock is None else self.knock.to_json(),
            "defence": None if self.defence is None else self.defence.to_json(),
            "outcome": None if self.outcome is None else self.outcome.to_json(),
        }

    @staticmethod
    def from_position(doc: Any) -> HandState:
        """Read a ``gin-position/1`` document; raises :class:`FormatError` (``bad_format``) for
        anything malformed or against the rules of the table."""
        try:
            return _read_position(doc)
        except FormatError:
            raise
        except EngineError as e:  # a bad card name inside a position is a bad position
            raise FormatError(f"position: {e.message}", doc) from None


_POSITION_KEYS: Final = frozenset(
    (
        "format",
        "hand",
        "dealer",
        "turn",
        "phase",
        "must_draw",
        "hands",
        "stock",
        "discard",
        "taken",
        "took",
        "takes",
        "knock",
        "defence",
        "outcome",
    )
)


def _bad(why: str, doc: Any) -> FormatError:
    return FormatError(f"position: {why}", doc)


def _cards(value: Any, what: str, doc: Any) -> list[int]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise _bad(f"{what} is a list of cards", doc)
    return [parse_card(c) for c in value]


def _melds(value: Any, what: str, doc: Any) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise _bad(f"{what} is a list of melds", doc)
    masks = []
    for group in value:
        cards = _cards(group, what, doc)
        mask = to_mask(cards)
        if mask.bit_count() != len(cards) or not is_meld(mask):
            raise _bad(f"{what}: {group} is not a meld (G6)", doc)
        masks.append(mask)
    return tuple(masks)


def _read_position(doc: Any) -> HandState:
    if not isinstance(doc, dict) or doc.get("format") != POSITION_FORMAT:
        raise _bad(f"format is {POSITION_FORMAT!r}", doc)
    if set(doc) != _POSITION_KEYS:
        raise _bad(f"the keys are {sorted(_POSITION_KEYS)}", doc)
    hand_no, dealer, turn, phase = doc["hand"], doc["dealer"], doc["turn"], doc["phase"]
    if type(hand_no) is not int or not 1 <= hand_no < 2**32:
        raise _bad("hand is 1 … 2^32-1", doc)
    if dealer not in (0, 1) or type(dealer) is not int:
        raise _bad("dealer is 0 or 1", doc)
    if turn not in (0, 1) or type(turn) is not int:
        raise _bad("turn is 0 or 1", doc)
    if phase not in PHASES:
        raise _bad(f"phase is one of {PHASES}", doc)
    if not isinstance(doc["must_draw"], bool):
        raise _bad("must_draw is true or false", doc)
    hands_json = doc["hands"]
    if not isinstance(hands_json, list) or len(hands_json) != 2:
        raise _bad("hands holds two hands", doc)
    hands = [_cards(h, "a hand", doc) for h in hands_json]
    stock = _cards(doc["stock"], "stock", doc)
    discard = _cards(doc["discard"], "discard", doc)
    state = HandState(hand_no, dealer)
    state.turn, state.phase, state.must_draw = turn, phase, doc["must_draw"]
    state.hands = [to_mask(h) for h in hands]
    state.stock, state.discard = stock, discard
    everything = [*hands[0], *hands[1], *stock, *discard]
    taken = doc["taken"]
    if taken is not None:
        if not isinstance(taken, str):
            raise _bad("taken is a card or null", doc)
        state.taken = parse_card(taken)
        if phase != "discard" or not state.hands[turn] >> state.taken & 1:
            raise _bad("taken is a card in the hand of the seat to discard", doc)
    takes = doc["takes"]
    if type(takes) is not int or not 0 <= takes <= MAX_TAKES:
        raise _bad(f"takes is 0 … {MAX_TAKES}", doc)
    state.takes = takes
    took = doc["took"]
    if not isinstance(took, list) or len(took) != 2:
        raise _bad("took holds two lists of cards", doc)
    state.took = [to_mask(_cards(t, "took", doc)) for t in took]
    if any(t & ~h for t, h in zip(state.took, state.hands, strict=True)):
        raise _bad("took lists cards a seat took from the pile and still holds", doc)
    if state.must_draw and phase != "draw":
        raise _bad("must_draw belongs to the draw phase", doc)
    if phase == "upcard" and (len(discard) != 1 or (turn == dealer and state.must_draw)):
        raise _bad("the upcard phase has the upcard alone on the discard pile (G4)", doc)
    knock_json = doc["knock"]
    if (knock_json is None) != (phase != "defend"):
        raise _bad("a knock exists exactly in the defend phase (which a defence ends)", doc)
    if knock_json is not None:
        state.knock = _read_knock(knock_json, state, doc)
        everything.append(card_of(state.knock))
    if len(set(everything)) != len(everything):
        raise _bad("a card appears twice", doc)
    sizes = [len(h) for h in hands]
    expected = [HAND_CARDS, HAND_CARDS]
    if phase == "discard":
        expected[turn] += 1
    if doc["outcome"] is None and sizes != expected:
        raise _bad(f"hand sizes are {expected} in the {phase} phase", doc)
    least_stock = {"upcard": WALL + 1, "draw": WALL + 1, "discard": WALL}.get(phase, 0)
    if doc["outcome"] is None and len(stock) < least_stock:
        raise _bad(f"the stock holds at least {least_stock} cards in the {phase} phase (G7)", doc)
    defence_json = doc["defence"]
    outcome_json = doc["outcome"]
    if outcome_json is not None:
        state.outcome = HandOutcome.from_json(outcome_json)
    if defence_json is not None:
        if state.knock is None or state.outcome is None:
            raise _bad("a defence follows a knock and ends the hand", doc)
        state.defence = _read_defence(defence_json, doc)
    return state


def _read_knock(obj: Any, state: HandState, doc: Any) -> Knock:
    if not isinstance(obj, dict) or set(obj) != {"seat", "card", "melds", "deadwood"}:
        raise _bad("knock is {seat, card, melds, deadwood}", doc)
    seat = obj["seat"]
    if seat not in (0, 1) or type(seat) is not int:
        raise _bad("knock.seat is 0 or 1", doc)
    if not isinstance(obj["card"], str):
        raise _bad("knock.card is a card", doc)
    card = parse_card(obj["card"])
    melds = _melds(obj["melds"], "knock.melds", doc)
    hand = state.hands[seat]
    used = 0
    for m in melds:
        if m & ~hand or m & used:
            raise _bad("the knocker's melds are disjoint and in its hand", doc)
        used |= m
    deadwood = mask_points(hand & ~used)
    if obj["deadwood"] != deadwood or deadwood > KNOCK_LIMIT:
        raise _bad(f"knock.deadwood is the declared deadwood ({deadwood}), at most 10", doc)
    if state.outcome is None and state.turn != 1 - seat:
        raise _bad("after a knock the defender is to move", doc)
    return Knock(seat, card, melds, deadwood)


def _read_defence(obj: Any, doc: Any) -> Defence:
    if not isinstance(obj, dict) or set(obj) != {"melds", "layoffs", "deadwood"}:
        raise _bad("defence is {melds, layoffs, deadwood}", doc)
    melds = _melds(obj["melds"], "defence.melds", doc)
    layoffs = obj["layoffs"]
    if not isinstance(layoffs, list) or not all(
        isinstance(x, list)
        and len(x) == 2
        and isinstance(x[0], str)
        and type(x[1]) is int
        and x[1] >= 1
        for x in layoffs
    ):
        raise _bad("defence.layoffs is a list of [card, meld number]", doc)
    if type(obj["deadwood"]) is not int:
        raise _bad("defence.deadwood is a number", doc)
    return Defence(melds, tuple((parse_card(c), n - 1) for c, n in layoffs), obj["deadwood"])


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
