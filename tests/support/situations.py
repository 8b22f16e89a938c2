"""Hypothesis strategies for the optimiser tests: small hands beside the player's own melds."""

from __future__ import annotations

from hypothesis import assume
from hypothesis import strategies as st

from engine.core.cards import CARDS, JOKER_CODE, NUM_KINDS, Card, counts_of
from engine.pikdame.cards import COPIES
from engine.pikdame.meldgen import iter_melds
from engine.pikdame.melds import Meld, join_target


@st.composite
def situations(draw: st.DrawFn) -> tuple[list[Card], list[Meld]]:
    """A hand of 2–8 cards and up to two owned melds, from a window of 5 ranks (may wrap)."""
    low = draw(st.integers(0, 12))
    suits = draw(st.lists(st.integers(0, 3), min_size=1, max_size=2, unique=True))
    window = [s * 13 + (low + i) % 13 for s in suits for i in range(5)]
    pick = st.one_of(st.sampled_from(window), st.just(JOKER_CODE))
    used = [0] * NUM_KINDS
    melds: list[Meld] = []
    for _ in range(draw(st.integers(0, 2))):
        counts = counts_of(draw(st.lists(pick, min_size=3, max_size=6)))
        options = list(iter_melds(counts, max_len=5))
        if not options:
            continue
        meld = options[draw(st.integers(0, len(options) - 1))]
        if join_target(melds, meld) is not None:
            continue  # R5.4: one set per rank
        if any(used[c] + meld.cards.count(c) > COPIES[c] for c in meld.cards):
            continue
        for c in meld.cards:
            used[c] += 1
        melds.append(meld)
    hand: list[Card] = []
    for code in draw(st.lists(pick, min_size=2, max_size=8)):
        if used[code] < COPIES[code]:
            used[code] += 1
            hand.append(CARDS[code])
    assume(hand)  # a player about to play holds at least one card
    return hand, melds
