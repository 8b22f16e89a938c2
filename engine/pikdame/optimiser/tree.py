"""The optimiser's decision tree (R4.2, R5, R6, R7.1): where a search stands, what the next card
can become, and what each choice leaves. The exact search, its walk back and both fallbacks all
move through the tree by these steps, so a rule lives in one place.

Cards are decided in value-by-value order (rank, then suit; van Rijn, Takes & Vis, "The Complexity
of Rummikub Problems", 2015): the card decided is kept, or lies in exactly one new set or run; a
run may absorb one of the player's runs (that is a lay-off) and a set of a rank the player owns is
laid onto it (R5.4). Structural jokers fill a run's gaps or bring a meld to three cards; the others
are spare and go onto any meld with room (worth 20 wherever they lie, R1); with no room left a
joker can still be laid and swapped out for a natural laid this turn, leaving the game (R6).
Deterministic: fixed enumeration orders, no hashing of strings or sets.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from operator import mul
from typing import Final, NamedTuple

from engine.core.cards import JOKER_CODE, NATURALS, Counts
from engine.core.melds import MIN_MELD, suit_counts
from engine.pikdame.cards import COPIES, POINTS, RING_NEIGHBOURS
from engine.pikdame.melds import MAX_RUN, MAX_SET, Meld

JOKER_GAIN: Final = 2 * POINTS[JOKER_CODE]
#: A joker laid and then swapped out for a natural (R6) leaves hand and game: 20 off the hand.
DISPOSE_GAIN: Final = POINTS[JOKER_CODE]
#: Cards in the order they are decided: rank by rank, suits within a rank.
ORDER: Final = tuple(s * 13 + r for r in range(13) for s in range(4))
#: The value of a branch in which no card could stay in hand (R4.2): never chosen.
NEG: Final = -(10**9)
#: New runs longer than this are never needed: the cards of a longer run make runs of 3 to 5
#: cards, each with a natural card, unless a gap of 5 or more jokers stands in it (checked
#: exhaustively for every pattern of at most 6 jokers); the pieces lay the same cards and leave
#: more room for spare jokers.
MAX_PIECE: Final = 5
#: The shortest joker gap that lets a run be longer than :data:`MAX_PIECE`.
LONG_GAP: Final = 5
#: A hand holds at most the game's six jokers (R1), so room for more spare jokers never matters.
MAX_JOKERS: Final = COPIES[JOKER_CODE]
MIN_GAIN: Final = 2 * min(POINTS[:NATURALS])  # the least a kept card costs: at least one is kept
NATURAL_POINTS: Final = POINTS[:NATURALS]


class OwnRun(NamedTuple):
    """One of the player's runs: meld number, suit, ranks at its ends, length."""

    number: int
    suit: int
    low: int
    high: int
    length: int


class OwnSet(NamedTuple):
    """One of the player's sets: meld number, naturals per suit, size."""

    number: int
    per_suit: tuple[int, ...]
    size: int


class SidePath(NamedTuple):
    """Cards on one side of a run's decided card: items outward, jokers used, the player's run
    absorbed (or -1), length."""

    items: tuple[int, ...]
    used: int
    absorbed: int
    length: int


class ChosenMeld(NamedTuple):
    """A meld of the arrangement: ``set`` or ``run``, its cards low→high (52 a joker, -1-i the
    player's run i) and the player's run it absorbs (or -1)."""

    kind: str
    cards: tuple[int, ...]
    absorbed: int


class Option(NamedTuple):
    """A meld that the card decided can lie in (a new set or run, cards laid onto the player's
    set of the rank, R5.4, or a run around one of the player's runs, a lay-off) and what choosing
    it changes: the hand's naturals and jokers it uses, the gain of its new cards (R7.1), their
    points, the set flag and run mask bits it sets, the room it leaves for spare jokers, and the
    naturals a disposed joker could give way to (R6)."""

    meld: ChosenMeld
    naturals: tuple[int, ...]
    jokers: int
    gain: int
    points: int
    flag: int
    mask: int
    room: int
    disp: int


