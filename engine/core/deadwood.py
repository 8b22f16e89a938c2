"""Melds and the exact minimum deadwood of a hand of the standard 52-card deck (GIN.md G6), for
every rummy game dealt from one deck without jokers.

Hands are 52-bit masks (``engine.core.standard``: bit ``suit * 13 + rank``). A meld is 3 or 4
cards of one rank, or 3 or more consecutive cards of one suit with the ace low (no wrap: Q-K-A is
no run). What a game varies is what a card counts (:class:`~engine.core.standard.CardValues`):
:func:`deadwood_search` builds the search for those values, and :data:`STANDARD` is the one for
the usual values (G1). A game's limits (Gin's knock at 10, G6) are the game's own rules.

The minimum deadwood is exact: a memoised search over the lowest card that can still be melded
(it is either deadwood or in one of the melds that contain it), so overlapping candidates, 3- and
4-card sets and runs of any length are all weighed. Only cards that belong to some meld of the
hand enter the search; the rest are deadwood outright.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Final

from engine.core.melds import MIN_MELD
from engine.core.standard import DEADWOOD, SUIT_BITS, CardValues, from_mask, names


def _all_melds() -> list[int]:
    melds: list[int] = []
    for r in range(13):
        four = sum(1 << (s * 13 + r) for s in range(4))
        melds.append(four)
        for s in range(4):
            melds.append(four & ~(1 << (s * 13 + r)))
    for s in range(4):
        for lo in range(13):
            for hi in range(lo + MIN_MELD - 1, 13):
                melds.append(sum(1 << (s * 13 + k) for k in range(lo, hi + 1)))
    return melds


#: Every meld of the deck (65 sets, 264 runs) as a mask.
ALL_MELDS: Final = tuple(_all_melds())
#: For each card c: every meld whose lowest card is c, larger melds first. The searches below
#: always meld the lowest card left, so these are the only melds they can use.
MELDS_FROM: Final = tuple(
    tuple(
        sorted(
            (m for m in ALL_MELDS if (m & -m).bit_length() - 1 == c),
            key=lambda m: (-m.bit_count(), m),
        )
    )
    for c in range(52)
)


def meldable(mask: int) -> int:
    """The cards of ``mask`` that belong to at least one meld within ``mask``."""
    a, b, c, d = (
        mask & SUIT_BITS,
        mask >> 13 & SUIT_BITS,
        mask >> 26 & SUIT_BITS,
        mask >> 39 & SUIT_BITS,
    )
    ranks3 = (a & b & c) | (a & b & d) | (a & c & d) | (b & c & d)
    out = ranks3 | ranks3 << 13 | ranks3 << 26 | ranks3 << 39
    out &= mask
    for s, bits in enumerate((a, b, c, d)):
        starts = bits & bits >> 1 & bits >> 2
        if starts:
            out |= (starts | starts << 1 | starts << 2) << (13 * s)
    return out


# -- single melds ------------------------------------------------------------------------------


def meld_kind(mask: int) -> str | None:
    """``"set"``, ``"run"`` or None (not a meld, G6)."""
    n = mask.bit_count()
    if n < MIN_MELD:
        return None
    cards = from_mask(mask)
    if n <= 4 and all(c % 13 == cards[0] % 13 for c in cards):
        return "set"
    s = cards[0] // 13
    if all(c // 13 == s for c in cards) and cards[-1] - cards[0] == n - 1:
        return "run"
    return None


def is_meld(mask: int) -> bool:
    return meld_kind(mask) is not None


def extends(meld: int, card: int) -> bool:
    """Whether ``card`` laid off on ``meld`` keeps it a meld (G6 lay-off)."""
    return not meld >> card & 1 and is_meld(meld | 1 << card)


def meld_names(mask: int) -> list[str]:
    """A meld's cards in canonical order (a run ascending, a set by suit)."""
    return names(from_mask(mask))


def meld_collections(mask: int) -> Iterator[tuple[int, ...]]:
    """Every collection of disjoint melds within ``mask`` (the empty one included), each once,
    melds in order of their lowest card. Used for legal-move enumeration and brute force."""
    yield from _collections(meldable(mask), 0)


def _collections(rest: int, floor: int) -> Iterator[tuple[int, ...]]:
    """meld_collections' walk: the collections within ``rest`` whose melds start at ``floor`` or
    above. A module function, not a closure: a closure that calls itself is a reference cycle,
    left to the collector at every call."""
    yield ()
    for c in from_mask(rest):
        if c < floor:
            continue
        for m in MELDS_FROM[c]:
            if m & rest == m:
                for tail in _collections(rest & ~m, c + 1):
                    yield (m, *tail)


# -- lay-offs ----------------------------------------------------------------------------------


def layoff_chains(meld: int, hand: int) -> tuple[tuple[int, ...], ...]:
    """The cards of ``hand`` that can be laid off on ``meld`` one after another, as chains: a
    set's missing card; a run's cards below its low end (downwards) and above its high end
    (upwards). A prefix of each chain can be laid off, in order."""
    cards = from_mask(meld)
    if meld_kind(meld) == "set":
        missing = [
            s * 13 + cards[0] % 13 for s in range(4) if not meld >> (s * 13 + cards[0] % 13) & 1
        ]
        return tuple((c,) for c in missing if hand >> c & 1)
    suit_base = cards[0] // 13 * 13
    down: list[int] = []
    c = cards[0] - 1
    while c >= suit_base and hand >> c & 1:
        down.append(c)
        c -= 1
    up: list[int] = []
    c = cards[-1] + 1
    while c < suit_base + 13 and hand >> c & 1:
        up.append(c)
        c += 1
    return tuple(chain for chain in (tuple(down), tuple(up)) if chain)


