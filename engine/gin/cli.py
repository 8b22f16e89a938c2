"""Gin's command line (GIN.md G9, F7's shapes): ``python -m engine gin deal | check | replay |
tournament``. The plumbing (JSON in and out, exit codes 0 / 3 / 2, the ``check`` and ``replay``
output) is every game's, in ``engine.core.commandline``.
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from engine.core import commandline as cl
from engine.core.errors import FormatError
from engine.core.records import parse_seed
from engine.gin.match import FIRST_DEALER
from engine.gin.replay import replay
from engine.gin.state import HandState


def cmd_deal(args: argparse.Namespace, out: TextIO) -> int:
    try:
        seed = parse_seed(args.seed)
    except FormatError as e:
        raise cl.Malformed(f"--seed: {e.message}") from None
    if not 1 <= args.hand < 2**32:
        raise cl.Malformed("--hand is 1 … 2^32-1")
    if args.dealer not in (0, 1):
        raise cl.Malformed("--dealer is 0 or 1")
    cl.write_json(HandState.new(seed, args.hand, args.dealer).to_position(), out)
    return cl.EXIT_OK


def _verify(record: Any) -> dict[str, Any] | None:
    return replay(record).result_json()


def build_parser() -> argparse.ArgumentParser:
    parser = cl.Parser(prog="python -m engine gin", description="Gin Rommé engine (GIN.md G9)")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=cl.Parser)
    deal = sub.add_parser("deal", help="print the position (gin-position/1) after a hand's deal")
    deal.add_argument("--seed", required=True, help="the match seed as 64 hex digits")
    deal.add_argument("--hand", type=int, default=1, help="hand number (G3), default 1")
    deal.add_argument(
        "--dealer", type=int, default=FIRST_DEALER, help="dealer seat, default 1 (G2)"
    )
    cl.add_file_commands(
        sub,
        'apply moves to a position: {"position": gin-position/1, "moves": [...]}',
        "replay and verify a match record (gin-log/1) with its seed",
    )
    sub.add_parser(
        "analyse",
        help="move-by-move analysis of a seat's play (docs/ANALYSIS.md; see --help after it)",
        add_help=False,
    )
    sub.add_parser("tournament", help="bot tournament (see --help after it)", add_help=False)
    return parser


def main(
    argv: list[str] | None = None, out: TextIO | None = None, stdin: TextIO | None = None
) -> int:
    argv, output, source = cl.streams(argv, out, stdin)
    if argv[:1] == ["tournament"]:
        from engine.gin.tournament import main as tournament_main

        return tournament_main(argv[1:])
    if argv[:1] == ["analyse"]:  # docs/ANALYSIS.md: a seat's play, move by move
        from engine.gin.analysis import analyse, analyse_position

        return cl.analyse(
            argv[1:],
            output,
            source,
            prog="python -m engine gin",
            part="hand",
            of_record=analyse,
            of_position=analyse_position,
        )

    def command() -> int:
        args = build_parser().parse_args(argv)
        if args.command == "deal":
            return cmd_deal(args, output)
        doc = cl.read_json(args.file, source)
        if args.command == "check":
            return cl.check(doc, HandState.from_position, output, "gin-position/1")
        return cl.replay(doc, _verify, output, "engine gin")

    return cl.run(command)


__all__ = ["build_parser", "main"]
