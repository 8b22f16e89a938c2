"""The meld optimiser's chosen melds as F2 moves that can be pushed one after another (R4.2).

New melds are numbered after the player's own (F2); a set of a rank the player owns is laid onto
that set card by card (R5.4); a joker disposed of is laid and then swapped out (R6).
"""

from __future__ import annotations

from engine.core.cards import CARDS, JOKER, JOKER_CODE
from engine.core.melds import natural_count
from engine.pikdame.melds import Meld
from engine.pikdame.moves import Move
from engine.pikdame.optimiser.search import Found
from engine.pikdame.optimiser.tree import Tree


class _Writer:
    """The player's melds as the moves are written, the moves so far, the cards laid and the
    jokers still to dispose of (each routes one natural: lay the joker, swap the natural in)."""

    def __init__(self, melds: list[Meld], moves: list[Move], dispose: int) -> None:
        self.table = melds[:]
        self.moves = moves
        self.laid: list[int] = []
        self.left = dispose

    def place(self, number: int, card: int, end: str | None) -> None:
        """Lay ``card`` onto meld ``number`` at ``end`` (through a joker while any is left to
        dispose of, R6)."""
        meld = self.table[number - 1]
        if self.left and card != JOKER_CODE:
            self.left -= 1
            self.moves.append(Move.lay(JOKER, number, end))
            self.moves.append(Move.swap(number, CARDS[card]))
            self.table[number - 1] = meld.with_card(JOKER, end).with_swap(CARDS[card])
        else:
            self.moves.append(Move.lay(CARDS[card], number, end))
            self.table[number - 1] = meld.with_card(CARDS[card], end)
        self.laid.append(card)

    def new_meld(self, kind: str, seq: tuple[int, ...]) -> None:
        """Lay ``seq`` as a new meld (numbered after the others, F2); naturals from the high end
        go in as jokers and are swapped in at once while jokers are left to dispose of (R6)."""
        cards = list(seq)
        routed = []
        for i in range(len(cards) - 1, -1, -1):
            if self.left and cards[i] != JOKER_CODE and natural_count(cards) > 1:
                routed.append(cards[i])
                cards[i] = JOKER_CODE
                self.left -= 1
        meld = Meld.build([CARDS[x] for x in cards], kind)
        self.moves.append(Move.laying(meld))
        self.table.append(meld)
        for x in routed:
            self.moves.append(Move.swap(len(self.table), CARDS[x]))
            self.table[-1] = self.table[-1].with_swap(CARDS[x])
        self.laid.extend(seq)

    def extend_run(self, number: int, seq: tuple[int, ...], absorbed: int) -> None:
        """Lay the cards of ``seq`` around the player's run (``-1 - absorbed`` in ``seq``):
        upward from its high end, then downward from its low end."""
        at = seq.index(-1 - absorbed)
        for x in seq[at + 1 :]:
            self.place(number, x, None)
        for x in reversed(seq[:at]):
            self.place(number, x, "low")

    def spare_jokers(self, spares: int) -> None:
        """Each spare joker onto the first meld with room."""
        for _ in range(spares):
            for number, meld in enumerate(self.table, start=1):
                if meld.room:
                    self.moves.append(Move.lay(JOKER, number))
                    self.table[number - 1] = meld.with_card(JOKER)
                    self.laid.append(JOKER_CODE)
                    break


def arrangement_moves(
    found: Found, tree: Tree, melds: list[Meld], moves: list[Move]
) -> tuple[list[int], int]:
    """Append the F2 moves for the melds found (pushable in order), routing ``found.disposed``
    naturals through a joker first (lay the joker, swap the natural in: R6), then the spare
    jokers. Returns the cards laid and the number of jokers disposed of."""
    writer = _Writer(melds, moves, found.disposed)
    for kind, seq, absorbed in found.melds:
        if kind == "set":
            rank = next(x % 13 for x in seq if x != JOKER_CODE)
            owned = tree.sets.get(rank)
            if owned is not None:
                for x in seq:
                    writer.place(owned.number, x, None)  # R5.4: onto the player's set
            else:
                writer.new_meld(kind, seq)
        elif absorbed < 0:
            writer.new_meld(kind, seq)
        else:
            writer.extend_run(tree.runs[absorbed].number, seq, absorbed)
    writer.spare_jokers(found.spares)
    return writer.laid, found.disposed - writer.left