def layoff_options(meld: int, index: int, hand: int) -> list[tuple[tuple[int, int], ...]]:
    """The ways to lay off cards of ``hand`` on meld number ``index`` (0-based), each a
    sequence of (card, index) in a valid order: a prefix of each chain (a set's single card is a
    chain of one; a set takes at most one card)."""
    chains = layoff_chains(meld, hand)
    if meld_kind(meld) == "set":
        return [(), *(((chain[0], index),) for chain in chains)]
    options: list[tuple[tuple[int, int], ...]] = [()]
    for chain in chains:  # every prefix of each chain, the last chain's varying fastest
        laid = tuple((c, index) for c in chain)
        options = [done + laid[:k] for done in options for k in range(len(laid) + 1)]
    return options


# -- the deadwood search -----------------------------------------------------------------------

#: The most points meldable within a mask and the melds reaching them, lowest card's meld first.
Best = tuple[int, tuple[int, ...]]
#: For each card: (mask, points) of every meld whose lowest card it is, larger melds first.
MeldPoints = tuple[tuple[tuple[int, int], ...], ...]

if TYPE_CHECKING:
    from functools import _lru_cache_wrapper

    Memo = _lru_cache_wrapper[Best]


@dataclass(frozen=True)
class DeadwoodSearch:
    """The exact deadwood search for one game's card values (plain functions, for hot paths).

    - ``points(mask)``: the values of a mask's cards;
    - ``min_deadwood(mask)``: the exact minimum deadwood of a hand (any number of cards);
    - ``arrange(mask)``: that minimum and one arrangement of melds reaching it. Deterministic:
      among arrangements of equal deadwood, the search order (lowest card first, larger melds
      first) picks the same one on every machine;
    - ``deadwood_of(hand, melds)``: the deadwood with the given (disjoint) melds declared;
    - ``best(mask)``: the memo (an ``lru_cache``) of the most points meldable within ``mask``,
      every card of which is meldable in the full hand, and the melds reaching it.
    """

    values: CardValues
    points: Callable[[int], int]
    min_deadwood: Callable[[int], int]
    arrange: Callable[[int], Best]
    deadwood_of: Callable[[int, Iterable[int]], int]
    best: Memo


def _unset(mask: int) -> Best:
    raise AssertionError("a search's memo is set as soon as it is made")


def _memoised(mask_points: Callable[[int], int], memo: int) -> Memo:
    """One game's memoised search: ``best(mask)`` is the most points meldable within ``mask``
    (every card of which is meldable in the full hand) and the melds reaching them, lowest
    card's meld first. The search reaches its memo and its melds' points as defaults (locals, the
    fastest reads), set once here per game at import, and names no free variable: no closure
    calls itself (tests/test_engine_cycles.py)."""
    table = tuple(tuple((m, mask_points(m)) for m in melds) for melds in MELDS_FROM)

    def search(
        mask: int, best: Callable[[int], Best] = _unset, melds_from: MeldPoints = table
    ) -> Best:
        if not mask:
            return 0, ()
        low = mask & -mask
        found = best(mask ^ low)  # the lowest card is deadwood, or in one of its melds
        for m, p in melds_from[low.bit_length() - 1]:
            if m & mask == m:
                value, melds = best(mask ^ m)
                if value + p > found[0]:
                    found = (value + p, (m, *melds))
        return found

    memoised = lru_cache(maxsize=memo)(search)
    search.__defaults__ = (memoised, table)
    return memoised


def deadwood_search(values: CardValues = DEADWOOD, memo: int = 1 << 14) -> DeadwoodSearch:
    """The search for ``values``, with its own memo of at most ``memo`` hands (the default is
    about 4 MB in a long-lived worker). Build one per game, once, at import."""
    mask_points = values.mask
    best = _memoised(mask_points, memo)

    def arrange(mask: int) -> Best:
        inner = meldable(mask)
        if not inner:
            return mask_points(mask), ()
        melded, melds = best(inner)
        return mask_points(mask) - melded, melds

    def min_deadwood(mask: int) -> int:
        inner = meldable(mask)
        if not inner:
            return mask_points(mask)
        return mask_points(mask) - best(inner)[0]

    def deadwood_of(hand: int, melds: Iterable[int]) -> int:
        rest = hand
        for m in melds:
            rest &= ~m
        return mask_points(rest)

    return DeadwoodSearch(values, mask_points, min_deadwood, arrange, deadwood_of, best)


#: The search for the usual deadwood values (G1).
STANDARD: Final = deadwood_search()


__all__ = [
    "ALL_MELDS",
    "MELDS_FROM",
    "STANDARD",
    "Best",
    "DeadwoodSearch",
    "deadwood_search",
    "extends",
    "is_meld",
    "layoff_chains",
    "layoff_options",
    "meld_collections",
    "meld_kind",
    "meld_names",
    "meldable",
]
