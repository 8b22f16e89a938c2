"""Gin's command line (GIN.md G9, F7's shapes): ``python -m engine gin deal | check | replay |
tournament``.

Exit status as F7: 0 all legal, 3 an illegal move (or a record that does not verify), 2 malformed
input (the message on standard error).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, NoReturn, TextIO

from engine.core.errors import EngineError, FormatError
from engine.gin.match import FIRST_DEALER
from engine.gin.record import parse_seed, replay
from engine.gin.state import HandState

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
    if not 1 <= args.hand < 2**32:
        raise _Malformed("--hand is 1 … 2^32-1")
    if args.dealer not in (0, 1):
        raise _Malformed("--dealer is 0 or 1")
    _write(HandState.new(seed, args.hand, args.dealer).to_position(), out)
    return EXIT_OK


def cmd_check(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    doc = _read_json(args.file, stdin)
    if not isinstance(doc, dict) or set(doc) != {"position", "moves"}:
        raise _Malformed('input is {"position": <gin-position/1>, "moves": ["…", …]}')
    moves = doc["moves"]
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise _Malformed("moves is a list of strings")
    try:
        state = HandState.from_position(doc["position"])
    except EngineError as e:
        raise _Malformed(e.message) from None
    results: list[dict[str, Any]] = []
    status = EXIT_OK
    for text in moves:
        try:
            state.push(text)
        except EngineError as e:
            results.append({"move": text, "ok": False, "error": e.to_json()})
            status = EXIT_ILLEGAL
            break
        results.append({"move": text, "ok": True})
    _write({"results": results, "position": state.to_position()}, out)
    return status


def cmd_replay(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    record = _read_json(args.file, stdin)
    try:
        match = replay(record)
    except EngineError as e:
        error: dict[str, Any] = {"move_index": None, **e.to_json()}
        _write({"ok": False, "error": error}, out)
        if e.code == "bad_format":
            sys.stderr.write(f"engine gin replay: {e.message}\n")
            return EXIT_MALFORMED
        return EXIT_ILLEGAL
    _write({"ok": True, "result": match.result_json()}, out)
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m engine gin", description="Gin Rommé engine (GIN.md G9)")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    deal = sub.add_parser("deal", help="print the position (gin-position/1) after a hand's deal")
    deal.add_argument("--seed", required=True, help="the match seed as 64 hex digits")
    deal.add_argument("--hand", type=int, default=1, help="hand number (G3), default 1")
    deal.add_argument(
        "--dealer", type=int, default=FIRST_DEALER, help="dealer seat, default 1 (G2)"
    )
    for name, text in (
        ("check", 'apply moves to a position: {"position": gin-position/1, "moves": [...]}'),
        ("replay", "replay and verify a match record (gin-log/1) with its seed"),
    ):
        p = sub.add_parser(name, help=text)
        p.add_argument("file", nargs="?", default=None, help="input file (default: stdin)")
    sub.add_parser("tournament", help="bot tournament (see --help after it)", add_help=False)
    return parser


def main(
    argv: list[str] | None = None, out: TextIO | None = None, stdin: TextIO | None = None
) -> int:
    argv = sys.argv[1:] if argv is None else argv
    out = sys.stdout if out is None else out
    stdin = sys.stdin if stdin is None else stdin
    if argv[:1] == ["tournament"]:
        from engine.gin.tournament import main as tournament_main

        return tournament_main(argv[1:])
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


__all__ = ["EXIT_ILLEGAL", "EXIT_MALFORMED", "EXIT_OK", "build_parser", "main"]
