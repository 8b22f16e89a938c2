"""R10 / the determinism bar: the bots and the optimiser interface use no randomness module, no
clock, no floats and no ``hash()`` in decisions, by the same source check as the engine core."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.engine.test_determinism import violations

ENGINE = Path(__file__).resolve().parents[2] / "engine"
SOURCES = sorted(p.relative_to(ENGINE).as_posix() for p in (ENGINE / "bots").glob("*.py"))


@pytest.mark.parametrize("name", [*SOURCES, "optimiser.py"])
def test_bot_source_is_deterministic(name: str) -> None:
    assert violations((ENGINE / name).read_text(), name) == []


def test_every_level_module_is_checked() -> None:
    assert {"bots/beginner.py", "bots/advanced.py", "bots/zen.py", "bots/planner.py"} <= set(
        SOURCES
    )
