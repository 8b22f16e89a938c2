"""Pik Dame follows the shape every game package shares (engine/core/game.py, in the spirit of
OpenSpiel's Game → State → observation): a game deals a state, the state lists and applies legal
moves and says whose turn it is, a seat sees only its view (R10)."""

from __future__ import annotations

import hashlib
from typing import Any, TypeVar

from engine import Rules
from engine.core.game import GameState, GameType, SeatView
from engine.pikdame.game import PIKDAME
from engine.pikdame.moves import Move

S = TypeVar("S", bound=GameState[Any])
V = TypeVar("V", bound=SeatView)


def _play_first_moves(game: GameType[Rules, S, V, Move], n: int) -> None:
    seed = hashlib.sha256(b"tests/pikdame/game_shape").digest()
    state = game.new_round(seed, Rules(players=3), 2)
    for _ in range(n):
        assert not state.finished
        view = game.view(state, state.turn)
        assert view.seat == state.turn
        assert "hand" in view.to_json()
        move = next(state.legal_moves())
        done = state.push(str(move), state.turn)
        assert str(done) == str(move)
        assert game.parse_move(str(done)) == done
    again = game.from_position(state.to_position())
    assert again.to_position() == state.to_position()


def test_pikdame_is_a_game_type() -> None:
    """R2–R4 through the shared shape: deal, view, legal moves, push, position round trip."""
    assert PIKDAME.name == "pikdame"
    _play_first_moves(PIKDAME, 12)
