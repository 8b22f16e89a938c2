"""Gin follows the shape every game package shares (engine/core/game.py, OpenSpiel's Game → State
→ observation), as Pik Dame does: a round is one hand (G3–G8), the state lists and applies legal
moves and says whose turn it is, a seat sees only its view (G9)."""

from __future__ import annotations

import hashlib

import pytest

from engine.core.errors import FormatError
from engine.gin.game import GIN
from engine.gin.state import HandState
from tests.support.game_shape import play_first_moves

SEED = hashlib.sha256(b"tests/gin/game_shape").digest()


@pytest.mark.parametrize(("hand", "dealer"), [(1, 1), (2, 0), (7, 1)])
def test_gin_is_a_game_type(hand: int, dealer: int) -> None:
    """G3–G5 through the shared shape: the hand's deal, views, legal moves, push, the position
    document's round trip. The hand number stands where Pik Dame's rules do (G3's S_h)."""
    assert GIN.name == "gin"
    state = play_first_moves(GIN, SEED, hand, dealer, 9)
    fresh = HandState.new(SEED, hand, dealer)
    assert (state.hand_no, state.dealer, state.players) == (hand, dealer, 2)
    assert GIN.new_round(SEED, hand, dealer).to_position() == fresh.to_position()
    assert len(state.history) == 9


def test_gin_rejects_what_its_state_rejects() -> None:
    """The game type adds nothing: a bad hand number or dealer is the deal's FormatError (G3),
    a bad document the position reader's."""
    with pytest.raises(FormatError):
        GIN.new_round(SEED, 0, 1)
    with pytest.raises(FormatError):
        GIN.new_round(SEED, 1, 2)
    with pytest.raises(FormatError):
        GIN.from_position({"format": "gin-position/1"})