class Node(NamedTuple):
    """Where a walk through the tree stands (the cards left are the tree's ``counts``)."""

    at: int  # index into ORDER below which every card is decided
    jokers: int  # jokers left in hand
    flags: int  # bit r: a set of rank r is chosen, or the player owns one (R5.4)
    mask: int  # bit i: the player's run i absorbed a run this turn
    room: int  # places for spare jokers on the new melds (at most MAX_JOKERS)
    kept: bool  # a card already stays in hand (R4.2)
    disp: int  # naturals laid this turn that could take a joker's place (R6)
    rem: int  # the points of the naturals left

    def bound(self) -> int:
        """The most the undecided cards can gain: all laid (twice their points, R7.1), every
        joker spare, less the cheapest card if none is kept yet (R4.2)."""
        return 2 * self.rem + self.jokers * JOKER_GAIN - (0 if self.kept else MIN_GAIN)


#: ``Node(...)`` without the keyword handling of a named tuple's constructor: the search makes
#: one node per step, and this is three times faster.
new_tuple = tuple.__new__


class Ending(NamedTuple):
    """The jokers left at a leaf: the value they add, spares laid and jokers disposed of."""

    value: int
    spares: int
    disposed: int


def root(counts: Counts, kept: bool) -> Node:
    """The tree's root for a hand (``kept``: a card is already known to stay)."""
    rem = sum(map(mul, NATURAL_POINTS, counts))  # map stops at the naturals' end
    return Node(0, counts[JOKER_CODE], 0, 0, 0, kept, 0, rem)


def joker_gap(seq: tuple[int, ...]) -> int:
    """The longest stretch of jokers in a run's cards."""
    longest = streak = 0
    for x in seq:
        streak = streak + 1 if x == JOKER_CODE else 0
        longest = max(longest, streak)
    return longest


#: One of the player's runs that can still grow, as its suit's run options see it: its index
#: among the player's runs, the ranks at its low and high end, its length.
RunEnd = tuple[int, int, int, int]


class Own:
    """The player's melds as the tree sees them, worked out once per swap plan and shared by
    every walk over that plan's hand (the exact search, the greedy dive, the fallback)."""

    __slots__ = ("owned", "owned_flags", "runs", "set_room", "sets", "suit_masks", "suit_runs")

    def __init__(self, melds: Sequence[Meld]) -> None:
        self.runs: list[OwnRun] = []
        self.sets: dict[int, OwnSet] = {}
        for number, m in enumerate(melds, start=1):
            if m.kind == "run":
                n = len(m.cards)
                self.runs.append(OwnRun(number, m.suit, m.start, (m.start + n - 1) % 13, n))
            else:
                self.sets[m.rank] = OwnSet(number, tuple(suit_counts(m.cards)), len(m.cards))
        growing: list[list[RunEnd]] = [[], [], [], []]
        masks = [0, 0, 0, 0]
        for i, b in enumerate(self.runs):
            if b.length < MAX_RUN:
                growing[b.suit].append((i, b.low, b.high, b.length))
                masks[b.suit] |= 1 << i
        #: Per suit: the runs that can grow, and their bits in a node's mask. A card's run
        #: options depend on nothing else of the player's melds.
        self.suit_runs = tuple(tuple(g) for g in growing)
        self.suit_masks = tuple(masks)
        self.set_room = {rank: MAX_SET - s.size for rank, s in self.sets.items()}
        self.owned_flags = sum(1 << rank for rank in self.sets)
        #: Per rank, the player's set as :func:`set_options` sees it (None: no set).
        self.owned: list[tuple[tuple[int, ...], int] | None] = [None] * 13
        for rank, s in self.sets.items():
            self.owned[rank] = (s.per_suit, s.size)


#: How many option lists the shared caches below keep (runs; sets). The options of a card
#: depend only on the cards of its suit (or rank) left, the jokers and the player's melds of
#: that suit (or rank), so successive turns and the bots' what-ifs meet the same ones again.
#: Full, the run options take about 15 MB of a process (about 450 bytes an entry, measured).
RUN_CACHE: Final = 1 << 15
SET_CACHE: Final = 1 << 13


