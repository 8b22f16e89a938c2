"""Layering: Gin builds on ``engine.core`` and itself only — never on another game's modules —
and its engine uses the standard library alone."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

GIN = Path(__file__).resolve().parents[2] / "engine" / "gin"
MODULES = sorted(p.relative_to(GIN).as_posix() for p in GIN.rglob("*.py"))


def imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), str(path))
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.append(node.module)
    return found


@pytest.mark.parametrize("name", MODULES)
def test_gin_imports_only_core_gin_and_the_standard_library(name: str) -> None:
    for module in imports(GIN / name):
        top = module.split(".")[0]
        if top == "engine":
            assert module.startswith(("engine.core", "engine.gin")), f"{name} imports {module}"
        else:
            assert top in sys.stdlib_module_names, f"{name} imports {module}"
