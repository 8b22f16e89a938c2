"""Outside a game's own places no code branches on a game (docs/ARCHITECTURE.md, "Adding a
game"): what a game is lives in its engine package (``engine/<game>/``) and its adapter
(``service/games/<game>.py``); every other module asks the registry (``service.games``).

Read from the source with ``ast``, for meaning (issue 39 item 5): in ``engine``, ``service`` and
``worker``, outside a game's places, nothing decides by a game's *identity*: no comparison
(``==``, ``!=``, ``in``, ``not in``, ``is``) of a game's name with an expression that is a game
(its last name says so: ``game``, ``table.game``, ``record["game"]``, ``adapter.name``,
``ruleset``; or a set of two or more games' names), no ``match`` on a game with a case of one,
no mapping keyed by games (a dictionary whose keys are all games' names; a subscript, ``.get``
of a registry) and no ``Literal`` admitting one. A string that merely equals a game's name
decides nothing by it: a move word (``kind == "knock"`` where a game could be called
``knock``), a record's field (``position["knock"]``), a default, a file name, a log word; and
texts that contain one (a URL like ``/gin/play/<id>``, a key prefix, a docstring) are not names
of a game. The shared pages and scripts (templates/, outside each game's folder) are read with
a simple pattern for the same meaning: a comparison of a game with a name (``game() === "gin"``,
``{% if game == 'gin' %}``, ``game in ['gin']``), or a list of two games' names.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator, Mapping
from pathlib import Path

from service import games
from tests.support.imports import PACKAGES, ROOT

#: The engine package of a game whose engine is another game's (R12: Tausende is a ruleset of
#: Pik Dame's engine); every other game's package is named like the game.
ENGINE_OF: Mapping[str, str] = {"tausende": "pikdame"}
#: Branches on a game's name in shared code, each with the reason it is still here.
ALLOWED: Mapping[tuple[str, str], str] = {}


def own_places(game: str) -> tuple[str, ...]:
    """The files and folders (relative to the repository, folders ending in ``/``) where
    ``game``'s name may be written."""
    return (f"engine/{ENGINE_OF.get(game, game)}/", f"service/games/{game}.py")


#: Methods whose first argument is a mapping's key.
KEYED = frozenset({"get", "pop", "setdefault"})
#: The words of a name that make it a game (its identity): ``game``, ``table.game``,
#: ``game_name``, ``GAMES``, ``ruleset``, ``adapter``, ``TABLE_GAMES``.
GAME_WORDS = frozenset({"game", "games", "ruleset", "rulesets", "adapter", "adapters"})
#: A game's own name (``adapter.name``, ``GAME.name``), when what it belongs to is a game.
NAME_WORDS = frozenset({"name", "names"})


def _words(identifier: str) -> set[str]:
    """``table_game`` → {table, game}; ``tableGame`` and ``TABLE_GAMES`` alike."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", identifier)
    return {word.lower() for word in spaced.split("_") if word}


def _last(node: ast.AST) -> tuple[str | None, ast.AST | None]:
    """The last name of an expression and what it belongs to: ``table.game`` → (game, table),
    ``record["game"]`` → (game, record), ``game()`` → (game, None), ``game`` → (game, None)."""
    if isinstance(node, ast.Call):
        return _last(node.func)
    if isinstance(node, ast.Name):
        return node.id, None
    if isinstance(node, ast.Attribute):
        return node.attr, node.value
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.slice, ast.Constant)
        and isinstance(node.slice.value, str)
    ):
        return node.slice.value, node.value
    return None, None


def is_game(node: ast.AST | None) -> bool:
    """Whether ``node`` is a game (or games) by its name: see :data:`GAME_WORDS`."""
    if node is None:
        return False
    last, owner = _last(node)
    if last is None:
        return False
    words = _words(last)
    if words & GAME_WORDS:
        return True
    return bool(words & NAME_WORDS) and owner is not None and is_game(owner)


def _names_in(node: ast.AST | None, names: set[str]) -> list[ast.Constant]:
    """The game names ``node`` is (a string constant) or holds (a tuple, list or set of them)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names:
        return [node]
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [c for element in node.elts for c in _names_in(element, names)]
    return []


