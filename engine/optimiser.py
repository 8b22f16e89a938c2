"""The exact meld optimiser: the most points a hand can lay on its owner's melds (R4.2, R5, R6).

Method: a memoised exact search over the fate of the lowest undecided natural card, in card order
(suit, then rank). That card stays in hand, completes the set of its rank (R5.1; a set joins the
owner's set of that rank, R5.4), starts a new run (R5.2, ring order, possibly wrapping K-A-2) or
extends one of the owner's runs. Every structure is closed the moment its lowest card is decided,
so a subproblem is fully described by the cards left, the ranks whose set is settled, the owner's
run ends and the free room on the table; the search memoises on exactly that. Jokers fill the gaps a
structure needs; jokers left at the end are laid wherever room is left (each is worth 20 whatever
it stands for, R1). Exchange arguments keep the search small without losing exactness: a joker
never needs to stand where the natural card itself could be laid, and a run never needs to begin
or end on a joker (a run's filler jokers sit at its high end). The brute force of
``tests/bots/test_optimiser.py`` checks all of this against ``State.legal_moves``.

The one-card rule (R4.2): if the unconstrained optimum lays every card, the search is repeated
once per card kind with that card set aside, and the best of those wins.

The search maximises the change in round score (R7.1: own melds minus hand), in which laying a card
of p points is worth 2p, and a swap (R6) 2p − 20 (the joker leaves the game): only an ace or the Q♠
gains by a swap, so only those are tried as swaps.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from engine.cards import CARDS, JOKER, JOKER_CODE, POINTS, Card
from engine.melds import MAX_RUN, MAX_SET, Meld
from engine.moves import Move

JOKER_POINTS: Final = POINTS[JOKER_CODE]
#: Cards are decided rank by rank (value by value, as in van Rijn, Takes & Vis), then by suit.
ORDER: Final = tuple(s * 13 + r for r in range(13) for s in range(4))
#: Subproblems one search may open before it gives way to the greedy fallback (deterministic:
#: a count, never a clock). Hands of up to ~20 cards stay far below it.
NODE_BUDGET: Final = 4_000


class _OverBudget(Exception):
    """The exact search grew beyond :data:`NODE_BUDGET`."""


@dataclass(frozen=True)
class Arrangement:
    """What to lay this turn: ``moves`` can be pushed in order (meld numbers already count the
    melds laid earlier in the same arrangement, R5.4 joins keep their number); ``points`` is what
    the player's melds gain; ``gain`` the change in round score (melds up, hand down, R7.1)."""

    moves: tuple[Move, ...]
    points: int
    gain: int
    kept: tuple[Card, ...]
    exact: bool = True


# A fate, as recorded for reconstruction:
#   ("keep",)
#   ("set", rank, lays per suit, jokers, swaps per suit)  -- new set or cards for the owner's set
#   ("run", suit, start, cards)                           -- a new run, cards in ring order
#   ("ext", run index, "high"|"low", cards)               -- cards laid on an owner's run, in order
#   ("swap", slot)                                        -- the card replaces a run's joker (R6)
_Fate = tuple[object, ...]


def _swap_pays(card: int) -> bool:
    """A swap is worth 2p − 20 in round score (R6: the joker leaves the game)."""
    return 2 * POINTS[card] > JOKER_POINTS


