"""The strong bot: deadwood, the cards still live, and what the opponent collects.

A kept hand is worth its least deadwood minus its *outs*: the unseen cards (not in its hand, not
on the pile, not known in the other hand) that would make a new meld or extend one. A discard is
penalised when it fits what the opponent took from the pile (same rank, or a neighbour in suit)
and favoured when the opponent threw away its neighbours. It takes the pile's top card only when
that card ends up melded and the hand gains by it, and knocks at once unless it is early, the
hand is one card from gin and many cards would complete it. All scores are integers.
"""

from __future__ import annotations

from engine.gin.bots.common import defend, discard_options, knock_or_none
from engine.gin.cards import POINTS, from_mask
from engine.gin.melds import SUIT_BITS, arrange, meldable, min_deadwood
from engine.gin.moves import Move
from engine.gin.view import View

ALL_CARDS = (1 << 52) - 1
OUT_WEIGHT = 3  # per live out, in quarter points of deadwood
DANGER_WEIGHT = 24  # a discard that fits the opponent's pickups, in quarter points
SAFE_WEIGHT = 6  # a discard next to what the opponent threw away, in quarter points


def _completions(hand: int) -> int:
    """Every card that would make a new meld with ``hand`` or extend one of its melds."""
    suits = [hand >> (13 * s) & SUIT_BITS for s in range(4)]
    a, b, c, d = suits
    pairs = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)
    out = pairs | pairs << 13 | pairs << 26 | pairs << 39
    for s, x in enumerate(suits):
        adjacent = x & x >> 1  # r and r+1 held: r-1 and r+2 complete
        gapped = x & x >> 2  # r and r+2 held: r+1 completes
        runs = (adjacent << 2 | adjacent >> 1 | gapped << 1) & SUIT_BITS
        out |= runs << (13 * s)
    return out & ~hand


def _neighbours(cards: int) -> int:
    """Same rank in any suit, and ±1, ±2 in the same suit, of every card in ``cards``."""
    out = 0
    for c in from_mask(cards):
        r, s = c % 13, c // 13
        for t in range(4):
            out |= 1 << (t * 13 + r)
        for dr in (-2, -1, 1, 2):
            if 0 <= r + dr < 13:
                out |= 1 << (s * 13 + r + dr)
    return out


def _unseen(v: View) -> int:
    seen = v.hand | v.took[v.other]
    for c in v.discard:
        seen |= 1 << c
    if v.revealed is not None:
        seen |= v.revealed
    return ALL_CARDS & ~seen


def _value(hand: int, unseen: int) -> int:
    """A kept hand's worth in quarter points (lower is better)."""
    return 4 * min_deadwood(hand) - OUT_WEIGHT * (_completions(hand) & unseen).bit_count()


def _choose_discard(v: View) -> int:
    unseen = _unseen(v)
    danger = _neighbours(v.took[v.other])
    safe = _neighbours(_last(v.other_discards, 4))
    best: tuple[int, int, int] | None = None
    for c in from_mask(v.hand):
        if c == v.taken:
            continue
        score = _value(v.hand & ~(1 << c), unseen)
        if danger >> c & 1:
            score += DANGER_WEIGHT
        elif safe >> c & 1:
            score -= SAFE_WEIGHT
        key = (score, -POINTS[c], -c)
        if best is None or key < best:
            best = key
    assert best is not None
    return -best[2]


def _last(cards: tuple[int, ...], n: int) -> int:
    mask = 0
    for c in cards[-n:]:
        mask |= 1 << c
    return mask


def _should_take(v: View) -> bool:
    """Take the top card when it ends up melded and the best kept hand improves on drawing."""
    top = v.discard[-1]
    hand = v.hand | 1 << top
    if not meldable(hand) >> top & 1:
        return False
    unseen = _unseen(v)
    after = min(_value(hand & ~(1 << c), unseen) for c in from_mask(hand) if c != top)
    now = _value(v.hand, unseen & ~(1 << top))
    return after < now - 8


def _wait_for_gin(v: View, deadwood: int, card: int) -> bool:
    """Early in the hand, a knock of few points can wait for gin when many cards would make it."""
    if deadwood == 0 or deadwood > 2 or v.stock_size < 22:
        return False
    rest = v.hand & ~(1 << card)
    unseen = _unseen(v)
    gin_outs = 0
    for u in from_mask(_completions(rest) & unseen):
        with_u = rest | 1 << u
        if any(min_deadwood(with_u & ~(1 << c)) == 0 for c in from_mask(with_u)):
            gin_outs += 1
    return gin_outs >= 4


def choose(v: View) -> Move:
    if v.phase == "defend":
        return defend(v)
    if v.phase in ("upcard", "draw"):
        if v.can_take and _should_take(v):
            return Move("take")
        return Move("pass") if v.phase == "upcard" else Move("draw")
    options = discard_options(v)
    knock = knock_or_none(v, options)
    if knock is not None:
        assert knock.card is not None
        deadwood, _ = arrange(v.hand & ~(1 << knock.card))
        if not _wait_for_gin(v, deadwood, knock.card):
            return knock
        return Move("discard", knock.card)
    return Move("discard", _choose_discard(v))


__all__ = ["choose"]
