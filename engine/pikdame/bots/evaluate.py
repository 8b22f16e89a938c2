"""How much a card is worth keeping, and what a hand is worth: the advanced and zen bots' judgement.

All figures are integers (no floats in decisions): weights are in tenths of a point. Card
usefulness counts partial melds (pairs for sets, neighbours for runs, R5.1/R5.2) and how many of
the missing cards are still unseen; the feeding risk estimates whether the next player could take
the discard (R4.1) from the unseen cards they may hold.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.core.cards import JOKER_CODE, Card, counts_of
from engine.pikdame.cards import POINTS, RANK_CARDS, RING_NEIGHBOURS


@dataclass(frozen=True)
class Weights:
    """A level's judgement, in tenths of a point (integers keep decisions exact)."""

    pair: int = 60  # a second card of the rank in hand (R5.1)
    neighbour: int = 50  # a card one rank away in the suit (R5.2, ring)
    gap: int = 25  # a card two ranks away in the suit
    joker: int = 400  # a joker in hand fits almost anywhere (R5.3)
    points: int = 6  # per point of the card: what keeping it risks at the round's end (R7.1)
    feed: int = 30  # per expected partner the next player holds for this discard (R4.1)
    feed_pile: int = 2  # per point lying in the pile the next player would get
    draw: int = 0  # the expected worth of an unknown card from the stock
    late_points: int = 10  # extra per point once the round nears its end
    keep_jokers: int = 0  # 1: weigh holding jokers back against laying them as extras
    take_len: int = 4  # the largest take meld weighed (a bigger one is a take plus lay-offs)


PLAIN = Weights()


def usefulness(card: Card, counts: Sequence[int], unseen: Sequence[int], w: Weights) -> int:
    """What ``card`` adds to the partial melds of the hand ``counts`` (card included), in
    tenths; a partner only counts if a third card to complete it is still unseen."""
    if card == JOKER_CODE:
        return w.joker
    value = 0
    s0, s1, s2, s3 = RANK_CARDS[card % 13]
    same = counts[s0] + counts[s1] + counts[s2] + counts[s3] - 1
    if same >= 1:
        third = unseen[s0] + unseen[s1] + unseen[s2] + unseen[s3] + unseen[JOKER_CODE]
        value += w.pair * min(same, 2) if third else w.pair // 3
    down, up, down2, up2 = RING_NEIGHBOURS[card]
    jokers = unseen[JOKER_CODE]
    # A neighbour makes a run with the card beyond it or on the card's other side; a card two
    # away, with the one between them.
    if counts[down] and (unseen[down2] or unseen[up] or jokers):
        value += w.neighbour
    if counts[up] and (unseen[up2] or unseen[down] or jokers):
        value += w.neighbour
    if counts[down2] and (unseen[down] or jokers):
        value += w.gap
    if counts[up2] and (unseen[up] or jokers):
        value += w.gap
    return value


def partners(card: Card, unseen: Sequence[int], hand_size: int) -> int:
    """Expected number of partner pairs (in hundredths) a hand of ``hand_size`` unseen cards
    holds for ``card``: two of its rank, two suit neighbours, or a joker with one (R4.1)."""
    total = sum(unseen)
    if total == 0 or card == JOKER_CODE:
        return 100 if card == JOKER_CODE else 0
    s0, s1, s2, s3 = RANK_CARDS[card % 13]
    same = unseen[s0] + unseen[s1] + unseen[s2] + unseen[s3]
    down, up, down2, up2 = RING_NEIGHBOURS[card]
    n0, n1, n2, n3 = unseen[down2], unseen[down], unseen[up], unseen[up2]
    jokers = unseen[JOKER_CODE]
    # pairs among the relevant unseen cards, scaled by the chance both are in that hand
    pairs = same * (same - 1) // 2 + n0 * n1 + n1 * n2 + n2 * n3
    pairs += jokers * (same + n0 + n1 + n2 + n3) + jokers * (jokers - 1) // 2
    share = hand_size * hand_size * 100 // (total * total)
    return pairs * share


def keep_score(
    card: Card,
    counts: Sequence[int],
    unseen: Sequence[int],
    next_hand: int,
    pile_points: int,
    late: bool,
    w: Weights,
) -> int:
    """Higher means keep; the bot discards the card with the lowest score (R4.3)."""
    score = usefulness(card, counts, unseen, w)
    points = POINTS[card]
    score -= points * (w.points + (w.late_points if late else 0))
    risk = partners(card, unseen, next_hand)
    score += risk * (w.feed * 10 + w.feed_pile * (pile_points + points)) // 100
    return score


def choose_discard(
    hand: Sequence[Card],
    unseen: Sequence[int],
    next_hand: int,
    pile_points: int,
    late: bool,
    w: Weights,
) -> Card:
    """The card to discard: lowest keep score, ties to the higher card (fixed order)."""
    counts = counts_of(hand)
    best: Card | None = None
    best_key: tuple[int, int] | None = None
    for c in sorted(set(hand)):
        key = (keep_score(c, counts, unseen, next_hand, pile_points, late, w), -int(c))
        if best_key is None or key < best_key:
            best, best_key = c, key
    assert best is not None
    return best


def hand_worth(kept: Sequence[Card], unseen: Sequence[int], late: bool, w: Weights) -> int:
    """What the cards left in hand are worth, in tenths: their usefulness minus the points they
    risk (R7.1)."""
    counts = counts_of(kept)
    worth = 0
    for c in kept:
        worth += usefulness(c, counts, unseen, w)
        worth -= POINTS[c] * (w.points + (w.late_points if late else 0))
    return worth
