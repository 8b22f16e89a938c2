"""R10 / the determinism bar: the bots and the optimiser interface use no randomness module, no
clock, no floats and no ``hash()`` in decisions, by the same source check as the engine core."""

from __future__ import annotations

import pytest

from tests.support.determinism import ENGINE, engine_sources, violations

SOURCES = engine_sources("pikdame/bots", "pikdame/optimiser")


@pytest.mark.parametrize("name", SOURCES)
def test_bot_source_is_deterministic(name: str) -> None:
    assert violations((ENGINE / name).read_text(), name) == []


def test_every_level_module_is_checked() -> None:
    assert {
        "pikdame/bots/beginner.py",
        "pikdame/bots/advanced.py",
        "pikdame/bots/zen.py",
        "pikdame/bots/planner.py",
        "pikdame/optimiser/__init__.py",
        "pikdame/optimiser/search.py",
        "pikdame/optimiser/solver.py",
    } <= set(SOURCES)
