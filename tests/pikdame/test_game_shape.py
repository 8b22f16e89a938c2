"""Pik Dame follows the shape every game package shares (engine/core/game.py, in the spirit of
OpenSpiel's Game → State → observation): a game deals a state, the state lists and applies legal
moves and says whose turn it is, a seat sees only its view (R10). Tausende (R12) is the same engine
under its own name and notation."""

from __future__ import annotations

import hashlib

from engine import Rules
from engine.pikdame.game import PIKDAME, TAUSENDE
from tests.support.game_shape import play_first_moves

SEED = hashlib.sha256(b"tests/pikdame/game_shape").digest()


def test_pikdame_is_a_game_type() -> None:
    """R2–R4 through the shared shape: deal, view, legal moves, push, position round trip."""
    assert PIKDAME.name == "pikdame"
    state = play_first_moves(PIKDAME, SEED, Rules(players=3), 2, 12)
    assert state.rules == Rules(players=3)
    assert state.players == 3


def test_tausende_is_a_game_type_whatever_rules_it_is_given() -> None:
    """R12.1: Tausende's game type deals Tausende even from Pik Dame's rules."""
    assert TAUSENDE.name == "tausende"
    state = play_first_moves(TAUSENDE, SEED, Rules(players=4), 0, 12)
    assert state.rules.tausende and state.players == 4
    assert state.to_position()["rules"]["ruleset"] == "tausende"
