"""Melds, exact minimum deadwood and a defender's best lay-offs (GIN.md G6).

Hands are 52-bit masks (bit ``suit * 13 + rank``). A meld is 3 or 4 cards of one rank, or 3 or more
consecutive cards of one suit with the ace low. The minimum deadwood is exact: a memoised search
over the lowest card that can still be melded (it is either deadwood or in one of the melds that
contain it), so overlapping candidates, 3- and 4-card sets and runs of any length are all weighed.
Only cards that belong to some meld of the hand enter the search; the rest are deadwood outright.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from typing import Any, Final

from engine.gin.cards import NAMES, from_mask, mask_points, names

SUIT_BITS: Final = 0x1FFF  # the 13 ranks of one suit


def _all_melds() -> list[int]:
    melds: list[int] = []
    for r in range(13):
        four = sum(1 << (s * 13 + r) for s in range(4))
        melds.append(four)
        for s in range(4):
            melds.append(four & ~(1 << (s * 13 + r)))
    for s in range(4):
        for lo in range(13):
            for hi in range(lo + 2, 13):
                melds.append(sum(1 << (s * 13 + k) for k in range(lo, hi + 1)))
    return melds


#: Every meld of the deck (65 sets, 264 runs) as a mask.
ALL_MELDS: Final = tuple(_all_melds())
_MELD_POINTS: Final = {m: mask_points(m) for m in ALL_MELDS}
#: For each card c: (mask, points) of every meld whose lowest card is c, larger melds first. The
#: searches below always meld the lowest card left, so these are the only melds they can use.
_MELDS_FROM: Final = tuple(
    tuple(
        sorted(
            ((m, _MELD_POINTS[m]) for m in ALL_MELDS if (m & -m).bit_length() - 1 == c),
            key=lambda mp: (-mp[0].bit_count(), mp[0]),
        )
    )
    for c in range(52)
)


def _suits(mask: int) -> tuple[int, int, int, int]:
    return (
        mask & SUIT_BITS,
        mask >> 13 & SUIT_BITS,
        mask >> 26 & SUIT_BITS,
        mask >> 39 & SUIT_BITS,
    )


def meldable(mask: int) -> int:
    """The cards of ``mask`` that belong to at least one meld within ``mask``."""
    a, b, c, d = _suits(mask)
    ranks3 = (a & b & c) | (a & b & d) | (a & c & d) | (b & c & d)
    out = ranks3 | ranks3 << 13 | ranks3 << 26 | ranks3 << 39
    out &= mask
    for s, bits in enumerate((a, b, c, d)):
        starts = bits & bits >> 1 & bits >> 2
        if starts:
            out |= (starts | starts << 1 | starts << 2) << (13 * s)
    return out


@lru_cache(maxsize=1 << 14)  # about 4 MB at most in a long-lived worker
def _best(mask: int) -> tuple[int, tuple[int, ...]]:
    """Max melded points within ``mask`` (every card of which is meldable in the full hand)
    and the melds achieving it, lowest card's meld first."""
    if not mask:
        return 0, ()
    low = mask & -mask
    best = _best(mask ^ low)
    for m, p in _MELDS_FROM[low.bit_length() - 1]:
        if m & mask == m:
            value, melds = _best(mask ^ m)
            if value + p > best[0]:
                best = (value + p, (m, *melds))
    return best


def arrange(mask: int) -> tuple[int, tuple[int, ...]]:
    """The exact minimum deadwood of a hand and one arrangement of melds reaching it.

    Deterministic: among arrangements of equal deadwood, the search order (lowest card first,
    larger melds first) picks the same one on every machine.
    """
    inner = meldable(mask)
    if not inner:
        return mask_points(mask), ()
    melded, melds = _best(inner)
    return mask_points(mask) - melded, melds


def min_deadwood(mask: int) -> int:
    """G6: the exact minimum deadwood of the hand ``mask`` (any number of cards)."""
    inner = meldable(mask)
    if not inner:
        return mask_points(mask)
    return mask_points(mask) - _best(inner)[0]


# -- single melds ------------------------------------------------------------------------------


def meld_kind(mask: int) -> str | None:
    """``"set"``, ``"run"`` or None (not a meld, G6)."""
    n = mask.bit_count()
    if n < 3:
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


def deadwood_of(hand: int, melds: Iterable[int]) -> int:
    """The deadwood of ``hand`` with the given (disjoint) melds declared."""
    rest = hand
    for m in melds:
        rest &= ~m
    return mask_points(rest)


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
        for m, _ in _MELDS_FROM[c]:
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


@dataclass(frozen=True)
class Defence:
    """A defender's answer (G6): own melds, lay-offs (card, 0-based knocker meld) in order, and
    the resulting deadwood."""

    melds: tuple[int, ...]
    layoffs: tuple[tuple[int, int], ...]
    deadwood: int

    def to_json(self) -> dict[str, Any]:
        """Cards in F1; a lay-off as [card, meld number N] (1-based, as G8 writes it)."""
        return {
            "melds": [meld_names(m) for m in self.melds],
            "layoffs": [[NAMES[c], i + 1] for c, i in self.layoffs],
            "deadwood": self.deadwood,
        }


def layoff_options(meld: int, index: int, hand: int) -> list[tuple[tuple[int, int], ...]]:
    """The ways to lay off cards of ``hand`` on knocker meld number ``index`` (0-based), each a
    sequence of (card, index) in a valid order: a prefix of each chain (a set's single card is a
    chain of one; a set takes at most one card)."""
    chains = layoff_chains(meld, hand)
    if meld_kind(meld) == "set":
        return [(), *(((chain[0], index),) for chain in chains)]
    prefixes = [[chain[:k] for k in range(len(chain) + 1)] for chain in chains]
    options = []
    for parts in product(*prefixes):
        options.append(tuple((c, index) for part in parts for c in part))
    return options


def best_defence(hand: int, knocker_melds: Sequence[int], gin: bool) -> Defence:
    """The defender's exact best answer: least deadwood over every legal set of lay-offs
    (successive extensions included, a card on at most one meld) and the best melds of the rest.
    After gin there are no lay-offs (G6)."""
    options = [[()]] if gin else [layoff_options(m, i, hand) for i, m in enumerate(knocker_melds)]
    best: Defence | None = None
    for combo in product(*options):
        laid = [lay for part in combo for lay in part]
        used = 0
        for c, _ in laid:
            used |= 1 << c
        if used.bit_count() != len(laid):
            continue  # one card on two melds
        deadwood, melds = arrange(hand & ~used)
        if best is None or deadwood < best.deadwood:
            best = Defence(melds, tuple(laid), deadwood)
    assert best is not None
    return best


__all__ = [
    "ALL_MELDS",
    "Defence",
    "arrange",
    "best_defence",
    "deadwood_of",
    "extends",
    "is_meld",
    "layoff_chains",
    "layoff_options",
    "meld_collections",
    "meld_kind",
    "meld_names",
    "meldable",
    "min_deadwood",
]
