"""Gin move notation (GIN.md G8): parsing and the canonical text of a move.

One move per string, tokens separated by whitespace, input case-insensitive. ``|`` separates
groups and ``/`` starts the lay-offs of ``defend``; both are read with or without spaces around
them. Output is canonical: single spaces, F1 card names, each group's cards in canonical order
(a run ascending, a set by suit), groups in the declared order (their numbers are 1-based in
that order, G8), lay-offs in the given order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Final

from engine.core.errors import NotationError
from engine.gin.cards import NAMES, parse_card

KINDS: Final = ("pass", "take", "draw", "discard", "knock", "defend", "resign")
_DIGITS: Final = re.compile(r"[0-9]+")


@dataclass(frozen=True)
class Move:
    """A parsed move. ``groups``: the declared melds (knock, defend), each a sorted card tuple;
    ``layoffs``: (card, meld number N, 1-based) in order (defend)."""

    kind: str
    card: int | None = None
    groups: tuple[tuple[int, ...], ...] = ()
    layoffs: tuple[tuple[int, int], ...] = ()

    def __str__(self) -> str:
        return self.text

    @cached_property
    def text(self) -> str:
        """The canonical text (computed once: records write every move, replays compare them)."""
        if self.kind == "discard":
            assert self.card is not None
            return f"discard {NAMES[self.card]}"
        if self.kind == "knock":
            assert self.card is not None
            return " ".join(["knock", NAMES[self.card], _groups_text(self.groups)]).rstrip()
        if self.kind == "defend":
            text = "defend"
            if self.groups:
                text += " " + _groups_text(self.groups)
            if self.layoffs:
                text += " / " + " ".join(f"{NAMES[c]}@{n}" for c, n in self.layoffs)
            return text
        return self.kind

    @staticmethod
    def parse(text: str) -> Move:
        return parse_move(text)


def _groups_text(groups: tuple[tuple[int, ...], ...]) -> str:
    return " | ".join(" ".join(NAMES[c] for c in g) for g in groups)


def _syntax(text: str, why: str) -> NotationError:
    return NotationError(f"{text!r}: {why} (G8)", text)


def _parse_groups(text: str, part: str) -> tuple[tuple[int, ...], ...]:
    if not part.strip():
        return ()
    groups = []
    for chunk in part.split("|"):
        tokens = chunk.split()
        if not tokens:
            raise _syntax(text, "an empty group")
        groups.append(tuple(sorted(parse_card(t) for t in tokens)))
    return tuple(groups)


def _parse_layoff(text: str, token: str) -> tuple[int, int]:
    card, at, number = token.partition("@")
    # As F2's meld numbers: decimal digits, at most 9 significant, not 0 (leading zeros read).
    if not at or not _DIGITS.fullmatch(number) or len(number.lstrip("0")) > 9 or int(number) < 1:
        raise _syntax(text, f"a lay-off is C@N with N a meld number 1 … 999999999, not {token!r}")
    return parse_card(card), int(number)


def parse_move(text: str) -> Move:
    """Parse one move; raises :class:`NotationError` (code ``syntax``). Moves are immutable, so
    the parses of recent texts are shared (a replay reads the same few texts over and over)."""
    if not isinstance(text, str):
        raise NotationError("a move is a string (G8)", text)
    return _parse_cached(text)


@lru_cache(maxsize=4096)
def _parse_cached(text: str) -> Move:
    parts = text.split(None, 1)
    head, rest = (parts[0], parts[1] if len(parts) > 1 else "") if parts else ("", "")
    kind = head.lower()
    if kind not in KINDS:
        raise _syntax(text, f"unknown move {head!r}; one of {', '.join(KINDS)}")
    rest = rest.strip()
    if kind in ("pass", "take", "draw", "resign"):
        if rest:
            raise _syntax(text, f"{kind} takes no arguments")
        return Move(kind)
    if kind == "discard":
        tokens = rest.split()
        if len(tokens) != 1:
            raise _syntax(text, "discard takes one card")
        return Move(kind, parse_card(tokens[0]))
    if kind == "knock":
        tokens = rest.replace("|", " | ").split(None, 1)
        card_text = tokens[0] if tokens else ""
        groups_text = tokens[1] if len(tokens) > 1 else ""
        if not card_text or card_text == "|":
            raise _syntax(text, "knock C G1 | G2 …: the card to discard first")
        if "/" in groups_text or "@" in groups_text:
            raise _syntax(text, "a knock has no lay-offs")
        return Move(kind, parse_card(card_text), _parse_groups(text, groups_text))
    # defend
    if rest.count("/") > 1:
        raise _syntax(text, "defend G1 | G2 … / C@N …: one '/' at most")
    groups_text, _, layoffs_text = rest.partition("/")
    if "@" in groups_text:
        raise _syntax(text, "lay-offs C@N come after '/'")
    if "|" in layoffs_text:
        raise _syntax(text, "groups come before '/'")
    layoffs = tuple(_parse_layoff(text, t) for t in layoffs_text.split())
    return Move(kind, None, _parse_groups(text, groups_text), layoffs)


__all__ = ["KINDS", "Move", "parse_move"]
