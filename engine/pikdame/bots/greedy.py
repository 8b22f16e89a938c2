"""A greedy arrangement: repeatedly lay the most valuable single meld, then every lay-off.

Fast and simple, not exact: the beginner plays it (R10: plausible but simple), and its misses
(a meld that blocks a richer one, jokers spent early) are part of what makes it the weakest level.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.cards import CARDS, JOKER, JOKER_CODE, Card, cards_of, counts_of
from engine.pikdame.cards import POINTS
from engine.pikdame.errors import InvalidMeld
from engine.pikdame.meldgen import iter_melds
from engine.pikdame.melds import Meld, joins_ok, placed
from engine.pikdame.moves import Move
from engine.pikdame.optimiser import Arrangement


class _Table:
    """The owner's melds and hand while the greedy plays (R4.2: keep one card)."""

    def __init__(self, hand: Sequence[Card], own_melds: Sequence[Meld]) -> None:
        self.cnt = counts_of(hand)
        self.size = len(hand)
        self.melds = list(own_melds)
        self.moves: list[Move] = []

    def meld(self, meld: Meld) -> bool:
        """Lay ``meld`` as a new meld (joining the owner's set of its rank, R5.4)."""
        if self.size - len(meld.cards) < 1:
            return False
        try:
            self.melds = placed(self.melds, meld)
        except InvalidMeld:
            return False
        self.moves.append(Move.laying(meld))
        for c in meld.cards:
            self.cnt[c] -= 1
        self.size -= len(meld.cards)
        return True

    def lay_offs(self) -> None:
        """Every natural that fits one of the owner's melds, until none does."""
        changed = True
        while changed and self.size > 1:
            changed = False
            for card in range(52):
                if not self.cnt[card] or self.size <= 1:
                    continue
                for i, m in enumerate(self.melds):
                    try:
                        new = m.with_card(CARDS[card])
                    except InvalidMeld:
                        continue
                    self._apply(i, new, Move.lay(CARDS[card], i + 1), card)
                    changed = True
                    break

    def jokers(self) -> None:
        """Jokers go on the first meld with room, keeping one card in hand."""
        for i in range(len(self.melds)):
            while self.cnt[JOKER_CODE] and self.size > 1:
                m = self.melds[i]
                if not m.room:
                    break
                self._apply(i, m.with_card(JOKER), Move.lay(JOKER, i + 1), JOKER_CODE)

    def swaps(self) -> None:
        """An ace or the Q♠ for a joker (R6) gains round score: 2p − 20 > 0."""
        for card in range(52):
            while self.cnt[card] and self.size > 1 and 2 * POINTS[card] > POINTS[JOKER_CODE]:
                for i, m in enumerate(self.melds):
                    if not m.has_joker:
                        continue
                    try:
                        new = m.with_swap(CARDS[card])
                    except InvalidMeld:
                        continue
                    self._apply(i, new, Move.swap(i + 1, CARDS[card]), card)
                    break
                else:
                    break

    def _apply(self, i: int, new: Meld, move: Move, card: int) -> None:
        self.melds[i] = new
        self.moves.append(move)
        self.cnt[card] -= 1
        self.size -= 1


def _best_meld(table: _Table, with_jokers: bool, max_len: int) -> Meld | None:
    counts = table.cnt[:]
    if not with_jokers:
        counts[JOKER_CODE] = 0
    best: Meld | None = None
    best_key: tuple[int, int, tuple[int, ...]] | None = None
    for meld in iter_melds(counts, max_len=min(max_len, table.size - 1)):
        if not joins_ok(table.melds, meld):
            continue
        key = (meld.points, -meld.cards.count(JOKER), tuple(-c for c in meld.cards))
        if best_key is None or key > best_key:
            best, best_key = meld, key
    return best


def greedy_arrangement(hand: Sequence[Card], own_melds: Sequence[Meld]) -> Arrangement:
    """Lay the richest natural meld while one exists, then lay-offs, then jokers (R4.2)."""
    table = _Table(hand, own_melds)
    for with_jokers, max_len in ((False, 13), (True, 5)):
        while table.size > 3:
            meld = _best_meld(table, with_jokers, max_len)
            if meld is None or not table.meld(meld):
                break
        table.lay_offs()
    table.jokers()
    table.swaps()
    kept = tuple(cards_of(table.cnt))
    points = sum(m.points for m in table.melds) - sum(m.points for m in own_melds)
    gain = points + sum(POINTS[c] for c in hand) - sum(POINTS[c] for c in kept)
    return Arrangement(tuple(table.moves), points, gain, kept, exact=False)
