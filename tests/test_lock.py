"""The dependency set is locked (requirements.lock, made by ``make lock``): ``make run``,
``make test`` and ``.ci/run`` install exactly its versions, then the project with ``--no-deps``.

worker/steady.py builds on RQ's Worker, so RQ's range in pyproject.toml is the releases the suite
runs with: an RQ outside it (a fresh install of a newer release, a hand-upgraded venv) fails here
before any worker test can pass by luck.
"""

from __future__ import annotations

import re
import tomllib
from importlib import metadata

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from tests.support.imports import ROOT

LOCK = ROOT / "requirements.lock"
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;#]+)", re.MULTILINE)


def requirements(extra: str | None = None) -> dict[str, Requirement]:
    """pyproject.toml's dependencies (or an extra's), by canonical name."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    listed = project["dependencies"] if extra is None else project["optional-dependencies"][extra]
    found = (Requirement(line) for line in listed)
    return {canonicalize_name(r.name): r for r in found}


def pins(text: str) -> dict[str, Version]:
    return {canonicalize_name(name): Version(version) for name, version in PIN.findall(text)}


def stale(wanted: dict[str, Requirement], locked: dict[str, Version]) -> list[str]:
    """Each wanted dependency the lock leaves out or pins outside its range."""
    wrong = []
    for name, requirement in sorted(wanted.items()):
        version = locked.get(name)
        if version is None or version not in requirement.specifier:
            wrong.append(f"{requirement}: locked {version}")
    return wrong


def test_the_installed_rq_is_one_the_worker_runs_with() -> None:
    rq = requirements()["rq"]
    installed = Version(metadata.version("rq"))
    assert installed in rq.specifier, f"rq {installed} is outside {rq.specifier}: make lock"


def test_rqs_range_is_closed_above() -> None:
    """The next RQ release is never taken untested: the range has an upper bound."""
    assert any(s.operator in ("<", "<=", "==", "~=") for s in requirements()["rq"].specifier)


def test_the_lock_holds_every_dependency_in_its_range() -> None:
    locked = pins(LOCK.read_text())
    assert stale(requirements(), locked) == []
    assert stale(requirements("dev"), locked) == []


def test_the_installed_packages_are_the_locked_ones() -> None:
    """The venv the suite runs in was installed from the lock (a refreshed lock: reinstall)."""
    wrong = []
    for name, version in sorted(pins(LOCK.read_text()).items()):
        try:
            installed = Version(metadata.version(name))
        except metadata.PackageNotFoundError:
            installed = None
        if installed != version:
            wrong.append(f"{name}: locked {version}, installed {installed}")
    assert wrong == []


def test_the_checks_find_what_they_look_for() -> None:
    locked = pins("rq==3.1.0\n    # via pikdame\nFlask==3.1.3 ; python_version >= '3.11'\n")
    assert locked == {"rq": Version("3.1.0"), "flask": Version("3.1.3")}
    wanted = {"rq": Requirement("rq>=3.0,<3.1"), "redis": Requirement("redis>=5")}
    assert stale(wanted, locked) == ["redis>=5: locked None", "rq<3.1,>=3.0: locked 3.1.0"]