def _all_games(node: ast.AST, names: set[str]) -> bool:
    """Whether ``node`` is a collection of two games' names or more and nothing else (a set of
    games: ``("pikdame", "tausende")``; not a set of words one of which names a game too)."""
    return (
        isinstance(node, ast.Tuple | ast.List | ast.Set)
        and len(node.elts) >= 2
        and len(_names_in(node, names)) == len(node.elts)
    )


def _match_values(pattern: ast.pattern) -> Iterator[ast.AST]:
    """The values a ``case`` compares with (``case "gin" | "tausende":`` too)."""
    if isinstance(pattern, ast.MatchValue):
        yield pattern.value
    elif isinstance(pattern, ast.MatchOr | ast.MatchSequence):
        for inner in pattern.patterns:
            yield from _match_values(inner)
    elif isinstance(pattern, ast.MatchAs) and pattern.pattern is not None:
        yield from _match_values(pattern.pattern)


def _decided(node: ast.AST, names: set[str]) -> list[ast.Constant]:
    """The game names whose identity ``node`` decides by (see the module's docstring)."""
    if isinstance(node, ast.Compare):
        operands = [node.left, *node.comparators]
        found = [c for operand in operands for c in _names_in(operand, names)]
        collections = [o for o in operands if _all_games(o, names)]
        if collections or any(is_game(o) for o in operands):
            return found
        return []
    if isinstance(node, ast.Match):
        if not is_game(node.subject):
            return []
        return [
            c
            for case in node.cases
            for value in _match_values(case.pattern)
            for c in _names_in(value, names)
        ]
    if isinstance(node, ast.Dict):
        keys = [k for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
        found = [c for k in keys for c in _names_in(k, names)]
        return found if len(found) >= 2 and len(found) == len(node.keys) else []
    if isinstance(node, ast.Subscript) and not _is_literal(node):
        return _names_in(node.slice, names) if is_game(node.value) else []
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in KEYED
        and node.args
        and is_game(node.func.value)
    ):
        return _names_in(node.args[0], names)
    return []


def _is_literal(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Subscript)
        and isinstance(node.value, ast.Name | ast.Attribute)
        and _last(node.value)[0] == "Literal"
    )


def _typed(tree: ast.AST) -> Iterator[tuple[ast.AST | None, ast.AST]]:
    """(what is typed, the type) of every annotation and type alias: an argument's or a
    variable's annotation, a ``Name = Literal[...]`` assignment."""
    for node in ast.walk(tree):
        if isinstance(node, ast.arg):
            yield ast.Name(node.arg), node.annotation or ast.Constant(None)
        elif isinstance(node, ast.AnnAssign):
            yield node.target, node.annotation
            if node.value is not None:
                yield node.target, node.value
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                yield target, node.value
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns:
            yield ast.Name(node.name), node.returns


def _literals(tree: ast.AST, names: set[str]) -> Iterator[ast.Constant]:
    """The game names a ``Literal`` admits as a game: one that types a game (``game:
    Literal["gin"]``, ``GameName = Literal[...]``), or admits two games or more (a type's values
    are a decision too; ``phase: Literal["draw", "knock"]`` is a move's, not a game's)."""
    seen: set[int] = set()
    for target, typed in _typed(tree):
        for node in ast.walk(typed):
            if not _is_literal(node) or id(node) in seen:
                continue
            seen.add(id(node))
            assert isinstance(node, ast.Subscript)
            found = _names_in(node.slice, names)
            if _all_games(node.slice, names) or is_game(target):
                yield from found


def _keyed(tree: ast.AST, names: set[str]) -> Iterator[ast.Constant]:
    """The game names of a one-key dictionary that is a game's table by its name
    (``BY_GAME = {"gin": ...}``; ``wrong={"take": ...}`` is a move's)."""
    for target, value in _typed(tree):
        if isinstance(value, ast.Dict) and len(value.keys) == 1 and is_game(target):
            yield from _names_in(value.keys[0], names)


