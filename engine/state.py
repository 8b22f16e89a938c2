"""The game state: whose turn, every zone of cards, and ``push`` (RULES.md R2–R8).

In the style of python-chess: ``push`` validates and applies one move or raises an error carrying
the F7 code, leaving the state unchanged; ``legal_moves`` lists what the seat to move may do. Hands
are 53-slot multisets (identical cards are interchangeable, R1); the stock is kept top-last
internally so drawing is a ``pop``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

from engine import deal as dealing
from engine.cards import CARDS, JOKER, JOKER_CODE, NAMES, POINTS, Card, cards_of
from engine.errors import IllegalMoveError, NotationError, PikDameError
from engine.meldgen import iter_melds
from engine.melds import InvalidMeld, Meld
from engine.moves import DRAW, RESIGN, Move

GOAL: Final = 1000


@dataclass(frozen=True)
class Rules:
    """The options of a game that the engine needs (R9; bots and timers live elsewhere)."""

    players: int = 4
    hand_out_double: bool = False
    strict_1000: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "hand_out_double": self.hand_out_double,
            "strict_1000": self.strict_1000,
        }

    @staticmethod
    def from_json(obj: Any) -> Rules:
        if not isinstance(obj, dict) or set(obj) - {"players", "hand_out_double", "strict_1000"}:
            raise PikDameError("rules are {players, hand_out_double, strict_1000}", obj)
        players = obj.get("players", 4)
        hod = obj.get("hand_out_double", False)
        strict = obj.get("strict_1000", False)
        if type(players) is not int or players not in (2, 3, 4):
            raise PikDameError("rules.players is 2, 3 or 4", obj)
        if not isinstance(hod, bool) or not isinstance(strict, bool):
            raise PikDameError("rules.hand_out_double and rules.strict_1000 are true or false", obj)
        return Rules(players, hod, strict)


@dataclass(frozen=True)
class Outcome:
    """How a round ended (R7): ``end`` is ``out``, ``stock`` or ``resign``."""

    end: str
    winner: int | None
    round_scores: tuple[int, ...]
    doubled: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "end": self.end,
            "winner": self.winner,
            "round_scores": list(self.round_scores),
            "doubled": self.doubled,
        }


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
        self.hands = [[0] * 53 for _ in range(n)]
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
            dealing.deal(seed, rules.players, dealer, cut),
            rules,
            dealer,
            round=round,
            totals=totals,
        )

    @staticmethod
    def from_deal(
        d: dealing.Deal,
        rules: Rules,
        dealer: int,
        *,
        round: int = 1,
        totals: list[int] | None = None,
    ) -> State:
        state = State(rules, dealer, round)
        for seat, ids in enumerate(d.hands):
            for card_id in ids:
                state.hands[seat][Card.from_id(card_id)] += 1
            state.hand_sizes[seat] = len(ids)
        state.stock = [Card.from_id(i) for i in reversed(d.stock)]
        if totals is not None:
            state.totals = list(totals)
        return state

    def copy(self) -> State:
        other = State.__new__(State)
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
                yield Move("take", meld.cards, 0, None, _prefix(meld))
            yield RESIGN
            return
        hand = self.hands[seat]
        size = self.hand_sizes[seat]
        limit = size - 1 if max_meld is None else min(size - 1, max_meld)
        for meld in iter_melds(hand, max_len=limit):
            if self._joins_ok(seat, meld):
                yield Move("meld", meld.cards, 0, None, _prefix(meld))
        if size > 1:
            held = [CARDS[c] for c in range(53) if hand[c]]
            for number, meld in enumerate(self.melds[seat], start=1):
                for card in held:
                    if meld.accepts(card):
                        yield Move("lay", (card,), number)
                        if card == JOKER_CODE and meld.kind == "run":
                            yield Move("lay", (card,), number, "low")
                    if meld.swappable(card):
                        yield Move("swap", (card,), number)
        for code in range(53):
            if hand[code]:
                yield Move("discard", (CARDS[code],))
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
            return Move(kind, meld.cards, 0, None, _prefix(meld))
        if kind == "lay":
            melds = self.melds[self.turn]
            low = (
                move.end == "low"
                and move.cards[0] == JOKER_CODE
                and 0 < move.meld <= len(melds)
                and melds[move.meld - 1].kind == "run"
            )
            return move if move.end is None or low else Move("lay", move.cards, move.meld)
        return move

    def is_legal(self, move: Move) -> bool:
        try:
            self.copy().push(move)
        except PikDameError:
            return False
        return True

    # -- playing -------------------------------------------------------------------------------

    def push(self, move: Move | str, seat: int | None = None) -> Move:
        """Validate and apply ``move`` by ``seat`` (default: the seat to move); returns the move
        in canonical form. Raises :class:`NotationError` or :class:`IllegalMoveError`; a rejected
        move changes nothing."""
        if not isinstance(move, Move):
            move = Move.parse(move)
        else:
            # A constructed move obeys F2 too (e.g. no `swap N X`, no meld 0), so that every
            # move push accepts is recorded in notation that replays.
            try:
                text = str(move)
            except (IndexError, KeyError, TypeError):
                raise NotationError(f"not a well-formed {move.kind!r} move", move) from None
            move = Move.parse(text)
        if self.outcome is not None:
            raise self._illegal("round_over", "the round is over", move)
        kind = move.kind
        if seat is not None and not 0 <= seat < self.rules.players:
            raise self._illegal("not_your_turn", f"there is no seat {seat}", move)
        if kind == "resign":
            # R8 / F2: resign is legal at any moment while the round runs, by any seat.
            by = self.turn if seat is None else seat
            self.history.append((by, "resign"))
            self._finish("resign", None)
            return RESIGN
        if seat is not None and seat != self.turn:
            raise self._illegal("not_your_turn", f"it is seat {self.turn}'s turn", move)
        if kind in ("draw", "take"):
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
        else:
            done = self._discard(move)
        return done

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

    def _join_target(self, seat: int, meld: Meld) -> int | None:
        """The index of the seat's set that a new set of the same rank joins (R5.4)."""
        if meld.kind != "set":
            return None
        for i, m in enumerate(self.melds[seat]):
            if m.kind == "set" and m.rank == meld.rank:
                return i
        return None

    def _joins_ok(self, seat: int, meld: Meld) -> bool:
        target = self._join_target(seat, meld)
        if target is None:
            return True
        try:
            self.melds[seat][target].joined(meld)
        except InvalidMeld:
            return False
        return True

    def _place(self, move: Move, seat: int, meld: Meld) -> None:
        """Lay a new meld for ``seat``; a set joins the seat's set of its rank (R5.4)."""
        target = self._join_target(seat, meld)
        if target is None:
            self.melds[seat].append(meld)
        else:
            self.melds[seat][target] = self.melds[seat][target].joined(meld)

    def _check_join(self, move: Move, seat: int, meld: Meld) -> None:
        if not self._joins_ok(seat, meld):
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
        if self.hand_sizes[seat] - len(rest) < 1:
            raise self._illegal(
                "must_keep_card", "the take would use up every card in hand (R4.1)", move
            )
        hand = self.hands[seat]
        for c in rest:
            hand[c] -= 1
        self.discard.pop()
        self._place(move, seat, meld)
        for c in self.discard:
            hand[c] += 1
        self.hand_sizes[seat] += len(self.discard) - len(rest)
        self.discard = []
        self.phase = "play"
        return self._record(seat, Move("take", meld.cards, 0, None, _prefix(meld)))

    def _meld(self, move: Move) -> Move:
        self._need(move, move.cards)
        meld = self._build(move, move.cards)
        seat = self.turn
        self._check_join(move, seat, meld)
        if self.hand_sizes[seat] - len(move.cards) < 1:
            raise self._illegal("must_keep_card", "keep one card to discard (R4.2)", move)
        hand = self.hands[seat]
        for c in move.cards:
            hand[c] -= 1
        self.hand_sizes[seat] -= len(move.cards)
        self._place(move, seat, meld)
        return self._record(seat, Move("meld", meld.cards, 0, None, _prefix(meld)))

    def _own_meld(self, move: Move) -> Meld:
        melds = self.melds[self.turn]
        if move.meld > len(melds):
            have = f"you have {len(melds)}" if melds else "you have none yet"
            raise self._illegal("no_such_meld", f"no meld number {move.meld} ({have})", move)
        return melds[move.meld - 1]

    def _lay(self, move: Move) -> Move:
        card = move.cards[0]
        self._need(move, move.cards)
        meld = self._own_meld(move)
        try:
            new = meld.with_card(card, move.end)
        except InvalidMeld as e:
            raise self._illegal("invalid_meld", e.message, move) from None
        seat = self.turn
        if self.hand_sizes[seat] < 2:
            raise self._illegal("must_keep_card", "keep one card to discard (R4.2)", move)
        self.hands[seat][card] -= 1
        self.hand_sizes[seat] -= 1
        self.melds[seat][move.meld - 1] = new
        end = move.end if card == JOKER_CODE and meld.kind == "run" and move.end == "low" else None
        return self._record(seat, Move("lay", (card,), move.meld, end))

    def _swap(self, move: Move) -> Move:
        card = move.cards[0]
        self._need(move, move.cards)
        meld = self._own_meld(move)
        try:
            new = meld.with_swap(card)
        except InvalidMeld as e:
            raise self._illegal("invalid_meld", e.message, move) from None
        seat = self.turn
        if self.hand_sizes[seat] < 2:
            raise self._illegal("must_keep_card", "a swap may not use the last card (R4.2)", move)
        self.hands[seat][card] -= 1
        self.hand_sizes[seat] -= 1
        self.melds[seat][move.meld - 1] = new
        self.removed.append(JOKER)
        return self._record(seat, Move("swap", (card,), move.meld))

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
            self._finish("out", seat)
            return move
        self.discard.append(card)
        self.turn = (seat + 1) % self.rules.players
        self.phase = "draw"
        self.opened_at_turn_start = bool(self.melds[self.turn])
        if not self.stock and not self.can_take():
            self._finish("stock", None)  # R4.4
        return move

    def _finish(self, end: str, winner: int | None) -> None:
        """Score the round (R7) and add it to the totals (R7.4)."""
        doubled = end == "out" and self.rules.hand_out_double and not self.opened_at_turn_start
        scores = []
        for seat in range(self.rules.players):
            score = sum(m.points for m in self.melds[seat])
            if seat != winner:
                hand = self.hands[seat]
                score -= sum(POINTS[c] * hand[c] for c in range(53) if hand[c])
            scores.append(score * 2 if doubled else score)
        self.totals = [t + s for t, s in zip(self.totals, scores, strict=True)]
        self.outcome = Outcome(end, winner, tuple(scores), doubled)

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
        for meld in iter_melds(pool, max_len=limit, required=top):
            if self._joins_ok(seat, meld):
                yield meld

    # -- the game beyond one round (R8) ---------------------------------------------------------

    def game_over(self) -> bool:
        """After a finished round: resigned, or someone reached the goal with a lone lead (R8)."""
        if self.outcome is None:
            return False
        if self.outcome.end == "resign":
            return True
        best = max(self.totals)
        reached = best > GOAL if self.rules.strict_1000 else best >= GOAL
        return reached and self.totals.count(best) == 1

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

    def to_position(self) -> dict[str, Any]:
        from engine.position import to_position

        return to_position(self)

    @staticmethod
    def from_position(doc: Any) -> State:
        from engine.position import from_position

        return from_position(doc)

    def __repr__(self) -> str:
        return (
            f"<State round={self.round} turn={self.turn} phase={self.phase} "
            f"stock={len(self.stock)} outcome={self.outcome}>"
        )


def _prefix(meld: Meld) -> str | None:
    """The prefix F2 needs: only where a single natural leaves set or run open."""
    return meld.kind if sum(1 for c in meld.cards if c != JOKER_CODE) == 1 else None


__all__ = ["GOAL", "NotationError", "Outcome", "Rules", "State"]
