"""Bots are blind to hidden cards (R10): dealing the unseen cards anew (other hands, the stock's
order) never changes a bot's move, and a bot keeps no memory between calls that could."""

from __future__ import annotations

import pytest

from engine.pikdame.bots import PLAIN_LEVELS as LEVELS  # the Meister: tests/bots/test_meister.py
from engine.pikdame.bots import choose_move
from engine.pikdame.view import view
from tests.support.bot_positions import TAUSENDE, permute_hidden, sample_states

MIXED = ("zen", "advanced", "beginner", "zen")


@pytest.mark.parametrize("level", LEVELS)
def test_permuted_hidden_cards_never_change_the_move(level: str) -> None:
    """R10: for many positions of real rounds, two other hidden worlds give the same move."""
    checked = changed = 0
    for r in range(3):
        for state in sample_states(f"blind/{level}/{r}", MIXED, every=3):
            seat = state.turn
            move = choose_move(level, view(state, seat))
            for k in range(2):
                other = permute_hidden(state, f"{level}/{r}/{k}")
                changed += other.hands != state.hands or other.stock != state.stock
                assert other.card_count() == state.card_count()  # R1: 110 cards kept
                assert view(other, seat) == view(state, seat)
                assert choose_move(level, view(other, seat)) == move
            checked += 1
    assert checked >= 40
    assert changed >= checked  # the hidden worlds really differ (not a vacuous test)


@pytest.mark.parametrize("level", LEVELS)
def test_tausende_permuted_hidden_cards_never_change_the_move(level: str) -> None:
    """R10 under Tausende (R12): the ruleset's bots are as blind as Pik Dame's."""
    checked = 0
    for r in range(2):
        for state in sample_states(f"blind/tausende/{level}/{r}", MIXED, 3, TAUSENDE):
            seat = state.turn
            move = choose_move(level, view(state, seat))
            other = permute_hidden(state, f"tausende/{level}/{r}")
            assert other.card_count() == state.card_count() == 108  # R12.1
            assert view(other, seat) == view(state, seat)
            assert choose_move(level, view(other, seat)) == move
            checked += 1
    assert checked >= 20


def test_moves_do_not_depend_on_call_order() -> None:
    """R10: a bot is a pure function of the view: asked in reverse order (warm caches, other
    positions in between), every bot gives the same move for every position."""
    states = sample_states("blind/order", MIXED, every=2)
    views = [view(s, s.turn) for s in states]
    forward = {level: [choose_move(level, v) for v in views] for level in LEVELS}
    for level in reversed(LEVELS):
        backward = [choose_move(level, v) for v in reversed(views)]
        assert backward[::-1] == forward[level]
