"""What both Gin bots share: the discard that leaves the least deadwood, knocking with the best
arrangement, and the exact best defence (G6). Integer arithmetic only, ties broken by card id."""

from __future__ import annotations

from engine.gin.cards import POINTS, from_mask
from engine.gin.melds import arrange, min_deadwood
from engine.gin.moves import Move
from engine.gin.state import KNOCK_LIMIT
from engine.gin.view import View, suggested_defence


def discard_options(v: View) -> list[tuple[int, int]]:
    """(deadwood left, card) for every card the seat may discard now (not the card taken)."""
    return [(min_deadwood(v.hand & ~(1 << c)), c) for c in from_mask(v.hand) if c != v.taken]


def knock_with(hand: int, card: int) -> Move:
    """Knock discarding ``card`` and declaring the best arrangement of the rest."""
    _, melds = arrange(hand & ~(1 << card))
    return Move("knock", card, tuple(tuple(from_mask(m)) for m in melds))


def knock_or_none(v: View, options: list[tuple[int, int]]) -> Move | None:
    """A knock with the least deadwood (the highest card discarded on ties), if one is legal."""
    deadwood, card = min(options, key=lambda o: (o[0], -POINTS[o[1]], -o[1]))
    return knock_with(v.hand, card) if deadwood <= KNOCK_LIMIT else None


def defend(v: View) -> Move:
    return suggested_defence(v)


def deadwood_after_take(v: View) -> int:
    """The least deadwood reachable by taking the pile's top card and discarding another."""
    top = v.discard[-1]
    hand = v.hand | 1 << top
    return min(min_deadwood(hand & ~(1 << c)) for c in from_mask(hand) if c != top)


__all__ = ["deadwood_after_take", "defend", "discard_options", "knock_or_none", "knock_with"]
