"""The shape every game package shares (engine/core/game.py), played through: a game deals a
state, the state lists and applies legal moves and says whose turn it is, a seat sees only its
view, and a position document reads back to the same state."""

from __future__ import annotations

from typing import Any, TypeVar

from engine.core.game import GameState, GameType, SeatView

R = TypeVar("R")
S = TypeVar("S", bound=GameState[Any])
V = TypeVar("V", bound=SeatView)
M = TypeVar("M")


def play_first_moves(game: GameType[R, S, V, M], seed: bytes, rules: R, dealer: int, n: int) -> S:
    """Deal, then play the first legal move ``n`` times, each through the game's notation; every
    seat to move sees its own view; the position then reads back to the same document."""
    state = game.new_round(seed, rules, dealer)
    for _ in range(n):
        assert not state.finished
        seat = state.turn
        view = game.view(state, seat)
        assert view.seat == seat
        assert "hand" in view.to_json()
        move = next(iter(state.legal_moves()))
        done = state.push(str(move), seat)
        assert str(done) == str(move)
        assert game.parse_move(str(done)) == done
    again = game.from_position(state.to_position())
    assert again.to_position() == state.to_position()
    assert (again.turn, again.finished, again.players) == (
        state.turn,
        state.finished,
        state.players,
    )
    return state


__all__ = ["play_first_moves"]
