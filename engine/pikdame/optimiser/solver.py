"""The exact meld optimiser: the most round score a hand can lay this turn (R4.2, R5, R6, R7.1).

Which new melds, lays and swaps on the player's own melds gain the most round score (R7.1: own
melds up, hand down) while keeping a card? Swaps into the player's melds gain 2p − 20, so only aces
and the Q♠ are tried, up front, as plans. Each plan is solved by :mod:`.search` with an aspiration
window: first ask whether the bound itself (every undecided card laid but the one kept) is
reachable, then less, so the search mostly only has to confirm; a greedy dive (:mod:`.fallback`)
gives the floor, and past the budget the fallback's arrangement is returned with ``exact=False``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final, NamedTuple

from engine.core.cards import CARDS, JOKER, JOKER_CODE, NATURALS, Card, Counts, cards_of, counts_of
from engine.core.melds import suit_counts
from engine.pikdame.cards import POINTS
from engine.pikdame.errors import InvalidMeld
from engine.pikdame.meldgen import rank_count, run_partner
from engine.pikdame.melds import MAX_SET, Meld
from engine.pikdame.moves import Move
from engine.pikdame.optimiser.arrangement import Arrangement
from engine.pikdame.optimiser.fallback import FALLBACK_BUDGET, dive, improve
from engine.pikdame.optimiser.moves import arrangement_moves
from engine.pikdame.optimiser.search import NODE_BUDGET, Found, OutOfBudget, Search
from engine.pikdame.optimiser.tree import (
    DISPOSE_GAIN,
    JOKER_GAIN,
    Node,
    Own,
    Tree,
    root,
)


class Swap(NamedTuple):
    """A swap planned up front: the index of the player's meld and the natural swapped in (R6)."""

    meld: int
    card: Card


def _aspire(search: Search, start: Node, floor: int) -> int | None:
    """Search with an aspiration window: first ask whether the bound itself (all undecided cards
    laid but the one kept) is reachable, then lower the target in growing steps. A tight target
    cuts nearly every branch at once, and the memo's bounds carry over from one try to the next;
    the first try that succeeds returns the exact best (gains are multiples of 10). ``floor`` is
    a gain already reached (the greedy dive's): None means nothing beats it."""
    step = 10
    target = start.bound()
    while target > floor:
        value = search.search(start, target - 1)
        if value >= target:
            return value
        target = min(target - step, value)
        step *= 2
    value = search.search(start, floor)
    return value if value > floor else None


def _value(found: Found) -> int:
    """The round-score gain of an arrangement's melds and spare jokers (R7.1: 2 × points laid;
    it disposes of no joker)."""
    laid = sum(POINTS[x] for m in found.melds for x in m.cards if x >= 0)
    return 2 * laid + found.spares * JOKER_GAIN


@lru_cache(maxsize=1024)
def _own(melds: tuple[Meld, ...]) -> Own:
    """The player's melds as the tree sees them (cached: a player's melds change a few times a
    round, and every plan of every turn until then reads them)."""
    return Own(melds)


