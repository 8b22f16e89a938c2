"""``python -m engine``: the command line of every game, dispatched by its first word.

F7's commands (``deal``, ``check``, ``replay``) are Pik Dame's, for each of its rulesets
(``deal --rules``, R12), in ``engine/pikdame/cli.py``; its bot tournaments in
``engine/pikdame/tournament.py``. Every other game of the registry (``engine.games``) has its
commands after its name: ``python -m engine gin …`` (GIN.md G9) goes to ``engine/gin/cli.py``.
``python -m engine --help`` lists them all.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from typing import Final, TextIO

from engine import games
from engine.gin import cli as gin_cli
from engine.gin.game import GIN
from engine.pikdame import cli as pikdame_cli
from engine.pikdame.cli import EXIT_ILLEGAL, EXIT_MALFORMED, EXIT_OK

#: A game's command line: (arguments, output, input) -> exit status.
CommandLine = Callable[[list[str], TextIO | None, TextIO | None], int]

#: The games whose commands follow their name: every game of the registry but Pik Dame's
#: rulesets, whose commands are F7's own.
NAMED: Final[tuple[str, ...]] = tuple(
    name for name in games.NAMES if name not in games.PIKDAME_RULESETS
)
#: The command line of each game in :data:`NAMED`.
COMMAND_LINES: Final[Mapping[str, CommandLine]] = {GIN.name: gin_cli.main}
assert tuple(COMMAND_LINES) == NAMED, "every named game has its command line"


def main(
    argv: list[str] | None = None, out: TextIO | None = None, stdin: TextIO | None = None
) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] and argv[0] in COMMAND_LINES:  # GIN.md G9: python -m engine gin …
        return COMMAND_LINES[argv[0]](argv[1:], out, stdin)
    if argv[:1] == ["tournament"]:
        from engine.pikdame.tournament import main as tournament_main  # only when asked: heavy

        return int(tournament_main(argv[1:]))
    return pikdame_cli.main(argv, out, stdin, named=NAMED)


__all__ = ["COMMAND_LINES", "EXIT_ILLEGAL", "EXIT_MALFORMED", "EXIT_OK", "NAMED", "main"]