class _Search:
    """One optimisation: the owner's melds are fixed; memo maps a subproblem to its best gain."""

    __slots__ = ("budget", "memo", "run_suits", "set_info", "slots", "track_room")

    def __init__(self, own_melds: Sequence[Meld], track_room: bool, budget: list[int]) -> None:
        # Room on the table for leftover jokers almost never runs out; the search first assumes
        # it cannot (a relaxation), and tracks it only if that assumption fails.
        self.track_room = track_room
        self.budget = budget  # shared by every search of one call, so the call is bounded
        self.memo: dict[tuple[object, ...], tuple[int, _Fate | None]] = {}
        # rank -> (size, naturals per suit, jokers) of the owner's set of that rank (R5.4)
        self.set_info: dict[int, tuple[int, tuple[int, ...], int]] = {}
        self.run_suits: list[int] = []
        # the cards that the jokers of the owner's runs stand for, worth a swap (R6)
        self.slots: list[tuple[Card, int]] = []  # (card, index of the run among runs)
        for m in own_melds:
            if m.kind == "set":
                per_suit = [0, 0, 0, 0]
                for c in m.cards:
                    if c != JOKER_CODE:
                        per_suit[c // 13] += 1
                self.set_info[m.rank] = (len(m.cards), tuple(per_suit), m.cards.count(JOKER))
            else:
                for i, c in enumerate(m.cards):
                    stands = m.stands_for(i)
                    if c == JOKER_CODE and stands is not None and _swap_pays(stands):
                        self.slots.append((stands, len(self.run_suits)))
                self.run_suits.append(m.suit)

    def solve(
        self,
        cnt: list[int],
        setdone: int,
        runs: tuple[tuple[int, int], ...],
        room: int,
        swapped: int,
    ) -> int:
        """The best round-score gain from ``cnt`` (53 slots) given what is decided."""
        k = _lowest(cnt)
        if k < 0:
            if not self.track_room:
                return 2 * JOKER_POINTS * cnt[JOKER_CODE]
            return 2 * JOKER_POINTS * min(cnt[JOKER_CODE], room)
        key = (tuple(cnt), setdone, runs, room if self.track_room else 0, swapped)
        hit = self.memo.get(key)
        if hit is not None:
            return hit[0]
        self.budget[0] -= 1
        if self.budget[0] < 0:
            raise _OverBudget
        suit, rank = divmod(k, 13)
        jokers = cnt[JOKER_CODE]

        if not setdone >> rank & 1:
            # The first card of a rank settles the set of that rank (R5.1, R5.4): which of the
            # rank's cards go into it, if any. The other fates come after, set settled.
            done = setdone | 1 << rank
            best = self.solve(cnt, done, runs, room, swapped)
            best_fate: _Fate = ("noset",)
            for value, fate, room_delta in self._sets(cnt, rank, jokers):
                used = _set_cards(fate)
                _take_out(cnt, used)
                total = value + self.solve(cnt, done, runs, room + room_delta, swapped)
                _put_back(cnt, used)
                if total > best:
                    best, best_fate = total, fate
            self.memo[key] = (best, best_fate)
            return best

        # 1. the card stays in hand
        cnt[k] -= 1
        best = self.solve(cnt, setdone, runs, room, swapped)
        best_fate = ("keep",)
        cnt[k] += 1

        # 3. a new run whose lowest natural (in card order) is this card (R5.2)
        for start in [rank, *range(rank + 1, 13)]:
            for cards in self._runs(cnt, suit, rank, start, jokers):
                value = 2 * _take_out(cnt, cards)
                total = value + self.solve(cnt, setdone, runs, room + MAX_RUN - len(cards), swapped)
                _put_back(cnt, cards)
                if total > best:
                    best, best_fate = total, ("run", suit, start, cards)

        # 4. extend one of the owner's runs of this suit, through a gap if need be
        for i, (start, length) in enumerate(runs):
            if self.run_suits[i] != suit:
                continue
            for end in ("high", "low"):
                chain = _chain(cnt, suit, rank, start, length, end, jokers)
                if chain is None:
                    continue
                value = 2 * _take_out(cnt, chain)
                gap = len(chain)
                new_start = start if end == "high" else (start - gap) % 13
                new_runs = (*runs[:i], (new_start, length + gap), *runs[i + 1 :])
                total = value + self.solve(cnt, setdone, new_runs, room - gap, swapped)
                _put_back(cnt, chain)
                if total > best:
                    best, best_fate = total, ("ext", i, end, chain)

        # 5. swap it for the joker of an owner's run that stands for it (R6)
        for slot, (card, _) in enumerate(self.slots):
            if card == k and not swapped >> slot & 1:
                cnt[k] -= 1
                total = 2 * POINTS[k] - JOKER_POINTS
                total += self.solve(cnt, setdone, runs, room, swapped | 1 << slot)
                cnt[k] += 1
                if total > best:
                    best, best_fate = total, ("swap", slot)
                break

        self.memo[key] = (best, best_fate)
        return best

    def _sets(self, cnt: list[int], rank: int, jokers: int) -> list[tuple[int, _Fate, int]]:
        """Every non-empty way to settle the set of ``rank``: cards laid per suit, jokers needed
        for a new set, and (owner's set only) swaps that pay."""
        existing = self.set_info.get(rank)
        size0, per_suit0, set_jokers = existing if existing is not None else (0, (0,) * 4, 0)
        options: list[list[tuple[int, int]]] = []
        for t in range(4):
            card = t * 13 + rank
            room_t = min(cnt[card], 2 - per_suit0[t])
            swaps_ok = set_jokers > 0 and _swap_pays(card)
            options.append(
                [
                    (x, y)
                    for x in range(room_t + 1)
                    for y in range(room_t - x + 1 if swaps_ok else 1)
                ]
            )
        out: list[tuple[int, _Fate, int]] = []
        for a in options[0]:
            for b in options[1]:
                for c in options[2]:
                    for d in options[3]:
                        picks = (a, b, c, d)
                        lays = tuple(p[0] for p in picks)
                        swaps = tuple(p[1] for p in picks)
                        n = sum(lays)
                        if n + sum(swaps) == 0 or sum(swaps) > set_jokers:
                            continue
                        need = 0 if existing is not None else max(0, 3 - n)
                        if need > jokers or size0 + n + need > MAX_SET:
                            continue
                        value = 2 * JOKER_POINTS * need
                        for t in range(4):
                            p = POINTS[t * 13 + rank]
                            value += 2 * p * lays[t] + (2 * p - JOKER_POINTS) * swaps[t]
                        room = -n if existing is not None else MAX_SET - n - need
                        out.append((value, ("set", rank, lays, need, swaps), room))
        return out

    @staticmethod
    def _runs(
        cnt: list[int], suit: int, rank: int, start: int, jokers: int
    ) -> list[tuple[Card, ...]]:
        """New runs from ``start`` through ``rank``: a natural wherever one is in hand, else a
        joker; ending on a natural; padded with jokers at the high end to three cards."""
        base = suit * 13
        if start != rank and cnt[base + start] == 0:
            return []
        out: list[tuple[Card, ...]] = []
        cards: list[Card] = []
        used = 0
        reached = False
        for i in range(MAX_RUN):
            r = (start + i) % 13
            if cnt[base + r] > 0 and (r != rank or not reached):
                cards.append(CARDS[base + r])
                if r == rank:
                    reached = True
                if reached:
                    pad = max(0, 3 - len(cards))
                    if used + pad <= jokers:
                        out.append((*cards, *[JOKER] * pad))
            else:
                if used >= jokers:
                    break
                cards.append(JOKER)
                used += 1
        return out


def _lowest(cnt: list[int]) -> int:
    """The first natural card left in :data:`ORDER`, or -1."""
    for k in ORDER:
        if cnt[k]:
            return k
    return -1


def _set_cards(fate: _Fate) -> list[Card]:
    """The hand cards a set fate uses: laid naturals, swapped naturals, filler jokers."""
    _, rank, lays, need, swaps = fate
    assert isinstance(rank, int) and isinstance(lays, tuple) and isinstance(swaps, tuple)
    assert isinstance(need, int)
    cards = [CARDS[t * 13 + rank] for t in range(4) for _ in range(lays[t] + swaps[t])]
    return cards + [JOKER] * need


def _chain(
    cnt: list[int], suit: int, rank: int, start: int, length: int, end: str, jokers: int
) -> tuple[Card, ...] | None:
    """The cards (in laying order) that carry the owner's run to ``rank`` at ``end``."""
    base = suit * 13
    if end == "high":
        first = (start + length) % 13
        gap = (rank - first) % 13
        positions = [(first + i) % 13 for i in range(gap + 1)]
    else:
        last = (start - 1) % 13
        gap = (last - rank) % 13
        positions = [(last - i) % 13 for i in range(gap + 1)]
    if length + gap + 1 > MAX_RUN:
        return None
    chain: list[Card] = []
    used = 0
    for r in positions[:-1]:
        if cnt[base + r] > 0:
            chain.append(CARDS[base + r])
        else:
            used += 1
            chain.append(JOKER)
    if used > jokers:
        return None
    chain.append(CARDS[base + rank])
    return tuple(chain)


def _take_out(cnt: list[int], cards: Sequence[Card]) -> int:
    for c in cards:
        cnt[c] -= 1
    return sum(POINTS[c] for c in cards)


def _put_back(cnt: list[int], cards: Sequence[Card]) -> None:
    for c in cards:
        cnt[c] += 1


def _room(melds: Sequence[Meld]) -> int:
    return sum((MAX_SET if m.kind == "set" else MAX_RUN) - len(m.cards) for m in melds)


class _Plan:
    """Reconstruct the search's best fates into pushable moves."""

    def __init__(self, search: _Search, own_melds: Sequence[Meld]) -> None:
        self.search = search
        self.start = tuple(own_melds)
        self.melds: list[Meld] = list(own_melds)
        self.moves: list[Move] = []
        self.kept: list[Card] = []
        self.fits = True

    def walk(self, cnt: list[int], runs: tuple[tuple[int, int], ...], room: int) -> None:
        setdone = 0
        swapped = 0
        search = self.search
        while True:
            k = _lowest(cnt)
            if k < 0:
                self._extras(cnt[JOKER_CODE], room)
                return
            key = (tuple(cnt), setdone, runs, room if search.track_room else 0, swapped)
            _, fate = search.memo[key]
            assert fate is not None
            kind = fate[0]
            if kind == "noset":
                setdone |= 1 << k % 13
            elif kind == "keep":
                cnt[k] -= 1
                self.kept.append(CARDS[k])
            elif kind == "set":
                room += self._set(cnt, fate)
                rank = fate[1]
                assert isinstance(rank, int)
                setdone |= 1 << rank
            elif kind == "run":
                cards = fate[3]
                assert isinstance(cards, tuple)
                _take_out(cnt, cards)
                self._meld(Meld.build(cards, "run"))
                room += MAX_RUN - len(cards)
            elif kind == "swap":
                slot = fate[1]
                assert isinstance(slot, int)
                card, run_index = search.slots[slot]
                cnt[card] -= 1
                swapped |= 1 << slot
                self._swap(card, self._run_number(run_index))
            else:
                _, i, end, chain = fate
                assert isinstance(i, int) and isinstance(end, str) and isinstance(chain, tuple)
                _take_out(cnt, chain)
                number = self._run_number(i)
                for c in chain:
                    self._lay(c, number, end if c == JOKER_CODE else None)
                start, length = runs[i]
                gap = len(chain)
                new_start = start if end == "high" else (start - gap) % 13
                runs = (*runs[:i], (new_start, length + gap), *runs[i + 1 :])
                room -= gap

    def _set(self, cnt: list[int], fate: _Fate) -> int:
        """Play a set fate; returns the change in room."""
        _, rank, lays, need, swaps = fate
        assert isinstance(rank, int) and isinstance(lays, tuple) and isinstance(swaps, tuple)
        assert isinstance(need, int)
        _take_out(cnt, _set_cards(fate))
        laid = [CARDS[t * 13 + rank] for t in range(4) for _ in range(lays[t])]
        if rank not in self.search.set_info:
            self._meld(Meld.build([*laid, *[JOKER] * need], "set"))
            return MAX_SET - len(laid) - need
        number = next(i for i, m in enumerate(self.melds) if m.kind == "set" and m.rank == rank)
        for t in range(4):
            for _ in range(swaps[t]):
                self._swap(CARDS[t * 13 + rank], number)
        for c in laid:
            self._lay(c, number, None)
        return -len(laid)

    def _swap(self, card: Card, index: int) -> None:
        self.moves.append(Move.swap(index + 1, card))
        self.melds[index] = self.melds[index].with_swap(card)

    def _run_number(self, i: int) -> int:
        """The table index of the owner's ``i``-th run (runs keep their place, R5.4)."""
        seen = -1
        for index, m in enumerate(self.melds):
            if m.kind == "run":
                seen += 1
                if seen == i:
                    return index
        raise AssertionError("no such run")

    def _meld(self, meld: Meld) -> None:
        prefix = meld.kind if sum(1 for c in meld.cards if c != JOKER_CODE) == 1 else None
        self.moves.append(Move("meld", meld.cards, 0, None, prefix))
        self.melds.append(meld)

    def _lay(self, card: Card, index: int, end: str | None) -> None:
        self.moves.append(Move.lay(card, index + 1, end))
        self.melds[index] = self.melds[index].with_card(card, end)

    def _extras(self, jokers: int, room: int) -> None:
        """Leftover jokers go wherever there is room, first melds first."""
        self.fits = jokers <= room
        laid = min(jokers, room)
        for index in range(len(self.melds)):
            while laid > 0:
                m = self.melds[index]
                if len(m.cards) >= (MAX_SET if m.kind == "set" else MAX_RUN):
                    break
                self._lay(JOKER, index, "high" if m.kind == "run" else None)
                laid -= 1
        self.kept.extend([JOKER] * (jokers - min(jokers, room)))

    def gain(self, hand: Sequence[Card]) -> int:
        """Round-score change (R7.1): own melds up, hand down."""
        melds = sum(m.points for m in self.melds) - sum(m.points for m in self.start)
        return melds + sum(POINTS[c] for c in hand) - sum(POINTS[c] for c in self.kept)


def _plan(hand_cnt: list[int], own_melds: Sequence[Meld], budget: list[int]) -> _Plan:
    """The best plan; exact: the relaxed search's plan stands if its jokers found room."""
    runs = tuple((m.start, len(m.cards)) for m in own_melds if m.kind == "run")
    room = _room(own_melds)
    plan = _Plan(_Search(own_melds, False, budget), own_melds)
    for track_room in (False, True):
        search = _Search(own_melds, track_room, budget)
        search.solve(hand_cnt[:], 0, runs, room, 0)
        plan = _Plan(search, own_melds)
        plan.walk(hand_cnt[:], runs, room)
        if plan.fits:
            break
    return plan


def best_arrangement(hand: Sequence[Card], own_melds: Sequence[Meld]) -> Arrangement:
    """The arrangement that gains the most round score from ``hand`` on the owner's melds,
    keeping at least one card (R4.2); ties go to the first found in the search's fixed order.
    Beyond the node budget (very large hands) the greedy arrangement stands in: ``exact`` says
    which one answered."""
    try:
        return _exact(hand, own_melds)
    except _OverBudget:
        from engine.bots.greedy import greedy_arrangement

        return greedy_arrangement(hand, own_melds)


def _exact(hand: Sequence[Card], own_melds: Sequence[Meld]) -> Arrangement:
    cnt = [0] * 53
    for c in hand:
        cnt[c] += 1
    if len(hand) <= 1:
        return Arrangement((), 0, 0, tuple(sorted(hand)))
    budget = [NODE_BUDGET]
    plan = _plan(cnt, own_melds, budget)
    if not plan.kept:
        # R4.2: everything would go; set one card kind aside, in card order, best wins.
        best: tuple[int, _Plan] | None = None
        for code in range(53):
            if cnt[code] == 0:
                continue
            cnt[code] -= 1
            p = _plan(cnt, own_melds, budget)
            cnt[code] += 1
            p.kept.append(CARDS[code])
            gain = p.gain(hand)
            if best is None or gain > best[0]:
                best = (gain, p)
        assert best is not None
        plan = best[1]
    points = sum(m.points for m in plan.melds) - sum(m.points for m in own_melds)
    return Arrangement(tuple(plan.moves), points, plan.gain(hand), tuple(sorted(plan.kept)))


__all__ = ["Arrangement", "best_arrangement"]
