"""The optimiser's exact search (R4.2, R5, R6, R7.1): options, bound and memo.

Exact cover over the hand, as in the value-by-value programme of van Rijn, Takes & Vis ("The
Complexity of Rummikub Problems", 2015). Cards are decided in value-by-value order (rank, then
suit): the lowest card left is kept, or lies in exactly one new set or run; a run may absorb one
of the player's runs (that is a lay-off) and a set of a rank the player owns is laid onto it
(R5.4). Big hands branch on their most constrained card instead (fail first, as in Algorithm X).

The undecided cards can gain at most twice their points (laid instead of held, R7.1), so
branches that cannot beat a target are cut; the memo keeps values as exact or as upper bounds
(fail-soft). Structural jokers fill a run's gaps or bring a meld to three cards; the others are
spare and go onto any meld with room (worth 20 wherever they lie, R1); with no room left a joker
can still be laid and swapped out for a natural laid this turn, leaving the game (R6). A budget
of search calls (never a clock) bounds the work. Deterministic: fixed enumeration orders, ties
kept by the first found, no hashing of strings or sets.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from engine.pikdame.cards import JOKER_CODE, POINTS
from engine.pikdame.melds import MAX_RUN, MAX_SET, Meld

JOKER_GAIN: Final = 2 * POINTS[JOKER_CODE]
#: A joker laid and then swapped out for a natural (R6) leaves hand and game: 20 off the hand.
DISPOSE_GAIN: Final = POINTS[JOKER_CODE]
#: Cards in the order they are decided: rank by rank, suits within a rank.
ORDER: Final = tuple(s * 13 + r for r in range(13) for s in range(4))
NEG: Final = -(10**9)
#: New runs longer than this are never needed: the cards of a longer run make runs of 3 to 5
#: cards, each with a natural card, unless a gap of 5 or more jokers stands in it (checked
#: exhaustively for every pattern of at most 6 jokers); the pieces lay the same cards and leave
#: more room for spare jokers.
MAX_PIECE: Final = 5
#: From this many natural cards on, the search branches on the most constrained card instead of
#: the lowest: slower per step, far fewer steps on big hands (measured in bench/results/bots.md).
DYNAMIC_FROM: Final = 28
#: Search calls one plan may make (a count, never a clock, so the result stays deterministic):
#: at most ~0.3 s here. Almost every hand needs far fewer; past it the fallback answers.
NODE_BUDGET: Final = 20_000
MIN_GAIN: Final = 2 * min(POINTS[:52])  # the least a kept card costs: at least one is kept

#: A chosen meld: ("set" or "run", cards low→high with 52 for a joker and -1-i for the player's
#: run i, the run absorbed or -1).
Chosen = tuple[str, tuple[int, ...], int]


class OutOfBudget(Exception):
    """The search opened more subproblems than its budget allows."""


@dataclass(frozen=True)
class OwnRun:
    """One of the player's runs: meld number, suit, ranks at its ends, length."""

    number: int
    suit: int
    low: int
    high: int
    length: int


@dataclass(frozen=True)
class OwnSet:
    """One of the player's sets: meld number, naturals per suit, size."""

    number: int
    per_suit: tuple[int, int, int, int]
    size: int


# A run option: cards low→high (52 joker, -1-i the player's run i), jokers used, run absorbed or
# -1, gain of the new cards, length of the resulting meld, points and number of new naturals.
RunOption = tuple[tuple[int, ...], int, int, int, int, int, int]


class Search:
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
        self.runs: list[OwnRun] = []
        self.sets: dict[int, OwnSet] = {}
        for number, m in enumerate(melds, start=1):
            if m.kind == "run":
                n = len(m.cards)
                self.runs.append(OwnRun(number, m.suit, m.start, (m.start + n - 1) % 13, n))
            else:
                per = [0, 0, 0, 0]
                for c in m.cards:
                    if c != JOKER_CODE:
                        per[c // 13] += 1
                self.sets[m.rank] = OwnSet(number, (per[0], per[1], per[2], per[3]), len(m.cards))
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
        self.run_cache: dict[tuple[int, bytes, int, int], list[RunOption]] = {}
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

    def run_options(self, c: int, jokers: int, mask: int) -> list[RunOption]:
        """Runs containing natural ``c``, richest first (cached on the suit's cards)."""
        suit = c // 13
        key = (c, bytes(self.counts[suit * 13 : suit * 13 + 13]), jokers, mask)
        hit = self.run_cache.get(key)
        if hit is None:
            hit = self.run_cache[key] = self._run_options(c, jokers, mask)
        return hit

    def _run_options(self, c: int, jokers: int, mask: int) -> list[RunOption]:
        suit, rank = divmod(c, 13)
        downs = self._side(suit, rank, -1, jokers, mask)
        ups = self._side(suit, rank, 1, jokers, mask)
        out: list[RunOption] = []
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
                if blk < 0 and length > MAX_PIECE and joker_gap(seq) < 5:
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

    def terminal(
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
            return NEG, 0, 0
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
            raise OutOfBudget
        counts = self.counts
        while at < 52 and counts[ORDER[at]] == 0:
            at += 1
        if at == 52:
            return self.terminal(jokers, flags, mask, room, kept, disp)[0]
        bound = 2 * rem + jokers * JOKER_GAIN - (0 if kept else MIN_GAIN)
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
        best = NEG
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
                if v > NEG and v + gain > best:
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
            if v > NEG and v + gain > best:
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

    def walk(self, jokers: int, room: int, kept: bool) -> tuple[list[Chosen], int, int]:
        """Follow the memo's exact choices from the root: the melds chosen, spare jokers and
        jokers disposed of."""
        counts = self.counts
        flags = mask = disp = 0
        chosen: list[Chosen] = []
        at = 0
        while True:
            while at < 52 and counts[ORDER[at]] == 0:
                at += 1
            if at == 52:
                _, lay, dispose = self.terminal(jokers, flags, mask, room, kept, disp)
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


def joker_gap(seq: tuple[int, ...]) -> int:
    """The longest stretch of jokers in a run's cards."""
    longest = streak = 0
    for x in seq:
        streak = streak + 1 if x == JOKER_CODE else 0
        longest = max(longest, streak)
    return longest
