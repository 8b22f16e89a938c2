"""docs/ARCHITECTURE.md names every module of engine, service and worker, and nothing that is
gone: a newcomer's map of the house stays true.

The document's plan: a heading naming a folder in backticks (```service/dailies/```) starts that
folder's table; the first cell of each table row names its modules (```store.py```) or packages
(```bots/```, every module inside) relative to that folder, in backticks.
"""

from __future__ import annotations

import re

from tests.support.imports import PACKAGES, ROOT

DOC = ROOT / "docs" / "ARCHITECTURE.md"
HEADING_FOLDER = re.compile(r"^#+ .*?`([\w/]+/)`")
NAME = re.compile(r"`([\w./]+)`")


def named(text: str) -> tuple[set[str], set[str], set[str]]:
    """(module files, packages named in a row, folders with a heading), as paths from the
    repository root."""
    files: set[str] = set()
    packages: set[str] = set()
    headed: set[str] = set()
    folder: str | None = None
    for line in text.splitlines():
        heading = HEADING_FOLDER.match(line)
        if heading:
            folder = heading.group(1)
            headed.add(folder.rstrip("/"))
            continue
        if folder is None or not line.startswith("|") or line.startswith("| ---"):
            continue
        for name in NAME.findall(line.split("|")[1]):
            if name.endswith("/"):
                packages.add((folder + name).rstrip("/"))
            elif name.endswith(".py"):
                files.add(folder + name)
    return files, packages, headed


def modules_on_disk() -> set[str]:
    return {
        str(p.relative_to(ROOT))
        for package in PACKAGES
        for p in (ROOT / package).rglob("*.py")
        if p.name != "__init__.py"
    }


def test_every_module_is_named() -> None:
    """A module is named in its folder's table, or lies inside a package named as one row."""
    files, packages, _ = named(DOC.read_text())
    missing = sorted(
        p
        for p in modules_on_disk()
        if p not in files and not any(p.startswith(f + "/") for f in packages)
    )
    assert missing == [], "name these in docs/ARCHITECTURE.md"


def test_nothing_named_is_gone() -> None:
    files, packages, headed = named(DOC.read_text())
    gone = sorted(p for p in files if not (ROOT / p).is_file())
    gone += sorted(f + "/" for f in packages | headed if not (ROOT / f).is_dir())
    assert gone == []


def test_the_reader_finds_what_it_looks_for() -> None:
    text = "\n".join(
        [
            "## `service/tables/` — tables",
            "| module | owns |",
            "| --- | --- |",
            "| `store.py`, `timers.py` | x `not_me.py` |",
            "| `stream/` | y |",
        ]
    )
    files, packages, headed = named(text)
    assert files == {"service/tables/store.py", "service/tables/timers.py"}
    assert packages == {"service/tables/stream"}
    assert headed == {"service/tables"}
