"""``python -m engine``: the command line of every game (FORMATS.md F7), dispatched by its first
word. Pik Dame's commands (``deal``, ``check``, ``replay``) live in ``engine/pikdame/cli.py``,
its bot tournaments in ``engine/pikdame/tournament.py``; ``gin …`` goes to ``engine/gin/cli.py``
(GIN.md G9).
"""

from __future__ import annotations

import sys
from typing import TextIO

from engine.pikdame import cli as pikdame_cli
from engine.pikdame.cli import EXIT_ILLEGAL, EXIT_MALFORMED, EXIT_OK


def main(
    argv: list[str] | None = None, out: TextIO | None = None, stdin: TextIO | None = None
) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["gin"]:  # GIN.md G9: the second game's command line
        from engine.gin.cli import main as gin_main

        return gin_main(argv[1:], out, stdin)
    if argv[:1] == ["analyse"]:  # docs/ANALYSIS.md: a seat's play, move by move
        return _analyse(argv[1:], out, stdin)
    if argv[:1] == ["tournament"]:
        from engine.pikdame.tournament import main as tournament_main  # only when asked: heavy

        return int(tournament_main(argv[1:]))
    return pikdame_cli.main(argv, out, stdin)


def _analyse(argv: list[str], out: TextIO | None, stdin: TextIO | None) -> int:
    from engine.core import commandline as cl
    from engine.pikdame.analysis import analyse, analyse_position  # only when asked: heavy

    argv, output, source = cl.streams(argv, out, stdin)
    return cl.analyse(
        argv,
        output,
        source,
        prog="python -m engine",
        part="round",
        of_record=analyse,
        of_position=analyse_position,
    )


__all__ = ["EXIT_ILLEGAL", "EXIT_MALFORMED", "EXIT_OK", "main"]