def _side(
    suit: int,
    cards: bytes,
    rank: int,
    step: int,
    jokers: int,
    mask: int,
    runs: tuple[RunEnd, ...],
) -> list[SidePath]:
    """Paths from ``rank`` (exclusive) in direction ``step`` through the suit's ``cards`` (its
    13 counts), jokers, and the growing ``runs`` of the suit whose bit is not in ``mask``; a path
    never ends on a joker."""
    meets: dict[int, list[RunEnd]] = {}  # a path coming from ``rank`` meets a run at this end
    for run in runs:
        if not mask >> run[0] & 1:
            meets.setdefault(run[2] if step < 0 else run[1], []).append(run)
    out: list[SidePath] = [SidePath((), 0, -1, 0)]
    stack: list[tuple[tuple[int, ...], int, int, int, int]] = [((), 0, rank, 0, -1)]
    room = MAX_RUN - 1
    base = suit * 13
    while stack:
        items, used, pos, length, blk = stack.pop()
        if length >= room:
            continue
        p = (pos + step) % 13
        if used < jokers and length + 2 <= room:
            stack.append(((*items, JOKER_CODE), used + 1, p, length + 1, blk))
        if blk < 0:
            for i, low, high, n in meets.get(p, ()):
                if length + n > room:
                    continue
                nxt = (*items, -1 - i)
                out.append(SidePath(nxt, used, i, length + n))
                stack.append((nxt, used, low if step < 0 else high, length + n, i))
        if cards[p]:
            nxt = (*items, base + p)
            out.append(SidePath(nxt, used, blk, length + 1))
            stack.append((nxt, used, p, length + 1, blk))
    return out


@lru_cache(maxsize=RUN_CACHE)
def run_options(
    c: int, cards: bytes, jokers: int, mask: int, runs: tuple[RunEnd, ...]
) -> tuple[Option, ...]:
    """Runs containing natural ``c`` given its suit's ``cards``, the ``jokers`` in hand and the
    suit's growing ``runs`` not yet absorbed (``mask``), fewest jokers and richest first."""
    suit, rank = divmod(c, 13)
    downs = _side(suit, cards, rank, -1, jokers, mask, runs)
    ups = _side(suit, cards, rank, 1, jokers, mask, runs)
    out: list[Option] = []
    for down in downs:
        for up in ups:
            option = _joined(c, down, up, jokers)
            if option is not None:
                out.append(option)
    out.sort(key=lambda o: (o.jokers, -o.gain))
    return tuple(out)


def _joined(c: int, down: SidePath, up: SidePath, jokers: int) -> Option | None:
    """The run of the paths below and above ``c``, if it is one worth trying."""
    if down.absorbed >= 0 and up.absorbed >= 0:
        return None  # a lay never joins two melds
    length = down.length + 1 + up.length
    used = down.used + up.used
    if length > MAX_RUN or used > jokers:
        return None
    blk = down.absorbed if down.absorbed >= 0 else up.absorbed
    seq = (*down.items[::-1], c, *up.items)
    if blk < 0 and length > MAX_PIECE and joker_gap(seq) < LONG_GAP:
        return None  # the same cards make shorter runs: see MAX_PIECE
    if blk < 0 and length < MIN_MELD:
        filler = MIN_MELD - length
        if used + filler > jokers:
            return None
        seq = (*seq, *(JOKER_CODE,) * filler)
        used += filler
        length = MIN_MELD
    naturals = tuple(x for x in seq if 0 <= x < NATURALS)
    points = sum(POINTS[x] for x in naturals)
    n = len(naturals)
    return Option(
        ChosenMeld("run", seq, blk),
        naturals,
        used,
        2 * points + used * JOKER_GAIN,
        points,
        0,
        1 << blk if blk >= 0 else 0,
        MAX_RUN - length,
        n if blk >= 0 else n - 1,  # laid onto the player's run, every natural can
    )


