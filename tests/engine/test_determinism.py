"""Determinism (the product owner's bar, R10, F3): the engine core uses no randomness module, no
clock, no floats, no ``hash()`` outside ``__hash__``; the same inputs give the same outputs."""

from __future__ import annotations

import ast
import hashlib
import random
from pathlib import Path

import pytest

from engine import Rules, State
from tests.engine.helpers import choose

ENGINE = Path(__file__).resolve().parents[2] / "engine"
CORE = [
    "cards.py",
    "melds.py",
    "moves.py",
    "meldgen.py",
    "state.py",
    "deal.py",
    "view.py",
    "position.py",
    "game.py",
    "daily.py",
    "errors.py",
]
ALLOWED_IMPORTS = {
    "__future__",
    "typing",
    "collections",
    "collections.abc",
    "dataclasses",
    "functools",
    "hashlib",
    "hmac",
    "json",
    "datetime",  # daily.py validates YYYY-MM-DD with date.fromisoformat; no clock is read
}
CLOCK_CALLS = {"now", "today", "utcnow", "time", "monotonic", "perf_counter", "time_ns"}


def violations(source: str, name: str = "<src>") -> list[str]:
    """Every non-deterministic construct in ``source``: foreign imports, float literals, float(),
    true division, clock calls, hash() outside __hash__."""
    tree = ast.parse(source, name)
    found: list[str] = []
    hash_allowed: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == "__hash__":
            hash_allowed.update(id(n) for n in ast.walk(node))
    for node in ast.walk(tree):
        where = f"{name}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Import):
            found.extend(
                f"{where} import {a.name}" for a in node.names if a.name not in ALLOWED_IMPORTS
            )
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if module not in ALLOWED_IMPORTS and module.split(".")[0] != "engine":
                found.append(f"{where} from {module} import")
        elif isinstance(node, ast.Constant) and isinstance(node.value, float):
            found.append(f"{where} float literal")
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            found.append(f"{where} true division")
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if called == "float":
                found.append(f"{where} float()")
            if called in CLOCK_CALLS:
                found.append(f"{where} clock {called}()")
            if called == "hash" and id(node) not in hash_allowed:
                found.append(f"{where} hash() in a decision")
    return found


@pytest.mark.parametrize("name", CORE)
def test_core_module_is_deterministic(name: str) -> None:
    assert violations((ENGINE / name).read_text(), name) == []


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
