"""The toy game's command line (``python -m engine threes deal SEED``): the position dealt by a
seed, as every game's command line writes JSON (engine.core.commandline)."""

from __future__ import annotations

import sys
from typing import TextIO

from engine.core import commandline as cl
from engine.core.errors import FormatError
from engine.core.records import parse_seed
from tests.toygame.engine.game import State


def main(argv: list[str], out: TextIO | None = None, stdin: TextIO | None = None) -> int:
    if len(argv) != 2 or argv[0] != "deal":
        print("usage: python -m engine threes deal SEED", file=sys.stderr)
        return cl.EXIT_MALFORMED
    try:
        seed = parse_seed(argv[1])
    except FormatError as e:
        print(e.message, file=sys.stderr)
        return cl.EXIT_MALFORMED
    cl.write_json(State.new(seed).to_position(), out or sys.stdout)
    return cl.EXIT_OK
