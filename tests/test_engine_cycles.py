"""The engines free what they make by reference counting alone: the verification worker replays
records all day, and a reference cycle made per call waits for the collector, whose scans cost
7.6 % of the CPU of 600 replays in one process while the optimiser made one cycle per call (under
2 % since; bench/results/notes/verify.md). The usual maker of such a cycle is a nested function
that calls itself (its closure cell holds it); none is left in ``engine/``. A replay making no
cycle at all is checked in tests/bots/test_replay_bots.py."""

from __future__ import annotations

import ast

import pytest

from tests.support.determinism import ENGINE, engine_sources

SOURCES = engine_sources(".", recursive=True)


def recursive_closures(source: str, name: str) -> list[str]:
    """Every nested function that names itself (a call to itself: a cycle through its cell)."""
    found = []
    for outer in ast.walk(ast.parse(source, name)):
        if not isinstance(outer, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for inner in ast.walk(outer):
            if inner is outer or not isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            names = {n.id for n in ast.walk(inner) if isinstance(n, ast.Name)}
            if inner.name in names:
                found.append(f"{name}:{inner.lineno} {outer.name}.{inner.name}")
    return found


def test_the_check_finds_a_recursive_closure() -> None:
    source = (
        "def f(n):\n    def walk(k):\n        return walk(k - 1) if k else 0\n    return walk(n)\n"
    )
    assert recursive_closures(source, "x.py") == ["x.py:2 f.walk"]


@pytest.mark.parametrize("name", SOURCES)
def test_no_engine_function_nests_a_function_that_calls_itself(name: str) -> None:
    assert recursive_closures((ENGINE / name).read_text(), name) == []
