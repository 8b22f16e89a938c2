"""A Gin match (GIN.md G2, G7): hands until a total reaches 100, the dealer rules, live play.

:class:`GinMatch` is Gin's counterpart of Pik Dame's ``Game``: the service plays a human's move
through :meth:`GinMatch.play` and every bot answers; the next hand is dealt as soon as one ends
(seat 1 deals first, the dealer alternates after a scored hand and deals again after a drawn one).
A *one-hand* match (``one_hand``, the week's tournament's deal, docs/EVENTS.md) ends when its first
hand does, whatever the hand's end (G6, G7), and its record says so (``rules``).
It holds the match seed (it deals every hand), so its storage form is server-side only.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any, Final

from engine.core.errors import FormatError, IllegalMoveError
from engine.core.live import NOT_DEFERRED, LivePlay
from engine.core.records import Seat, commitment, parse_seed
from engine.gin.bots import choose_move
from engine.gin.moves import Move
from engine.gin.record import read_record, write_record
from engine.gin.state import HandOutcome, HandState
from engine.gin.view import View, view

TARGET: Final = 100  # G2: the match ends after a scored hand that brings a total to ≥ 100
FIRST_DEALER: Final = 1  # G2: seat 1 deals the first hand
TIMER_LEVEL: Final = "strong"  # who finishes a human's turn when its time runs out


@dataclass(frozen=True)
class HandResult:
    """A finished hand: its number, dealer and outcome."""

    hand_no: int
    dealer: int
    outcome: HandOutcome

    def to_json(self) -> dict[str, Any]:
        return {"hand": self.hand_no, "dealer": self.dealer, **self.outcome.to_json()}


class GinMatch(LivePlay[Move]):
    """A match in play: seats, the (secret) seed, the current hand, finished hands, totals.
    Live play (a human's move, then the bots') is :class:`engine.core.live.LivePlay`'s."""

    __slots__ = (
        "_seed",
        "commitment",
        "moves",
        "one_hand",
        "over",
        "results",
        "seats",
        "state",
        "totals",
        "winner",
    )

    TIMER_LEVEL = TIMER_LEVEL
    seats: tuple[Seat, Seat]

    def __init__(self, seed: bytes, seats: tuple[Seat, Seat], one_hand: bool = False) -> None:
        if len(seats) != 2:
            raise FormatError("a Gin match has two seats (G2)", seats)
        self._seed = seed
        self.commitment = commitment(seed)
        self.seats = seats
        self.state = HandState.new(seed, 1, FIRST_DEALER)
        self.results: list[HandResult] = []
        self.totals = [0, 0]
        self.moves: list[tuple[int, str]] = []
        self.one_hand = one_hand
        #: the match is over; ``winner`` is its winner, None only for a one-hand match whose
        #: totals are equal (a wall, G7)
        self.over = False
        self.winner: int | None = None

    @staticmethod
    def start(
        seed: bytes,
        seats: tuple[Seat, Seat],
        one_hand: bool = False,
        defer: Collection[str] = NOT_DEFERRED,
    ) -> GinMatch:
        """Deal the first hand and let the bots move until a human must (or a bot of a ``defer``
        level: engine.core.live)."""
        match = GinMatch(seed, seats, one_hand)
        match.run_bots(defer)
        return match

    @property
    def finished(self) -> bool:
        return self.over

    @property
    def hand_no(self) -> int:
        return self.state.hand_no

    @property
    def round(self) -> int:
        """The hand being played (a table's round)."""
        return self.state.hand_no

    def to_move(self) -> int | None:
        """The seat whose move it is, or None once the match is over."""
        return None if self.finished else self.state.turn

    # -- play ----------------------------------------------------------------------------------

    def push(self, move: Move | str, seat: int) -> Move:
        """Apply one move by ``seat`` (bot or human); deal the next hand when one ends."""
        if self.finished:
            text = move if isinstance(move, str) else str(move)
            raise IllegalMoveError("round_over", f"{text}: the match is over", text)
        done = self.state.push(move, seat)
        self.moves.append((seat, str(done)))
        outcome = self.state.outcome
        if outcome is not None:
            self._finish_hand(outcome)
        return done

    def _finish_hand(self, outcome: HandOutcome) -> None:
        state = self.state
        self.results.append(HandResult(state.hand_no, state.dealer, outcome))
        if outcome.end == "resign":
            self.over, self.winner = True, outcome.winner
            return
        self.totals = [t + s for t, s in zip(self.totals, outcome.scores, strict=True)]
        if self.one_hand:  # the hand is the match, however it ended (a wall too: 0 to 0)
            a, b = self.totals
            self.over, self.winner = True, None if a == b else 0 if a > b else 1
            return
        if max(self.totals) >= TARGET:
            self.over, self.winner = True, 0 if self.totals[0] > self.totals[1] else 1
            return
        dealer = state.dealer if outcome.end == "wall" else 1 - state.dealer
        self.state = HandState.new(self._seed, state.hand_no + 1, dealer)

    # -- live play (engine.core.live): the moves, a bot's answer, where a turn ends ------------

    def _apply(self, move: Move | str, seat: int) -> Move:
        return self.push(move, seat)

    def _bot_move(self, level: str, seat: int) -> Move:
        return choose_move(level, self.view(seat))

    def _context(self) -> HandState:
        return self.state

    def _turn_mark(self) -> int:
        return self.state.hand_no  # a new hand is a new turn, even for the same seat

    def _ends_turn(self, done: Move) -> bool:
        return done.kind in ("discard", "knock", "defend")

    def view(self, seat: int) -> View:
        """What seat ``seat`` may know (never the other hand, the stock or the seed)."""
        return view(
            self.state,
            seat,
            (self.totals[0], self.totals[1]),
            tuple(r.outcome for r in self.results),
            self.winner,
        )

    def result_json(self) -> dict[str, Any] | None:
        """The match result: how it ended, the winner (null: a one-hand match drawn at the
        wall) and the final totals (None while on)."""
        if not self.over:
            return None
        resigned = bool(self.results) and self.results[-1].outcome.end == "resign"
        return {
            "end": "resign" if resigned else "score",
            "winner": self.winner,
            "totals": list(self.totals),
        }

    # -- documents -----------------------------------------------------------------------------

    def to_record(self, reveal_seed: bool = False) -> dict[str, Any]:
        """The match record ``gin-log/1`` (docs/GIN_FORMATS.md); the seed only when revealed."""
        return write_record(
            self.seats,
            self.commitment,
            self._seed if reveal_seed else None,
            self.moves,
            [r.to_json() for r in self.results],
            list(self.totals),
            self.result_json(),
            self.one_hand,
        )

    def to_json(self) -> dict[str, Any]:
        """Storage form (server side only: it holds the seed and every hidden card). ``history``
        is the running hand's moves: a position does not hold them, and the views (the bots'
        input: the other seat's discards) do."""
        return {
            "record": self.to_record(reveal_seed=True),
            "position": self.state.to_position(),
            "history": [[s, m] for s, m in self.state.history],
        }

    @staticmethod
    def from_json(data: Any) -> GinMatch:
        """Rebuild a match from :meth:`to_json` without replaying it (the service's storage)."""
        try:
            record, position = data["record"], data["position"]
            fields = read_record(record)
            match = GinMatch(parse_seed(fields.seeds["seed"]), fields.seats, fields.one_hand)
            match.state = HandState.from_position(position)
            # A match stored without its hand's history (the first storage form): those moves
            # are lost for good, the hand goes on without them.
            match.state.history = [(int(s), str(m)) for s, m in data.get("history", [])]
            match.moves = fields.moves
            match.results = [
                HandResult(
                    h["hand"],
                    h["dealer"],
                    HandOutcome.from_json(
                        {k: h[k] for k in ("end", "winner", "scores", "deadwood")}
                    ),
                )
                for h in record["hands"]
            ]
            totals = record["totals"]
            match.totals = [int(totals[0]), int(totals[1])]
            result = record["result"]
            match.over = result is not None
            winner = None if result is None else result["winner"]
            match.winner = None if winner is None else int(winner)
        except (KeyError, TypeError, IndexError, ValueError) as e:
            raise FormatError(f"a stored Gin match: {e!r}", data) from None
        return match


__all__ = ["FIRST_DEALER", "TARGET", "GinMatch", "HandResult", "Seat", "commitment"]
