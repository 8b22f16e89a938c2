"""The house's layers hold (docs/ARCHITECTURE.md): every import of every module of
``engine``, ``service`` and ``worker`` (read from the source, lazy imports inside functions too)
runs downward, and no modules import each other in a cycle.

    engine.core  ←  engine.<game>  ←  engine (the facade, the CLI)  ←  service  ←  worker

No game package imports another game package or the facade above it; the engine imports no
Flask, Redis or RQ (it is pure Python, docs/ENGINE_API.md).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Mapping

import pytest

from tests.support.imports import ROOT, Graph, cycles, import_graph, imported, module_name

#: What the engine never imports: it is pure and knows nothing of the web or the queue.
ENGINE_FORBIDDEN = ("flask", "flask_limiter", "werkzeug", "jinja2", "redis", "rq", "gunicorn")
#: Known edges against the layers, each with the reason it is still here.
ALLOWED: set[tuple[str, str]] = set()


def layer(module: str) -> tuple[int, str]:
    """(height, owner): engine.core 0, a game 1 (its package the owner), the engine facade 2,
    service 3, worker 4. A module may import only its own owner's modules or lower layers."""
    parts = module.split(".")
    if parts[0] == "engine":
        if len(parts) > 1 and parts[1] == "core":
            return 0, "engine.core"
        if len(parts) > 2 or (len(parts) == 2 and ROOT.joinpath(*parts).is_dir()):
            return 1, f"engine.{parts[1]}"
        return 2, "engine"
    return (3, "service") if parts[0] == "service" else (4, "worker")


def violations(graph: Mapping[str, set[str]], foreign: Mapping[str, set[str]]) -> list[str]:
    found = []
    for source in sorted(graph):
        height, owner = layer(source)
        for target in sorted(graph[source]):
            t_height, t_owner = layer(target)
            if (source, target) in ALLOWED or t_owner == owner:
                continue
            if t_height >= height:
                found.append(f"{source} imports {target} (layer {t_height} from layer {height})")
        if source.split(".")[0] == "engine":
            bad = sorted(foreign[source] & set(ENGINE_FORBIDDEN))
            found.extend(f"{source} imports {b}: the engine stays pure" for b in bad)
    return found


@pytest.fixture(scope="module")
def graph() -> tuple[Graph, Graph]:
    return import_graph()


def test_the_walk_sees_the_packages(graph: tuple[Graph, Graph]) -> None:
    ours, _ = graph
    assert {"engine.core.cards", "engine.pikdame.state", "service.app", "worker.verify"} <= set(
        ours
    )
    assert "engine.pikdame.rules" in ours["engine.pikdame.state"]
    assert "service.reconcile" in ours["service.cli"]  # lazy imports inside functions count


def test_no_import_cycles(graph: tuple[Graph, Graph]) -> None:
    """E.g. a game's state and its position document would be one if the reader built the state:
    each game reads its document into a plain Position that the state takes."""
    ours, _ = graph
    assert cycles(ours) == []


def test_every_import_runs_down_the_layers(graph: tuple[Graph, Graph]) -> None:
    ours, foreign = graph
    assert violations(ours, foreign) == []


def test_the_engine_imports_only_itself_and_the_standard_library(
    graph: tuple[Graph, Graph],
) -> None:
    """Every engine package (engine.core, each game, the facade) imports nothing but engine.*
    and the standard library: the rules engine installs and runs with Python alone (was
    tests/gin/test_layers.py, now the rule for every game)."""
    _, foreign = graph
    wrong = [
        f"{source} imports {top}"
        for source in sorted(foreign)
        if source.split(".")[0] == "engine"
        for top in sorted(foreign[source])
        if top and top != "__future__" and top not in sys.stdlib_module_names
    ]
    assert wrong == []


def test_the_allowlist_is_still_needed(graph: tuple[Graph, Graph]) -> None:
    """An allowed edge that is gone must leave the list too, so the list cannot hide new ones."""
    ours, _ = graph
    assert all(target in ours.get(source, set()) for source, target in ALLOWED)


