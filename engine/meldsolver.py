"""An exact, fast meld optimiser: branch and bound with a bounded memo (R4.2, R5, R6, R7.1).

The question of :func:`engine.optimiser.best_arrangement`: which new melds, lays and swaps on the
player's own melds gain the most round score (R7.1: own melds up, hand down) while keeping a card.

Formulation: exact cover over the hand, as in the value-by-value programme of van Rijn, Takes &
Vis ("The Complexity of Rummikub Problems", 2015). Cards are decided in value-by-value order (rank,
then suit): the lowest card left is kept, or lies in exactly one new set or run; a run may absorb
one of the player's runs (that is a lay-off) and a set of a rank the player owns is laid onto it
(R5.4). Big hands branch on their most constrained card instead (fail first, as in Algorithm X).

Search: the undecided cards can gain at most twice their points, so branches that cannot beat a
target are cut; the memo keeps values as exact or as upper bounds (fail-soft), and an aspiration
window asks first for the bound itself, then for less, so the search mostly only has to confirm.
A greedy dive gives the floor. A deterministic budget of search calls (never a clock) bounds the
work: past it the dive's arrangement is returned with ``exact=False``.

Jokers: structural ones fill a run's gaps or bring a meld to three cards; the others are spare and
go onto any meld with room (worth 20 wherever they lie, R1); with no room left a joker can still be
laid and swapped out for a natural laid this turn, leaving the game (R6). Swaps into the player's
melds gain 2p − 20: only an ace or the Q♠ gains, and those are tried up front. Deterministic:
fixed enumeration orders, ties kept by the first found, no hashing of strings or sets.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from engine.cards import CARDS, JOKER, JOKER_CODE, POINTS, Card
from engine.melds import MAX_RUN, MAX_SET, InvalidMeld, Meld
from engine.moves import Move

JOKER_GAIN: Final = 2 * POINTS[JOKER_CODE]
#: A joker laid and then swapped out for a natural (R6) leaves hand and game: 20 off the hand.
DISPOSE_GAIN: Final = POINTS[JOKER_CODE]
#: Cards in the order they are decided: rank by rank, suits within a rank.
ORDER: Final = tuple(s * 13 + r for r in range(13) for s in range(4))
_NEG: Final = -(10**9)
#: New runs longer than this are never needed: the cards of a longer run make runs of 3 to 5
#: cards, each with a natural card, unless a gap of 5 or more jokers stands in it (checked
#: exhaustively for every pattern of at most 6 jokers); the pieces lay the same cards and leave
#: more room for spare jokers.
MAX_PIECE: Final = 5
#: From this many natural cards on, the search branches on the most constrained card instead of
#: the lowest: slower per step, far fewer steps on big hands (measured in bench/results/bots.md).
DYNAMIC_FROM: Final = 28
#: The fallback once the budget is spent: calls of the limited discrepancy search that improves
#: on the greedy dive, and the most deviations from its option order it tries.
FALLBACK_BUDGET: Final = 5_000
DISCREPANCIES: Final = 8
#: Search calls one plan may make (a count, never a clock, so the result stays deterministic):
#: at most ~0.3 s here. Almost every hand needs far fewer; past it the fallback answers.
NODE_BUDGET: Final = 20_000
_MIN_GAIN: Final = 2 * min(POINTS[:52])  # the least a kept card costs: at least one is kept


@dataclass(frozen=True)
class Solution:
    """Moves to push in order (meld numbers count the melds laid before), what the player's
    melds gain in points, the round-score gain (R7.1: melds up, hand down) and the cards kept."""

    moves: tuple[Move, ...]
    points: int
    gain: int
    kept: tuple[Card, ...]
    exact: bool = True


class _OutOfBudget(Exception):
    """The search opened more subproblems than its budget allows."""


@dataclass(frozen=True)
class _Run:
    """One of the player's runs: meld number, suit, ranks at its ends, length."""

    number: int
    suit: int
    low: int
    high: int
    length: int


