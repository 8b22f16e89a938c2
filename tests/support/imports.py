"""Our own modules and the imports between them, read from the source (lazy imports inside
functions too): the layer tests' one reader of the house's plan."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "service", "worker")

Graph = dict[str, set[str]]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            found[module_name(path)] = path
    return found


def imported(tree: ast.AST, name: str, is_package: bool) -> Iterable[str]:
    """Every module name an import statement of module ``name`` names (relative ones resolved;
    ``from m import x`` names ``m.x`` when that is a module, else ``m``)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                here = name.split(".") if is_package else name.split(".")[:-1]
                here = here[: len(here) - (node.level - 1)]
                base = ".".join([*here, base] if base else here)
            yield base
            yield from (f"{base}.{a.name}" for a in node.names)


def import_graph() -> tuple[Graph, Graph]:
    """(edges between our modules, every top-level foreign package each module imports)."""
    found = modules()
    ours: Graph = {}
    foreign: Graph = {}
    for name, path in found.items():
        tree = ast.parse(path.read_text(), str(path))
        ours[name] = set()
        foreign[name] = set()
        for target in imported(tree, name, path.name == "__init__.py"):
            top = target.split(".")[0]
            if top not in PACKAGES:
                foreign[name].add(top)
            elif target in found:
                ours[name].add(target)
        # `from engine.pikdame import bots` names both the package and its submodule: keep the
        # most specific (the package itself is only imported on the way).
        ours[name] -= {t for t in ours[name] if any(o.startswith(t + ".") for o in ours[name])}
        ours[name].discard(name)
    return ours, foreign


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found
