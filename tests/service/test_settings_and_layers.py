"""One reader of the environment (service.common.config) giving a typed, frozen
Settings; README's table names every variable; the data layer imports neither Flask nor the HTTP
layer, and service never imports worker."""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import pytest

from service.common import config

ROOT = Path(__file__).resolve().parents[2]
# Reading the process environment elsewhere, and why it is not configuration:
ENVIRONMENT_READERS = {
    "service/common/config.py": "the one reader",
    "service/common/jobs.py": "RQ_WORKER_ID, set by rq (and worker.steady) in worker processes",
    "worker/steady.py": "sets RQ_WORKER_ID for service.common.jobs",
    "service/games/__init__.py": "PIKDAME_EXTRA_GAMES (declared in config.VARIABLES), read as the "
    "games' registry is imported: every list of games is built before any settings exist",
    "service/run.py": "hands its environment on to its children unchanged",
    "service/common/exposition.py": "sets PROMETHEUS_MULTIPROC_DIR (prometheus_client's) for a "
    "gunicorn group's workers",
}


def python_files(*packages: str) -> list[Path]:
    return sorted(p for package in packages for p in (ROOT / package).rglob("*.py"))


def imported_modules(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


def test_only_config_reads_the_environment() -> None:
    readers = set()
    for path in [*python_files("service", "worker"), ROOT / "deploy" / "gunicorn.conf.py"]:
        text = path.read_text()
        if "os.environ" in text or "getenv" in text:
            readers.add(str(path.relative_to(ROOT)))
    assert readers == set(ENVIRONMENT_READERS)


def test_settings_are_typed_and_frozen(tmp_path: Path) -> None:
    settings = config.load({"PIKDAME_SECRET": "s", "PIKDAME_VAR": str(tmp_path)})
    assert settings.secret == b"s" and not settings.secret_generated
    assert settings.grace_minutes == 120 and settings.retry_intervals == (5, 30, 120)
    assert settings.archive_dir == tmp_path / "archive"
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.grace_minutes = 0  # type: ignore[misc]
    generated = config.load({"PIKDAME_SECRET": "", "PIKDAME_VAR": str(tmp_path)})
    assert generated.secret_generated
    assert generated.secret == (tmp_path / config.SECRET_FILE).read_text().encode()


def test_a_bad_value_names_its_variable(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="PIKDAME_KEEP_DAYS"):
        config.load({"PIKDAME_SECRET": "s", "PIKDAME_KEEP_DAYS": "a week"})


def test_the_readme_lists_every_variable() -> None:
    readme = (ROOT / "README.md").read_text()
    table = readme[readme.index("## Configuration") : readme.index("## Operating")]
    listed = set(re.findall(r"`((?:PIKDAME|REDIS|WEB)_[A-Z_]+)`", table))
    assert {v.name for v in config.VARIABLES} <= listed


def test_the_stores_import_neither_flask_nor_the_http_layer() -> None:
    """What the web, the workers and the CLI share (docs/ARCHITECTURE.md): the common package, the
    games' adapters, the exceptions and every domain's store, none of them inside a request."""
    paths = [
        *python_files("service/common"),
        *python_files("service/games"),
        ROOT / "service" / "errors.py",
        *sorted((ROOT / "service").glob("*/store.py")),
    ]
    assert len([p for p in paths if p.name == "store.py"]) >= 3
    for path in paths:
        for module in imported_modules(path):
            top = module.split(".")[0]
            assert top not in ("flask", "flask_limiter", "werkzeug", "worker"), (path, module)
            if top == "service":
                assert not module.startswith("service.web"), (path, module)
                assert ".api_" not in module and module != "service.pages.pages", (path, module)


def test_service_never_imports_worker() -> None:
    for path in python_files("service"):
        assert not any(m.split(".")[0] == "worker" for m in imported_modules(path)), path
