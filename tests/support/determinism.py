"""The determinism bar as a source check (R10, F3): which constructs an engine module may not use.

No randomness module, no clock, no floats, no ``hash()`` outside ``__hash__``, no import beyond
the standard library's pure helpers and the engine itself.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ENGINE = Path(__file__).resolve().parents[2] / "engine"

ALLOWED_IMPORTS = {
    "__future__",
    "typing",
    "collections",
    "collections.abc",
    "dataclasses",
    "functools",
    "operator",  # mul for a dot product of points and counts; pure
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


def engine_sources(*folders: str, recursive: bool = False) -> list[str]:
    """The engine's Python files in ``folders`` (relative to engine/), as posix paths."""
    found: list[str] = []
    for folder in folders:
        pattern = "**/*.py" if recursive else "*.py"
        found.extend(p.relative_to(ENGINE).as_posix() for p in (ENGINE / folder).glob(pattern))
    return sorted(found)


# A bot's moves for positions, computed in a fresh interpreter (another hash seed, no PATH):
# the package's ``choose_move`` on each position's view of the seat to move.
_CHILD = """import json, sys
from {bots} import choose_move
from {state_module} import {state_class}
from {view_module} import view
{setup}
states = [{state_class}.from_position(d) for d in json.load(sys.stdin)]
print(json.dumps([str(choose_move({level!r}, view(s, s.turn))) for s in states]))
"""


def moves_in_another_process(
    level: str, docs: list[Any], *, bots: str, state: str, view_module: str, setup: str = ""
) -> list[str]:
    """``level``'s moves for the position documents ``docs`` in a child process with
    PYTHONHASHSEED 4242; ``state`` is ``module.Class`` of the game's state, ``setup`` a line run
    first (a smaller budget)."""
    state_module, _, state_class = state.rpartition(".")
    child = _CHILD.format(
        bots=bots,
        state_module=state_module,
        state_class=state_class,
        view_module=view_module,
        setup=setup,
        level=level,
    )
    out = subprocess.run(
        [sys.executable, "-c", child],
        input=json.dumps(docs),
        capture_output=True,
        text=True,
        cwd=ENGINE.parent,
        env={"PYTHONHASHSEED": "4242", "PATH": ""},
        check=True,
    )
    moves: list[str] = json.loads(out.stdout)
    return moves
