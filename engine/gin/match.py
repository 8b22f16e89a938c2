"""A Gin match (GIN.md G2, G7): hands until a total reaches 100, the dealer rules, live play.

:class:`GinMatch` is Gin's counterpart of Pik Dame's ``Game``: the service plays a human's move
through :meth:`GinMatch.play` and every bot answers; the next hand is dealt as soon as one ends
(seat 1 deals first, the dealer alternates after a scored hand and deals again after a drawn one).
It holds the match seed (it deals every hand), so its storage form is server-side only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from engine.core.errors import FormatError, IllegalMoveError
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


class GinMatch:
    """A match in play: seats, the (secret) seed, the current hand, finished hands, totals."""

    __slots__ = ("_seed", "commitment", "moves", "results", "seats", "state", "totals", "winner")

    def __init__(self, seed: bytes, seats: tuple[Seat, Seat]) -> None:
        if len(seats) != 2:
            raise FormatError("a Gin match has two seats (G2)", seats)
        self._seed = seed
        self.commitment = commitment(seed)
        self.seats = seats
        self.state = HandState.new(seed, 1, FIRST_DEALER)
        self.results: list[HandResult] = []
        self.totals = [0, 0]
        self.moves: list[tuple[int, str]] = []
        self.winner: int | None = None

    @staticmethod
    def start(seed: bytes, seats: tuple[Seat, Seat]) -> GinMatch:
        """Deal the first hand and let the bots move until a human must."""
        match = GinMatch(seed, seats)
        match.run_bots()
        return match

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def hand_no(self) -> int:
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
            self.winner = outcome.winner
            return
        self.totals = [t + s for t, s in zip(self.totals, outcome.scores, strict=True)]
        if max(self.totals) >= TARGET:
            self.winner = 0 if self.totals[0] > self.totals[1] else 1
            return
        dealer = state.dealer if outcome.end == "wall" else 1 - state.dealer
        self.state = HandState.new(self._seed, state.hand_no + 1, dealer)

    def play(self, move: Move | str, seat: int) -> list[tuple[int, str]]:
        """A human's move, then every bot move until a human must move or the match ends.

        Returns every move made, the human's first. Raises on an illegal move, changing nothing.
        """
        if not 0 <= seat < 2 or self.seats[seat].kind != "human":
            raise IllegalMoveError(
                "not_your_turn", f"seat {seat} is not a human seat", str(move), self.state
            )
        done = self.push(move, seat)
        return [(seat, str(done)), *self.run_bots()]

    def autoplay_turn(self, seat: int) -> list[tuple[int, str]]:
        """The turn timer: the ``strong`` bot finishes seat ``seat``'s turn (its moves are
        ordinary moves of the record), then the bots answer."""
        state = self.state
        if self.finished or state.turn != seat:
            raise IllegalMoveError("not_your_turn", f"it is not seat {seat}'s turn", None, state)
        events: list[tuple[int, str]] = []
        hand_no = state.hand_no
        while not self.finished and self.state.hand_no == hand_no and self.state.turn == seat:
            done = self.push(choose_move(TIMER_LEVEL, self.view(seat)), seat)
            events.append((seat, str(done)))
            if done.kind in ("discard", "knock", "defend"):
                break
        return events + self.run_bots()

    def run_bots(self) -> list[tuple[int, str]]:
        events: list[tuple[int, str]] = []
        while not self.finished and self.seats[self.state.turn].kind == "bot":
            seat = self.state.turn
            level = self.seats[seat].level
            assert level is not None
            done = self.push(choose_move(level, self.view(seat)), seat)
            events.append((seat, str(done)))
        return events

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
        """The match result: how it ended, the winner and the final totals (None while on)."""
        if self.winner is None:
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
            match = GinMatch(parse_seed(fields.seeds["seed"]), fields.seats)
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
            match.winner = None if result is None else int(result["winner"])
        except (KeyError, TypeError, IndexError, ValueError) as e:
            raise FormatError(f"a stored Gin match: {e!r}", data) from None
        return match


__all__ = ["FIRST_DEALER", "TARGET", "GinMatch", "HandResult", "Seat", "commitment"]