@functools.cache
def _parsed(source: str) -> ast.AST:
    return ast.parse(source)  # parsed once for every check of the same file


@functools.cache
def _nodes(source: str) -> tuple[ast.AST, ...]:
    return tuple(ast.walk(_parsed(source)))


def named(source: str, names: set[str]) -> Iterator[tuple[int, str]]:
    """(line, name) of every branch on one of ``names`` as a game: a comparison or membership
    test of a game with it, a ``match`` case on a game, a dictionary keyed by games, a
    registry's subscript or ``.get`` by it, a ``Literal`` of games."""
    if not any(f'"{name}"' in source or f"'{name}'" in source for name in names):
        return  # no string that is a name: nothing to read
    tree = _parsed(source)
    for node in _nodes(source):
        for constant in _decided(node, names):
            yield constant.lineno, str(constant.value)
    for constant in (*_literals(tree, names), *_keyed(tree, names)):
        yield constant.lineno, str(constant.value)


def owned(path: str, game: str) -> bool:
    return any(
        path.startswith(place) if place.endswith("/") else path == place
        for place in own_places(game)
    )


def offences(files: Mapping[str, str], names: set[str]) -> list[str]:
    """``path:line: name`` of every game's name written outside that game's places."""
    found = []
    for path, source in sorted(files.items()):
        for line, name in sorted(set(named(source, names))):
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
    """Every game of the registry has its own places (a game added there is checked too)."""
    assert {"pikdame", "gin", "tausende"} <= set(games.GAMES)
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
    """The checker itself, on planted code: a comparison or membership test of a game with a
    name, a ``match`` on a game, a dictionary keyed by games, a registry's subscript and
    ``.get``, a Literal of games are found; the game's own places, texts containing a name, and
    a string equal to a name that decides nothing by a game (a default, a log word, a file's
    name, a move word, a record's field) are not (issue 39 item 5: a game may be called
    ``knock``, which is also Gin's move word)."""
    names = {"pikdame", "gin", "tausende", "knock"}
    files = {
        "service/dailies/present.py": 'if game == "gin":\n    pass\n',
        "service/habit/field.py": 'def f(game: str = "pikdame") -> None: ...\n',
        "service/web/inputs.py": 'from typing import Literal\nGameName = Literal["tausende", "x"]'
        "\n",
        "worker/verify.py": 'SHARE = {"gin": "Gin Rommé", "pikdame": "Pik Dame"}\n'
        'SHARE_BY_GAME = {"tausende": "Tausende"}\n',
        "engine/cli.py": 'if args.game == "gin":\n    pass\n',
        "service/tables/store.py": 'x = t.game in ("pikdame", "x")\ny = "gin" != game_name()\n',
        "service/lobby/matcher.py": 'match table.game:\n    case "x" | "gin":\n        pass\n',
        "service/habit/leagues.py": 'a = by_game["tausende"]\nb = games.get("pikdame", 0)\n',
        "service/habit/streaks.py": 'if adapter.name == "knock" or kind in ("gin", "tausende"):\n'
        "    pass\n",
        "service/pages/learn.py": 'def f(game: Literal["knock"]) -> None: ...\n',
        "service/common/config.py": 'MASTER = "pikdame"\nlog.info("gin")\nopen("gin")\n',
        "engine/gin/state.py": 'NAME = "gin"\nOK = name == "gin"\n',
        "engine/pikdame/rules.py": 'RULESETS = {"pikdame": 1, "tausende": 2}\n',
        "service/games/gin.py": 'name = "gin"\n',
        "service/pages/pages.py": '"""The gin pages."""\nURL = "/gin/play/x"\nT = f"gin_{x}"\n',
        "service/common/keys.py": 'PREFIX = "pd"\nDEFAULT = "Gin"\nx = game == "Gin"\n',
        # a move word, a record's field, a move's type, an argument: no game's identity
        "service/tables/documents.py": 'if move.kind == "knock":\n    pass\n'
        'k = position["knock"]\nkinds = {"knock": 1, "draw": 2}\n'
        'phase: Literal["knock", "draw"] = "draw"\nif argv[0] == "knock":\n    pass\n'
        'x = done.kind in ("discard", "knock", "defend")\nmoves.get("knock")\n'
        'if end in ("gin", "knock", "undercut"):\n    pass\n'
        'step = Step(wrong={"knock": 1})\nLABELS = {"gin": "Gin"}\n',
    }
    assert offences(files, names) == [
        "engine/cli.py:1: 'gin'",
        "service/dailies/present.py:1: 'gin'",
        "service/habit/leagues.py:1: 'tausende'",
        "service/habit/leagues.py:2: 'pikdame'",
        "service/habit/streaks.py:1: 'gin'",
        "service/habit/streaks.py:1: 'knock'",
        "service/habit/streaks.py:1: 'tausende'",
        "service/lobby/matcher.py:2: 'gin'",
        "service/pages/learn.py:1: 'knock'",
        "service/tables/store.py:1: 'pikdame'",
        "service/tables/store.py:2: 'gin'",
        "service/web/inputs.py:2: 'tausende'",
        "worker/verify.py:1: 'gin'",
        "worker/verify.py:1: 'pikdame'",
        "worker/verify.py:2: 'tausende'",
    ]
    assert owned("engine/pikdame/tausende.py", "tausende")
    assert not owned("service/games/pikdame.py", "tausende")


