"""Worlds a seat cannot tell from the real one (R10), built from its view alone: the analysis'
samples (engine.pikdame.analysis) and the Meister's (bots/meister.py) share them, so they live
below both; and the work a bot's move costs, by which both budget their play-outs, counted,
never clocked."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.core.analysis import shuffle_pool
from engine.core.cards import CARDS, NUM_KINDS, Card, Counts, counts_of
from engine.core.rng import Stream
from engine.pikdame.bots.knowledge import take_options
from engine.pikdame.cards import COPIES, TAUSENDE_COPIES
from engine.pikdame.errors import FormatError
from engine.pikdame.state import State
from engine.pikdame.tausende import TausendeState
from engine.pikdame.view import View

#: A take's work (:func:`work_of`): (hand + pile)² / TAKE_WORK units, at most TAKE_WORK_CAP;
#: takes of up to TAKE_LEN cards, as the bots weigh them (bots/planner).
TAKE_WORK: Final = 50
TAKE_WORK_CAP: Final = 100
TAKE_LEN: Final = 4


def work_of(v: View) -> int:
    """What a bot's move from ``v`` costs the analysis, in units of a plain move (about 0.2 ms
    of one core): a draw phase's move weighs every take the pile allows (R4.1), each an
    arrangement of the hand with the pile's rest, a search that grows with their size up to
    the optimiser's node budget; so each take counts the size squared over :data:`TAKE_WORK`,
    at most :data:`TAKE_WORK_CAP` (a long round of passive players, whose pile grows past 40
    cards, otherwise cost minutes; BENCHMARKS.md). A fact of the view, never of a clock: the
    budget it feeds is deterministic."""
    if v.phase != "draw" or not v.discard:
        return 1
    size = len(v.hand) + len(v.discard)
    per_take = min(size * size // TAKE_WORK, TAKE_WORK_CAP)
    return 1 + per_take * len(take_options(v, TAKE_LEN))


def sample_world(v: View, known: Sequence[Counts], stream: Stream) -> State:
    """A full state that the seat of ``v`` cannot tell from the real one: its own hand, every meld,
    the pile, the removed cards and every public count as the view shows them; each other seat
    holds the cards it is known to hold (``known[s]``: taken from the pile, R4.1) and the rest of
    its hand from the unseen cards, shuffled by ``stream``; the stock is the next unseen cards.

    Unseen means the ruleset's whole deck (R1, R12.1) minus what the view shows and the known
    cards; a hand-made position holding fewer cards leaves some of them out of play."""
    pool = unseen_counts(v, known)
    n = v.rules.players
    cards = [CARDS[c] for c in range(NUM_KINDS) for _ in range(pool[c])]
    needed = [0 if s == v.seat else v.hand_sizes[s] - sum(known[s]) for s in range(n)]
    if min(needed) < 0 or sum(needed) + v.stock_size > len(cards):
        raise FormatError("the hidden cards outnumber the unseen ones (R1)", None)
    shuffled = shuffle_pool(stream, cards)
    hands: list[Counts] = []
    p = 0
    for s in range(n):
        if s == v.seat:
            hands.append(counts_of(v.hand))
        else:
            hands.append(counts_of([*_cards_of(known[s]), *shuffled[p : p + needed[s]]]))
            p += needed[s]
    return _assemble(v, hands, shuffled[p : p + v.stock_size])


def unseen_counts(v: View, known: Sequence[Counts]) -> Counts:
    """Per card kind, the copies the seat of ``v`` has not seen: the ruleset's deck (R1, R12.1)
    less what the view shows and the cards other seats are known to hold (``known``)."""
    pool = list(TAUSENDE_COPIES if v.rules.tausende else COPIES)
    seen = [*v.hand, *v.discard, *v.removed]
    for melds in v.melds:
        for m in melds:
            seen.extend(m.cards)
    for c in seen:
        pool[c] -= 1
    for s in range(v.rules.players):
        if s != v.seat:
            for kind, k in enumerate(known[s]):
                pool[kind] -= k
    if min(pool) < 0:
        raise FormatError("the view shows more copies of a card than the deck holds (R1)", None)
    return pool


def build_world(
    v: View, known: Sequence[Counts], hidden: Sequence[Counts], rest: list[Card], stream: Stream
) -> State:
    """A full state for the seat of ``v`` with each other seat's hidden cards ``hidden[s]``
    (beside its known ones) and the stock shuffled by ``stream`` from ``rest`` (the unseen
    cards no hand holds): the belief's deals (engine.pikdame.belief)."""
    if v.stock_size > len(rest):
        raise FormatError("the hidden cards outnumber the unseen ones (R1)", None)
    hands = [
        counts_of(v.hand)
        if s == v.seat
        else [a + b for a, b in zip(known[s], hidden[s], strict=True)]
        for s in range(v.rules.players)
    ]
    return _assemble(v, hands, shuffle_pool(stream, rest)[: v.stock_size])


def _assemble(v: View, hands: list[Counts], stock: list[Card]) -> State:
    """The state of ``v``'s public fields with these hands and this stock (top first)."""
    rules = v.rules
    world = (TausendeState if rules.tausende else State)(rules, v.dealer, v.round)
    world.turn, world.phase = v.turn, v.phase
    world.opened_at_turn_start = v.opened_at_turn_start
    world.hands = hands
    world.hand_sizes = list(v.hand_sizes)
    world.melds = [list(ms) for ms in v.melds]
    world.stock = stock[::-1]  # top last inside the state
    world.discard = list(v.discard)
    world.removed = list(v.removed)
    world.totals = list(v.totals)
    world.history = list(v.history)
    fields = v.tausende
    if isinstance(world, TausendeState) and fields is not None:  # R12's public fields
        world.opened = list(fields["opened"])
        world.laid = list(fields["laid"])
        world.swaps = fields["swaps"]
        world.turn_points = int(fields["turn_points"])
    return world


def _cards_of(counts: Counts) -> list[int]:
    return [c for c in range(NUM_KINDS) for _ in range(counts[c])]


__all__ = [
    "TAKE_LEN",
    "TAKE_WORK",
    "TAKE_WORK_CAP",
    "build_world",
    "sample_world",
    "unseen_counts",
    "work_of",
]
