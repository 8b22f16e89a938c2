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


def arrangement_moves(
    found: Found, tree: Tree, melds: list[Meld], moves: list[Move]
) -> tuple[list[int], int]:
    """Append the F2 moves for the melds found (pushable in order), routing ``found.disposed``
    naturals through a joker first (lay the joker, swap the natural in: R6), then the spare
    jokers. Returns the cards laid and the number of jokers disposed of."""
    dispose = found.disposed
    laid: list[int] = []
    table = melds[:]
    left = dispose

    def place(number: int, card: int, end: str | None) -> None:
        nonlocal left
        meld = table[number - 1]
        if left and card != JOKER_CODE:
            left -= 1
            moves.append(Move.lay(JOKER, number, end))
            moves.append(Move.swap(number, CARDS[card]))
            table[number - 1] = meld.with_card(JOKER, end).with_swap(CARDS[card])
        else:
            moves.append(Move.lay(CARDS[card], number, end))
            table[number - 1] = meld.with_card(CARDS[card], end)
        laid.append(card)

    for kind, seq, blk in found.melds:
        if kind == "set":
            rank = next(x % 13 for x in seq if x != JOKER_CODE)
            owned = tree.sets.get(rank)
            if owned is not None:
                for x in seq:
                    place(owned.number, x, None)
                continue
        if kind == "set" or blk < 0:
            cards = list(seq)
            routed = []
            for i in range(len(cards) - 1, -1, -1):
                if left and cards[i] != JOKER_CODE and natural_count(cards) > 1:
                    routed.append(cards[i])
                    cards[i] = JOKER_CODE
                    left -= 1
            meld = Meld.build([CARDS[x] for x in cards], kind)
            moves.append(Move.laying(meld))
            table.append(meld)
            for x in routed:
                moves.append(Move.swap(len(table), CARDS[x]))
                table[-1] = table[-1].with_swap(CARDS[x])
            laid.extend(x for x in seq)
            continue
        number = tree.runs[blk].number
        at = seq.index(-1 - blk)
        for x in seq[at + 1 :]:
            place(number, x, None)
        for x in reversed(seq[:at]):
            place(number, x, "low")
    for _ in range(found.spares):
        for number, meld in enumerate(table, start=1):
            if meld.room:
                moves.append(Move.lay(JOKER, number))
                table[number - 1] = meld.with_card(JOKER)
                laid.append(JOKER_CODE)
                break
    return laid, dispose - left
