"""Bots are deterministic everywhere (R10): the same view gives the same move in another process
with another ``PYTHONHASHSEED`` (string hashing, set order) as in this one."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from engine.pikdame.bots import PLAIN_LEVELS as LEVELS  # the Meister: tests/bots/test_meister.py
from engine.pikdame.bots import choose_move
from engine.pikdame.state import State
from engine.pikdame.view import view
from tests.support.bot_positions import TAUSENDE, sample_states

ROOT = Path(__file__).resolve().parents[2]
CHILD = """
import json, sys
from engine.pikdame.bots import PLAIN_LEVELS as LEVELS  # the Meister: tests/bots/test_meister.py
from engine.pikdame.bots import choose_move
from engine.pikdame.state import State
from engine.pikdame.view import view
out = []
for doc in json.load(sys.stdin):
    state = State.from_position(doc)
    out.append([str(choose_move(level, view(state, state.turn))) for level in LEVELS])
print(json.dumps(out))
"""


def _positions() -> list[State]:
    mixed = ("zen", "beginner", "advanced", "zen")
    pikdame = [s for r in range(2) for s in sample_states(f"determinism/{r}", mixed, every=4)]
    tausende = sample_states("determinism/tausende", mixed, every=4, rules=TAUSENDE)  # R12
    return pikdame + tausende


def _moves_in_child(
    docs: list[dict[str, object]], hash_seed: str, python: str = sys.executable
) -> list[list[str]]:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [python, "-c", CHILD],
        input=json.dumps(docs),
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
        check=True,
    )
    result: list[list[str]] = json.loads(done.stdout)
    return result


def test_same_moves_in_other_processes_with_other_hash_seeds() -> None:
    """R10: two child processes (PYTHONHASHSEED 1 and 4242) agree with this process, move for
    move, for every level in every sampled position (read back from F5 documents)."""
    states = _positions()
    assert len(states) >= 30
    docs = [s.to_position() for s in states]
    here = [
        [str(choose_move(level, view(State.from_position(d), s.turn))) for level in LEVELS]
        for d, s in zip(docs, states, strict=True)
    ]
    for hash_seed in ("1", "4242"):
        assert _moves_in_child(docs, hash_seed) == here


def _other_pythons() -> list[str]:
    """Interpreters on this machine other than the test's own (the engine is stdlib only)."""
    here = os.path.realpath(sys.executable)
    found = []
    for path in ("/usr/bin/python3", "/usr/local/bin/python3"):
        if os.path.exists(path) and os.path.realpath(path) != here:
            found.append(path)
    return found


def test_same_moves_under_another_python_build() -> None:
    """R10 "on every machine": a different CPython build (the system's, when there is one; else
    a second run of this one) plays the same moves."""
    states = _positions()[:12]
    docs = [s.to_position() for s in states]
    here = [
        [str(choose_move(level, view(State.from_position(d), s.turn))) for level in LEVELS]
        for d, s in zip(docs, states, strict=True)
    ]
    for python in _other_pythons() or [sys.executable]:
        assert _moves_in_child(docs, "7", python) == here
