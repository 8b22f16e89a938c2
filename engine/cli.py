"""``python -m engine``: the command line of every game, dispatched by its first word.

F7's commands (``deal``, ``check``, ``replay``) are Pik Dame's, for each of its rulesets
(``deal --rules``, R12), in ``engine/pikdame/cli.py``; its bot tournaments in
``engine/pikdame/tournament.py``. Every other game of the registry (``engine.games``) has its
commands after its name: ``python -m engine gin …`` (GIN.md G9) goes to ``engine/gin/cli.py``.
``python -m engine --help`` lists them all. F7's commands load no other game: the registry is
imported for any other first word only.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from typing import TextIO

from engine.pikdame import cli as pikdame_cli
from engine.pikdame.cli import EXIT_ILLEGAL, EXIT_MALFORMED, EXIT_OK

#: A game's command line: (arguments, output, input) -> exit status.
CommandLine = Callable[[list[str], TextIO | None, TextIO | None], int]


def named_games() -> Mapping[str, CommandLine]:
    """The games whose commands follow their name, with their command lines: every game of the
    registry but Pik Dame's rulesets, whose commands are F7's own."""
    from engine import games
    from engine.gin import cli as gin_cli
    from engine.gin.game import GIN

    lines: dict[str, CommandLine] = {GIN.name: gin_cli.main}
    named = tuple(name for name in games.NAMES if name not in games.PIKDAME_RULESETS)
    assert tuple(lines) == named, "every named game has its command line"
    return lines


def main(
    argv: list[str] | None = None, out: TextIO | None = None, stdin: TextIO | None = None
) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] and argv[0] in pikdame_cli.COMMANDS:  # F7
        return pikdame_cli.main(argv, out, stdin)
    if argv[:1] == ["tournament"]:
        from engine.pikdame.tournament import main as tournament_main  # only when asked: heavy

        return int(tournament_main(argv[1:]))
    named = named_games()
    if argv[:1] and argv[0] in named:  # GIN.md G9: python -m engine gin …
        return named[argv[0]](argv[1:], out, stdin)
    return pikdame_cli.main(argv, out, stdin, named=tuple(named))  # --help, or malformed


__all__ = ["EXIT_ILLEGAL", "EXIT_MALFORMED", "EXIT_OK", "CommandLine", "main", "named_games"]
