"""What every game's records share (F4, F6, G9): the seats, the seed and its commitment, and the
note that explains a bot mismatch by a change of engine version."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.core.errors import FormatError, ReplayError


@dataclass(frozen=True)
class Seat:
    """A seat of a game: a human with a name, or a bot with a level (R9, G9)."""

    kind: str
    name: str | None = None
    level: str | None = None

    def to_json(self) -> dict[str, Any]:
        if self.kind == "bot":
            return {"kind": "bot", "level": self.level}
        return {"kind": "human", "name": self.name}

    @staticmethod
    def from_json(obj: Any, levels: Sequence[str]) -> Seat:
        """Read a seat whose bot level is one of ``levels`` (the game's)."""
        if isinstance(obj, dict) and obj.get("kind") == "bot" and obj.get("level") in levels:
            return Seat("bot", level=obj["level"])
        if (
            isinstance(obj, dict)
            and obj.get("kind") == "human"
            and isinstance(obj.get("name"), str)
        ):
            return Seat("human", name=obj["name"])
        raise FormatError(f"a seat is a human with a name or a bot of level {tuple(levels)}", obj)


def commitment(seed: bytes) -> str:
    """F4: lower-case hex of SHA-256(seed)."""
    return hashlib.sha256(seed).hexdigest()


def parse_seed(text: Any) -> bytes:
    """A 32-byte seed written as 64 hex digits."""
    if not isinstance(text, str) or len(text) != 64:
        raise FormatError("a seed is 64 hex digits", text)
    try:
        return bytes.fromhex(text)
    except ValueError:
        raise FormatError("a seed is 64 hex digits", text) from None


def version_note(record: dict[str, Any], engine_version: str) -> str:
    """Bots change between engine versions (a record names the one that played): say so when
    they differ, since a bot mismatch is then expected rather than a forgery."""
    played_by = record.get("engine")
    if played_by == engine_version:
        return ""
    return f" (the record was played by engine {played_by!r}; this is {engine_version!r})"


def bot_mismatch(
    index: int, seat: int, expected: object, text: str, record: dict[str, Any], engine: str
) -> ReplayError:
    """The replay's ``bot_mismatch`` (F6, G9): the bot of ``seat`` plays ``expected`` where the
    record says ``text`` at move ``index``; with the version note when engines differ."""
    return ReplayError(
        "bot_mismatch",
        f"move {index}: seat {seat}'s bot plays {expected}, the record says {text!r}"
        + version_note(record, engine),
        index,
        record,
    )


__all__ = ["Seat", "bot_mismatch", "commitment", "parse_seed", "version_note"]
