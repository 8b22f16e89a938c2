"""The game state: whose turn, every zone of cards, and ``push`` (RULES.md R2–R8).

In the style of python-chess: ``push`` validates and applies one move or raises an error carrying
the F7 code, leaving the state unchanged; ``legal_moves`` lists what the seat to move may do. Hands
are 53-slot multisets (identical cards are interchangeable, R1); the stock is kept top-last
internally so drawing is a ``pop``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any

from engine.core.cards import JOKER, JOKER_CODE, NAMES, NUM_KINDS, Card, cards_of, counts_of, held
from engine.pikdame import position
from engine.pikdame.cards import TAUSENDE_TOTAL
from engine.pikdame.deal import Deal
from engine.pikdame.deal import deal as deal_round
from engine.pikdame.errors import IllegalMoveError, InvalidMeld, NotationError, PikDameError
from engine.pikdame.meldgen import could_meld, iter_melds
from engine.pikdame.melds import Meld, join_target, joins_ok
from engine.pikdame.moves import DRAW, RESIGN, Move
from engine.pikdame.rules import Outcome, Rules, score_round

TAUSENDE_HAND = 13  # R12.1


class State:
    """A full game state, as in a position document (F5), plus the round's move history."""

    __slots__ = (
        "dealer",
        "discard",
        "hand_sizes",
        "hands",
        "history",
        "melds",
        "opened_at_turn_start",
        "outcome",
        "phase",
        "removed",
        "round",
        "rules",
        "stock",
        "totals",
        "turn",
    )

    rules: Rules
    round: int
    dealer: int
    turn: int
    phase: str
    hands: list[list[int]]
    hand_sizes: list[int]
    melds: list[list[Meld]]
    stock: list[Card]  # top LAST (F5 writes it top first)
    discard: list[Card]  # bottom first, top last (as F5)
    removed: list[Card]
    totals: list[int]
    opened_at_turn_start: bool
    outcome: Outcome | None
    history: list[tuple[int, str]]

    def __init__(self, rules: Rules, dealer: int, round: int = 1) -> None:
        n = rules.players
        self.rules = rules
        self.round = round
        self.dealer = dealer
        self.turn = (dealer + 1) % n
        self.phase = "draw"
        self.hands = [[0] * NUM_KINDS for _ in range(n)]
        self.hand_sizes = [0] * n
        self.melds = [[] for _ in range(n)]
        self.stock = []
        self.discard = []
        self.removed = []
        self.totals = [0] * n
        self.opened_at_turn_start = False
        self.outcome = None
        self.history = []

    # -- construction --------------------------------------------------------------------------

    @staticmethod
    def new_round(
        seed: bytes,
        rules: Rules,
        dealer: int,
        cut: int | None = None,
        *,
        round: int = 1,
        totals: list[int] | None = None,
    ) -> State:
        """The state right after the deal of F3 (automatic cut when ``cut`` is None)."""
        return State.from_deal(
            deal_for(seed, rules, dealer, cut),
            rules,
            dealer,
            round=round,
            totals=totals,
        )

    @staticmethod
    def from_deal(
        d: Deal,
        rules: Rules,
        dealer: int,
        *,
        round: int = 1,
        totals: list[int] | None = None,
    ) -> State:
        state = _state_class(rules)(rules, dealer, round)
        for seat, ids in enumerate(d.hands):
            hand = state.hands[seat]
            for card_id in ids:
                hand[Card.from_id(card_id)] += 1
            state.hand_sizes[seat] = len(ids)
        state.stock = [Card.from_id(i) for i in reversed(d.stock)]
        state._dealt(d)
        if totals is not None:
            state.totals = list(totals)
        return state

    def _dealt(self, d: Deal) -> None:
        """What a ruleset does after the deal (Tausende turns a card face up, R12.1)."""

    def copy(self) -> State:
        other = self.__class__.__new__(self.__class__)
        other.rules = self.rules
        other.round = self.round
        other.dealer = self.dealer
        other.turn = self.turn
        other.phase = self.phase
        other.hands = [h[:] for h in self.hands]
        other.hand_sizes = self.hand_sizes[:]
        other.melds = [m[:] for m in self.melds]
        other.stock = self.stock[:]
        other.discard = self.discard[:]
        other.removed = self.removed[:]
        other.totals = self.totals[:]
        other.opened_at_turn_start = self.opened_at_turn_start
        other.outcome = self.outcome
        other.history = self.history[:]
        return other

    # -- reading -------------------------------------------------------------------------------

    def hand(self, seat: int) -> list[Card]:
        """The seat's hand in canonical order (F5)."""
        return cards_of(self.hands[seat])

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def finished(self) -> bool:
        """Whether the round is over (R7): then no move is legal any more."""
        return self.outcome is not None

    @property
    def top(self) -> Card | None:
        return self.discard[-1] if self.discard else None

    def card_count(self) -> int:
        """Every card in every zone: 110 in a dealt round, whatever happens (R1, R6)."""
        return (
            sum(self.hand_sizes)
            + sum(len(m.cards) for ms in self.melds for m in ms)
            + len(self.stock)
            + len(self.discard)
            + len(self.removed)
        )

    def can_take(self) -> bool:
        """Whether the seat to move has a legal take (R4.1), checked on 3-card melds: any larger
        take meld contains a valid 3-card one that needs fewer hand cards."""
        if self.outcome is not None or self.phase != "draw" or not self.discard:
            return False
        return next(self._take_melds(max_len=3), None) is not None

    def legal_moves(self, max_meld: int | None = None) -> Iterator[Move]:
        """Every legal move of the seat to move, each once (identical cards are one move).

        ``max_meld`` bounds the size of new melds and take melds (for fast random play).
        """
        if self.outcome is not None:
            return
        seat = self.turn
        if self.phase == "draw":
            if self.stock:
                yield DRAW
            for meld in self._take_melds(max_meld):
                yield Move.laying(meld, "take")
            yield RESIGN
            return
        hand = self.hands[seat]
        size = self.hand_sizes[seat]
        limit = size - 1 if max_meld is None else min(size - 1, max_meld)
        mine = self.melds[seat]
        for meld in iter_melds(hand, max_len=limit):
            if joins_ok(mine, meld):
                yield Move.laying(meld)
        in_hand = held(hand)
        if size > 1:
            for number, meld in enumerate(mine, start=1):
                for card in in_hand:
                    if meld.accepts(card):
                        yield Move("lay", (card,), number)
                        if card == JOKER_CODE and meld.kind == "run":
                            yield Move("lay", (card,), number, "low")
                    if meld.swappable(card):
                        yield Move("swap", (card,), number)
        for card in in_hand:
            yield Move("discard", (card,))
        yield RESIGN

    def canonical(self, move: Move) -> Move:
        """The canonical form ``push`` would record for ``move`` (no legality check): melds in
        stored order with only the prefix F2 needs, ``low`` only for a joker on a run's low end."""
        kind = move.kind
        if kind in ("meld", "take"):
            try:
                meld = Meld.build(move.cards, move.prefix)
            except PikDameError:
                return move
            return Move.laying(meld, kind)
        if kind == "lay":
            melds = self.melds[self._owner(move)] if self._owner(move) < self.players else []
            low = (
                move.end == "low"
                and move.cards[0] == JOKER_CODE
                and 0 < move.meld <= len(melds)
                and melds[move.meld - 1].kind == "run"
            )
            return move if move.end is None or low else move._replace(end=None)
        return move

    # -- playing -------------------------------------------------------------------------------

    def push(self, move: Move | str, seat: int | None = None) -> Move:
        """Validate and apply ``move`` by ``seat`` (default: the seat to move); returns the move
        in canonical form. Raises :class:`NotationError` or :class:`IllegalMoveError`; a rejected
        move changes nothing."""
        if not isinstance(move, Move):
            move = self._parse(move)
        else:
            # A constructed move obeys F2 too (e.g. no `swap N X`, no meld 0), so that every
            # move push accepts is recorded in notation that replays.
            try:
                text = str(move)
            except (IndexError, KeyError, TypeError):
                raise NotationError(f"not a well-formed {move.kind!r} move", move) from None
            move = self._parse(text)
        if self.outcome is not None:
            raise self._illegal("round_over", "the round is over", move)
        kind = move.kind
        if seat is not None and not 0 <= seat < self.rules.players:
            raise self._illegal("not_your_turn", f"there is no seat {seat}", move)
        if kind == "resign":
            # R8 / F2: resign is legal at any moment while the round runs, by any seat.
            by = self.turn if seat is None else seat
            self.history.append((by, "resign"))
            self.end_round("resign", None)
            return RESIGN
        if seat is not None and seat != self.turn:
            raise self._illegal("not_your_turn", f"it is seat {self.turn}'s turn", move)
        if kind in ("draw", "take", "swap-up"):
            if self.phase != "draw":
                raise self._illegal("wrong_phase", f"'{kind}' only starts a turn (R4.1)", move)
        elif self.phase != "play":
            raise self._illegal("wrong_phase", f"draw or take first (R4.1), then '{kind}'", move)
        if kind == "draw":
            done = self._draw(move)
        elif kind == "take":
            done = self._take(move)
        elif kind == "meld":
            done = self._meld(move)
        elif kind == "lay":
            done = self._lay(move)
        elif kind == "swap":
            done = self._swap(move)
        elif kind == "swap-up":
            done = self._swap_up(move)
        else:
            done = self._discard(move)
        return done

    # -- the hooks a ruleset overrides (Tausende, R12: engine/pikdame/tausende.py) ---------------

    _parse = staticmethod(Move.parse)

    def parse_move(self, text: str) -> Move:
        """Read a move in this ruleset's notation (F2; Tausende's forms too, R12)."""
        return self._parse(text)

    def _swap_up(self, move: Move) -> Move:
        raise NotationError(f"{move}: 'swap-up' is a Tausende move (R12.2)", move)

    def _opened(self, seat: int) -> bool:
        """Whether ``seat`` counts as opened at the start of its turn (R7.3)."""
        return bool(self.melds[seat])

    def _owner(self, move: Move) -> int:
        """The seat whose meld a lay or swap addresses: the player's own (R4.2)."""
        return self.turn

    def _check_meld(self, move: Move, meld: Meld) -> None:
        """A ruleset's further limits on a meld after a lay or swap (none in Pik Dame)."""

    def _check_keep(self, move: Move, removing: tuple[Card, ...] | list[Card], why: str) -> None:
        """Every play step and take leaves a card in hand (R4.1, R4.2)."""
        if self.hand_sizes[self.turn] - len(removing) < 1:
            raise self._illegal("must_keep_card", why, move)

    def _illegal(self, code: str, why: str, move: Move) -> IllegalMoveError:
        return IllegalMoveError(code, f"{move}: {why}", move, self)

    def _record(self, seat: int, move: Move) -> Move:
        self.history.append((seat, str(move)))
        return move

    def _need(self, move: Move, cards: tuple[Card, ...] | list[Card]) -> None:
        hand = self.hands[self.turn]
        for code in set(cards):
            if hand[code] < cards.count(code):
                raise self._illegal("card_not_in_hand", f"{NAMES[code]} is not in hand", move)

    def _build(self, move: Move, cards: tuple[Card, ...]) -> Meld:
        try:
            return Meld.build(cards, move.prefix)
        except InvalidMeld as e:
            raise self._illegal("invalid_meld", e.message, move) from None

    def _place(self, seat: int, meld: Meld) -> None:
        """Lay a new meld for ``seat``; a set joins the seat's set of its rank (R5.4)."""
        melds = self.melds[seat]
        target = join_target(melds, meld)
        if target is None:
            melds.append(meld)
        else:
            melds[target] = melds[target].joined(meld)

    def _check_join(self, move: Move, seat: int, meld: Meld) -> None:
        if not joins_ok(self.melds[seat], meld):
            raise self._illegal(
                "invalid_meld",
                f"this set would join your set of {NAMES[meld.rank][0]} and make it invalid (R5.4)",
                move,
            )

    def _draw(self, move: Move) -> Move:
        if not self.stock:
            raise self._illegal("stock_empty", "the stock is empty (R4.4)", move)
        seat = self.turn
        card = self.stock.pop()
        self.hands[seat][card] += 1
        self.hand_sizes[seat] += 1
        self.phase = "play"
        return self._record(seat, DRAW)

    def _take(self, move: Move) -> Move:
        if not self.discard:
            raise self._illegal("take_not_allowed", "the discard pile is empty", move)
        top = self.discard[-1]
        if top not in move.cards:
            raise self._illegal(
                "take_not_allowed", f"the meld must contain the pile's top card {top}", move
            )
        rest = list(move.cards)
        rest.remove(top)
        self._need(move, rest)
        meld = self._build(move, move.cards)
        seat = self.turn
        self._check_join(move, seat, meld)
        self._check_keep(move, rest, "the take would use up every card in hand (R4.1)")
        hand = self.hands[seat]
        for c in rest:
            hand[c] -= 1
        self.discard.pop()
        self._place(seat, meld)
        for c in self.discard:
            hand[c] += 1
        self.hand_sizes[seat] += len(self.discard) - len(rest)
        self.discard = []
        self.phase = "play"
        return self._record(seat, Move.laying(meld, "take"))

    def _meld(self, move: Move) -> Move:
        self._need(move, move.cards)
        meld = self._build(move, move.cards)
        seat = self.turn
        self._check_join(move, seat, meld)
        self._check_keep(move, move.cards, "keep one card to discard (R4.2)")
        hand = self.hands[seat]
        for c in move.cards:
            hand[c] -= 1
        self.hand_sizes[seat] -= len(move.cards)
        self._place(seat, meld)
        return self._record(seat, Move.laying(meld))

    def _own_meld(self, move: Move) -> Meld:
        melds = self.melds[self._owner(move)]
        if move.meld > len(melds):
            have = f"you have {len(melds)}" if melds else "you have none yet"
            raise self._illegal("no_such_meld", f"no meld number {move.meld} ({have})", move)
        return melds[move.meld - 1]

    def _onto_own_meld(self, move: Move, changed: Callable[[Meld], Meld], last_card: str) -> Meld:
        """Play the move's card onto the seat's meld ``move.meld`` (R4.2 lay, R6 swap), changed
        by ``changed``; ``last_card`` says why the seat's last card cannot go. Returns the meld
        as it was."""
        card = move.cards[0]
        self._need(move, move.cards)
        meld = self._own_meld(move)
        try:
            new = changed(meld)
        except InvalidMeld as e:
            raise self._illegal("invalid_meld", e.message, move) from None
        self._check_meld(move, new)
        self._check_keep(move, move.cards, last_card)
        seat = self.turn
        self.hands[seat][card] -= 1
        self.hand_sizes[seat] -= 1
        self.melds[self._owner(move)][move.meld - 1] = new
        return meld

    def _lay(self, move: Move) -> Move:
        card = move.cards[0]
        meld = self._onto_own_meld(
            move, lambda m: m.with_card(card, move.end), "keep one card to discard (R4.2)"
        )
        end = move.end if card == JOKER_CODE and meld.kind == "run" and move.end == "low" else None
        return self._record(self.turn, Move("lay", (card,), move.meld, end, None, move.seat))

    def _swap(self, move: Move) -> Move:
        card = move.cards[0]
        self._onto_own_meld(
            move, lambda m: m.with_swap(card), "a swap may not use the last card (R4.2)"
        )
        self.removed.append(JOKER)
        return self._record(self.turn, Move("swap", (card,), move.meld, None, None, move.seat))

    def _discard(self, move: Move) -> Move:
        card = move.cards[0]
        self._need(move, move.cards)
        seat = self.turn
        self.hands[seat][card] -= 1
        self.hand_sizes[seat] -= 1
        self._record(seat, move)
        if self.hand_sizes[seat] == 0:
            # R4.3: going out; the last card goes face down, out of play.
            self.removed.append(card)
            self.end_round("out", seat)
            return move
        self.discard.append(card)
        self._next_turn(seat)
        return move

    def _next_turn(self, seat: int) -> None:
        """The turn passes to the next seat; an empty stock without a take ends the round."""
        self.turn = (seat + 1) % self.rules.players
        self.phase = "draw"
        self.opened_at_turn_start = self._opened(self.turn)
        if not self.stock and not self.can_take():
            self.end_round("stock", None)  # R4.4

    def end_round(self, end: str, winner: int | None) -> None:
        """End the round as ``end`` (R7: ``out`` by ``winner``, ``stock``, ``resign``): score it
        and add the scores to the totals (R7.4)."""
        outcome = score_round(
            self.rules, end, winner, self.opened_at_turn_start, self.melds, self.hands
        )
        self.totals = [t + s for t, s in zip(self.totals, outcome.round_scores, strict=True)]
        self.outcome = outcome

    def _take_melds(self, max_len: int | None = None) -> Iterator[Meld]:
        """Every valid take meld for the seat to move: the pile's top card plus hand cards,
        leaving one hand card (R4.1) and joining validly (R5.4)."""
        if not self.discard:
            return
        seat = self.turn
        top = self.discard[-1]
        size = self.hand_sizes[seat]
        limit = size  # meld = top + at most size - 1 hand cards
        if max_len is not None:
            limit = min(limit, max_len)
        if limit < 3:
            return
        pool = self.hands[seat][:]
        pool[top] += 1
        if not could_meld(pool, top):
            return  # most turns (every view asks can_take): the search below finds nothing
        mine = self.melds[seat]
        for meld in iter_melds(pool, max_len=limit, required=top):
            if self._fits(mine, meld):
                yield meld

    def _fits(self, mine: list[Meld], meld: Meld) -> bool:
        """Whether a new meld may be laid beside the seat's melds (R5.4's join)."""
        return joins_ok(mine, meld)

    # -- the game beyond one round (R8) ---------------------------------------------------------

    def game_over(self) -> bool:
        """After a finished round: resigned, or someone reached the goal with a lone lead (R8)."""
        if self.outcome is None:
            return False
        if self.outcome.end == "resign":
            return True
        best = max(self.totals)
        return self.rules.reached_goal(best) and self.totals.count(best) == 1

    def game_winner(self) -> int | None:
        best = max(self.totals)
        if not self.game_over() or self.totals.count(best) > 1:
            return None  # a resigned game whose top total is shared has no winner (R8)
        return self.totals.index(best)

    def next_round(self, seed: bytes, cut: int | None = None) -> State:
        """The next round of the same game: the dealer moves one seat on (R2), totals carry."""
        if self.outcome is None or self.game_over():
            raise PikDameError("the next round follows a finished round of a running game")
        return State.new_round(
            seed,
            self.rules,
            (self.dealer + 1) % self.rules.players,
            cut,
            round=self.round + 1,
            totals=self.totals,
        )

    # -- documents -----------------------------------------------------------------------------

    def _read_extra(self, p: position.Position, doc: Any) -> None:
        """A ruleset's further fields of a position (Tausende's, R12)."""

    def ruleset_fields(self) -> dict[str, Any] | None:
        return None

    def to_position(self) -> dict[str, Any]:
        """The position document (F5)."""
        return position.write(
            position.Position(
                self.rules,
                self.round,
                self.dealer,
                self.turn,
                self.phase,
                self.opened_at_turn_start,
                [self.hand(s) for s in range(self.players)],
                self.melds,
                self.stock[::-1],
                self.discard,
                self.removed,
                self.totals,
                self.outcome,
                self.ruleset_fields(),
            )
        )

    @staticmethod
    def from_position(doc: Any) -> State:
        """The state of a position document (F5); raises :class:`FormatError` on anything wrong.
        A seat to draw with an empty stock and no legal take is already over (R4.4)."""
        p = position.read(doc)
        state = _state_class(p.rules)(p.rules, p.dealer, p.round)
        state.turn = p.turn
        state.phase = p.phase
        state.opened_at_turn_start = p.opened_at_turn_start
        state.hands = [counts_of(hand) for hand in p.hands]
        state.hand_sizes = [len(hand) for hand in p.hands]
        state.melds = p.melds
        state.stock = p.stock[::-1]
        state.discard = p.discard
        state.removed = p.removed
        state.totals = p.totals
        state._read_extra(p, doc)
        if p.outcome is not None:
            state.outcome = p.outcome
        elif state.phase == "draw" and not state.stock and not state.can_take():
            state.end_round("stock", None)
        elif state.hand_sizes[state.turn] == 0:
            raise position.fail("the seat to move holds no card", doc)
        return state

    def __repr__(self) -> str:
        return (
            f"<State round={self.round} turn={self.turn} phase={self.phase} "
            f"stock={len(self.stock)} outcome={self.outcome}>"
        )