@dataclass(frozen=True)
class _Set:
    """One of the player's sets: meld number, naturals per suit, size."""

    number: int
    per_suit: tuple[int, int, int, int]
    size: int


# A run option: cards low→high (52 joker, -1-i the player's run i), jokers used, run absorbed or
# -1, gain of the new cards, length of the resulting meld, points and number of new naturals.
_RunOpt = tuple[tuple[int, ...], int, int, int, int, int, int]


class _Search:
    """One optimisation of one hand against the player's melds: option caches and the memo."""

    __slots__ = (
        "budget",
        "by_high",
        "by_low",
        "counts",
        "dynamic",
        "memo",
        "owned_flags",
        "run_cache",
        "runs",
        "set_cache",
        "set_room",
        "sets",
    )

    def __init__(self, counts: list[int], melds: Sequence[Meld]) -> None:
        self.counts = counts
        self.runs: list[_Run] = []
        self.sets: dict[int, _Set] = {}
        for number, m in enumerate(melds, start=1):
            if m.kind == "run":
                n = len(m.cards)
                self.runs.append(_Run(number, m.suit, m.start, (m.start + n - 1) % 13, n))
            else:
                per = [0, 0, 0, 0]
                for c in m.cards:
                    if c != JOKER_CODE:
                        per[c // 13] += 1
                self.sets[m.rank] = _Set(number, (per[0], per[1], per[2], per[3]), len(m.cards))
        self.by_high: dict[int, list[int]] = {}
        self.by_low: dict[int, list[int]] = {}
        for i, b in enumerate(self.runs):
            if b.length < MAX_RUN:
                self.by_high.setdefault(b.suit * 13 + b.high, []).append(i)
                self.by_low.setdefault(b.suit * 13 + b.low, []).append(i)
        self.set_room = {rank: MAX_SET - s.size for rank, s in self.sets.items()}
        self.owned_flags = sum(1 << rank for rank in self.sets)
        self.budget = NODE_BUDGET
        self.dynamic = sum(counts[:52]) >= DYNAMIC_FROM
        self.run_cache: dict[tuple[int, bytes, int, int], list[_RunOpt]] = {}
        self.set_cache: dict[
            tuple[int, bytes, int], list[tuple[tuple[int, ...], int, int, int]]
        ] = {}
        self.memo: dict[tuple[bytes, int, int, int, int, bool, int], tuple[int, bool, object]] = {}

    # -- options -------------------------------------------------------------------------------

    def _side(
        self, suit: int, rank: int, step: int, jokers: int, mask: int
    ) -> list[tuple[tuple[int, ...], int, int, int]]:
        """Sequences from ``rank`` (exclusive) in direction ``step``, never ending on a joker:
        (items, jokers used, run absorbed or -1, length)."""
        counts = self.counts
        ends = self.by_high if step < 0 else self.by_low
        runs = self.runs
        out: list[tuple[tuple[int, ...], int, int, int]] = [((), 0, -1, 0)]
        stack: list[tuple[tuple[int, ...], int, int, int, int]] = [((), 0, rank, 0, -1)]
        room = MAX_RUN - 1
        base = suit * 13
        while stack:
            items, used, pos, length, blk = stack.pop()
            if length >= room:
                continue
            p = (pos + step) % 13
            code = base + p
            if used < jokers and length + 2 <= room:
                stack.append(((*items, JOKER_CODE), used + 1, p, length + 1, blk))
            if blk < 0:
                for i in ends.get(code, ()):
                    if mask >> i & 1:
                        continue
                    b = runs[i]
                    if length + b.length > room:
                        continue
                    nxt = (*items, -1 - i)
                    out.append((nxt, used, i, length + b.length))
                    stack.append((nxt, used, b.low if step < 0 else b.high, length + b.length, i))
            if counts[code]:
                nxt = (*items, code)
                out.append((nxt, used, blk, length + 1))
                stack.append((nxt, used, p, length + 1, blk))
        return out

    def run_options(self, c: int, jokers: int, mask: int) -> list[_RunOpt]:
        """Runs containing natural ``c``, richest first (cached on the suit's cards)."""
        suit = c // 13
        key = (c, bytes(self.counts[suit * 13 : suit * 13 + 13]), jokers, mask)
        hit = self.run_cache.get(key)
        if hit is None:
            hit = self.run_cache[key] = self._run_options(c, jokers, mask)
        return hit

    def _run_options(self, c: int, jokers: int, mask: int) -> list[_RunOpt]:
        suit, rank = divmod(c, 13)
        downs = self._side(suit, rank, -1, jokers, mask)
        ups = self._side(suit, rank, 1, jokers, mask)
        out: list[_RunOpt] = []
        pc = POINTS[c]
        for d_items, d_used, d_blk, d_len in downs:
            d_pts = 0
            for x in d_items:
                if 0 <= x < 52:
                    d_pts += POINTS[x]
            for u_items, u_used, u_blk, u_len in ups:
                if d_blk >= 0 and u_blk >= 0:
                    continue  # a lay never joins two melds
                length = d_len + 1 + u_len
                used = d_used + u_used
                if length > MAX_RUN or used > jokers:
                    continue
                pts = d_pts + pc
                for x in u_items:
                    if 0 <= x < 52:
                        pts += POINTS[x]
                blk = d_blk if d_blk >= 0 else u_blk
                seq = (*d_items[::-1], c, *u_items)
                if blk < 0 and length > MAX_PIECE and _joker_gap(seq) < 5:
                    continue  # the same cards make shorter runs: see MAX_PIECE
                if blk < 0 and length < 3:
                    filler = 3 - length
                    if used + filler > jokers:
                        continue
                    seq = (*seq, *(JOKER_CODE,) * filler)
                    used += filler
                    length = 3
                nats = sum(1 for x in seq if 0 <= x < 52)
                out.append((seq, used, blk, 2 * pts + used * JOKER_GAIN, length, pts, nats))
        out.sort(key=lambda o: (o[1], -o[3]))
        return out

    def set_options(self, c: int, jokers: int) -> list[tuple[tuple[int, ...], int, int, int]]:
        """Sets with natural ``c`` (cached on the rank's cards and the jokers that matter)."""
        counts = self.counts
        rank = c % 13
        key = (c, bytes(counts[rank::13]), min(jokers, 2))
        hit = self.set_cache.get(key)
        if hit is None:
            hit = self.set_cache[key] = self._set_options(c, min(jokers, 2))
        return hit

    def _set_options(self, c: int, jokers: int) -> list[tuple[tuple[int, ...], int, int, int]]:
        """Sets with natural ``c`` and any other cards of its rank left: (naturals, filler
        jokers, gain, size of the resulting set), fewest jokers and richest first; with the
        player's set of the rank, the cards laid on it (R5.4)."""
        suit0, rank = divmod(c, 13)
        owned = self.sets.get(rank)
        counts = self.counts
        limits = [0, 0, 0, 0]
        for s in range(4):
            cap = 2 - (owned.per_suit[s] if owned else 0)
            limits[s] = min(counts[s * 13 + rank], cap)
        if limits[suit0] == 0:
            return []
        base_size = owned.size if owned else 0
        out: list[tuple[tuple[int, ...], int, int, int]] = []
        for a in range(limits[0], -1, -1):
            for b in range(limits[1], -1, -1):
                for d in range(limits[2], -1, -1):
                    for e in range(limits[3], -1, -1):
                        ks = (a, b, d, e)
                        if ks[suit0] == 0:
                            continue
                        n = a + b + d + e
                        filler = 0 if owned else max(0, 3 - n)
                        size = base_size + n + filler
                        if size > MAX_SET or filler > jokers:
                            continue
                        cards: list[int] = []
                        pts = 0
                        for s, k in enumerate(ks):
                            cards.extend([s * 13 + rank] * k)
                            pts += k * POINTS[s * 13 + rank]
                        out.append((tuple(cards), filler, 2 * pts + filler * JOKER_GAIN, size))
        out.sort(key=lambda o: (o[1], -o[2]))
        return out

    # -- search --------------------------------------------------------------------------------

    def pick(self, at: int, flags: int) -> int:
        """The card to branch on in big hands: the one with the fewest natural partners for a
        set or a run (fail first, as in Knuth's Algorithm X); the first in :data:`ORDER` on ties.
        Any card works: it is kept or lies in exactly one meld, so each arrangement is reached
        once."""
        counts = self.counts
        best = -1
        fewest = 1 << 30
        for i in range(at, 52):
            x = ORDER[i]
            if not counts[x]:
                continue
            suit, rank = divmod(x, 13)
            n = 0
            if not flags >> rank & 1:
                for t in range(rank, 52, 13):
                    n += counts[t]
            base = suit * 13
            n += 2 * (counts[base + (rank - 1) % 13] > 0) + 2 * (counts[base + (rank + 1) % 13] > 0)
            n += (counts[base + (rank - 2) % 13] > 0) + (counts[base + (rank + 2) % 13] > 0)
            if n < fewest:
                best, fewest = x, n
        return best

    def _terminal(
        self, jokers: int, flags: int, mask: int, room: int, kept: bool, disp: int
    ) -> tuple[int, int, int]:
        """The jokers left at the end: spares onto melds with room (40 each), then jokers
        disposed of (20 each: laid, then swapped out for a natural laid this turn, which leaves
        the joker out of the game, R6), always keeping a card (R4.2). Returns (value, spares,
        disposals); the value is -10**9 if no card could stay."""
        total = room
        for i, b in enumerate(self.runs):
            if not mask >> i & 1:
                total += MAX_RUN - b.length
        for rank, r in self.set_room.items():
            if not flags >> rank & 1:
                total += r
        lay = min(jokers, total)
        dispose = min(jokers - lay, disp)
        if not kept and lay + dispose == jokers:
            if dispose:
                dispose -= 1  # R4.2: a joker stays to be discarded
            else:
                lay -= 1
        if lay < 0:
            return _NEG, 0, 0
        return lay * JOKER_GAIN + dispose * DISPOSE_GAIN, lay, dispose

    def search(
        self,
        at: int,
        jokers: int,
        flags: int,
        mask: int,
        room: int,
        kept: bool,
        disp: int,
        rem: int,
        alpha: int,
    ) -> int:
        """The best gain of the undecided cards if it exceeds ``alpha`` (then exact), else an
        upper bound no larger than ``alpha``. ``rem`` is the points of the naturals left."""
        self.budget -= 1
        if self.budget < 0:
            raise _OutOfBudget
        counts = self.counts
        while at < 52 and counts[ORDER[at]] == 0:
            at += 1
        if at == 52:
            return self._terminal(jokers, flags, mask, room, kept, disp)[0]
        bound = 2 * rem + jokers * JOKER_GAIN - (0 if kept else _MIN_GAIN)
        if bound <= alpha:
            return bound
        if self.dynamic:
            c = self.pick(at, flags)
            rank = c % 13
        else:
            c = ORDER[at]
            rank = c % 13
            # The set flags of ranks already passed cannot matter any more.
            flags &= self.owned_flags | -(1 << rank)
        # Room beyond the jokers left cannot matter either: equal subproblems share an entry.
        room = min(room, jokers)
        disp = min(disp, jokers)
        key = (bytes(counts), jokers, flags, mask, room, kept, disp)
        hit = self.memo.get(key)
        if hit is not None:
            if hit[1] or hit[0] <= alpha:
                return hit[0]
            # An earlier, failed search proved this node worth at most hit[0]: reaching that
            # proves it exact, so the options after it need not be tried.
            bound = min(bound, hit[0])
        best = _NEG
        choice: object = None
        if not flags >> rank & 1:
            owned = rank in self.sets
            for cards, filler, gain, size in self.set_options(c, jokers):
                if best >= bound:
                    break  # nothing beats the bound
                pts = 0
                for x in cards:
                    counts[x] -= 1
                    pts += POINTS[x]
                v = self.search(
                    at,
                    jokers - filler,
                    flags | 1 << rank,
                    mask,
                    min(6, room + MAX_SET - size),
                    kept,
                    disp + (len(cards) if owned else len(cards) - 1),
                    rem - pts,
                    max(alpha, best) - gain,
                )
                for x in cards:
                    counts[x] += 1
                if v > _NEG and v + gain > best:
                    best, choice = v + gain, ("set", cards, filler)
        for seq, used, blk, gain, length, pts, nats in self.run_options(c, jokers, mask):
            if best >= bound:
                break
            for x in seq:
                if 0 <= x < 52:
                    counts[x] -= 1
            v = self.search(
                at,
                jokers - used,
                flags,
                mask | (1 << blk if blk >= 0 else 0),
                min(6, room + MAX_RUN - length),
                kept,
                disp + (nats if blk >= 0 else nats - 1),
                rem - pts,
                max(alpha, best) - gain,
            )
            for x in seq:
                if 0 <= x < 52:
                    counts[x] += 1
            if v > _NEG and v + gain > best:
                best, choice = v + gain, ("run", seq, blk, length)
        floor = max(alpha, best)
        keep_bound = 2 * (rem - POINTS[c]) + jokers * JOKER_GAIN
        if keep_bound <= floor:
            v = keep_bound  # cut without a call: an upper bound, as the call would return
        else:
            counts[c] -= 1
            v = self.search(at, jokers, flags, mask, room, True, disp, rem - POINTS[c], floor)
            counts[c] += 1
        if v > best:
            best, choice = v, ("keep",)
        exact = best > alpha
        if hit is None or not hit[1]:
            self.memo[key] = (best, exact, choice)
        return best

    def improve(
        self, jokers: int, kept: bool, rem: int, floor: int, budget: int
    ) -> tuple[list[tuple[str, tuple[int, ...], int]], int, int, int] | None:
        """Limited discrepancy search in card order (Harvey & Ginsberg, 1995), keeping the best
        complete arrangement it meets: the fallback when the exact search ran out of budget.
        Pass k follows the option order (fewest jokers, richest first; keeping the card last)
        but may deviate k times, so the search spreads over the whole tree instead of sinking
        into one corner. Returns the best arrangement above ``floor`` (melds, spare jokers,
        disposals, gain) or None; stops after ``budget`` calls (deterministic)."""
        counts = self.counts
        path: list[tuple[str, tuple[int, ...], int]] = []
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
                value, lay, dispose = self._terminal(jokers, flags, mask, room, kept, disp)
                if value > _NEG and acc + value > top:
                    best[0] = acc + value
                    best[1] = (list(path), lay, dispose)
                return
            if acc + 2 * rem + jokers * JOKER_GAIN - (0 if kept else _MIN_GAIN) <= top:
                return
            c = ORDER[at]
            rank = c % 13
            tried = 0
            if not flags >> rank & 1:
                owned = rank in self.sets
                for cards, filler, gain, size in self.set_options(c, jokers):
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
            for seq, used, blk, gain, length, pts, nats in self.run_options(c, jokers, mask):
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

    def dive(self, kept: bool) -> tuple[list[tuple[str, tuple[int, ...], int]], int]:
        """A greedy arrangement, no backtracking: each lowest card takes its first option (fewest
        jokers, richest), or stays. If nothing is kept yet, the cheapest card is set aside first
        (R4.2). The fallback when the search runs out of budget."""
        counts = self.counts[:]
        saved = self.counts
        self.counts = counts
        try:
            if not kept:
                naturals = [c for c in range(52) if counts[c]]
                cheapest = min(naturals, key=lambda c: (POINTS[c], c)) if naturals else JOKER_CODE
                counts[cheapest] -= 1
            jokers = counts[JOKER_CODE]
            flags = mask = room = 0
            chosen: list[tuple[str, tuple[int, ...], int]] = []
            for c in ORDER:
                while counts[c]:
                    rank = c % 13
                    sets = [] if flags >> rank & 1 else self._set_options(c, min(jokers, 2))
                    runs = self._run_options(c, jokers, mask)
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
            return chosen, self._terminal(jokers, flags, mask, room, True, 0)[1]
        finally:
            self.counts = saved

    def walk(
        self, jokers: int, room: int, kept: bool
    ) -> tuple[list[tuple[str, tuple[int, ...], int]], int, int]:
        """Follow the memo's exact choices from the root: the melds chosen, spare jokers and
        jokers disposed of."""
        counts = self.counts
        flags = mask = disp = 0
        chosen: list[tuple[str, tuple[int, ...], int]] = []
        at = 0
        while True:
            while at < 52 and counts[ORDER[at]] == 0:
                at += 1
            if at == 52:
                _, lay, dispose = self._terminal(jokers, flags, mask, room, kept, disp)
                return chosen, lay, dispose
            if self.dynamic:
                c = self.pick(at, flags)
            else:
                c = ORDER[at]
                flags &= self.owned_flags | -(1 << (c % 13))
            room = min(room, jokers)
            disp = min(disp, jokers)
            key = (bytes(counts), jokers, flags, mask, room, kept, disp)
            _, exact, choice = self.memo[key]
            assert exact and isinstance(choice, tuple)
            if choice[0] == "keep":
                counts[c] -= 1
                kept = True
            elif choice[0] == "set":
                cards, filler = choice[1], choice[2]
                rank = c % 13
                owned = self.sets.get(rank)
                for x in cards:
                    counts[x] -= 1
                size = (owned.size if owned else 0) + len(cards) + filler
                chosen.append(("set", (*cards, *(JOKER_CODE,) * filler), -1))
                jokers -= filler
                flags |= 1 << rank
                room = min(6, room + MAX_SET - size)
                disp += len(cards) if owned else len(cards) - 1
            else:
                seq, blk, length = choice[1], choice[2], choice[3]
                for x in seq:
                    if 0 <= x < 52:
                        counts[x] -= 1
                chosen.append(("run", seq, blk))
                jokers -= sum(1 for x in seq if x == JOKER_CODE)
                if blk >= 0:
                    mask |= 1 << blk
                room = min(6, room + MAX_RUN - length)
                nats = sum(1 for x in seq if 0 <= x < 52)
                disp += nats if blk >= 0 else nats - 1


def _joker_gap(seq: tuple[int, ...]) -> int:
    """The longest stretch of jokers in a run's cards."""
    longest = streak = 0
    for x in seq:
        streak = streak + 1 if x == JOKER_CODE else 0
        longest = max(longest, streak)
    return longest


def _aspire(search: _Search, jokers: int, kept: bool, rem: int, floor: int) -> int | None:
    """Search with an aspiration window: first ask whether the bound itself (all undecided cards
    laid but the one kept) is reachable, then lower the target in growing steps. A tight target
    cuts nearly every branch at once, and the memo's bounds carry over from one try to the next;
    the first try that succeeds returns the exact best (gains are multiples of 10). ``floor`` is
    a gain already reached (the greedy dive's): None means nothing beats it."""
    bound = 2 * rem + jokers * JOKER_GAIN - (0 if kept else _MIN_GAIN)
    step = 10
    target = bound
    while target > floor:
        value = search.search(0, jokers, 0, 0, 0, kept, 0, rem, target - 1)
        if value >= target:
            return value
        target = min(target - step, value)
        step *= 2
    value = search.search(0, jokers, 0, 0, 0, kept, 0, rem, floor)
    return value if value > floor else None


def _value(chosen: list[tuple[str, tuple[int, ...], int]], spare: int) -> int:
    """The round-score gain of chosen melds and spare jokers (R7.1: 2 × points laid)."""
    laid = sum(POINTS[x] for _, seq, _ in chosen for x in seq if x >= 0)
    return 2 * laid + spare * JOKER_GAIN


def _live(counts: list[int], melds: Sequence[Meld]) -> list[int]:
    """The hand without naturals no meld or lay could use (surely kept): a pure speed-up,
    repeated until stable since dropping a card can strand another."""
    counts = counts[:]
    while True:
        probe = _Search(counts, melds)
        jokers = counts[JOKER_CODE]
        dead = []
        for c in range(52):
            if not counts[c]:
                continue
            rank = c % 13
            owned = probe.sets.get(rank)
            if owned is not None:
                if owned.size < MAX_SET and owned.per_suit[c // 13] < 2:
                    continue
            elif sum(min(2, counts[s * 13 + rank]) for s in range(4)) + jokers >= 3:
                continue
            if probe.run_options(c, jokers, 0):
                continue
            dead.append(c)
        if not dead:
            return counts
        for c in dead:
            counts[c] = 0


def _swap_plans(melds: Sequence[Meld], counts: list[int]) -> list[list[tuple[int, Card]]]:
    """Every combination of swaps that gain (2p − 20 > 0: aces and the Q♠, R6) into the
    player's melds: per meld and card, as many as its jokers, the suit limit of a set (R5.1)
    and the copies in hand allow. The empty plan comes first."""
    groups: list[tuple[int, int, int]] = []  # (meld index, card, most swaps)
    for i, m in enumerate(melds):
        jokers = m.cards.count(JOKER)
        if not jokers:
            continue
        for code in range(52):
            if not counts[code] or 2 * POINTS[code] <= POINTS[JOKER_CODE]:
                continue
            try:
                m.with_swap(CARDS[code])
            except InvalidMeld:
                continue
            most = 1
            if m.kind == "set":
                suit = sum(1 for c in m.cards if c != JOKER_CODE and c // 13 == code // 13)
                most = min(jokers, counts[code], 2 - suit)
            groups.append((i, code, most))
    plans: list[list[tuple[int, Card]]] = []

    def extend(g: int, plan: list[tuple[int, Card]], used: list[int], per_meld: list[int]) -> None:
        if g == len(groups):
            plans.append(plan)
            return
        i, code, most = groups[g]
        room = melds[i].cards.count(JOKER) - per_meld[i]
        for k in range(min(most, counts[code] - used[code], room) + 1):
            used[code] += k
            per_meld[i] += k
            extend(g + 1, plan + [(i, CARDS[code])] * k, used, per_meld)
            used[code] -= k
            per_meld[i] -= k

    extend(0, [], [0] * 52, [0] * len(melds))
    return plans


def solve(hand: Sequence[Card], own_melds: Sequence[Meld]) -> Solution:
    """The arrangement with the largest round-score gain that keeps a card (R4.2). Exact unless
    the search outgrows :data:`NODE_BUDGET` (then ``exact`` is False: the greedy dive's answer,
    still legal and deterministic)."""
    counts = [0] * 53
    for c in hand:
        counts[c] += 1
    melds = list(own_melds)
    plans = _swap_plans(melds, counts)
    best: Solution | None = None
    exact = True
    for plan in plans:
        found = _solve_plan(counts, melds, plan, len(hand))
        if found is not None:
            exact = exact and found.exact
            if best is None or found.gain > best.gain:
                best = found
    assert best is not None  # the empty plan always works: lay nothing
    if best.exact != exact:  # exact means exact over every plan
        best = Solution(best.moves, best.points, best.gain, best.kept, exact)
    return best


def _solve_plan(
    counts: list[int], melds: list[Meld], plan: list[tuple[int, Card]], size: int
) -> Solution | None:
    counts = counts[:]
    melds = melds[:]
    moves: list[Move] = []
    gain = points = 0
    for i, card in plan:
        if counts[card] == 0 or size - len(moves) < 2:
            return None
        try:
            melds[i] = melds[i].with_swap(card)
        except InvalidMeld:
            return None  # two swaps wanted the same joker
        counts[card] -= 1
        moves.append(Move.swap(i + 1, card))
        points += POINTS[card] - POINTS[JOKER_CODE]
        gain += 2 * POINTS[card] - POINTS[JOKER_CODE]
    live = _live(counts, melds)
    kept = live != counts
    search = _Search(live, melds)
    jokers = live[JOKER_CODE]
    rem = sum(POINTS[c] * live[c] for c in range(52))
    exact = True
    chosen, spare = search.dive(kept)
    dispose = 0
    floor = _value(chosen, spare)
    try:
        value = _aspire(search, jokers, kept, rem, floor)
        if value is not None:
            chosen, spare, dispose = search.walk(jokers, 0, kept)
    except _OutOfBudget:
        exact = False
        better = _Search(live, melds).improve(jokers, kept, rem, floor, FALLBACK_BUDGET)
        if better is not None:
            chosen, spare, dispose, _ = better
    before = sum(POINTS[c] * n for c, n in enumerate(counts))
    laid, disposed = _moves(chosen, spare, dispose, search, melds, moves)
    for c in laid:
        counts[c] -= 1
        points += POINTS[c]
    gain += 2 * (before - sum(POINTS[c] * n for c, n in enumerate(counts)))
    counts[JOKER_CODE] -= disposed
    gain += disposed * DISPOSE_GAIN
    kept_cards = tuple(CARDS[c] for c in range(53) for _ in range(counts[c]))
    return Solution(tuple(moves), points, gain, kept_cards, exact)


def _moves(
    chosen: list[tuple[str, tuple[int, ...], int]],
    spare: int,
    dispose: int,
    search: _Search,
    melds: list[Meld],
    moves: list[Move],
) -> tuple[list[int], int]:
    """Append the F2 moves for the chosen melds (pushable in order), routing ``dispose``
    naturals through a joker first (lay the joker, swap the natural in: R6), then the spare
    jokers. Returns the cards laid and the number of jokers disposed of."""
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

    for kind, seq, blk in chosen:
        if kind == "set":
            rank = next(x % 13 for x in seq if x != JOKER_CODE)
            owned = search.sets.get(rank)
            if owned is not None:
                for x in seq:
                    place(owned.number, x, None)
                continue
        if kind == "set" or blk < 0:
            cards = list(seq)
            routed = []
            for i in range(len(cards) - 1, -1, -1):
                naturals = sum(1 for x in cards if x != JOKER_CODE)
                if left and cards[i] != JOKER_CODE and naturals > 1:
                    routed.append(cards[i])
                    cards[i] = JOKER_CODE
                    left -= 1
            meld = Meld.build([CARDS[x] for x in cards], kind)
            naturals = sum(1 for x in cards if x != JOKER_CODE)
            moves.append(Move("meld", meld.cards, 0, None, kind if naturals == 1 else None))
            table.append(meld)
            for x in routed:
                moves.append(Move.swap(len(table), CARDS[x]))
                table[-1] = table[-1].with_swap(CARDS[x])
            laid.extend(x for x in seq)
            continue
        number = search.runs[blk].number
        at = seq.index(-1 - blk)
        for x in seq[at + 1 :]:
            place(number, x, None)
        for x in reversed(seq[:at]):
            place(number, x, "low")
    for _ in range(spare):
        for number, meld in enumerate(table, start=1):
            if len(meld.cards) < (MAX_RUN if meld.kind == "run" else MAX_SET):
                moves.append(Move.lay(JOKER, number))
                table[number - 1] = meld.with_card(JOKER)
                laid.append(JOKER_CODE)
                break
    return laid, dispose - left