@lru_cache(maxsize=SET_CACHE)
def set_options(
    c: int, cards: bytes, jokers: int, owned: tuple[tuple[int, ...], int] | None
) -> tuple[Option, ...]:
    """Sets with natural ``c`` and any other cards of its rank left (``cards``: the rank's
    count per suit), with at most ``jokers`` as fillers, fewest jokers and richest first; with
    the player's set of the rank (``owned``: its naturals per suit and size), the cards laid on
    it (R5.4)."""
    suit0, rank = divmod(c, 13)
    per_suit = owned[0] if owned else (0, 0, 0, 0)
    limits = [min(cards[s], 2 - per_suit[s]) for s in range(4)]
    if limits[suit0] == 0:
        return ()
    base_size = owned[1] if owned else 0
    out: list[Option] = []
    for a in range(limits[0], -1, -1):
        for b in range(limits[1], -1, -1):
            for d in range(limits[2], -1, -1):
                for e in range(limits[3], -1, -1):
                    ks = (a, b, d, e)
                    if ks[suit0] == 0:
                        continue
                    n = a + b + d + e
                    filler = 0 if owned else max(0, MIN_MELD - n)
                    size = base_size + n + filler
                    if size > MAX_SET or filler > jokers:
                        continue
                    chosen: list[int] = []
                    for s, k in enumerate(ks):
                        chosen.extend([s * 13 + rank] * k)
                    pts = sum(POINTS[x] for x in chosen)
                    out.append(
                        Option(
                            ChosenMeld("set", (*chosen, *(JOKER_CODE,) * filler), -1),
                            tuple(chosen),
                            filler,
                            2 * pts + filler * JOKER_GAIN,
                            pts,
                            1 << rank,
                            0,
                            MAX_SET - size,
                            n if owned else n - 1,  # onto the player's set, every one can
                        )
                    )
    out.sort(key=lambda o: (o.jokers, -o.gain))
    return tuple(out)


