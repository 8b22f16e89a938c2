"""Outside a game's own places no code names the game (docs/ARCHITECTURE.md, "Adding a game"):
what a game is lives in its engine package (``engine/<game>/``) and its adapter
(``service/games/<game>.py``); every other module asks the registry (``service.games``).

Read from the source with ``ast``: no string constant of ``engine``, ``service`` or ``worker``
equals a game's name outside that game's places. Texts that merely contain one (a URL like
``/gin/play/<id>``, a key prefix, a docstring, a template's file name) are not names of a game.
The shared pages and scripts (templates/, outside each game's folder) are checked too: a game's
name quoted there is a branch on the game.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from pathlib import Path

from service import games
from tests.support.imports import PACKAGES, ROOT

#: The engine package of a game whose engine is another game's (R12: Tausende is a ruleset of
#: Pik Dame's engine); every other game's package is named like the game.
ENGINE_OF: Mapping[str, str] = {"tausende": "pikdame"}
#: Constants equal to a game's name that do not mean the game, each with the reason.
ALLOWED: Mapping[tuple[str, str], str] = {
    ("service/common/config.py", "pikdame"): "the Redis Sentinel master's default name (the "
    "site's, as in PIKDAME_* settings), not the game's",
}


def own_places(game: str) -> tuple[str, ...]:
    """The files and folders (relative to the repository, folders ending in ``/``) where
    ``game``'s name may be written."""
    return (f"engine/{ENGINE_OF.get(game, game)}/", f"service/games/{game}.py")


def named(source: str, names: set[str]) -> Iterator[tuple[int, str]]:
    """(line, name) of every string constant in ``source`` equal to one of ``names``."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names:
            yield node.lineno, node.value


def owned(path: str, game: str) -> bool:
    return any(
        path.startswith(place) if place.endswith("/") else path == place
        for place in own_places(game)
    )


def offences(files: Mapping[str, str], names: set[str]) -> list[str]:
    """``path:line: name`` of every game's name written outside that game's places."""
    found = []
    for path, source in sorted(files.items()):
        for line, name in named(source, names):
            if not owned(path, name) and (path, name) not in ALLOWED:
                found.append(f"{path}:{line}: {name!r}")
    return found


def sources() -> dict[str, str]:
    return {
        path.relative_to(ROOT).as_posix(): path.read_text()
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
    }


def test_the_names_are_the_registrys() -> None:
    assert set(games.GAMES) == {"pikdame", "gin", "tausende"}
    for game in games.GAMES:
        assert (ROOT / own_places(game)[0]).is_dir(), game
        assert (ROOT / own_places(game)[1]).is_file(), game


def test_no_code_names_a_game_outside_its_own_places() -> None:
    assert offences(sources(), set(games.GAMES)) == []


def test_the_allowed_names_are_still_written_there() -> None:
    """An allowance whose constant is gone leaves the list too, so it hides nothing new."""
    files = sources()
    for path, name in ALLOWED:
        assert name in {n for _, n in named(files[path], {name})}, (path, name)


def test_the_check_finds_what_it_looks_for() -> None:
    """The checker itself: a branch on a name, a default, a Literal's value and a dictionary key
    are found; the game's own places, texts containing a name, and other constants are not."""
    names = {"pikdame", "gin", "tausende"}
    files = {
        "service/dailies/present.py": 'if game == "gin":\n    pass\n',
        "service/habit/field.py": 'def f(game: str = "pikdame") -> None: ...\n',
        "service/web/inputs.py": 'from typing import Literal\nG = Literal["tausende", "x"]\n',
        "worker/verify.py": 'SHARE = {"gin": "Gin Rommé"}\n',
        "engine/cli.py": 'if argv[:1] == ["gin"]:\n    pass\n',
        "engine/gin/state.py": 'NAME = "gin"\n',
        "engine/pikdame/rules.py": 'RULESETS = ("pikdame", "tausende")\n',
        "service/games/gin.py": 'name = "gin"\n',
        "service/pages/pages.py": '"""The gin pages."""\nURL = "/gin/play/x"\nT = f"gin_{x}"\n',
        "service/common/keys.py": 'PREFIX = "pd"\nDEFAULT = "Gin"\n',
    }
    assert offences(files, names) == [
        "engine/cli.py:1: 'gin'",
        "service/dailies/present.py:1: 'gin'",
        "service/habit/field.py:1: 'pikdame'",
        "service/web/inputs.py:2: 'tausende'",
        "worker/verify.py:1: 'gin'",
    ]
    assert owned("engine/pikdame/tausende.py", "tausende")
    assert not owned("service/games/pikdame.py", "tausende")


#: A game's name as a whole string literal in a script or a template (``"gin"``, ``'tausende'``).
def _quoted(names: set[str]) -> re.Pattern[str]:
    return re.compile("[\"'`](" + "|".join(sorted(names)) + ")[\"'`]")


def page_offences(root: Path, names: set[str]) -> list[str]:
    """``path:line: name`` of every game's name quoted in a shared script or template: outside
    ``templates/<game>/`` and ``templates/static/js/<game>/`` (whose scripts may name their own
    game), the pages learn their games from the registry."""
    quoted = _quoted(names)
    found = []
    templates = root / "templates"
    for path in sorted([*templates.glob("*.html"), *(templates / "static" / "js").rglob("*.js")]):
        rel = str(path.relative_to(root))
        folder = path.relative_to(templates).parts
        own = folder[0] if folder[0] != "static" else folder[2]
        for n, line in enumerate(path.read_text().splitlines(), 1):
            for match in quoted.finditer(line):
                if match.group(1) != own:
                    found.append(f"{rel}:{n}: {match.group(1)!r}")
    return found


#: Shared scripts still branching on a game, each with the reason it is still here.
PAGES_ALLOWED: Mapping[str, str] = {
    "templates/static/js/tables/new.js": "the table form shows each game's seats, levels and "
    "house rules by its name; the adapters do not yet say which house rules a form offers "
    "(Gin stores R9's keys without offering them)",
}


def test_no_shared_page_or_script_names_a_game() -> None:
    found = page_offences(ROOT, set(games.GAMES))
    assert [f for f in found if f.split(":")[0] not in PAGES_ALLOWED] == []
    assert {f.split(":")[0] for f in found} == set(PAGES_ALLOWED), "an allowance no longer needed"


def test_the_page_check_finds_what_it_looks_for(tmp_path: Path) -> None:
    js = tmp_path / "templates" / "static" / "js"
    (js / "lib").mkdir(parents=True)
    (js / "gin").mkdir()
    (js / "lib" / "a.js").write_text('const g = "gin";\nconst url = "/gin/play";\n')
    (js / "gin" / "b.js").write_text('const g = "gin";\n')
    (tmp_path / "templates" / "x.html").write_text("{% for g in ['pikdame', 'gin'] %}\n")
    assert page_offences(tmp_path, {"gin", "pikdame"}) == [
        "templates/static/js/lib/a.js:1: 'gin'",
        "templates/x.html:1: 'pikdame'",
        "templates/x.html:1: 'gin'",
    ]
