"""A hand the seat cannot tell from the real one (G9), built from its view alone: the analysis'
samples (engine.gin.analysis) and the Meister's (bots/meister.py) share it, so it lives below
both."""

from __future__ import annotations

from typing import Final

from engine.core.analysis import shuffle_pool
from engine.core.errors import FormatError
from engine.core.rng import Stream
from engine.gin.cards import DECK_SIZE, from_mask
from engine.gin.state import HandState
from engine.gin.view import View

_ALL: Final = (1 << DECK_SIZE) - 1


def sample_world(v: View, stream: Stream) -> HandState:
    """A hand the seat of ``v`` cannot tell from the real one: its own cards, the pile, what the
    other seat took from it and still holds (or its whole hand once it knocked: its melds are
    declared, G6), every public count as the view shows them; the rest of the other hand and the
    stock from the unseen cards, shuffled by ``stream``. A hand-made position holding fewer than
    52 cards leaves some of them out of play."""
    other = v.other
    pile = 0
    for c in v.discard:
        pile |= 1 << c
    known = v.revealed if v.revealed is not None else v.took[other]
    unseen = _ALL & ~v.hand & ~pile & ~known
    need = v.other_size - known.bit_count()
    cards = from_mask(unseen)
    if need < 0 or need + v.stock_size > len(cards):
        raise FormatError("the hidden cards outnumber the unseen ones (G1)", None)
    shuffled = shuffle_pool(stream, cards)
    hand = known
    for c in shuffled[:need]:
        hand |= 1 << c
    return build_world(v, hand, shuffled[need : need + v.stock_size])


def build_world(v: View, other_hand: int, stock: list[int]) -> HandState:
    """The hand of ``v``'s public facts with the other seat holding ``other_hand`` and the
    stock ``stock`` (top first)."""
    world = HandState(v.hand_no, v.dealer)
    world.turn, world.phase, world.must_draw = v.turn, v.phase, v.must_draw
    hands = [0, 0]
    hands[v.seat] = v.hand
    hands[v.other] = other_hand
    world.hands = hands
    world.stock = stock
    world.discard = list(v.discard)
    world.taken = v.taken
    world.took = list(v.took)
    world.takes = sum(1 for _, text in v.history if text == "take")
    world.knock = v.knock
    world.history = list(v.history)
    return world


__all__ = ["build_world", "sample_world"]