def _live(counts: Counts, own: Own) -> Counts:
    """The hand without naturals no meld or lay could use (surely kept): a pure speed-up,
    repeated until stable since dropping a card can strand another."""
    counts = counts[:]
    jokers = counts[JOKER_CODE]
    if jokers >= 2:
        return counts  # any natural makes a run with two jokers (R5.3)
    probe = Tree(counts, own)
    sets = own.sets
    present = [c for c in range(NATURALS) if counts[c]]
    while True:
        dead = []
        for c in present:
            rank = c % 13
            owned = sets.get(rank)
            if owned is not None:
                if owned.size < MAX_SET and owned.per_suit[c // 13] < 2:
                    continue
            elif rank_count(counts, rank) + jokers >= 3:
                continue
            if run_partner(counts, c, jokers):
                continue
            # Without a partner in hand, at most one joker: only a lay-off onto one of the
            # player's runs of the suit can still use the card.
            if own.suit_runs[c // 13] and probe.run_options(c, jokers, 0):
                continue
            dead.append(c)
        if not dead:
            return counts
        for c in dead:
            counts[c] = 0
        present = [c for c in present if counts[c]]


#: The naturals whose swap for a joker gains (2p − 20 > 0, R6, R7.1): the aces and the Q♠, in
#: code order.
SWAP_GAINERS: Final = tuple(c for c in range(NATURALS) if 2 * POINTS[c] > POINTS[JOKER_CODE])


def _swap_plans(melds: Sequence[Meld], counts: Counts) -> list[list[Swap]]:
    """Every combination of swaps that gain (2p − 20 > 0: aces and the Q♠, R6) into the
    player's melds: per meld and card, as many as its jokers, the suit limit of a set (R5.1)
    and the copies in hand allow. The empty plan comes first."""
    groups: list[tuple[int, int, int]] = []  # (meld index, card, most swaps)
    for i, m in enumerate(melds):
        jokers = m.cards.count(JOKER)
        if not jokers:
            continue
        for code in SWAP_GAINERS:
            if not counts[code]:
                continue
            try:
                m.with_swap(CARDS[code])
            except InvalidMeld:
                continue
            most = 1
            if m.kind == "set":
                most = min(jokers, counts[code], 2 - suit_counts(m.cards)[code // 13])
            groups.append((i, code, most))
    plans: list[list[Swap]] = []
    if not groups:
        plans.append([])
    else:
        _extend(groups, melds, counts, 0, [], [0] * NATURALS, [0] * len(melds), plans)
    return plans


def _extend(
    groups: list[tuple[int, int, int]],
    melds: Sequence[Meld],
    counts: Counts,
    g: int,
    plan: list[Swap],
    used: list[int],
    per_meld: list[int],
    plans: list[list[Swap]],
) -> None:
    """Append to ``plans`` every plan extending ``plan`` by swaps of ``groups[g:]``, fewest
    swaps of each group first. A module function, not a closure: a closure that calls itself
    is a reference cycle, left to the collector at every call (bench/results/notes/verify.md)."""
    if g == len(groups):
        plans.append(plan)
        return
    i, code, most = groups[g]
    room = melds[i].cards.count(JOKER) - per_meld[i]
    for k in range(min(most, counts[code] - used[code], room) + 1):
        used[code] += k
        per_meld[i] += k
        _extend(
            groups, melds, counts, g + 1, plan + [Swap(i, CARDS[code])] * k, used, per_meld, plans
        )
        used[code] -= k
        per_meld[i] -= k


class Budget(NamedTuple):
    """Search calls allowed (a count, never a clock: answers stay deterministic): the exact
    search's and the fallback's, per swap plan or shared by all plans."""

    nodes: int
    fallback: int
    shared: bool = False

    def per_plan(self, plans: int) -> Budget:
        if not self.shared:
            return self
        return Budget(max(1, self.nodes // plans), max(1, self.fallback // plans))


#: The bots' budget: every swap plan may search NODE_BUDGET calls (bots/ and records depend on it).
BOTS: Final = Budget(NODE_BUDGET, FALLBACK_BUDGET)
#: A web request's hint (engine.pikdame.hints): at most this many search calls over all plans
#: together, about 15 µs each on the development machine, so no hint waits more than 50 ms
#: (bench/results/hint.md); past it the hint is the best found and says it is not proven optimal.
HINT: Final = Budget(2_000, 600, shared=True)


def best_arrangement(
    hand: Sequence[Card], own_melds: Sequence[Meld], budget: Budget = BOTS
) -> Arrangement:
    """The arrangement of meld/lay/swap moves on the owner's melds with the largest round-score
    gain that keeps a card (R4.2); deterministic ties. Exact unless the search outgrows its node
    budget (then ``exact`` is False: the fallback's answer, still legal and deterministic)."""
    counts = counts_of(hand)
    melds = list(own_melds)
    plans = _swap_plans(melds, counts)
    each = budget.per_plan(len(plans))
    best: Arrangement | None = None
    exact = True
    for plan in plans:
        found = _solve_plan(counts, melds, plan, len(hand), each)
        if found is not None:
            exact = exact and found.exact
            if best is None or found.gain > best.gain:
                best = found
    assert best is not None  # the empty plan always works: lay nothing
    if best.exact != exact:  # exact means exact over every plan
        best = Arrangement(best.moves, best.points, best.gain, best.kept, exact)
    return best


def _solve_plan(
    counts: Counts, melds: list[Meld], plan: list[Swap], size: int, budget: Budget
) -> Arrangement | None:
    """The best arrangement after the swaps of ``plan`` (None if the plan cannot be played)."""
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
    own = _own(tuple(melds))
    live = _live(counts, own)
    if not any(live):
        # Every card is dead (half the plans of a round's turns): the search would prove that
        # nothing is laid, exactly (keeping a card, no joker left over: value 0).
        return Arrangement(tuple(moves), points, gain, tuple(cards_of(counts)), True)
    kept = live != counts
    search = Search(live, own, budget.nodes)
    found, exact = _search(search, live, own, root(live, kept), budget.fallback)
    laid, disposed = arrangement_moves(found, search, melds, moves)
    laid_points = 0
    for c in laid:
        counts[c] -= 1
        laid_points += POINTS[c]
    points += laid_points
    gain += 2 * laid_points  # the hand's points down by as much (R7.1)
    counts[JOKER_CODE] -= disposed
    gain += disposed * DISPOSE_GAIN
    return Arrangement(tuple(moves), points, gain, tuple(cards_of(counts)), exact)


def _search(
    search: Search, live: Counts, own: Own, start: Node, fallback: int
) -> tuple[Found, bool]:
    """The best arrangement of the live cards, and whether it is exact: the greedy dive is the
    floor, the exact search beats it if it can, and past the budget the discrepancy search
    improves on the dive."""
    found = dive(search, start.kept)
    floor = _value(found)
    try:
        if _aspire(search, start, floor) is not None:
            found = search.walk(start)
    except OutOfBudget:
        better = improve(Search(live, own), start, floor, fallback)
        return (found if better is None else better.found), False
    return found, True
