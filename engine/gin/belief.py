"""What the other seat holds, inferred from its public play (issue 40 item 2; docs/ANALYSIS.md,
"The belief"): the analysis' deals in the ``view`` mode (engine.gin.analysis).

The other seat's hidden cards are those it was dealt and drew from the stock, less those it
discarded face up. Before anything is seen every hidden card is equally likely to be any card
the analysed seat has not seen (a shuffled deck, G3). What happens since is evidence: every card
the other discards face up was in its hand, every card the analysed seat draws was not, and
every decision the other makes (take or pass the upcard, take or draw, which card to discard,
not knocking) is the move its policy makes from its own view (G9), which differs from the real
one only in its hidden cards. A bot's policy is known and deterministic, so the posterior over
its hidden cards given the public history is the prior restricted to the hands on which the bot,
replayed, makes every observed move.

It is sampled by sequential Monte Carlo along the history (a particle filter, :class:`Tracker`),
move by move as the analysis replays the hand: each of :data:`PARTICLES` particles is a hidden
hand with its past (the hand at each of the other's decisions); a draw of the other's adds a
card drawn uniformly from the cards neither the seat nor the particle holds; at each piece of
evidence a particle keeps weight 1 if it agrees (a human's policy: the softer
:data:`HUMAN_WEIGHTS`), the particles are resampled by their integer weights (systematic), and
copies are moved apart by Metropolis steps (:meth:`Tracker._move`: one hidden card exchanged
for an unseen one, kept if every decision so far still agrees: a symmetric proposal on a uniform
prior keeps the posterior). Where no particle agrees, each is searched for a repair (the card the
policy would let go of instead exchanged, :meth:`Tracker._repair`); evidence that none of them
then reproduces (a record of older bots, a hand-made position) is skipped (its cards are still
placed where they must be). A deal at a decision is a particle drawn uniformly, its hand given to
the other seat, the stock shuffled anew from the rest (:func:`belief_worlds`).

Deterministic like the rest of the engine: integer weights, F3's stream seeded by the seat's
first view, card ids in order. Blind: the filter reads the other's views with its hand emptied,
its public moves and the cards the analysed seat drew, nothing the seat did not see.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Final

from engine.core.analysis import sample_stream, shuffle_pool
from engine.core.rng import Stream
from engine.gin.bots import choose_move
from engine.gin.bots.worlds import build_world, sample_world
from engine.gin.cards import DECK_SIZE, from_mask
from engine.gin.moves import Move
from engine.gin.state import HandState
from engine.gin.view import View, view

#: Particles of the filter.
PARTICLES: Final = 48
#: A human's move: weight when the strong or the plain bot makes it from the particle's hand,
#: and when neither does (a human plays much like the bots, not always).
HUMAN_WEIGHTS: Final = (3, 1)
#: The policies of the other seat the filter knows: a bot level's own (exact), the Meister's
#: (strong's or plain's move, exact: it plays one of them), a human's (soft).
POLICIES: Final = ("plain", "strong", "meister", "human")
#: Exchanges tried per particle where no particle agrees with a piece of evidence.
REPAIR_TRIES: Final = 6
#: Unseen cards tried per exchange of a repair.
REPAIR_CARDS: Final = 8
#: Particles tried for a repair at most where none agrees.
REPAIR_PARTICLES: Final = 16
#: Particles repaired at most where none agrees (the others are their copies, moved apart).
REPAIRED: Final = 6
#: Copies moved after each resampling at most.
MOVES: Final = 48
_ALL: Final = (1 << DECK_SIZE) - 1
_TAG: Final = "gin-belief/1"


@dataclass(frozen=True)
class _Decided:
    """A decision of the other seat: its view with the hand emptied, and its move (G8)."""

    template: View
    move: str


@dataclass(frozen=True)
class Belief:
    """The filter's particles at a decision of the analysed seat: the other's hidden cards, one
    mask per particle (copies included: a hand twice as likely appears twice)."""

    hands: tuple[int, ...]


class _Particle:
    __slots__ = ("hidden", "past")

    def __init__(self, hidden: int, past: tuple[int, ...]) -> None:
        self.hidden = hidden  # the other's hidden cards now
        self.past = past  # its hidden cards at each of its decisions so far


def _uniform_card(stream: Stream, mask: int) -> int:
    cards = from_mask(mask)
    return cards[stream.uniform(len(cards))]


class Tracker:
    """The belief over the other seat's hidden cards, kept move by move as a hand is replayed
    (:meth:`observe`, before each move is applied); :meth:`belief` at a decision of the seat."""

    def __init__(self, start: HandState, seat: int, policy: str) -> None:
        if policy not in POLICIES:
            raise ValueError(f"unknown policy {policy!r}; one of {POLICIES}")
        other = 1 - seat
        self.seat, self.other, self.policy = seat, other, policy
        self.exact = policy != "human"
        v = view(start, seat)
        self.stream = sample_stream(_TAG, {"view": v.to_json()})
        pile = 0
        for c in start.discard:
            pile |= 1 << c
        self.unseen = _ALL & ~start.hands[seat] & ~pile & ~start.took[other]
        hidden = start.hands[other].bit_count() - start.took[other].bit_count()
        self.stopped = (
            start.knock is not None or start.outcome is not None or hidden > self.unseen.bit_count()
        )
        self.decided: list[_Decided] = []
        self.skipped: list[bool] = []
        self.known: dict[tuple[int, int], int] = {}
        self.population: list[_Particle] = []
        if not self.stopped:
            for _ in range(PARTICLES):
                mask = 0
                for c in shuffle_pool(self.stream, from_mask(self.unseen))[:hidden]:
                    mask |= 1 << c
                self.population.append(_Particle(mask, ()))

    def belief(self) -> Belief | None:
        """The particles now, or None once they tell nothing (the other knocked)."""
        if self.stopped:
            return None
        return Belief(tuple(p.hidden for p in self.population))

    # -- evidence --------------------------------------------------------------------------

    def observe(self, state: HandState, mover: int, move: Move) -> None:
        """Take in ``move`` by ``mover``, played in ``state`` (before it is applied)."""
        if self.stopped:
            return
        if mover == self.seat:
            if move.kind == "draw" and state.turn == mover:  # the seat sees the card
                card = state.stock[0]
                self.unseen &= ~(1 << card)
                self._condition(lambda p: 0 if p.hidden >> card & 1 else 1, card, None)
            return
        if move.kind not in ("pass", "take", "draw", "discard") or state.turn != mover:
            self.stopped = True  # a knock reveals the hand, a resign ends it
            return
        template = replace(view(state, mover), hand=0)
        j = len(self.decided)
        self.decided.append(_Decided(template, str(move)))
        self.skipped.append(False)
        thrown = move.card
        shed = thrown if thrown is not None and not state.took[mover] >> thrown & 1 else None
        self._condition(
            lambda p: (
                0 if shed is not None and not p.hidden >> shed & 1 else self._weight(j, p.hidden)
            ),
            None,
            shed,
        )
        self.population = [_Particle(p.hidden, (*p.past, p.hidden)) for p in self.population]
        if move.kind == "draw":
            drawn = []
            for p in self.population:
                card = _uniform_card(self.stream, self.unseen & ~p.hidden)
                drawn.append(_Particle(p.hidden | 1 << card, p.past))
            self.population = drawn
        elif shed is not None:
            self.unseen &= ~(1 << shed)
            gone = ~(1 << shed)
            self.population = [_Particle(p.hidden & gone, p.past) for p in self.population]

    def _weight(self, j: int, hidden: int) -> int:
        """Decision ``j``'s weight of the hidden cards ``hidden``: whether the policy makes the
        observed move from them (a human's: :data:`HUMAN_WEIGHTS`)."""
        event = self.decided[j]
        hand = hidden | event.template.took[self.other]
        key = (j, hand)
        w = self.known.get(key)
        if w is None:
            v = replace(event.template, hand=hand)
            if self.policy in ("plain", "strong"):
                w = 1 if str(choose_move(self.policy, v)) == event.move else 0
            else:
                hit = (
                    str(choose_move("strong", v)) == event.move
                    or str(choose_move("plain", v)) == event.move
                )
                w = (1 if hit else 0) if self.exact else HUMAN_WEIGHTS[0 if hit else 1]
            self.known[key] = w
        return w

    def _consistent(self, p: _Particle) -> bool:
        """Whether every decision so far (but the skipped) agrees with ``p``'s past."""
        return all(self.skipped[j] or self._weight(j, m) for j, m in enumerate(p.past))

    def _exchange(self, p: _Particle, y: int, z: int) -> _Particle | None:
        """``p`` with its hidden card ``y`` replaced by the unseen card ``z`` throughout its
        past, if every decision so far still agrees; else None."""
        swap = 1 << y | 1 << z
        past = tuple(m ^ swap if m >> y & 1 else m for m in p.past)
        for j, (before, after) in enumerate(zip(p.past, past, strict=True)):
            if before != after and not self.skipped[j] and not self._weight(j, after):
                return None
        return _Particle(p.hidden ^ swap, past)

    def _move(self, p: _Particle, weight: Callable[[_Particle], int]) -> _Particle:
        """One Metropolis step: a hidden card (uniformly) exchanged for an unseen card the
        particle does not hold (uniformly), kept if every decision so far and the evidence now
        (``weight``) still agree."""
        spare = self.unseen & ~p.hidden
        if not p.hidden or not spare:
            return p
        y = _uniform_card(self.stream, p.hidden)
        z = _uniform_card(self.stream, spare)
        q = self._exchange(p, y, z)
        return q if q is not None and weight(q) else p

    def _offender(self, p: _Particle) -> int | None:
        """The card the policy (strong's, but for the plain bot) lets go of at the last
        decision from ``p``'s hand, if it is one of its hidden cards."""
        event = self.decided[-1]
        level = "plain" if self.policy == "plain" else "strong"
        hand = p.hidden | event.template.took[self.other]
        card = choose_move(level, replace(event.template, hand=hand)).card
        return card if card is not None and p.hidden >> card & 1 else None

    def _repair(
        self,
        p: _Particle,
        weight: Callable[[_Particle], int],
        avoid: int | None,
        need: int | None,
    ) -> _Particle | None:
        """A particle that agrees with the evidence (``weight``) and every decision so far,
        searched from ``p`` by exchanges: the card it must not hold (``avoid``), else a free
        card for the card it must hold (``need``), else the card the policy would let go of
        instead (or any), each for one of :data:`REPAIR_CARDS` unseen cards; None if
        :data:`REPAIR_TRIES` exchanges find none."""
        for _ in range(REPAIR_TRIES):
            if weight(p):
                return p
            if need is not None and not p.hidden >> need & 1:
                y = _uniform_card(self.stream, p.hidden)
                q = self._exchange(p, y, need)
                if q is not None:
                    p = q
                continue
            spare = self.unseen & ~p.hidden
            if not spare or not p.hidden:
                return None
            if avoid is not None and p.hidden >> avoid & 1:
                y = avoid
            else:
                found = self._offender(p) if self.decided else None
                y = found if found is not None else _uniform_card(self.stream, p.hidden)
            candidates = shuffle_pool(self.stream, from_mask(spare))[:REPAIR_CARDS]
            best: _Particle | None = None
            for z in candidates:
                q = self._exchange(p, y, z)
                if q is not None:
                    best = q
                    if weight(q):
                        break
            if best is None:
                return None
            p = best
        return p if weight(p) else None

    def _condition(
        self, weight: Callable[[_Particle], int], avoid: int | None, need: int | None
    ) -> None:
        """Weigh the particles by ``weight``, repair them where none agrees, resample
        (systematic, integer weights) and move copies apart. Evidence none of them agrees with
        is skipped, the card ``need`` still placed in every hand (the card ``avoid`` out)."""
        population = self.population
        weights = [weight(p) for p in population]
        if not any(weights):  # a bot's move, or a human's discard of a card it cannot hold
            found: list[_Particle] = []
            for p in population[:REPAIR_PARTICLES]:  # the copies are moved apart after
                q = self._repair(p, weight, avoid, need)
                if q is not None:
                    found.append(q)
                    if len(found) >= REPAIRED:
                        break
            if found:
                population = [found[k % len(found)] for k in range(len(population))]
                weights = [1] * len(population)
        total = sum(weights)
        if total == 0:
            if self.decided and avoid is None:
                self.skipped[-1] = True
            self.population = [self._force(p, avoid, need) for p in population]
            return
        n = len(population)
        r = self.stream.uniform(total)
        picked: list[_Particle] = []
        i, cumulative = 0, weights[0] * n
        last, moves = -1, 0
        for k in range(n):  # the k-th pick at k·total + r on the weights' sums × n
            target = k * total + r
            while cumulative <= target:
                i += 1
                cumulative += weights[i] * n
            p = population[i]
            if self.exact and i == last and moves < MOVES:
                p = self._move(p, weight)
                moves += 1
            picked.append(p)
            last = i
        self.population = picked

    def _force(self, p: _Particle, avoid: int | None, need: int | None) -> _Particle:
        """``p`` with ``avoid`` replaced by, or ``need`` in place of, a card drawn uniformly
        (evidence none of the particles agrees with); an earlier decision it then contradicts
        is skipped from then on, for every particle."""
        if avoid is not None and p.hidden >> avoid & 1:
            z = _uniform_card(self.stream, self.unseen & ~p.hidden)
            swap = 1 << avoid | 1 << z
        elif need is not None and not p.hidden >> need & 1:
            y = _uniform_card(self.stream, p.hidden)
            swap = 1 << y | 1 << need
        else:
            return p
        past = tuple(m ^ swap if m & swap and (m & swap) != swap else m for m in p.past)
        for j, (before, after) in enumerate(zip(p.past, past, strict=True)):
            if before != after and not self.skipped[j] and not self._weight(j, after):
                self.skipped[j] = True  # it and the evidence now: no particle makes both
        return _Particle(p.hidden ^ swap, past)


def belief_worlds(v: View, belief: Belief | None, stream: Stream) -> Iterator[HandState]:
    """Deal after deal the seat of ``v`` cannot tell from the real one, the other seat's hidden
    cards a particle of ``belief`` drawn uniformly, the stock shuffled anew from the rest each
    time. Without a belief (the other knocked: its hand is public) or one that does not fit the
    view, :func:`sample_world`'s uniform deals."""
    other = v.other
    pile = 0
    for c in v.discard:
        pile |= 1 << c
    known = v.took[other]
    unseen = _ALL & ~v.hand & ~pile & ~known
    need = v.other_size - known.bit_count()
    fits = (
        belief is not None
        and v.revealed is None
        and all(h & ~unseen == 0 and h.bit_count() == need for h in belief.hands)
    )
    if not fits or belief is None:
        while True:
            yield sample_world(v, stream)
    hands = belief.hands
    while True:
        hidden = hands[stream.uniform(len(hands))]
        stock = shuffle_pool(stream, from_mask(unseen & ~hidden))[: v.stock_size]
        yield build_world(v, hidden | known, stock)


__all__ = [
    "HUMAN_WEIGHTS",
    "MOVES",
    "PARTICLES",
    "POLICIES",
    "REPAIRED",
    "REPAIR_CARDS",
    "REPAIR_PARTICLES",
    "REPAIR_TRIES",
    "Belief",
    "Tracker",
    "belief_worlds",
]
