"""What every game's command line shares (FORMATS.md F7, GIN.md G9): JSON in and out, the exit
codes, ``check`` (moves applied to a position until the first illegal one) and ``replay``.

A game's CLI module supplies its parser and how to read a position or replay a record; the
plumbing and the output shapes are the same for every game, byte for byte.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any, NoReturn, Protocol, TextIO

from engine.core.errors import EngineError, Malformed

EXIT_OK, EXIT_MALFORMED, EXIT_ILLEGAL = 0, 2, 3


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are :class:`Malformed` (exit 2 with a JSON message)."""

    def error(self, message: str) -> NoReturn:
        raise Malformed(message)


class Position(Protocol):
    """A game state as ``check`` uses it."""

    def push(self, move: Any, seat: int | None = None) -> Any: ...

    def to_position(self) -> dict[str, Any]: ...


def streams(
    argv: list[str] | None, out: TextIO | None, stdin: TextIO | None
) -> tuple[list[str], TextIO, TextIO]:
    """A command's arguments, output and input: the process's own unless given (tests)."""
    return (
        sys.argv[1:] if argv is None else argv,
        sys.stdout if out is None else out,
        sys.stdin if stdin is None else stdin,
    )


def add_file_commands(sub: Any, check_help: str, replay_help: str) -> None:
    """``check`` and ``replay``, each reading one JSON file (standard input by default)."""
    for name, text in (("check", check_help), ("replay", replay_help)):
        p = sub.add_parser(name, help=text)
        p.add_argument("file", nargs="?", default=None, help="input file (default: stdin)")


def write_json(doc: Any, out: TextIO) -> None:
    out.write(json.dumps(doc, ensure_ascii=False) + "\n")


def read_json(path: str | None, stdin: TextIO) -> Any:
    """The JSON document in ``path`` (standard input for None or ``-``)."""
    try:
        if path is None or path == "-":
            text = stdin.read()
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        return json.loads(text)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise Malformed(f"cannot read JSON input: {e}") from None


def check(
    doc: Any, read_position: Callable[[Any], Position], out: TextIO, position_name: str
) -> int:
    """F7 ``check``: ``{"position", "moves"}`` in; ``{"results", "position"}`` out."""
    if not isinstance(doc, dict) or set(doc) != {"position", "moves"}:
        raise Malformed(f'input is {{"position": <{position_name}>, "moves": ["…", …]}}')
    moves = doc["moves"]
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise Malformed("moves is a list of strings")
    try:
        state = read_position(doc["position"])
    except EngineError as e:
        raise Malformed(e.message) from None
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
    write_json({"results": results, "position": state.to_position()}, out)
    return status


def replay(
    record: Any, verify: Callable[[Any], dict[str, Any] | None], out: TextIO, prog: str
) -> int:
    """F7 ``replay``: ``verify`` replays the record and returns its result (or raises)."""
    try:
        result = verify(record)
    except EngineError as e:
        error: dict[str, Any] = {"move_index": None, **e.to_json()}
        write_json({"ok": False, "error": error}, out)
        if e.code == "bad_format":
            sys.stderr.write(f"{prog} replay: {e.message}\n")
            return EXIT_MALFORMED
        return EXIT_ILLEGAL
    write_json({"ok": True, "result": result}, out)
    return EXIT_OK


def run(command: Callable[[], int]) -> int:
    """Run a command; malformed input exits 2 with ``{"error": {"code": "bad_format", …}}`` on
    standard error."""
    try:
        return command()
    except Malformed as e:
        sys.stderr.write(json.dumps({"error": {"code": "bad_format", "message": str(e)}}) + "\n")
        return EXIT_MALFORMED


__all__ = [
    "EXIT_ILLEGAL",
    "EXIT_MALFORMED",
    "EXIT_OK",
    "Malformed",
    "Parser",
    "Position",
    "add_file_commands",
    "check",
    "read_json",
    "replay",
    "run",
    "streams",
    "write_json",
]
