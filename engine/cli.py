"""``python -m engine``: the command line of every game, dispatched by its first word.

F7's commands (``deal``, ``check``, ``replay``) are Pik Dame's, for each of its rulesets
(``deal --rules``, R12), with its analysis and bot tournaments, in ``engine/pikdame/cli.py``
(its ``VERBS``). Every other game of the registry (``engine.games``) has its commands after its
name: ``python -m engine gin …`` (GIN.md G9) runs the command line its package declares
(``engine.games.COMMAND_LINES``: ``engine/gin/cli.py``); a game registered there needs nothing
here. ``python -m engine --help`` lists them all. F7's commands load no other game: the registry
is imported for any other first word only.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import TextIO

from engine.pikdame import cli as f7
from engine.pikdame.cli import EXIT_ILLEGAL, EXIT_MALFORMED, EXIT_OK

#: A game's command line: (arguments, output, input) -> exit status.
CommandLine = Callable[[list[str], TextIO | None, TextIO | None], int]


def named_games() -> Mapping[str, CommandLine]:
    """The games whose commands follow their name, with their command lines, in the registry's
    order: each the ``main`` of the module the registry names for it."""
    from engine import games

    return {
        name: importlib.import_module(module).main for name, module in games.COMMAND_LINES.items()
    }


def main(
    argv: list[str] | None = None, out: TextIO | None = None, stdin: TextIO | None = None
) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] and argv[0] in f7.VERBS:  # F7, the analysis, the tournaments
        return f7.dispatch(argv, out, stdin)
    named = named_games()
    if argv[:1] and argv[0] in named:  # GIN.md G9: python -m engine gin …
        return named[argv[0]](argv[1:], out, stdin)
    return f7.main(argv, out, stdin, named=tuple(named))  # --help, or malformed


__all__ = ["EXIT_ILLEGAL", "EXIT_MALFORMED", "EXIT_OK", "CommandLine", "main", "named_games"]
