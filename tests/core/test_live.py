"""Live play written once (engine/core/live.py): a human's move, then every bot's until a human
must move (R10, G9), the turn timer's bot (R9), resign, and a one-seed match as a table's session
— shown on a toy game of two moves a turn (``draw``, then ``put``) that ends after ten turns."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from engine.core.errors import IllegalMoveError
from engine.core.live import Events, LivePlay, MatchSession
from engine.core.records import Seat

HUMAN = Seat("human", name="Ada")
BOT = Seat("bot", level="quick")


class Toy(LivePlay[str]):
    """Seats take turns of ``draw`` then ``put``; ten turns, or a resign, end the match."""

    TIMER_LEVEL = "timer"
    LAST_TURN: ClassVar[int] = 10

    def __init__(self, seats: tuple[Seat, ...]) -> None:
        self.seats = seats
        self.turns = 0
        self.drawn = False
        self.moves: Events = []
        self.resigned: int | None = None
        self.asked: list[tuple[str, int]] = []

    @property
    def finished(self) -> bool:
        return self.resigned is not None or self.turns == self.LAST_TURN

    @property
    def round(self) -> int:
        return 1

    def to_move(self) -> int | None:
        return None if self.finished else self.turns % len(self.seats)

    def _apply(self, move: str, seat: int) -> str:
        if self.finished or seat != self.to_move():
            raise IllegalMoveError("not_your_turn", f"not seat {seat}'s move", move)
        if move == "resign":
            self.resigned = seat
        elif move != ("put" if self.drawn else "draw"):
            raise IllegalMoveError("wrong_phase", f"{move} not now", move)
        elif move == "put":
            self.turns += 1
        self.drawn = move == "draw"
        self.moves.append((seat, move))
        return move

    def _bot_move(self, level: str, seat: int) -> str:
        self.asked.append((level, seat))
        return "put" if self.drawn else "draw"

    def to_json(self) -> dict[str, Any]:
        return {"moves": self.moves}


def test_a_human_move_then_every_bot_until_a_human_must_move() -> None:
    toy = Toy((HUMAN, BOT, BOT))
    assert toy.play("draw", 0) == [(0, "draw")]  # still the human's turn: no bot moves
    events = toy.play("put", 0)
    assert events == [(0, "put"), (1, "draw"), (1, "put"), (2, "draw"), (2, "put")]
    assert toy.asked == [("quick", 1), ("quick", 1), ("quick", 2), ("quick", 2)]
    assert toy.to_move() == 0


def test_a_bot_seat_and_no_seat_are_refused_changing_nothing() -> None:
    toy = Toy((HUMAN, BOT))
    for seat in (1, 2, -1):
        with pytest.raises(IllegalMoveError) as info:
            toy.play("draw", seat)
        assert info.value.code == "not_your_turn"
    assert toy.moves == []


def test_bots_alone_play_to_the_end() -> None:
    toy = Toy((BOT, BOT))
    assert len(toy.run_bots()) == 2 * Toy.LAST_TURN and toy.finished
    assert toy.run_bots() == []


def test_the_timer_finishes_the_human_turn_then_the_bots_answer() -> None:
    toy = Toy((HUMAN, BOT))
    toy.play("draw", 0)
    events = toy.autoplay_turn(0)
    assert events == [(0, "put"), (1, "draw"), (1, "put")]
    assert toy.asked[0] == ("timer", 0)
    with pytest.raises(IllegalMoveError) as info:
        toy.autoplay_turn(1)
    assert info.value.code == "not_your_turn"


def test_a_turn_ends_where_the_game_says() -> None:
    """A game can end a timed-out turn at a move even if the seat moves next (Gin's discard)."""

    class DrawEnds(Toy):
        def _ends_turn(self, done: str) -> bool:
            return done == "draw"

    toy = DrawEnds((HUMAN, HUMAN))
    assert toy.autoplay_turn(0) == [(0, "draw")]


def test_a_new_turn_mark_ends_a_timed_out_turn() -> None:
    """Two humans, one seat: every turn is the same seat's; a new mark (Gin: a new hand) ends it."""

    class Marked(Toy):
        def _turn_mark(self) -> object:
            return self.turns

    toy = Marked((HUMAN,))
    assert toy.autoplay_turn(0) == [(0, "draw"), (0, "put")]


def test_resign_ends_play_and_no_bot_answers() -> None:
    toy = Toy((HUMAN, BOT))
    assert toy.resign(0) == [(0, "resign")]
    assert toy.finished and toy.to_move() is None and toy.run_bots() == []


def test_a_one_seed_match_as_a_session() -> None:
    def no_seed() -> bytes:
        raise AssertionError("a one-seed match draws no seed")

    session = MatchSession(Toy((HUMAN, BOT)))
    assert (session.seq, session.turn, session.round, session.finished) == (0, 0, 1, False)
    session.play("draw", 0, no_seed)
    assert session.play("put", 0, no_seed) == [(0, "put"), (1, "draw"), (1, "put")]
    assert session.seq == 4 and session.turn == 0
    assert session.autoplay_turn(0, no_seed)[:2] == [(0, "draw"), (0, "put")]
    with pytest.raises(IllegalMoveError) as info:
        session.set_level(1, "slow")
    assert (info.value.code, info.value.message) == ("bad_value", MatchSession.LEVEL_KEPT)
    assert session.resign(0) == [(0, "resign")] and session.finished
    assert session.to_json() == {"moves": session.match.moves}
