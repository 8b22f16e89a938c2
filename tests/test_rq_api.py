"""The workers build on RQ's public API (issue 39): worker/steady.py and worker/analysis.py
override public methods of RQ's Worker and RQScheduler only, each with RQ's own signature, and
touch one private attribute of RQ's, ``Worker._horse_pid`` (SteadyWorker.fail_unfinished says
why). An RQ release that renames, drops or reshapes any of it fails here, in milliseconds, before
a worker test could pass or fail by luck (tests/test_lock.py keeps the installed RQ in range).
"""

from __future__ import annotations

import ast
import inspect
from typing import Any

import redis
from rq import Worker
from rq.scheduler import RQScheduler

from tests.support.imports import ROOT
from worker.analysis import AnalysisWorker
from worker.steady import SteadyWorker, TimerScheduler

OURS: dict[type, type] = {SteadyWorker: Worker, AnalysisWorker: Worker, TimerScheduler: RQScheduler}
# Each private attribute of RQ's the workers touch, and why no public API does instead.
PRIVATE = {"_horse_pid": "a forking worker forgets its horse after an outage (read-only horse_pid)"}
PASS_THROUGH = [("self", "POSITIONAL_OR_KEYWORD"), ("args", "VAR_POSITIONAL")]
PASS_THROUGH += [("kwargs", "VAR_KEYWORD")]


def private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def shape(function: Any) -> list[tuple[str, str, object]]:
    """Each parameter's name, kind and default (annotations aside)."""
    parameters = inspect.signature(function).parameters.values()
    return [(p.name, p.kind.name, p.default) for p in parameters]


def test_no_worker_class_overrides_or_defines_a_private_method() -> None:
    wrong = [f"{cls.__name__}.{name}" for cls in OURS for name in vars(cls) if private(name)]
    assert wrong == []


def test_each_override_has_rqs_signature() -> None:
    """Same parameters, kinds and defaults as RQ's method (or ``*args, **kwargs`` handed on);
    a property stays a property."""
    wrong = []
    for cls, base in OURS.items():
        for name, ours in vars(cls).items():
            rqs = inspect.getattr_static(base, name, None)
            if rqs is None or name.startswith("__"):
                continue  # the worker's own
            if isinstance(rqs, property) or isinstance(ours, property):
                if not (isinstance(rqs, property) and isinstance(ours, property)):
                    wrong.append(f"{cls.__name__}.{name}: property in one of them only")
                continue
            mine = [(n, k) for n, k, _ in shape(ours)]
            if mine != PASS_THROUGH and shape(ours) != shape(rqs):
                wrong.append(f"{cls.__name__}.{name}{inspect.signature(rqs)} in RQ")
    assert wrong == []


def private_attributes(source: str) -> set[str]:
    """The private attribute names a module reads or writes (``x._name``)."""
    tree = ast.parse(source)
    return {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute) and private(n.attr)}


def test_the_workers_touch_only_the_listed_private_attributes_of_rq() -> None:
    used: set[str] = set()
    for path in sorted((ROOT / "worker").glob("*.py")):
        used |= private_attributes(path.read_text())
    assert used == set(PRIVATE)


def test_rqs_horse_pid_is_still_the_attribute_the_worker_resets() -> None:
    worker = Worker([], connection=redis.Redis(), prepare_for_work=False)
    assert set(PRIVATE) <= set(vars(worker))
    worker._horse_pid = 4321
    assert worker.horse_pid == 4321


def test_the_checks_find_what_they_look_for() -> None:
    class Bad(Worker):
        def _start_scheduler(self) -> None: ...  # type: ignore[override]

        def heartbeat(self, timeout: int | None = None) -> None: ...  # type: ignore[override]

    assert private("_start_scheduler") and not private("__init__")
    assert shape(Bad.heartbeat) != shape(Worker.heartbeat)
    assert shape(SteadyWorker.heartbeat) == shape(Worker.heartbeat)
    assert private_attributes("w._state = 1\nx = w.__class__\ny = w.state") == {"_state"}
