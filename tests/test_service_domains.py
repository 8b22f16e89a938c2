"""The service is a house of domains (docs/ARCHITECTURE.md, "The service"): the daily challenges,
the tables, the accounts, the habit and the pages, each a package with its routes, beside the
web platform (``service.web``), what every domain shares (``service.common``) and the games'
adapters (``service.games``).

- No blueprint imports another: what two areas share lives in a module that is no blueprint.
- What the workers and the operator's command run is Flask-free: everything they import, all
  the way down, imports neither Flask nor the web platform.
- Only the app factory gathers the blueprints.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping

import pytest

from tests.support.imports import Graph, import_graph, modules

DOMAINS = ("accounts", "dailies", "habit", "pages", "tables")
PLATFORM = ("common", "games", "web")
#: Foreign packages that mean "inside a web request".
WEB = frozenset({"flask", "flask_openapi3", "flask_limiter", "werkzeug", "jinja2"})
#: Where the processes without a web request begin: the RQ jobs and the operator's command.
OFFLINE_ROOTS = ("worker", "service.cli", "service.reconcile")


def blueprints() -> set[str]:
    """Modules that define a blueprint (``bp = ...`` at module level)."""
    found = set()
    for name, path in modules().items():
        tree = ast.parse(path.read_text(), str(path))
        for node in tree.body:
            targets = node.targets if isinstance(node, ast.Assign) else []
            if any(isinstance(t, ast.Name) and t.id == "bp" for t in targets):
                found.add(name)
    return found


def closure(graph: Mapping[str, set[str]], roots: Iterable[str]) -> set[str]:
    seen: set[str] = set()
    todo = [m for m in graph if any(m == r or m.startswith(r + ".") for r in roots)]
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            todo.extend(graph.get(m, ()))
    return seen


def web_modules(graph: Mapping[str, set[str]], foreign: Mapping[str, set[str]]) -> set[str]:
    """Modules inside a web request: they import a web package or the web platform."""
    return {
        m
        for m in graph
        if foreign.get(m, set()) & WEB or m == "service.web" or m.startswith("service.web.")
    }


@pytest.fixture(scope="module")
def graph() -> tuple[Graph, Graph]:
    return import_graph()


def test_the_service_is_its_domains_and_platform() -> None:
    packages = {
        n.split(".")[1] for n in modules() if n.startswith("service.") and n.count(".") >= 2
    }
    assert packages == {*DOMAINS, *PLATFORM}, "a new service package: add it to the plan"


def test_every_domain_has_routes() -> None:
    bps = blueprints()
    for domain in DOMAINS:
        assert any(b.startswith(f"service.{domain}.") for b in bps), domain


def test_no_blueprint_imports_another(graph: tuple[Graph, Graph]) -> None:
    ours, _ = graph
    bps = blueprints()
    wrong = [
        f"{source} imports {target}"
        for source in sorted(bps)
        for target in sorted(ours[source] & bps)
    ]
    assert wrong == []


def test_only_the_app_factory_gathers_blueprints(graph: tuple[Graph, Graph]) -> None:
    ours, _ = graph
    bps = blueprints()
    wrong = [
        f"{source} imports {target}"
        for source in sorted(ours)
        if source not in bps and source != "service.app"
        for target in sorted(ours[source] & bps)
    ]
    assert wrong == []


def test_what_the_workers_and_the_cli_run_is_flask_free(graph: tuple[Graph, Graph]) -> None:
    ours, foreign = graph
    reached = closure(ours, OFFLINE_ROOTS)
    assert "service.dailies.store" in reached and "service.tables.store" in reached
    assert sorted(reached & web_modules(ours, foreign)) == []


def test_the_shared_packages_are_flask_free(graph: tuple[Graph, Graph]) -> None:
    ours, foreign = graph
    shared = closure(ours, ("service.common", "service.games"))
    assert sorted(shared & web_modules(ours, foreign)) == []


def test_the_checks_find_what_they_look_for() -> None:
    ours: Graph = {
        "worker.jobs": {"service.dailies.store"},
        "service.dailies.store": {"service.web.limits"},
        "service.web.limits": set(),
        "service.habit.x": set(),
    }
    foreign: Graph = {"service.habit.x": {"flask"}}
    assert closure(ours, ("worker",)) == {
        "worker.jobs",
        "service.dailies.store",
        "service.web.limits",
    }
    assert web_modules(ours, foreign) == {"service.web.limits", "service.habit.x"}


def exception_classes() -> dict[str, list[str]]:
    """Every class of service and worker that derives from an exception, by its module."""
    found: dict[str, list[str]] = {}
    for name, path in modules().items():
        if not name.startswith(("service", "worker")):
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ClassDef) and any(
                isinstance(b, ast.Name) and (b.id.endswith(("Error", "Exception")))
                for b in node.bases
            ):
                found.setdefault(name, []).append(node.name)
    return found


def test_every_exception_lives_in_one_module() -> None:
    """As rq keeps its own: one module, one class per meaning (no two classes share a name)."""
    found = exception_classes()
    assert set(found) == {"service.errors"}, found
    names = found["service.errors"]
    assert len(names) == len(set(names))
