"""Determinism (the product owner's bar, R10, F3): the engine core uses no randomness module, no
clock, no floats, no ``hash()`` outside ``__hash__``; the same inputs give the same outputs."""

from __future__ import annotations

import ast
import hashlib
import random

import pytest

from engine import Rules, State
from tests.support.determinism import ENGINE, engine_sources, violations
from tests.support.pikdame import choose

#: The command-line tools beside the rules: they parse argv, read standard input and time bot
#: decisions for their reports (tournament), so they are exempt; nothing under the rules imports
#: them (test_no_rules_module_imports_a_tool). ``core/commandline.py`` is every game's CLI plumbing.
TOOLS = {"core/commandline.py", "pikdame/cli.py", "pikdame/tournament.py"}
RULES = [name for name in engine_sources("core", "pikdame") if name not in TOOLS]


@pytest.mark.parametrize("name", RULES)
def test_rules_module_is_deterministic(name: str) -> None:
    assert violations((ENGINE / name).read_text(), name) == []


def test_every_rules_module_is_checked() -> None:
    """The shared core and every Pik Dame rules module (the bots and the optimiser are checked in
    tests/bots/test_bot_sources.py)."""
    core = ("cards", "deadwood", "errors", "game", "live", "melds", "records", "rng", "standard")
    expected = {f"core/{m}.py" for m in core} | {
        f"pikdame/{m}.py"
        for m in (
            "cards",
            "daily",
            "deal",
            "errors",
            "game",
            "meldgen",
            "melds",
            "moves",
            "position",
            "record",
            "replay",
            "rules",
            "state",
            "version",
            "view",
        )
    }
    assert expected <= set(RULES)
    assert all((ENGINE / tool).exists() for tool in TOOLS)


def test_no_rules_module_imports_a_tool() -> None:
    """The exemption above holds only while the rules never reach the tools."""
    tools = {"engine." + t.removesuffix(".py").replace("/", ".") for t in TOOLS}
    wrong: list[str] = []
    for name in RULES:
        tree = ast.parse((ENGINE / name).read_text(), name)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                targets = {node.module, *(f"{node.module}.{a.name}" for a in node.names)}
            elif isinstance(node, ast.Import):
                targets = {a.name for a in node.names}
            else:
                continue
            wrong.extend(f"{name} imports {t}" for t in sorted(targets & tools))
    assert wrong == []


def test_the_checker_finds_violations() -> None:
    bad = """
import random
from time import time
import datetime
x = 0.5
y = 3 / 2
z = float("1")
d = datetime.datetime.now()
h = hash("QS")
class M:
    def __hash__(self) -> int:
        return hash((1, 2))
"""
    found = violations(bad)
    assert len(found) == 7, found
    assert not any("hash" in f and ":12" in f for f in found)


def test_same_seed_same_game_twice() -> None:
    """Two independent runs of the same seed and move choices produce identical positions."""
    seed = hashlib.sha256(b"determinism").digest()
    finals = []
    for _ in range(2):
        rng = random.Random(42)
        s = State.new_round(seed, Rules(players=4), 3)
        while s.outcome is None:
            s.push(choose(s, rng))
        finals.append((s.to_position(), list(s.history)))
    assert finals[0] == finals[1]


def test_legal_moves_order_is_stable() -> None:
    """legal_moves yields the same moves in the same order for equal states (no set order)."""
    seed = hashlib.sha256(b"order").digest()
    s = State.new_round(seed, Rules(players=3), 0)
    rng = random.Random(1)
    for _ in range(40):
        if s.outcome is not None:
            break
        copy = State.from_position(s.to_position())
        assert [str(m) for m in s.legal_moves()] == [str(m) for m in copy.legal_moves()]
        s.push(choose(s, rng))