class Tree:
    """One hand against the player's melds: the options of each card and the steps."""

    __slots__ = ("counts", "dynamic", "own", "owned_flags", "runs", "set_room", "sets")

    def __init__(self, counts: Counts, own: Own, dynamic: bool = False) -> None:
        self.counts = counts
        self.dynamic = dynamic
        self.own = own
        self.runs = own.runs
        self.sets = own.sets
        self.set_room = own.set_room
        self.owned_flags = own.owned_flags

    # -- the options of a card -----------------------------------------------------------------

    def run_options(self, c: int, jokers: int, mask: int) -> Sequence[Option]:
        """Runs containing natural ``c``, fewest jokers and richest first (shared cache)."""
        suit = c // 13
        base = suit * 13
        own = self.own
        return run_options(
            c,
            bytes(self.counts[base : base + 13]),
            jokers,
            mask & own.suit_masks[suit],
            own.suit_runs[suit],
        )

    def set_options(self, c: int, jokers: int) -> Sequence[Option]:
        """Sets with natural ``c`` (a set with a natural needs at most two jokers to reach three
        cards, so more never change the options)."""
        rank = c % 13
        return set_options(
            c, bytes(self.counts[rank:NATURALS:13]), min(jokers, MIN_MELD - 1), self.own.owned[rank]
        )

    def options(self, node: Node, c: int) -> Sequence[Option]:
        """What card ``c`` can become besides staying in hand, in the order tried: the sets (none
        once its rank has one, R5.4), then the runs."""
        runs = self.run_options(c, node.jokers, node.mask)
        if node.flags >> (c % 13) & 1:
            return runs
        sets = self.set_options(c, node.jokers)
        return [*sets, *runs] if sets else runs

    # -- moving through the tree ---------------------------------------------------------------

    def first_left(self, at: int) -> int:
        """The index in :data:`ORDER` of the first card still in hand from ``at`` on."""
        counts = self.counts
        while at < NATURALS and counts[ORDER[at]] == 0:
            at += 1
        return at

    def pick(self, at: int, flags: int) -> int:
        """The card to branch on in big hands: the one with the fewest natural partners for a
        set or a run (fail first, as in Knuth's Algorithm X); the first in :data:`ORDER` on ties.
        Any card works: it is kept or lies in exactly one meld, so each arrangement is reached
        once."""
        counts = self.counts
        order = ORDER
        near = RING_NEIGHBOURS
        best = -1
        fewest = 1 << 30
        for i in range(at, NATURALS):
            x = order[i]
            if not counts[x]:
                continue
            rank = x % 13
            n = 0
            if not flags >> rank & 1:  # partners for a set: the rank's cards in every suit
                n = counts[rank] + counts[rank + 13] + counts[rank + 26] + counts[rank + 39]
            down, up, down2, up2 = near[x]
            n += 2 * (counts[down] > 0) + 2 * (counts[up] > 0) + (counts[down2] > 0)
            n += counts[up2] > 0
            if n < fewest:
                best, fewest = x, n
        return best

    def decide(self, node: Node, at: int) -> tuple[int, Node]:
        """The card to decide next (the lowest left, or with ``dynamic`` the most constrained)
        and the node in its normal form: set flags of ranks already passed and room or
        disposals beyond the jokers left cannot matter, so equal subproblems look equal."""
        _, jokers, flags, mask, room, kept, disp, rem = node
        if self.dynamic:
            c = self.pick(at, flags)
        else:
            c = ORDER[at]
            flags &= self.owned_flags | -(1 << (c % 13))
        return c, new_tuple(
            Node,
            (
                at,
                jokers,
                flags,
                mask,
                room if room < jokers else jokers,
                kept,
                disp if disp < jokers else jokers,
                rem,
            ),
        )

    @staticmethod
    def child(node: Node, option: Option) -> Node:
        """The node after laying ``option`` (its cards already taken from hand)."""
        at, jokers, flags, mask, room, kept, disp, rem = node
        _, _, used, _, points, flag, bit, more_room, more_disp = option
        return new_tuple(
            Node,
            (
                at,
                jokers - used,
                flags | flag,
                mask | bit,
                room + more_room if room + more_room < MAX_JOKERS else MAX_JOKERS,
                kept,
                disp + more_disp,
                rem - points,
            ),
        )

    @staticmethod
    def keeping(node: Node, c: int) -> Node:
        """The node after keeping card ``c`` in hand (its copy already taken from ``counts``)."""
        return new_tuple(
            Node,
            (
                node.at,
                node.jokers,
                node.flags,
                node.mask,
                node.room,
                True,
                node.disp,
                node.rem - POINTS[c],
            ),
        )

    def take(self, option: Option) -> None:
        counts = self.counts
        for x in option.naturals:
            counts[x] -= 1

    def put_back(self, option: Option) -> None:
        counts = self.counts
        for x in option.naturals:
            counts[x] += 1

    def ending(self, node: Node) -> Ending:
        """The jokers left at a leaf: spares onto melds with room (40 each), then jokers
        disposed of (20 each: laid, then swapped out for a natural laid this turn, which leaves
        the joker out of the game, R6), always keeping a card (R4.2); the value is :data:`NEG`
        if no card could stay."""
        total = node.room
        for i, b in enumerate(self.runs):
            if not node.mask >> i & 1:
                total += MAX_RUN - b.length
        for rank, r in self.set_room.items():
            if not node.flags >> rank & 1:
                total += r
        jokers = node.jokers
        lay = min(jokers, total)
        dispose = min(jokers - lay, node.disp)
        if not node.kept and lay + dispose == jokers:
            if dispose:
                dispose -= 1  # R4.2: a joker stays to be discarded
            else:
                lay -= 1
        if lay < 0:
            return Ending(NEG, 0, 0)
        return Ending(lay * JOKER_GAIN + dispose * DISPOSE_GAIN, lay, dispose)


__all__ = [
    "DISPOSE_GAIN",
    "JOKER_GAIN",
    "MAX_JOKERS",
    "MAX_PIECE",
    "MIN_GAIN",
    "NEG",
    "ORDER",
    "ChosenMeld",
    "Ending",
    "Node",
    "Option",
    "OwnRun",
    "OwnSet",
    "Tree",
    "joker_gap",
    "new_tuple",
    "root",
]
