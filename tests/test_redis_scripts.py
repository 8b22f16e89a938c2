"""Redis scripts are written, not edited: one script may include another's Lua function and call
it with its own keys and arguments (service.habit.streaks.ADVANCE_FUNCTION in
worker.verify.RANK_LUA), but no script is made by editing another's text (a string method, ``%``
or an f-string's values in Lua text), where a renumbered key silently lands in the wrong place."""

from __future__ import annotations

import ast

from tests.support.imports import modules

SCRIPT_NAMES = ("_LUA", "_BODY", "_FUNCTION", "_SCRIPT")
EDITS = ("replace", "format", "format_map", "translate", "sub")


def is_script(node: ast.AST) -> bool:
    """Whether an expression mentions a script: a constant named like one, or Lua text."""
    for part in ast.walk(node):
        named = (isinstance(part, ast.Name) and part.id.endswith(SCRIPT_NAMES)) or (
            isinstance(part, ast.Attribute) and part.attr.endswith(SCRIPT_NAMES)
        )
        if named or (isinstance(part, ast.Constant) and "redis.call" in str(part.value)):
            return True
    return False


def edited_scripts(tree: ast.AST) -> list[int]:
    """Lines where a script constant (or a Lua text) is edited: by a string method
    (``X_LUA.replace(...)``, ``str.replace(X_LUA, ...)``, ``re.sub(..., X_LUA)``), by ``%``, or
    with values put into its text by an f-string."""
    found: list[int] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            edited = node.func.attr in EDITS and any(map(is_script, [node.func.value, *node.args]))
        elif isinstance(node, ast.BinOp):
            edited = isinstance(node.op, ast.Mod) and is_script(node.left)
        elif isinstance(node, ast.JoinedStr):
            texts = [v for v in node.values if isinstance(v, ast.Constant)]
            edited = len(texts) < len(node.values) and any(map(is_script, texts))
        else:
            edited = False
        if edited and isinstance(node, ast.expr):
            found.append(node.lineno)
    return found


def test_no_script_is_made_by_editing_another() -> None:
    wrong = [
        f"{name}:{line}"
        for name, path in sorted(modules().items())
        for line in edited_scripts(ast.parse(path.read_text(), str(path)))
    ]
    assert wrong == []


def test_the_check_finds_what_it_looks_for() -> None:
    bad = 'A = streaks.ADVANCE_BODY.replace("KEYS[1]", "KEYS[8]")\nB = X_LUA.format(1)\n'
    bad += "C = \"redis.call('GET', KEYS[1])\".replace('1', '2')\n"
    bad += 'D = str.replace(X_LUA, "1", "2")\nE = re.sub("K", "J", streaks.ADVANCE_BODY)\n'
    bad += "F = X_SCRIPT % 8\nG = f\"redis.call('GET', KEYS[{n}])\"\n"
    assert edited_scripts(ast.parse(bad)) == [1, 2, 3, 4, 5, 6, 7]
    good = 'A = streaks.ADVANCE_FUNCTION + "advance_streak(KEYS[8])"\nB = name.replace("a", "b")\n'
    good += 'C = re.sub("a", "b", name)\nD = "%s" % name\nE = f"{X_LUA!r} failed"\n'
    assert edited_scripts(ast.parse(good)) == []