def test_a_game_called_knock_would_pass_the_shared_code() -> None:
    """Issue 39 item 5: "knock" (Gin's move word) as a fourth game's name finds nothing in
    today's shared code, as the registry's names find nothing."""
    files = sources()
    assert offences(files, {*games.GAMES, "knock"}) == []
    # nor would one called like another move word or phase
    for word in ("draw", "discard", "take", "meld", "defend", "play"):
        assert offences(files, {word}) == [], word


#: An expression whose last name may say it is a game (``game``, ``table.game``, ``game()``,
#: ``adapter.name``), in a script or a template.
_EXPR = r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\(\))?"
_OP = r"(?:===|!==|==|!=)"


def _quoted(names: set[str]) -> str:
    """A game's name as a whole string literal (``"gin"``, ``'tausende'``), its name grouped."""
    return "[\"'`](" + "|".join(sorted(names)) + ")[\"'`]"


def _js_is_game(expr: str) -> bool:
    """Whether a script's or a template's expression is a game by its name (:func:`is_game`)."""
    parts = [part for part in expr.removesuffix("()").split(".") if part]
    if not parts:
        return False
    if _words(parts[-1]) & GAME_WORDS:
        return True
    return bool(_words(parts[-1]) & NAME_WORDS) and len(parts) > 1 and _js_is_game(parts[-2])


def page_branches(text: str, names: set[str]) -> Iterator[tuple[int, str]]:
    """(line, name) of every branch on a game in a script or a template: a comparison of a game
    with a name (``game() === "gin"``, ``{% if game == 'gin' %}``), a game's membership in a
    list holding one (``game in ['gin']``, ``["gin"].includes(game)``), a list of two games'
    names or more (``['pikdame', 'gin']``)."""
    quoted = _quoted(names)
    compared = [
        re.compile(rf"(?P<expr>{_EXPR})\s*{_OP}\s*(?P<name>{quoted})"),
        re.compile(rf"(?P<name>{quoted})\s*{_OP}\s*(?P<expr>{_EXPR})"),
    ]
    member = re.compile(rf"(?P<expr>{_EXPR})\s+(?:not\s+)?in\s+[\[(](?P<list>[^\])]*)[\])]")
    includes = re.compile(rf"\[(?P<list>[^\]]*)\]\.includes\(\s*(?P<expr>{_EXPR})\s*\)")
    listed = re.compile(r"[\[(](?P<list>[^\[\]()]*)[\])]")
    any_name = re.compile(quoted)
    for n, line in enumerate(text.splitlines(), 1):
        if not any_name.search(line):
            continue
        found: dict[int, str] = {}
        for pattern in compared:
            for m in pattern.finditer(line):
                if _js_is_game(m.group("expr")):
                    found[m.start("name")] = m.group("name")[1:-1]
        for pattern in (member, includes):
            for m in pattern.finditer(line):
                if _js_is_game(m.group("expr")):
                    for q in re.finditer(quoted, m.group("list")):
                        found[m.start("list") + q.start()] = q.group(1)
        for m in listed.finditer(line):
            inner = list(re.finditer(quoted, m.group("list")))
            items = [item for item in m.group("list").split(",") if item.strip()]
            if len(inner) >= 2 and len(inner) == len(items):
                for q in inner:
                    found[m.start("list") + q.start()] = q.group(1)
        for _, name in sorted(found.items()):
            yield n, name


