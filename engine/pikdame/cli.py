"""Pik Dame's command line (FORMATS.md F7): ``python -m engine deal | check | replay``.

Exit status: 0 all legal, 3 an illegal move (or a record that does not verify), 2 malformed input
(the message on standard error). ``tournament`` runs bot matches (engine/pikdame/tournament.py);
``engine/cli.py`` dispatches to it and to this module.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, NoReturn, TextIO

from engine.pikdame.cards import TAUSENDE_TOTAL, TOTAL_CARDS
from engine.pikdame.errors import FormatError, PikDameError
from engine.pikdame.record import parse_seed
from engine.pikdame.replay import replay
from engine.pikdame.rules import RULESETS, Rules
from engine.pikdame.state import State

EXIT_OK, EXIT_MALFORMED, EXIT_ILLEGAL = 0, 2, 3


class _Malformed(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _Malformed(message)


def _write(doc: Any, out: TextIO) -> None:
    out.write(json.dumps(doc, ensure_ascii=False) + "\n")


def _read_json(path: str | None, stdin: TextIO) -> Any:
    try:
        if path is None or path == "-":
            text = stdin.read()
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        return json.loads(text)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise _Malformed(f"cannot read JSON input: {e}") from None


def cmd_deal(args: argparse.Namespace, out: TextIO) -> int:
    try:
        seed = parse_seed(args.seed)
    except FormatError as e:
        raise _Malformed(f"--seed: {e.message}") from None
    if args.players not in (2, 3, 4):
        raise _Malformed("--players is 2, 3 or 4")
    if not 0 <= args.dealer < args.players:
        raise _Malformed("--dealer is a seat: 0 … players-1")
    total = TAUSENDE_TOTAL if args.rules == "tausende" else TOTAL_CARDS
    if args.cut is not None and not 1 <= args.cut <= total - 1:
        raise _Malformed(f"--cut is 1 … {total - 1}")
    rules = Rules(players=args.players, ruleset=args.rules)
    state = State.new_round(seed, rules, args.dealer, args.cut)
    _write(state.to_position(), out)
    return EXIT_OK


def cmd_check(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    doc = _read_json(args.file, stdin)
    if not isinstance(doc, dict) or set(doc) != {"position", "moves"}:
        raise _Malformed('input is {"position": <F5>, "moves": ["…", …]}')
    moves = doc["moves"]
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise _Malformed("moves is a list of strings")
    try:
        state = State.from_position(doc["position"])
    except PikDameError as e:
        raise _Malformed(e.message) from None
    results: list[dict[str, Any]] = []
    status = EXIT_OK
    for text in moves:
        try:
            state.push(text)
        except PikDameError as e:
            results.append({"move": text, "ok": False, "error": e.to_json()})
            status = EXIT_ILLEGAL
            break
        results.append({"move": text, "ok": True})
    _write({"results": results, "position": state.to_position()}, out)
    return status


def cmd_replay(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    record = _read_json(args.file, stdin)
    try:
        game = replay(record)
    except PikDameError as e:
        error: dict[str, Any] = {"move_index": None, **e.to_json()}
        _write({"ok": False, "error": error}, out)
        if e.code == "bad_format":
            sys.stderr.write(f"engine replay: {e.message}\n")
            return EXIT_MALFORMED
        return EXIT_ILLEGAL
    outcome = game.state.outcome
    _write({"ok": True, "result": None if outcome is None else outcome.to_json()}, out)
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m engine", description="Pik Dame rules engine (FORMATS.md F7)")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    deal = sub.add_parser("deal", help="print the position after the deal (F3, F5)")
    deal.add_argument("--seed", required=True, help="the 32-byte seed as 64 hex digits")
    deal.add_argument("--players", type=int, required=True)
    deal.add_argument("--dealer", type=int, required=True)
    deal.add_argument("--cut", type=int, default=None, help="1 … 109; automatic cut if omitted")
    deal.add_argument(
        "--rules", choices=RULESETS, default="pikdame", help="the ruleset (R12: tausende)"
    )
    for name, text in (
        ("check", 'apply moves to a position: {"position": F5, "moves": [...]}'),
        ("replay", "replay and verify a game record (F6) with its seed"),
    ):
        p = sub.add_parser(name, help=text)
        p.add_argument("file", nargs="?", default=None, help="input file (default: stdin)")
    sub.add_parser(
        "tournament", help="bot tournament (see --help after the command)", add_help=False
    )
    return parser


def main(
    argv: list[str] | None = None, out: TextIO | None = None, stdin: TextIO | None = None
) -> int:
    """Run one of F7's commands (``deal``, ``check``, ``replay``) on ``argv``."""
    argv = sys.argv[1:] if argv is None else argv
    out = sys.stdout if out is None else out
    stdin = sys.stdin if stdin is None else stdin
    try:
        args = build_parser().parse_args(argv)
        if args.command == "deal":
            return cmd_deal(args, out)
        if args.command == "check":
            return cmd_check(args, out, stdin)
        return cmd_replay(args, out, stdin)
    except _Malformed as e:
        sys.stderr.write(json.dumps({"error": {"code": "bad_format", "message": str(e)}}) + "\n")
        return EXIT_MALFORMED
