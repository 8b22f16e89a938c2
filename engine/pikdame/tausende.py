"""Tausende (RULES.md R12) as a ruleset of Pik Dame: the hooks of :class:`State` it overrides.

Everything not named here is Pik Dame's (R1–R10): the turn's steps, the notation, the positions and
records. What differs: 108 cards and a face-up card (R12.1), the swapping round (R12.2), the
30-point opening (R12.3), the pot only after opening (R12.4), melds without wrap-around, with
jokers fewer than naturals, lay-offs and swaps on any meld, never joined (R12.5), a Q♠ that is
never discarded (R12.6, R12.7), the options of R12.8. docs/TAUSENDE.md records every decision.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

from engine.core.cards import JOKER_CODE, Card, held
from engine.pikdame.cards import QUEEN_OF_SPADES, QUEEN_OF_SPADES_CODE, TAUSENDE_POINTS
from engine.pikdame.deal import Deal
from engine.pikdame.errors import InvalidMeld, NotationError
from engine.pikdame.meldgen import iter_melds
from engine.pikdame.melds import Meld
from engine.pikdame.moves import DRAW, RESIGN, Move
from engine.pikdame.position import Position, fail
from engine.pikdame.rules import Outcome, Rules
from engine.pikdame.state import RULESET_STATES, State

#: A hand of Q♠s only passes its turn (R12.6, docs/TAUSENDE.md).
PASS: Final = Move("pass")
#: R12.3: the points a player's first melds of one turn must reach.
OPENING: Final = 30
#: The rank positions a run may cover without wrap-around: A (0) … K (12), then A high (13).
_LINE: Final = 14


def _rank_points(rank: int) -> int:
    """What a card of ``rank`` is worth (R12.1), the Q♠'s 100 aside: a joker's opening value."""
    return 20 if rank == 0 else 10 if rank >= 9 else 5


def meld_fault(meld: Meld, rules: Rules) -> str | None:
    """Why ``meld`` breaks R12.5 (or R12.8's ``ace_high_only``), or None if it does not."""
    jokers = meld.cards.count(JOKER_CODE)
    if 2 * jokers >= len(meld.cards):
        return "jokers must be fewer than the naturals in every meld, at every moment (R12.5)"
    if meld.kind == "run":
        if meld.start + len(meld.cards) > _LINE:
            return "an ace is low (A-2-3) or high (Q-K-A), never both: no K-A-2 (R12.5)"
        if rules.ace_high_only and meld.start == 0:
            return "the ace is high only: no A-2-3 (R12.8 ace_high_only)"
    return None


def opening_points(meld: Meld) -> int:
    """A meld's points towards the opening (R12.3): each joker counts as the card it stands for
    (a joker standing for the Q♠ counts as a queen, 10: docs/TAUSENDE.md)."""
    total = 0
    for i, c in enumerate(meld.cards):
        if c != JOKER_CODE:
            total += TAUSENDE_POINTS[c]
        elif meld.kind == "run":
            total += _rank_points((meld.start + i) % 13)
        else:
            total += _rank_points(meld.rank)
    return total


def parse(text: str) -> Move:
    """F2 plus Tausende's forms: ``swap-up C`` (R12.2) and ``S.N`` for seat S's meld N in
    ``lay C S.N`` and ``swap S.N C`` (R12.5). Raises :class:`NotationError` (``syntax``)."""
    if not isinstance(text, str):
        return Move.parse(text)
    tokens = text.split()
    verb = tokens[0].lower() if tokens else ""
    if verb == "pass" and len(tokens) == 1:
        return Move("pass")
    if verb == "swap-up":
        if len(tokens) != 2:
            raise NotationError(f"{text!r}: expected 'swap-up CARD'", text)
        card = Move.parse(f"discard {tokens[1]}").cards[0]
        return Move("swap-up", (card,))
    at = {"lay": 2, "swap": 1}.get(verb)
    if at is not None and len(tokens) > at and "." in tokens[at]:
        seat, _, number = tokens[at].partition(".")
        if not (seat.isascii() and seat.isdigit() and len(seat) == 1):
            raise NotationError(f"{text!r}: {tokens[at]!r} is not SEAT.MELD", text)
        tokens[at] = number
        return Move.parse(" ".join(tokens))._replace(seat=int(seat))
    return Move.parse(text)


class TausendeState(State):
    """A Tausende round (R12): Pik Dame's state with R12's hooks and four more fields."""

    __slots__ = ("laid", "opened", "swaps", "turn_points")

    opened: list[bool]  # who has opened (R12.3)
    laid: list[int]  # the points of every card each seat laid this round (R12.5 lay-offs)
    swaps: int | None  # swap-ups in the swapping round so far; None once someone drew (R12.2)
    turn_points: int  # opening points laid this turn by a seat that has not opened (R12.3)

    _parse = staticmethod(parse)

    def __init__(self, rules: Rules, dealer: int, round: int = 1) -> None:
        super().__init__(rules, dealer, round)
        self.opened = [False] * rules.players
        self.laid = [0] * rules.players
        self.swaps = None
        self.turn_points = 0

    def copy(self) -> TausendeState:
        other = super().copy()
        assert isinstance(other, TausendeState)
        other.opened = self.opened[:]
        other.laid = self.laid[:]
        other.swaps = self.swaps
        other.turn_points = self.turn_points
        return other

    # -- construction and documents --------------------------------------------------------

    def _dealt(self, d: Deal) -> None:
        if d.face_up is not None:  # R12.1: the face-up card, the swapping round ahead (R12.2)
            self.discard = [Card.from_id(d.face_up)]
            self.swaps = 0

    def ruleset_fields(self) -> dict[str, Any]:
        return {
            "opened": self.opened[:],
            "laid": self.laid[:],
            "swaps": self.swaps,
            "turn_points": self.turn_points,
        }

    def _read_extra(self, p: Position, doc: Any) -> None:
        extra = p.extra or {}
        n = self.players
        opened, laid = extra.get("opened"), extra.get("laid")
        swaps, points = extra.get("swaps"), extra.get("turn_points")
        if not (
            isinstance(opened, list) and len(opened) == n and all(type(o) is bool for o in opened)
        ):
            raise fail("opened lists true or false per seat (R12.3)", doc)
        if not (isinstance(laid, list) and len(laid) == n and all(type(x) is int for x in laid)):
            raise fail("laid lists one integer per seat (R12.5)", doc)
        if swaps is not None and (type(swaps) is not int or not 0 <= swaps <= n):
            raise fail(f"swaps is null or 0 … {n} (R12.2)", doc)
        if type(points) is not int or points < 0:
            raise fail("turn_points is a count of points, 0 or more (R12.3)", doc)
        if swaps is not None and len(self.discard) != 1:
            raise fail("in the swapping round the pile is the face-up card alone (R12.2)", doc)
        for seat, melds in enumerate(self.melds):
            for i, meld in enumerate(melds, start=1):
                why = meld_fault(meld, self.rules)
                if why is not None:
                    raise fail(f"melds[{seat}] meld {i}: {why}", doc)
        self.opened, self.laid, self.swaps, self.turn_points = opened[:], laid[:], swaps, points

    # -- hooks --------------------------------------------------------------------------------

    def _opened(self, seat: int) -> bool:
        return self.opened[seat]

    def _owner(self, move: Move) -> int:
        return self.turn if move.seat is None else move.seat

    def _fits(self, mine: list[Meld], meld: Meld) -> bool:
        return meld_fault(meld, self.rules) is None  # R12.5: never joined

    def _check_meld(self, move: Move, meld: Meld) -> None:
        why = meld_fault(meld, self.rules)
        if why is not None:
            raise self._illegal("invalid_meld", why, move)

    def _check_join(self, move: Move, seat: int, meld: Meld) -> None:
        self._check_meld(move, meld)

    def _check_keep(self, move: Move, removing: tuple[Card, ...] | list[Card], why: str) -> None:
        super()._check_keep(move, removing, why)
        seat = self.turn
        if move.kind == "take":  # the pile's rest comes into the hand: a card beside any Q♠
            pile = self.discard[:-1]
            queens = self.hands[seat][QUEEN_OF_SPADES_CODE] - removing.count(QUEEN_OF_SPADES)
            left = self.hand_sizes[seat] - len(removing) + len(pile)
            if left - queens - pile.count(QUEEN_OF_SPADES) < 1:
                raise self._illegal("must_keep_card", "keep a card beside the Q♠ (R12.6)", move)
            return
        left = self.hand_sizes[seat] - len(removing)
        queens = self.hands[seat][QUEEN_OF_SPADES_CODE] - removing.count(QUEEN_OF_SPADES)
        if left - queens < 1:
            raise self._illegal(
                "must_keep_card", "keep a card to discard: a Q♠ never is (R12.6, R12.7)", move
            )
        if left < 2 and not (self.opened_at_turn_start or self.rules.go_out_on_opening):
            raise self._illegal(
                "must_keep_card",
                "no going out in the turn you open (R12.8 go_out_on_opening)",
                move,
            )

    def _place(self, seat: int, meld: Meld) -> None:
        self.melds[seat].append(meld)  # R12.5: melds are never joined
        self.laid[seat] += sum(TAUSENDE_POINTS[c] for c in meld.cards)
        if not self.opened[seat]:
            self.turn_points += opening_points(meld)
            if self.turn_points >= OPENING:
                self.opened[seat] = True

    def _take_melds(self, max_len: int | None = None) -> Iterator[Meld]:
        if self.swaps is not None or not self.opened[self.turn]:
            return iter(())  # R12.3/R12.4: only a player who has opened takes the pot
        return super()._take_melds(max_len)

    # -- moves --------------------------------------------------------------------------------

    def _require_open(self, move: Move) -> None:
        if not self.opened[self.turn]:
            raise self._illegal(
                "not_opened", "lay off or swap only after opening with 30 points (R12.3)", move
            )
        if move.seat is not None and not 0 <= move.seat < self.players:
            raise self._illegal("no_such_meld", f"there is no seat {move.seat}", move)

    def _own_form(self, move: Move) -> Move:
        return move._replace(seat=None) if move.seat == self.turn else move

    def _draw(self, move: Move) -> Move:
        done = super()._draw(move)
        self.swaps = None  # R12.2: a draw from the stock ends the swapping round
        return done

    def _take(self, move: Move) -> Move:
        if self.swaps is not None or not self.opened[self.turn]:
            raise self._illegal(
                "take_not_allowed",
                "only a player who has opened takes the pot (R12.3, R12.4)",
                move,
            )
        return super()._take(move)

    def _lay(self, move: Move) -> Move:
        self._require_open(move)
        done = super()._lay(self._own_form(move))
        self.laid[self.turn] += TAUSENDE_POINTS[move.cards[0]]
        return done

    def _swap(self, move: Move) -> Move:
        self._require_open(move)
        if self.rules.no_joker_swap:
            raise self._illegal("invalid_meld", "jokers stay where they lie (R12.8)", move)
        done = super()._swap(self._own_form(move))
        self.laid[self.turn] += TAUSENDE_POINTS[move.cards[0]]
        return done

    def _swap_up(self, move: Move) -> Move:
        if self.swaps is None:
            raise self._illegal("wrong_phase", "the swapping round is over (R12.2)", move)
        if self.swaps >= self.players:
            raise self._illegal(
                "wrong_phase", "every seat has had its swap: draw (R12.2, docs/TAUSENDE.md)", move
            )
        card = move.cards[0]
        self._need(move, move.cards)
        if card == QUEEN_OF_SPADES_CODE:
            raise self._illegal("queen_kept", "a Q♠ is never put face up (R12.6)", move)
        seat = self.turn
        hand = self.hands[seat]
        hand[self.discard[0]] += 1
        hand[card] -= 1
        self.discard = [card]
        self.swaps += 1
        self._record(seat, move)
        self.turn = (seat + 1) % self.players
        self.opened_at_turn_start = self.opened[self.turn]
        return move

    def _discard(self, move: Move) -> Move:
        if move.kind == "pass":
            return self._pass(move)
        card = move.cards[0]
        self._need(move, move.cards)
        seat = self.turn
        if card == QUEEN_OF_SPADES_CODE:
            raise self._illegal("queen_kept", "a Q♠ is never discarded (R12.6)", move)
        if not self.opened[seat] and self.melds[seat]:
            self._take_back(seat)
        done = super()._discard(move)
        self.turn_points = 0
        return done

    def _pass(self, move: Move) -> Move:
        """docs/TAUSENDE.md: a hand of Q♠s only cannot discard (R12.6): the turn passes."""
        seat = self.turn
        if self.hand_sizes[seat] != self.hands[seat][QUEEN_OF_SPADES_CODE]:
            raise self._illegal("pass_not_allowed", "pass only with nothing but Q♠s in hand", move)
        if not self.opened[seat] and self.melds[seat]:
            self._take_back(seat)
        self._record(seat, move)
        self.turn_points = 0
        self._next_turn(seat)
        return move

    def _take_back(self, seat: int) -> None:
        """R12.3 (docs/TAUSENDE.md): melds short of the opening go back into the hand at the
        discard; a seat that has not opened has no other melds, so all of them go."""
        hand = self.hands[seat]
        for meld in self.melds[seat]:
            for c in meld.cards:
                hand[c] += 1
            self.hand_sizes[seat] += len(meld.cards)
        self.melds[seat] = []
        self.laid[seat] = 0

    def end_round(self, end: str, winner: int | None) -> None:
        """R12.7: R7.1/R7.2 with the points each seat laid (lay-offs included), no doubling."""
        scores = []
        for seat in range(self.players):
            score = self.laid[seat]
            if seat != winner:
                score -= sum(TAUSENDE_POINTS[c] * k for c, k in enumerate(self.hands[seat]) if k)
            scores.append(score)
        outcome = Outcome(end, winner, tuple(scores), False)
        self.totals = [t + s for t, s in zip(self.totals, outcome.round_scores, strict=True)]
        self.outcome = outcome

    def legal_moves(self, max_meld: int | None = None) -> Iterator[Move]:
        """Every legal move of the seat to move, each once, in a fixed order. Each candidate is
        judged by the checks ``push`` makes, without copying the state (the first version tried
        every candidate on a copy; tests/pikdame/test_tausende_legal_moves.py proves the lists
        identical, bench/results/tausende_moves.md measures both)."""
        if self.outcome is not None:
            return
        seat = self.turn
        hand = self.hands[seat]
        if self.phase == "draw":
            if self.stock:
                yield DRAW
            if self.swaps is not None:
                if self.swaps < self.players:
                    for card in held(hand):
                        if card != QUEEN_OF_SPADES_CODE:
                            yield Move("swap-up", (card,))
            else:
                for meld in self._take_melds(max_meld):
                    if self._take_keeps(meld):
                        yield Move.laying(meld, "take")
            yield RESIGN
            return
        size = self.hand_sizes[seat]
        queens = hand[QUEEN_OF_SPADES_CODE]
        opening = not (self.opened_at_turn_start or self.rules.go_out_on_opening)

        def keeps(used: int, used_queens: int) -> bool:
            """_check_keep's verdict for a step that plays ``used`` hand cards (R12.6, R12.8)."""
            left = size - used
            return left >= 1 and left - (queens - used_queens) >= 1 and not (left < 2 and opening)

        limit = size - 1 if max_meld is None else min(size - 1, max_meld)
        for meld in iter_melds(hand, max_len=limit):
            if meld_fault(meld, self.rules) is None and keeps(
                len(meld.cards), meld.cards.count(QUEEN_OF_SPADES_CODE)
            ):
                yield Move.laying(meld)
        if self.opened[seat]:
            in_hand = held(hand)
            for owner in range(self.players):
                address = None if owner == seat else owner
                for number, meld in enumerate(self.melds[owner], start=1):
                    for card in in_hand:
                        if not keeps(1, card == QUEEN_OF_SPADES_CODE):
                            continue
                        if meld.accepts(card):
                            ends: tuple[str | None, ...] = (None,)
                            if card == JOKER_CODE and meld.kind == "run":
                                ends = (None, "low")
                            for end in ends:
                                if self._fits_after(meld.with_card, card, end):
                                    yield Move("lay", (card,), number, end, None, address)
                        if (
                            not self.rules.no_joker_swap
                            and meld.swappable(card)
                            and self._fits_after(meld.with_swap, card)
                        ):
                            yield Move("swap", (card,), number, None, None, address)
        for card in held(hand):
            if card != QUEEN_OF_SPADES_CODE:  # R12.6: a Q♠ is never discarded
                yield Move("discard", (card,))
        if queens == size:  # docs/TAUSENDE.md: nothing but Q♠s in hand
            yield PASS
        yield RESIGN

    def _take_keeps(self, meld: Meld) -> bool:
        """_check_keep's verdict on a take (R12.4 with R12.6): the pile's rest comes into the
        hand, and a card beside the Q♠s must remain."""
        seat = self.turn
        top = self.discard[-1]
        rest = list(meld.cards)
        rest.remove(top)
        pile = self.discard[:-1]
        queens = self.hands[seat][QUEEN_OF_SPADES_CODE] - rest.count(QUEEN_OF_SPADES)
        left = self.hand_sizes[seat] - len(rest) + len(pile)
        if self.hand_sizes[seat] - len(rest) < 1:
            return False
        return left - queens - pile.count(QUEEN_OF_SPADES) >= 1

    def _fits_after(self, change: Any, *args: Any) -> bool:
        """Whether ``change(*args)`` (a lay or a swap on a meld) gives a meld R12.5 allows."""
        try:
            new = change(*args)
        except InvalidMeld:
            return False
        return meld_fault(new, self.rules) is None


RULESET_STATES["tausende"] = TausendeState

__all__ = ["OPENING", "PASS", "TausendeState", "meld_fault", "opening_points", "parse"]