def page_offences(root: Path, names: set[str]) -> list[str]:
    """``path:line: name`` of every branch on a game in a shared script or template: outside
    ``templates/<game>/`` and ``templates/static/js/<game>/`` (whose scripts may name their own
    game), the pages learn their games from the registry (the new-table form from the games'
    declarations, service.games.adapter.form_facts)."""
    found = []
    templates = root / "templates"
    pages = [*templates.glob("*.html"), *(templates / "static" / "js").rglob("*.js")]
    for path in sorted(p for p in pages if "node_modules" not in p.parts):
        rel = str(path.relative_to(root))
        folder = path.relative_to(templates).parts
        own = folder[0] if folder[0] != "static" else folder[2]
        for n, name in page_branches(path.read_text(), names):
            if name != own:
                found.append(f"{rel}:{n}: {name!r}")
    return found


#: Shared scripts still branching on a game, each with the reason it is still here.
PAGES_ALLOWED: Mapping[str, str] = {}


def test_no_shared_page_or_script_names_a_game() -> None:
    found = page_offences(ROOT, set(games.GAMES))
    assert [f for f in found if f.split(":")[0] not in PAGES_ALLOWED] == []
    assert {f.split(":")[0] for f in found} == set(PAGES_ALLOWED), "an allowance no longer needed"


def test_a_game_called_knock_would_pass_the_shared_pages() -> None:
    """Gin's scripts compare move words (``"knock"``) freely, and so may shared ones."""
    assert page_offences(ROOT, {*games.GAMES, "knock"}) == []
    for word in ("draw", "discard", "take", "meld", "defend", "play"):
        assert page_offences(ROOT, {word}) == [], word


def test_the_page_check_finds_what_it_looks_for(tmp_path: Path) -> None:
    """The pattern on planted scripts and templates: comparisons and memberships of a game with
    a name and lists of games are found; a game's own folder, a URL, a name merely assigned, a
    move word compared are not."""
    js = tmp_path / "templates" / "static" / "js"
    (js / "lib").mkdir(parents=True)
    (js / "gin").mkdir()
    (js / "tables").mkdir()
    (js / "lib" / "a.js").write_text(
        'const g = "gin";\nconst url = "/gin/play";\nif (game() === "gin") g();\n'
        'if (move.kind === "knock") k();\nconst x = "tausende" !== state.table.game;\n'
        'const ends = ["gin", "knock", "undercut"].includes(last.end);\n'
    )
    (js / "gin" / "b.js").write_text('if (game === "gin") b();\n')
    (js / "tables" / "c.js").write_text(
        'const duel = ["gin"].includes(data.game);\nif (adapter.name == "knock") c();\n'
    )
    (tmp_path / "templates" / "x.html").write_text(
        "{% for g in ['pikdame', 'gin'] %}\n{% if game == 'gin' %}x{% endif %}\n"
        "{% if game not in ('tausende',) %}{% endif %}\n<a href=\"/gin/play\">gin</a>\n"
    )
    assert page_offences(tmp_path, {"gin", "pikdame", "tausende", "knock"}) == [
        "templates/static/js/lib/a.js:3: 'gin'",
        "templates/static/js/lib/a.js:5: 'tausende'",
        "templates/static/js/tables/c.js:1: 'gin'",
        "templates/static/js/tables/c.js:2: 'knock'",
        "templates/x.html:1: 'pikdame'",
        "templates/x.html:1: 'gin'",
        "templates/x.html:2: 'gin'",
        "templates/x.html:3: 'tausende'",
    ]
