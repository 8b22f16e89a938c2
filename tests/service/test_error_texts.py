"""Every error code the API can return has a text in German, English and Dutch (the pages show
``err.<code>``, templates/static/js/lib/explain.js, never "Das hat nicht geklappt (code)"), and
the registry of codes (service.errors.CODES, ENGINE_CODES) holds every code the source writes:
the routes' and stores' raises, the envelope's, the table analyses' reasons, the engines'."""

from __future__ import annotations

import ast
from pathlib import Path

from service.errors import API_CODES, CODES, ENGINE_CODES, PAGE_CODES
from service.pages.strings import LANGS, strings
from service.web.envelope import HTTP_CODES

ROOT = Path(__file__).resolve().parents[2]
#: constructors of an error and the position of their code (after the status, or first)
RAISERS = {
    "ApiError": 1,
    "TableError": 1,
    "MatchError": 1,
    "error_response": 1,
    "_error": 1,
    "NoHint": 0,
    "IllegalMoveError": 0,
    "ReplayError": 0,
    "_illegal": 0,
}


def _name(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    return call.func.attr if isinstance(call.func, ast.Attribute) else None


def _text(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def written_codes(package: str) -> dict[str, str]:
    """Each code a package's source writes, with one place that writes it: a raiser's code
    argument (positional or ``code=``), a class's ``code``, a model's ``invalid`` pair, and what a
    ``table_analysable`` returns (the analyses' reason, service.tables.analyses)."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = str(path.relative_to(ROOT))

        def note(code: str | None, line: int) -> None:
            if code is not None:
                found.setdefault(code, f"{where}:{line}")  # noqa: B023 (used at once)

        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                at = RAISERS.get(_name(node) or "")
                if at is not None and len(node.args) > at:
                    note(_text(node.args[at]), node.lineno)
                for keyword in node.keywords:
                    if keyword.arg == "code":
                        note(_text(keyword.value), node.lineno)
            elif isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names = {t.id for t in targets if isinstance(t, ast.Name)}
                if "code" in names:
                    note(_text(node.value), node.lineno)
                if "invalid" in names and isinstance(node.value, ast.Tuple):
                    note(_text(node.value.elts[1]), node.lineno)
            elif isinstance(node, ast.FunctionDef) and node.name == "table_analysable":
                for inner in ast.walk(node):
                    if isinstance(inner, ast.Return):
                        note(_text(inner.value), inner.lineno)
    return found


def test_the_registry_holds_every_code_the_service_writes() -> None:
    written = written_codes("service")
    missing = {code: at for code, at in written.items() if code not in API_CODES}
    assert not missing, missing
    assert set(HTTP_CODES.values()) <= set(CODES)


def test_the_registry_holds_every_code_the_engine_writes() -> None:
    written = written_codes("engine")
    missing = {code: at for code, at in written.items() if code not in ENGINE_CODES}
    assert not missing, missing


def test_the_scan_finds_what_it_looks_for() -> None:
    """The walk above can fail: it sees a route's code, a store's, a NoHint's, an analysis
    reason and an engine's."""
    service = written_codes("service")
    assert {"account_required", "private_table", "hints_off", "seed_secret", "unavailable"} <= set(
        service
    )
    assert {"stock_empty", "queen_kept", "unknown_engine"} <= set(written_codes("engine"))


def test_every_code_has_a_text_in_every_language() -> None:
    """Defect: "Das hat nicht geklappt (account_required)": some 14 codes had no text."""
    assert list(CODES) == sorted(CODES) and len(set(CODES)) == len(CODES)
    for lang in LANGS:
        table = strings(lang)
        codes = [*API_CODES, *PAGE_CODES]
        missing = [code for code in codes if not table.get(f"err.{code}", "").strip()]
        assert not missing, (lang, missing)
        assert all("{" not in table[f"err.{code}"] for code in API_CODES), lang
