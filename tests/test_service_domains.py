"""The service is a house of domains (docs/ARCHITECTURE.md, "The service"): the daily challenges,
the tables, the accounts, the habit and the pages, each a package with its routes, beside the
web platform (``service.web``), what every domain shares (``service.common``) and the games'
adapters (``service.games``).

- No blueprint imports another: what two areas share lives in a module that is no blueprint.
- What the workers and the operator's command run is Flask-free: everything they import, all
  the way down, imports neither Flask nor the web platform.
- Only the app factory gathers the blueprints.
- The service's parts stand in one declared order (:data:`ORDER`): a part imports only itself
  and the parts before it, so no two parts import each other, the platform (``service.web``)
  imports no domain and never the app.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping

import pytest

from tests.support.imports import Graph, cycles, import_graph, modules

DOMAINS = ("accounts", "dailies", "events", "habit", "lobby", "pages", "tables")
#: Domains being built whose routes are not there yet. A domain leaves this list for DOMAINS with
#: its first blueprint (test_a_domain_being_built_has_no_routes_yet).
BUILDING: tuple[str, ...] = ()
PLATFORM = ("common", "games", "web")
#: The service's parts bottom-up, as docs/ARCHITECTURE.md lists them ("The service"): the errors,
#: the games' adapters, what every domain shares, the web platform, the domains, then what gathers
#: them (the metrics' scrape-time gauges, the backup, the reconciler, the processes' command
#: lines, the operator's command, the app factory, the publisher, ``make run``'s supervisor,
#: gunicorn's entry). Each imports only itself and those before it (lazy imports inside
#: functions too).
ORDER = (
    "errors",
    "games",
    "common",
    "web",
    "dailies",
    "events",
    "tables",
    "lobby",
    "pages",
    "habit",
    "accounts",
    "backlog",
    "backup",
    "reconcile",
    "commands",
    "cli",
    "app",
    "publish",
    "run",
    "wsgi",
)
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
    assert packages == {*DOMAINS, *BUILDING, *PLATFORM}, "a new service package: add it to the plan"


def part(module: str) -> str | None:
    """The part of the service a module belongs to (``service.dailies.store``: ``dailies``,
    ``service.errors``: ``errors``); None outside the service's parts."""
    parts = module.split(".")
    return parts[1] if parts[0] == "service" and len(parts) > 1 else None


def against_the_order(graph: Mapping[str, set[str]]) -> list[str]:
    """Every import of a part that comes later in :data:`ORDER` (or of a part not in it)."""
    wrong = []
    for source in sorted(graph):
        here = part(source)
        if here is None:
            continue
        for target in sorted(graph[source]):
            there = part(target)
            if there is None or there == here:
                continue
            if here not in ORDER or there not in ORDER or ORDER.index(there) > ORDER.index(here):
                wrong.append(f"{source} imports {target}")
    return wrong


def part_cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The parts that import each other, directly or around a ring (each ring sorted)."""
    edges: dict[str, set[str]] = {}
    for source, targets in graph.items():
        here = part(source)
        if here is not None:
            there = {p for t in targets if (p := part(t)) is not None and p != here}
            edges.setdefault(here, set()).update(there)
    return cycles(edges)


def test_every_part_is_in_the_order() -> None:
    found = {p for name in modules() if (p := part(name)) is not None}
    assert found == set(ORDER), "a new part of the service: give it its place in ORDER"
    assert {*DOMAINS, *BUILDING, *PLATFORM} <= set(ORDER)


def test_every_import_runs_down_the_order(graph: tuple[Graph, Graph]) -> None:
    ours, _ = graph
    assert against_the_order(ours) == []


def test_no_parts_import_each_other(graph: tuple[Graph, Graph]) -> None:
    ours, _ = graph
    assert part_cycles(ours) == []


def test_the_platform_imports_no_domain_and_never_the_app(graph: tuple[Graph, Graph]) -> None:
    ours, _ = graph
    above = set(ORDER[ORDER.index("web") + 1 :])
    wrong = [
        f"{source} imports {target}"
        for source in sorted(ours)
        if part(source) == "web"
        for target in sorted(ours[source])
        if part(target) in above
    ]
    assert wrong == []


def test_the_order_checks_find_what_they_look_for() -> None:
    ours: Graph = {
        "service.web.identity": {"service.accounts.store", "service.common.clock"},
        "service.accounts.store": {"service.dailies.store", "service.errors"},
        "service.dailies.store": {"service.accounts.names"},
        "service.habit.x": {"service.nowhere.y"},
        "worker.jobs": {"service.app"},
    }
    assert against_the_order(ours) == [
        "service.dailies.store imports service.accounts.names",
        "service.habit.x imports service.nowhere.y",
        "service.web.identity imports service.accounts.store",
    ]
    assert part_cycles(ours) == [["accounts", "dailies"]]


def test_every_domain_has_routes() -> None:
    bps = blueprints()
    for domain in DOMAINS:
        assert any(b.startswith(f"service.{domain}.") for b in bps), domain


def test_a_domain_being_built_has_no_routes_yet() -> None:
    """Once a domain in BUILDING has a blueprint, it moves to DOMAINS (and its routes' tests)."""
    bps = blueprints()
    for domain in BUILDING:
        assert not any(b.startswith(f"service.{domain}.") for b in bps), domain
        assert domain not in DOMAINS


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
