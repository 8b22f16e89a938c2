"""The page sources themselves: every UI string exists in every language, and no template
carries inline script, inline style or inline event handlers (the CSP forbids them)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from engine.pikdame.errors import CODES
from service.pages.strings import LANGS

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
STATIC = TEMPLATES / "static"


def templates() -> list[Path]:
    """Every page and partial: the shared ones on top, each game's in templates/<game>/."""
    return sorted(p for p in TEMPLATES.rglob("*.html") if "node_modules" not in p.parts)


def strings(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((STATIC / "i18n" / f"{lang}.json").read_text("utf-8"))
    return data


def used_keys() -> set[str]:
    pattern = re.compile(r"""\bt\(\s*["']([a-zA-Z0-9_.]+)["']""")
    keys: set[str] = set()
    for path in [*templates(), *STATIC.glob("js/**/*.js")]:
        code = "\n".join(
            line
            for line in path.read_text("utf-8").splitlines()
            if not line.lstrip().startswith("//")
        )
        # keys completed at run time ("nav." ~ name) are checked by their families below
        keys |= {k for k in pattern.findall(code) if not k.endswith(".")}
    return keys


def test_every_language_has_the_same_keys() -> None:
    for lang in LANGS:
        assert set(strings(lang)) == set(strings("de")), lang


def test_every_used_string_exists() -> None:
    missing = {k for k in used_keys() if k not in strings("de")}
    assert not missing, missing
    for prefix in ("rank.", "rankname."):
        assert all(f"{prefix}{r}" in strings("de") for r in "A23456789TJQK")
    assert all(f"suit.{s}" in strings("en") for s in "SHDC")
    actions = ("draw", "take", "meld", "lay", "swap", "discard")
    assert all(f"action.{a}" in strings("de") and f"key.{a}" in strings("de") for a in actions)
    for lang in LANGS:
        keys = [strings(lang)[f"key.{a}"] for a in (*actions, "hint", "sort", "pile", "hand")]
        assert len(set(keys)) == len(keys), f"{lang}: two actions share a key"


def test_every_error_code_is_explained() -> None:
    f7 = list(CODES)  # F7's stable codes, pinned by tests/pikdame/test_errors_f7.py
    for lang in LANGS:
        table = strings(lang)
        assert all(table.get(f"err.{code}") for code in f7), lang
    assert "Erst ziehen" in strings("de")["err.wrong_phase"]


def test_no_inline_script_style_or_handlers() -> None:
    assert len(templates()) > len(list(TEMPLATES.glob("*.html")))  # the games' folders too
    for path in templates():
        html = path.read_text("utf-8")
        for tag in re.findall(r"<script\b[^>]*>", html):
            assert 'src="' in tag or 'type="application/json"' in tag, (path.name, tag)
        assert "<style" not in html, path.name
        assert not re.search(r"\sstyle=", html), path.name
        assert not re.search(r"\son[a-z]+=", html), path.name


def test_shared_scripts_name_no_game() -> None:
    """static/js/lib/ serves every game: no game's name is a string in its code (what a game adds
    lives in static/js/<game>/, and the game's page passes it in). Comments may speak of them."""
    name = re.compile(r"""["'`](pikdame|gin|tausende)["'`]""")
    for path in (STATIC / "js" / "lib").rglob("*.js"):
        code = "\n".join(line.split("//")[0] for line in path.read_text("utf-8").splitlines())
        assert not name.findall(code), path.relative_to(STATIC)
