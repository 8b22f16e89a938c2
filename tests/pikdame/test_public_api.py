"""Everything importable from ``engine`` before the packages split stays importable, and the
module paths docs/ENGINE_API.md documented still answer, with a DeprecationWarning naming the new
path."""

from __future__ import annotations

import importlib

import pytest

import engine

#: ``engine.__all__`` before the split into engine.core and engine.pikdame.
_OLD_ALL = """
CARDS DAILY_DEALER DAILY_RULES ENGINE_VERSION JOKER QUEEN_OF_SPADES Card FormatError Game
IllegalMoveError Meld Move NotationError Outcome PikDameError ReplayError Rules Seat State View
commitment daily_game daily_seats daily_seed deal replay view
"""
NAMES = _OLD_ALL.split()


def test_every_old_name_is_importable_from_engine() -> None:
    assert set(NAMES) <= set(engine.__all__)
    for name in NAMES:
        assert getattr(engine, name) is getattr(importlib.import_module("engine.pikdame"), name)


@pytest.mark.parametrize(
    ("old", "new", "name"),
    [
        ("engine.bots", "engine.pikdame.bots", "choose_move"),
        ("engine.bots", "engine.pikdame.bots", "LEVELS"),
        ("engine.bots", "engine.pikdame.bots", "BOTS_VERSION"),
        ("engine.optimiser", "engine.pikdame.optimiser", "best_arrangement"),
        ("engine.optimiser", "engine.pikdame.optimiser", "Arrangement"),
        ("engine.tournament", "engine.pikdame.tournament", "main"),
    ],
)
def test_documented_old_paths_forward_with_a_warning(old: str, new: str, name: str) -> None:
    with pytest.warns(
        DeprecationWarning, match=f"{old}.{name} is deprecated: import it from {new}"
    ):
        value = getattr(importlib.import_module(old), name)
    assert value is getattr(importlib.import_module(new), name)


def test_an_unknown_name_on_an_old_path_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        getattr(importlib.import_module("engine.bots"), "nothing")  # noqa: B009
