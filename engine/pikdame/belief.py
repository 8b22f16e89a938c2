"""What the other seats hold, inferred from their public play (issue 40 item 2; docs/ANALYSIS.md,
"The belief"): the Pik Dame and Tausende analysis' deals in the ``view`` mode
(engine.pikdame.analysis).

Each other seat's hidden cards (its hand less the cards it is known to hold, R4.1) start as a
uniform deal of the cards the analysed seat has not seen. Every move of another seat is then
evidence: the cards it plays from its hidden hand (melds, lay-offs, swaps, the discard; Tausende's
swap-up) were in it, and the move is the one its policy makes from its own view (R10), which
differs from the real one only in its hidden cards. A bot's policy is its level's, known and
deterministic: a hand on which the bot, replayed, makes another move is impossible (a Meister's:
zen's or advanced's move, the only ones it plays). A human's is softer (:data:`HUMAN_WEIGHTS`).

It is sampled by a particle filter along the round (:class:`Tracker`), one particle the hidden
hands of every other seat together (the seats share the unseen cards). At a move of another seat
each particle first takes in the cards the move plays from its hidden hand (a card it does not
hold replaces one drawn uniformly from the rest of that hand, or is exchanged with the seat that
holds it in the particle: the prior given that the card was there), then weighs 1 if the policy
makes the move from the particle's hand, else 0 (a human's 3 or 1); the particles are resampled
by their integer weights (systematic). Where none agrees, a few are repaired by exchanging one of
the mover's hidden cards for an unseen one (:data:`REPAIR_TRIES`); evidence none of them then
reproduces is skipped. After every move the particles are settled on the seat's view: cards that
became visible leave them, a draw adds a card drawn uniformly from the unseen cards no hand of the
particle holds. Unlike Gin's filter (engine.gin.belief) it keeps no past: a particle is checked
against each decision once, with the hand it then had; a later exchange is not checked against
earlier decisions (a round of Pik Dame has some 75 decisions of others, each with more hands than
Gin's: a replay of every past decision per step would cost seconds).

Deterministic: integer weights, F3's stream seeded by the seat's first view, card kinds in order.
Blind: the filter reads the other seats' views with their hands replaced by the particle's, their
public moves, what the seat sees; never a hidden card.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import Final

from engine.core.analysis import sample_stream
from engine.core.cards import CARDS, NUM_KINDS, Card, Counts
from engine.core.rng import Stream
from engine.pikdame.bots import choose_move
from engine.pikdame.bots.worlds import build_world, sample_world, unseen_counts
from engine.pikdame.moves import Move
from engine.pikdame.state import State
from engine.pikdame.view import View, view

#: Particles of the filter (each the hidden hands of every other seat).
PARTICLES: Final = 24
#: A human's move: weight when zen or advanced makes it from the particle's hand, and when
#: neither does (a human plays much like the bots, not always).
HUMAN_WEIGHTS: Final = (3, 1)
#: The policies the filter knows: the plain levels' own (exact), the Meister's (zen's or
#: advanced's move, exact: it plays one of them), a human's (soft).
POLICIES: Final = ("beginner", "advanced", "zen", "meister", "human")
#: Particles tried for a repair where none agrees, and exchanges tried per particle.
REPAIR_PARTICLES: Final = 6
REPAIR_TRIES: Final = 6
_TAG: Final = "pikdame-belief/1"

Hands = list[Counts]  # per seat; the analysed seat's is all zeros


def _pick(stream: Stream, counts: Counts, total: int) -> int:
    """A card kind drawn from the multiset ``counts`` (of ``total`` cards), uniformly per card."""
    r = stream.uniform(total)
    for kind in range(NUM_KINDS):
        r -= counts[kind]
        if r < 0:
            return kind
    raise AssertionError("total exceeds the counts")


def _cards(counts: Counts) -> tuple[Card, ...]:
    return tuple(CARDS[c] for c in range(NUM_KINDS) for _ in range(counts[c]))


class Tracker:
    """The belief over the other seats' hidden cards, kept move by move as a round is replayed:
    :meth:`observe` before each move of another seat is applied, :meth:`settle` after every move
    (with the analysed seat's view and the known cards), :meth:`belief` at a decision."""

    def __init__(self, start: State, seat: int, policies: Sequence[str], known: Sequence[Counts]):
        for p in policies:
            if p not in POLICIES:
                raise ValueError(f"unknown policy {p!r}; one of {POLICIES}")
        self.seat = seat
        self.players = start.players
        self.policies = list(policies)
        v = view(start, seat)
        self.stream = sample_stream(_TAG, {"view": v.to_json()})
        self.pool = unseen_counts(v, known)
        self.population: list[Hands] = []
        self.decisions = 0
        self.skipped = 0
        self._known: dict[tuple[int, tuple[int, ...]], int] = {}
        self._mover_known: Counts = [0] * NUM_KINDS
        self._state: State | None = None  # the state of the decision weighed (its mover's
        # hand replaced by a particle's before anything reads it)
        self.stopped = False
        needs = [0 if s == seat else v.hand_sizes[s] - sum(known[s]) for s in range(self.players)]
        if min(needs) < 0 or sum(needs) > sum(self.pool):
            self.stopped = True
            return
        for _ in range(PARTICLES):
            free = self.pool[:]
            hands = [[0] * NUM_KINDS for _ in range(self.players)]
            left = sum(free)
            for s in range(self.players):
                for _ in range(needs[s]):
                    c = _pick(self.stream, free, left)
                    free[c] -= 1
                    left -= 1
                    hands[s][c] += 1
            self.population.append(hands)

    def belief(self) -> list[Hands] | None:
        """The particles now (copies included), or None once they tell nothing."""
        return None if self.stopped else self.population

    # -- evidence --------------------------------------------------------------------------

    def _weight(self, template: View, mover: int, hidden: Counts, move: str) -> int:
        """The weight of the mover's hidden cards ``hidden`` at this decision: whether its
        policy makes ``move`` from ``template`` with its known cards and these (a human's:
        :data:`HUMAN_WEIGHTS`); cached per hand for the decision (copies ask again)."""
        key = (self.decisions, tuple(hidden))
        w = self._known.get(key)
        if w is None:
            hand = [a + b for a, b in zip(hidden, self._mover_known, strict=True)]
            v = replace(template, hand=_cards(hand))
            if template.phase == "draw" and template.discard and self._state is not None:
                # R4.1: whether a take is legal depends on the hand: the particle's
                probe = self._state.copy()
                probe.hands[mover] = hand
                v = replace(v, can_take=probe.can_take())
            policy = self.policies[mover]
            if policy in ("beginner", "advanced", "zen"):
                w = 1 if str(choose_move(policy, v)) == move else 0
            else:
                hit = str(choose_move("zen", v)) == move or str(choose_move("advanced", v)) == move
                w = (1 if hit else 0) if policy == "meister" else HUMAN_WEIGHTS[0 if hit else 1]
            self._known[key] = w
        return w

    def observe(self, state: State, mover: int, move: Move, known: Sequence[Counts]) -> None:
        """Take in ``move`` by ``mover`` (another seat), played in ``state`` (before it is
        applied; ``known``: the cards each seat is known to hold then)."""
        if self.stopped or mover == self.seat or move.kind == "resign":
            return
        played = list(move.cards)
        if move.kind == "take" and state.discard:
            played.remove(state.discard[-1])
        held = known[mover][:]
        shown = [0] * NUM_KINDS  # the cards the move plays from the hidden hand
        for card in played:
            if held[card]:
                held[card] -= 1
            else:
                shown[card] += 1
        for hands in self.population:
            self._place(hands, mover, shown)
        self.decisions += 1
        self._known.clear()
        self._mover_known = list(known[mover])
        template = replace(view(state, mover), hand=(), can_take=False)
        self._state = state
        text = str(move)

        def weight(hands: Hands) -> int:
            return self._weight(template, mover, hands[mover], text)

        weights = [weight(h) for h in self.population]
        if not any(weights):
            found: list[Hands] = []
            for hands in self.population[:REPAIR_PARTICLES]:
                fixed = self._repair(hands, mover, shown, weight)
                if fixed is not None:
                    found.append(fixed)
            if found:
                n = len(self.population)
                self.population = [[h[:] for h in found[k % len(found)]] for k in range(n)]
            else:
                self.skipped += 1
        else:
            self._resample(weights)
        self._state = None
        for hands in self.population:
            mine = hands[mover]
            for c in range(NUM_KINDS):
                mine[c] = max(mine[c] - shown[c], 0)  # settle() refills a hand left short

    def _place(self, hands: Hands, mover: int, shown: Counts) -> None:
        """Put the cards ``shown`` into ``mover``'s hidden hand of ``hands``: from another seat
        of the particle (which gets one of the mover's other cards) or from the unseen rest (a
        card of the mover's drawn uniformly goes back)."""
        mine = hands[mover]
        for c in range(NUM_KINDS):
            while mine[c] < shown[c]:
                spare = [mine[k] - shown[k] if mine[k] > shown[k] else 0 for k in range(NUM_KINDS)]
                total = sum(spare)
                if total == 0:
                    return  # the hand is all shown cards: nothing to exchange (a bad record)
                out = _pick(self.stream, spare, total)
                mine[out] -= 1
                mine[c] += 1
                for s in range(self.players):
                    if s != mover and hands[s][c] > 0:
                        hands[s][c] -= 1
                        hands[s][out] += 1
                        break

    def _repair(
        self, hands: Hands, mover: int, shown: Counts, weight: Callable[[Hands], int]
    ) -> Hands | None:
        """A particle the move agrees with, searched from ``hands`` by exchanging one of the
        mover's hidden cards (not a shown one) for an unseen card no hand of it holds."""
        for _ in range(REPAIR_TRIES):
            trial = [h[:] for h in hands]
            mine = trial[mover]
            spare = [mine[k] - shown[k] if mine[k] > shown[k] else 0 for k in range(NUM_KINDS)]
            free = self._free(trial)
            ts, tf = sum(spare), sum(free)
            if not ts or not tf:
                return None
            out = _pick(self.stream, spare, ts)
            into = _pick(self.stream, free, tf)
            mine[out] -= 1
            mine[into] += 1
            if weight(trial):
                return trial
        return None

    def _free(self, hands: Hands) -> Counts:
        free = self.pool[:]
        for s in range(self.players):
            h = hands[s]
            for c in range(NUM_KINDS):
                free[c] -= h[c]
        return free

    def _resample(self, weights: list[int]) -> None:
        """Systematic resampling by integer weights; every particle a copy of its own."""
        population = self.population
        n, total = len(population), sum(weights)
        r = self.stream.uniform(total)
        picked: list[Hands] = []
        i, cumulative = 0, weights[0] * n
        for k in range(n):
            target = k * total + r
            while cumulative <= target:
                i += 1
                cumulative += weights[i] * n
            picked.append([h[:] for h in population[i]])
        self.population = picked

    def settle(self, v: View, known: Sequence[Counts]) -> None:
        """Fit the particles to the analysed seat's view ``v`` after a move: cards that became
        visible or known leave the hidden hands (the seat's draw, a take's pile); every other
        seat's hidden hand gets its size back with cards drawn uniformly from the unseen rest."""
        if self.stopped:
            return
        if v.outcome is not None:
            self.stopped = True
            return
        pool = unseen_counts(v, known)
        gone = [c for c in range(NUM_KINDS) if pool[c] < self.pool[c]]
        self.pool = pool
        needs = [
            0 if s == self.seat else v.hand_sizes[s] - sum(known[s]) for s in range(self.players)
        ]
        if min(needs) < 0 or sum(needs) > sum(pool):
            self.stopped = True
            return
        for hands in self.population:
            sizes = [sum(h) for h in hands]
            for c in gone:
                excess = sum(h[c] for h in hands) - pool[c]
                for s in range(self.players - 1, -1, -1):
                    while excess > 0 and hands[s][c] > 0:
                        hands[s][c] -= 1
                        sizes[s] -= 1
                        excess -= 1
            if sizes == needs:
                continue
            free = self._free(hands)
            left = sum(free)
            for s in range(self.players):
                h = hands[s]
                while sizes[s] > needs[s]:
                    c = _pick(self.stream, h, sizes[s])
                    h[c] -= 1
                    free[c] += 1
                    sizes[s] -= 1
                    left += 1
                while sizes[s] < needs[s]:
                    c = _pick(self.stream, free, left)
                    free[c] -= 1
                    left -= 1
                    h[c] += 1
                    sizes[s] += 1


def belief_worlds(
    v: View, known: Sequence[Counts], belief: list[Hands] | None, stream: Stream
) -> Iterator[State]:
    """Deal after deal the seat of ``v`` cannot tell from the real one, the other seats' hidden
    cards a particle of ``belief`` drawn uniformly, the stock shuffled anew from the rest each
    time; without a belief, or one that does not fit the view, :func:`sample_world`'s deals."""
    pool = unseen_counts(v, known)
    n = v.rules.players
    needs = [0 if s == v.seat else v.hand_sizes[s] - sum(known[s]) for s in range(n)]

    def fits(hands: Hands) -> bool:
        return all(sum(hands[s]) == needs[s] for s in range(n)) and all(
            sum(h[c] for h in hands) <= pool[c] for c in range(NUM_KINDS)
        )

    if not belief or not all(fits(h) for h in belief):
        while True:
            yield sample_world(v, known, stream)
    while True:
        hands = belief[stream.uniform(len(belief))]
        free = pool[:]
        for h in hands:
            for c in range(NUM_KINDS):
                free[c] -= h[c]
        rest = [CARDS[c] for c in range(NUM_KINDS) for _ in range(free[c])]
        yield build_world(v, known, hands, rest, stream)


__all__ = [
    "HUMAN_WEIGHTS",
    "PARTICLES",
    "POLICIES",
    "REPAIR_PARTICLES",
    "REPAIR_TRIES",
    "Tracker",
    "belief_worlds",
]
