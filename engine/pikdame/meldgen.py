"""Enumerate every distinct meld a multiset of cards can form (for legal moves and take checks).

Sets are enumerated by how many cards of each suit (0–2) and how many jokers they use; runs by suit,
low end and, position by position, a natural or a joker. Identical cards are one choice, so each
meld comes once. Order is fixed (sets by rank, then runs by suit and low end): deterministic.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from engine.core.cards import CARDS, JOKER, JOKER_CODE, Card
from engine.pikdame.cards import RING_NEIGHBOURS
from engine.pikdame.melds import MAX_RUN, MAX_SET, Meld


def iter_melds(
    counts: list[int], max_len: int | None = None, required: Card | None = None
) -> Iterator[Meld]:
    """Melds of 3 … ``max_len`` cards from ``counts`` (53 slots), with ``required`` if given."""
    top = 13 if max_len is None else max_len
    if top < 3:
        return
    yield from _sets(counts, min(top, MAX_SET), required)
    yield from _runs(counts, min(top, MAX_RUN), required)


#: ``min(2, n)`` for a card's copies: a new set holds each suit at most twice (R5.1).
TWO_AT_MOST: Final = (0, 1, *[2] * 126)


def rank_count(counts: list[int], rank: int) -> int:
    """How many cards of ``rank`` a new set could hold from ``counts``: two a suit (R5.1)."""
    return (
        TWO_AT_MOST[counts[rank]]
        + TWO_AT_MOST[counts[rank + 13]]
        + TWO_AT_MOST[counts[rank + 26]]
        + TWO_AT_MOST[counts[rank + 39]]
    )


def run_partner(counts: list[int], c: int, jokers: int) -> bool:
    """Whether natural ``c`` makes a new run of three with the cards of its suit in ``counts``
    (R5.2, the ring): two neighbours in a row, or one within two ranks and a joker (R5.3)."""
    down, up, down2, up2 = RING_NEIGHBOURS[c]
    if counts[down]:
        return bool(jokers or counts[up] or counts[down2])
    if counts[up]:
        return bool(jokers or counts[up2])
    return bool(jokers and (counts[down2] or counts[up2]))


def could_meld(counts: list[int], card: Card) -> bool:
    """Whether ``counts`` (holding ``card``) might form a meld with ``card``: a necessary
    condition, so that a search for one (a take, R4.1) is skipped when it surely finds none.
    Any meld holding a natural holds two more cards within two ranks of it on its suit's ring
    (a run, R5.2) or of its rank (a set, R5.1, at most two a suit), jokers standing in (R5.3)."""
    jokers = counts[JOKER_CODE]
    if card == JOKER_CODE or jokers >= 2:
        return True
    return rank_count(counts, card % 13) + jokers >= 3 or run_partner(counts, card, jokers)


def _sets(counts: list[int], top: int, required: Card | None) -> Iterator[Meld]:
    jokers = counts[JOKER_CODE]
    if required is not None and required != JOKER_CODE:
        ranks: range = range(required % 13, required % 13 + 1)
    else:
        ranks = range(13)
    for rank in ranks:
        avail = [min(counts[s * 13 + rank], 2) for s in range(4)]
        if not any(avail) or sum(avail) + jokers < 3:
            continue
        for a in range(avail[0] + 1):
            for b in range(avail[1] + 1):
                for c in range(avail[2] + 1):
                    for d in range(avail[3] + 1):
                        naturals = a + b + c + d
                        if naturals == 0 or naturals > top:
                            continue
                        if (
                            required is not None
                            and required != JOKER_CODE
                            and (a, b, c, d)[required // 13] == 0
                        ):
                            continue
                        base: list[Card] = []
                        for suit, k in enumerate((a, b, c, d)):
                            base.extend([CARDS[suit * 13 + rank]] * k)
                        lo = 1 if required == JOKER_CODE else 0
                        for j in range(max(lo, 3 - naturals), min(jokers, top - naturals) + 1):
                            yield Meld("set", (*base, *[JOKER] * j), rank, -1, -1)


def _runs(counts: list[int], top: int, required: Card | None) -> Iterator[Meld]:
    jokers = counts[JOKER_CODE]
    suits: range = range(4)
    if required is not None and required != JOKER_CODE:
        suits = range(required // 13, required // 13 + 1)
    for suit in suits:
        base = suit * 13
        if not any(counts[base : base + 13]):
            continue
        for start in range(13):
            # Depth-first over positions: (cards so far, jokers left).
            stack: list[tuple[tuple[Card, ...], int]] = [((), jokers)]
            while stack:
                cards, left = stack.pop()
                n = len(cards)
                if n >= 3 and (n < MAX_RUN or start == 0) and _keeps(cards, required):
                    yield Meld("run", cards, -1, suit, start)
                if n >= top:
                    continue
                card = CARDS[base + (start + n) % 13]
                if left:
                    stack.append(((*cards, JOKER), left - 1))
                if counts[card]:
                    stack.append(((*cards, card), left))


def _keeps(cards: tuple[Card, ...], required: Card | None) -> bool:
    """A run needs a natural (R5.3) and, for a take, the pile's top card."""
    if all(c == JOKER_CODE for c in cards):
        return False
    return required is None or required in cards
