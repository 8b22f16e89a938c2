"""Pik Dame's command line (FORMATS.md F7): ``python -m engine deal | check | replay``.

Exit status: 0 all legal, 3 an illegal move (or a record that does not verify), 2 malformed input
(the message on standard error). The plumbing is every game's, in ``engine.core.commandline``;
``analyse`` a seat's play (docs/ANALYSIS.md) and ``tournament`` bot matches
(engine/pikdame/tournament.py), both through :func:`dispatch`; ``engine/cli.py`` dispatches to it
and to each other game's command line (whose names this parser lists).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any, Final, TextIO

from engine.core import commandline as cl
from engine.core.commandline import EXIT_ILLEGAL, EXIT_MALFORMED, EXIT_OK
from engine.core.records import parse_seed
from engine.pikdame.cards import TAUSENDE_TOTAL, TOTAL_CARDS
from engine.pikdame.errors import FormatError
from engine.pikdame.match import GAME_FORMAT, replay_match
from engine.pikdame.replay import replay
from engine.pikdame.rules import RULESETS, Rules
from engine.pikdame.state import State

#: F7's commands, the first word of their command lines.
COMMANDS: Final = ("deal", "check", "replay")
#: Every word this command line answers first (:func:`dispatch`): F7's commands, the analysis
#: (docs/ANALYSIS.md) and the bot tournaments (engine/pikdame/tournament.py).
VERBS: Final = (*COMMANDS, "analyse", "tournament")


def cmd_deal(args: argparse.Namespace, out: TextIO) -> int:
    try:
        seed = parse_seed(args.seed)
    except FormatError as e:
        raise cl.Malformed(f"--seed: {e.message}") from None
    if args.players not in (2, 3, 4):
        raise cl.Malformed("--players is 2, 3 or 4")
    if not 0 <= args.dealer < args.players:
        raise cl.Malformed("--dealer is a seat: 0 … players-1")
    total = TAUSENDE_TOTAL if args.rules == "tausende" else TOTAL_CARDS
    if args.cut is not None and not 1 <= args.cut <= total - 1:
        raise cl.Malformed(f"--cut is 1 … {total - 1}")
    rules = Rules(players=args.players, ruleset=args.rules)
    state = State.new_round(seed, rules, args.dealer, args.cut)
    cl.write_json(state.to_position(), out)
    return EXIT_OK


def _verify(record: Any) -> dict[str, Any] | None:
    if isinstance(record, dict) and record.get("format") == GAME_FORMAT:
        # a whole game's record (tables, docs/TABLES.md): F7's shapes and exit codes too
        return replay_match(record).result()
    outcome = replay(record).state.outcome
    return None if outcome is None else outcome.to_json()


def cmd_check(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    return cl.check(cl.read_json(args.file, stdin), State.from_position, out, "F5")


def cmd_replay(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    return cl.replay(cl.read_json(args.file, stdin), _verify, out, "engine")


def build_parser(named: Sequence[str] = ()) -> argparse.ArgumentParser:
    """F7's parser; ``named`` are the other games, whose commands follow their name (``engine.cli``
    runs them): listed here so that ``--help`` names them."""
    description = "Pik Dame rules engine (FORMATS.md F7)"
    if named:
        description += "; every other game's commands follow its name"
    parser = cl.Parser(prog="python -m engine", description=description)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=cl.Parser)
    deal = sub.add_parser("deal", help="print the position after the deal (F3, F5)")
    deal.add_argument("--seed", required=True, help="the 32-byte seed as 64 hex digits")
    deal.add_argument("--players", type=int, required=True)
    deal.add_argument("--dealer", type=int, required=True)
    deal.add_argument("--cut", type=int, default=None, help="1 … 109; automatic cut if omitted")
    deal.add_argument(
        "--rules", choices=RULESETS, default="pikdame", help="the ruleset (R12: tausende)"
    )
    cl.add_file_commands(
        sub,
        'apply moves to a position: {"position": F5, "moves": [...]}',
        "replay and verify a game record (F6) with its seed",
    )
    sub.add_parser(
        "analyse",
        help="move-by-move analysis of a seat's play (docs/ANALYSIS.md; see --help after it)",
        add_help=False,
    )
    sub.add_parser(
        "tournament", help="bot tournament (see --help after the command)", add_help=False
    )
    for name in named:
        sub.add_parser(
            name, help=f"the {name} engine's commands (see --help after it)", add_help=False
        )
    return parser


def main(
    argv: list[str] | None = None,
    out: TextIO | None = None,
    stdin: TextIO | None = None,
    *,
    named: Sequence[str] = (),
) -> int:
    """Run one of F7's commands (``deal``, ``check``, ``replay``) on ``argv``; ``named`` as for
    :func:`build_parser`."""
    argv, output, source = cl.streams(argv, out, stdin)

    def command() -> int:
        args = build_parser(named).parse_args(argv)
        if args.command == "deal":
            return cmd_deal(args, output)
        if args.command == "check":
            return cmd_check(args, output, source)
        return cmd_replay(args, output, source)

    return cl.run(command)


def dispatch(
    argv: list[str],
    out: TextIO | None = None,
    stdin: TextIO | None = None,
    *,
    named: Sequence[str] = (),
) -> int:
    """Run the command of :data:`VERBS` that ``argv`` starts with; anything else (``--help``,
    a malformed line) as F7 answers it, ``named`` as for :func:`build_parser`."""
    if argv[:1] == ["analyse"]:  # docs/ANALYSIS.md: a seat's play, move by move
        return _analyse(argv[1:], out, stdin)
    if argv[:1] == ["tournament"]:
        from engine.pikdame.tournament import main as tournament_main  # only when asked: heavy

        return int(tournament_main(argv[1:]))
    return main(argv, out, stdin, named=named)


def _analyse(argv: list[str], out: TextIO | None, stdin: TextIO | None) -> int:
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


__all__ = [
    "COMMANDS",
    "EXIT_ILLEGAL",
    "EXIT_MALFORMED",
    "EXIT_OK",
    "VERBS",
    "build_parser",
    "dispatch",
    "main",
]