def deal_for(seed: bytes, rules: Rules, dealer: int, cut: int | None = None) -> Deal:
    """F3's deal for the ruleset: 110 cards and 15 each, or Tausende's 108 and 13 (R12.1).

    Cached (a deal is immutable): at the reset hour every verification replays the day's one
    deal, and a judge reads it twice (the setup check, then the replay)."""
    if type(seed) is bytes:
        return _cached_deal(seed, rules, dealer, cut)
    return _deal_for(seed, rules, dealer, cut)


@lru_cache(maxsize=64)
def _cached_deal(seed: bytes, rules: Rules, dealer: int, cut: int | None) -> Deal:
    return _deal_for(seed, rules, dealer, cut)


def _deal_for(seed: bytes, rules: Rules, dealer: int, cut: int | None) -> Deal:
    if rules.tausende:
        return deal_round(
            seed,
            rules.players,
            dealer,
            cut,
            total=TAUSENDE_TOTAL,
            hand_size=TAUSENDE_HAND,
            tausende=True,
        )
    return deal_round(seed, rules.players, dealer, cut)


#: The state class of every ruleset but Pik Dame's, registered by the module that defines it
#: (``engine.pikdame.tausende``, imported by the package), so this module imports none of them.
RULESET_STATES: dict[str, type[State]] = {}


def _state_class(rules: Rules) -> type[State]:
    """The state class of the ruleset (R12: Tausende's hooks over this state)."""
    return State if rules.ruleset == "pikdame" else RULESET_STATES[rules.ruleset]


__all__ = ["State", "deal_for"]
