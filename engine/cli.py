"""``python -m engine``: the command line of every game (FORMATS.md F7), dispatched by its first
word. Pik Dame's commands (``deal``, ``check``, ``replay``) live in ``engine/pikdame/cli.py``,
its bot tournaments in ``engine/pikdame/tournament.py``; a game package's name as the first word
goes to that package's own ``cli.py`` (``gin …``: ``engine/gin/cli.py``, GIN.md G9).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from engine.pikdame import cli as pikdame_cli
from engine.pikdame.cli import EXIT_ILLEGAL, EXIT_MALFORMED, EXIT_OK

GameMain = Callable[[list[str], TextIO | None, TextIO | None], int]


def game_command(word: str) -> GameMain | None:
    """The ``main`` of the game package named ``word`` (``engine/<word>/cli.py``), imported
    only when asked; None when ``word`` names no game package with a command line."""
    if not word.isidentifier() or not (Path(__file__).parent / word / "cli.py").is_file():
        return None
    found: GameMain = importlib.import_module(f"engine.{word}.cli").main
    return found


def main(
    argv: list[str] | None = None, out: TextIO | None = None, stdin: TextIO | None = None
) -> int:
    argv = sys.argv[1:] if argv is None else argv
    game = game_command(argv[0]) if argv else None
    if game is not None:
        return game(argv[1:], out, stdin)
    if argv[:1] == ["tournament"]:
        from engine.pikdame.tournament import main as tournament_main  # only when asked: heavy

        return int(tournament_main(argv[1:]))
    return pikdame_cli.main(argv, out, stdin)


__all__ = ["EXIT_ILLEGAL", "EXIT_MALFORMED", "EXIT_OK", "game_command", "main"]