def test_the_checks_find_what_they_look_for() -> None:
    """The checker itself: a cycle, an upward import, a game importing another game, the engine
    importing redis and a game importing the facade are each reported."""
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    bad: Graph = {
        "engine.core.cards": {"engine.pikdame.cards"},
        "engine.pikdame.state": {"engine.cli", "engine.core.cards"},
        "engine.cli": {"service.app"},
        "service.app": {"worker.verify", "engine.cli"},
        "worker.verify": {"service.app"},
    }
    foreign: Graph = {name: set() for name in bad}
    foreign["engine.pikdame.state"] = {"redis"}
    found = violations(bad, foreign)
    assert any(f.startswith("engine.core.cards imports engine.pikdame.cards") for f in found)
    assert any(f.startswith("engine.pikdame.state imports engine.cli") for f in found)
    assert any(f.startswith("engine.cli imports service.app") for f in found)
    assert any(f.startswith("service.app imports worker.verify") for f in found)
    assert "engine.pikdame.state imports redis: the engine stays pure" in found
    assert len(found) == 5
    assert layer("engine.gin.state") == (1, "engine.gin")
    assert layer("engine.pikdame.bots.zen") == (1, "engine.pikdame")


#: Each game's modules bottom-up, as docs/ARCHITECTURE.md lists them: each imports only modules
#: before it (a package counts with everything inside it). Gin is split along Pik Dame's seams:
#: errors, rules' values, the position document below the state, the game type above its view.
GAME_ORDERS: dict[str, list[str]] = {
    "pikdame": [
        "cards",
        "errors",
        "melds",
        "meldgen",
        "moves",
        "rules",
        "deal",
        "position",
        "state",
        "tausende",
        "view",
        "optimiser",
        "bots",
        "hints",
        "version",
        "releases",
        "record",
        "game",
        "replay",
        "match",
        "daily",
        "belief",
        "analysis",
        "tournament",
        "cli",
    ],
    "gin": [
        "cards",
        "errors",
        "melds",
        "moves",
        "rules",
        "deal",
        "position",
        "state",
        "view",
        "bots",
        "record",
        "releases",
        "game",
        "match",
        "replay",
        "daily",
        "event",
        "belief",
        "analysis",
        "tournament",
        "cli",
    ],
}


def _game_part(game: str, module: str) -> str | None:
    parts = module.split(".")
    if parts[:2] != ["engine", game] or len(parts) < 3:
        return None
    return parts[2]


@pytest.mark.parametrize("game", sorted(GAME_ORDERS))
def test_a_games_modules_import_only_those_below_them(
    graph: tuple[Graph, Graph], game: str
) -> None:
    ours, _ = graph
    order = GAME_ORDERS[game]
    parts = {p for m in ours if (p := _game_part(game, m)) is not None}
    assert parts == set(order)
    wrong = []
    for source, targets in sorted(ours.items()):
        here = _game_part(game, source)
        if here is None:
            continue
        for target in sorted(targets):
            there = _game_part(game, target)
            if there is None or there == here:
                continue
            if order.index(there) > order.index(here):
                wrong.append(f"{source} imports {target}")
    assert wrong == []


#: Every test folder: shared helpers live in tests/support.
HELPER_CLEAN = tuple(
    sorted(p.name for p in (ROOT / "tests").iterdir() if p.is_dir() and p.name != "support")
)
#: A game kept under tests/ (issue 39's toy game, docs/ARCHITECTURE.md): a package whose modules
#: import each other as a game's do, and nothing else of tests/ but tests/support.
GAME_FOLDERS = ("toygame",)


def test_tests_import_no_test_module_and_no_conftest() -> None:
    """A test imports shared helpers from tests/support only: never another test module, a
    helper module beside the tests, or a conftest.py."""
    wrong = []
    for folder in HELPER_CLEAN:
        for path in sorted((ROOT / "tests" / folder).rglob("*.py")):
            name = module_name(path)
            tree = ast.parse(path.read_text(), str(path))
            for target in imported(tree, name, path.name == "__init__.py"):
                own = folder in GAME_FOLDERS and target.startswith(f"tests.{folder}.")
                if (
                    target.startswith("tests.")
                    and not target.startswith("tests.support")
                    and not own
                ):
                    wrong.append(f"{name} imports {target}")
    assert wrong == []
