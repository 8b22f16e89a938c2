"""Helpers for the Gin tests: hand-made positions and checked pushes.

A test writes its situation as card names; :func:`position` fills the stock with every unused
card (in id order), so all 52 cards are in play unless a test says otherwise. :func:`reject`
checks a move's G9 code and that nothing changed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from engine.core.errors import EngineError
from engine.gin.cards import NAMES, from_mask, to_mask
from engine.gin.state import HandState

# G1 points written out independently of engine.gin.cards.
RANK_POINTS = dict(zip("A23456789TJQK", [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10], strict=True))


def pts(cards: str) -> int:
    """G1: the points of the cards named (space separated), independent of the engine."""
    return sum(RANK_POINTS[c[0]] for c in cards.split())


def position(
    hand0: str,
    hand1: str,
    *,
    discard: str = "",
    stock: str | None = None,
    turn: int = 0,
    phase: str = "discard",
    dealer: int = 1,
    taken: str | None = None,
    must_draw: bool = False,
    takes: int = 0,
) -> dict[str, Any]:
    """A ``gin-position/1`` document; the stock defaults to every other card in id order."""
    used = set(hand0.split()) | set(hand1.split()) | set(discard.split())
    stock_cards = [n for n in NAMES if n not in used] if stock is None else stock.split()
    return {
        "format": "gin-position/1",
        "hand": 1,
        "dealer": dealer,
        "turn": turn,
        "phase": phase,
        "must_draw": must_draw,
        "hands": [hand0.split(), hand1.split()],
        "stock": stock_cards,
        "discard": discard.split(),
        "taken": taken,
        "took": [[taken] if taken and turn == 0 else [], [taken] if taken and turn == 1 else []],
        "takes": takes,
        "knock": None,
        "defence": None,
        "outcome": None,
    }


def state(hand0: str, hand1: str, **kwargs: Any) -> HandState:
    return HandState.from_position(position(hand0, hand1, **kwargs))


def snapshot(s: HandState) -> tuple[Any, ...]:
    return (s.to_position(), list(s.history))


def reject(s: HandState, move: str, code: str, seat: int | None = None) -> EngineError:
    """Push ``move``, expect the G9 ``code``, and check the state did not change."""
    before = snapshot(s)
    with pytest.raises(EngineError) as info:
        s.push(move, seat)
    assert info.value.code == code, info.value.message
    assert snapshot(s) == before
    return info.value


def play(s: HandState, moves: Sequence[str]) -> HandState:
    for m in moves:
        s.push(m)
    return s


def permuted(s: HandState, seat: int, rng: random.Random) -> HandState:
    """The same public situation with every hidden card moved to another hidden place."""
    other = 1 - seat
    unknown = from_mask(s.hands[other] & ~s.took[other])
    pool = unknown + list(s.stock)
    rng.shuffle(pool)
    t = s.copy()
    t.hands[other] = s.took[other] | to_mask(pool[: len(unknown)])
    t.stock = pool[len(unknown) :]
    return t
