"""The meld optimiser's best effort once its exact search ran out of budget (R4.2).

A greedy dive (each lowest card takes its first option) gives a floor for the exact search; a
limited discrepancy search (Harvey & Ginsberg, 1995) improves on it when the budget is spent.
Both follow :class:`engine.pikdame.optimiser.search.Search`'s options, so what they return is legal.
"""

from __future__ import annotations

from typing import Final

from engine.pikdame.cards import JOKER_CODE, POINTS
from engine.pikdame.melds import MAX_RUN, MAX_SET
from engine.pikdame.optimiser.search import JOKER_GAIN, MIN_GAIN, NEG, ORDER, Chosen, Search

#: Calls of the limited discrepancy search, and the most deviations from its option order.
FALLBACK_BUDGET: Final = 5_000
DISCREPANCIES: Final = 8


def improve(
    search: Search, jokers: int, kept: bool, rem: int, floor: int, budget: int
) -> tuple[list[Chosen], int, int, int] | None:
    """Limited discrepancy search in card order (Harvey & Ginsberg, 1995), keeping the best
    complete arrangement it meets: the fallback when the exact search ran out of budget.
    Pass k follows the option order (fewest jokers, richest first; keeping the card last)
    but may deviate k times, so the search spreads over the whole tree instead of sinking
    into one corner. Returns the best arrangement above ``floor`` (melds, spare jokers,
    disposals, gain) or None; stops after ``budget`` calls (deterministic)."""
    counts = search.counts
    path: list[Chosen] = []
    best: list[object] = [floor, None]
    left = [budget]

    def go(
        at: int,
        jokers: int,
        flags: int,
        mask: int,
        room: int,
        kept: bool,
        disp: int,
        rem: int,
        acc: int,
        slack: int,
    ) -> None:
        left[0] -= 1
        if left[0] < 0:
            return
        while at < 52 and counts[ORDER[at]] == 0:
            at += 1
        top = best[0]
        assert isinstance(top, int)
        if at == 52:
            value, lay, dispose = search.terminal(jokers, flags, mask, room, kept, disp)
            if value > NEG and acc + value > top:
                best[0] = acc + value
                best[1] = (list(path), lay, dispose)
            return
        if acc + 2 * rem + jokers * JOKER_GAIN - (0 if kept else MIN_GAIN) <= top:
            return
        c = ORDER[at]
        rank = c % 13
        tried = 0
        if not flags >> rank & 1:
            owned = rank in search.sets
            for cards, filler, gain, size in search.set_options(c, jokers):
                if tried > slack:
                    return
                pts = 0
                for x in cards:
                    counts[x] -= 1
                    pts += POINTS[x]
                path.append(("set", (*cards, *(JOKER_CODE,) * filler), -1))
                go(
                    at,
                    jokers - filler,
                    flags | 1 << rank,
                    mask,
                    min(6, room + MAX_SET - size),
                    kept,
                    disp + (len(cards) if owned else len(cards) - 1),
                    rem - pts,
                    acc + gain,
                    slack - tried,
                )
                path.pop()
                for x in cards:
                    counts[x] += 1
                tried += 1
        for seq, used, blk, gain, length, pts, nats in search.run_options(c, jokers, mask):
            if tried > slack:
                return
            for x in seq:
                if 0 <= x < 52:
                    counts[x] -= 1
            path.append(("run", seq, blk))
            go(
                at,
                jokers - used,
                flags,
                mask | (1 << blk if blk >= 0 else 0),
                min(6, room + MAX_RUN - length),
                kept,
                disp + (nats if blk >= 0 else nats - 1),
                rem - pts,
                acc + gain,
                slack - tried,
            )
            path.pop()
            for x in seq:
                if 0 <= x < 52:
                    counts[x] += 1
            tried += 1
        if tried > slack:
            return
        counts[c] -= 1
        go(at, jokers, flags, mask, room, True, disp, rem - POINTS[c], acc, slack - tried)
        counts[c] += 1

    for k in range(DISCREPANCIES + 1):
        if left[0] <= 0:
            break
        go(0, jokers, 0, 0, 0, kept, 0, rem, 0, k)
    found = best[1]
    if found is None:
        return None
    assert isinstance(found, tuple) and isinstance(best[0], int)
    return found[0], found[1], found[2], best[0]


def dive(search: Search, kept: bool) -> tuple[list[Chosen], int]:
    """A greedy arrangement, no backtracking: each lowest card takes its first option (fewest
    jokers, richest), or stays. If nothing is kept yet, the cheapest card is set aside first
    (R4.2). The fallback when the search runs out of budget."""
    counts = search.counts[:]
    saved = search.counts
    search.counts = counts
    try:
        if not kept:
            naturals = [c for c in range(52) if counts[c]]
            cheapest = min(naturals, key=lambda c: (POINTS[c], c)) if naturals else JOKER_CODE
            counts[cheapest] -= 1
        jokers = counts[JOKER_CODE]
        flags = mask = room = 0
        chosen: list[Chosen] = []
        for c in ORDER:
            while counts[c]:
                rank = c % 13
                sets = [] if flags >> rank & 1 else search.set_options(c, jokers)
                runs = search.run_options(c, jokers, mask)
                if sets and (not runs or sets[0][2] >= runs[0][3]):
                    cards, filler, _, size = sets[0]
                    for x in cards:
                        counts[x] -= 1
                    chosen.append(("set", (*cards, *(JOKER_CODE,) * filler), -1))
                    jokers -= filler
                    flags |= 1 << rank
                    room += MAX_SET - size
                elif runs:
                    seq, used, blk, _, length, _, _ = runs[0]
                    for x in seq:
                        if 0 <= x < 52:
                            counts[x] -= 1
                    chosen.append(("run", seq, blk))
                    jokers -= used
                    if blk >= 0:
                        mask |= 1 << blk
                    room += MAX_RUN - length
                else:
                    counts[c] = 0
        return chosen, search.terminal(jokers, flags, mask, room, True, 0)[1]
    finally:
        search.counts = saved
