"""Near misses of legal moves and an independent enumeration of candidate moves, shared by the
property tests and the reference comparison."""

from __future__ import annotations

import random
from itertools import combinations, permutations

from engine import Move, State
from engine.core.cards import NAMES


def mutations(s: State, move: Move, rng: random.Random) -> list[str]:
    """Texts near a legal move: a card replaced by a hand card (or any card), the meld number
    changed, a card added or dropped, a joker's end changed, a prefix added, another verb."""
    hand = [str(c) for c in s.hand(s.turn)] or ["X"]
    tokens = str(move).split()
    out = []
    for _ in range(4):
        t = list(tokens)
        places = [i for i, x in enumerate(t) if x in NAMES] or [len(t) - 1]
        numbers = [i for i, x in enumerate(t) if x.isdigit()]
        choice = rng.randrange(7)
        if choice == 0:
            t[rng.choice(places)] = rng.choice(hand)
        elif choice == 1:
            t[rng.choice(places)] = rng.choice(NAMES)
        elif choice == 2 and numbers:
            t[numbers[0]] = str(rng.randrange(1, len(s.melds[s.turn]) + 2))
        elif choice == 3 and t[0] in ("meld", "take"):
            t.insert(rng.randrange(1, len(t) + 1), rng.choice(hand))
        elif choice == 4 and t[0] in ("meld", "take") and len(t) > 4:
            del t[rng.choice(places)]
        elif choice == 5 and t[0] == "lay":
            t = t[:3] + rng.choice([[], ["low"], ["high"]])
        elif t[0] in ("meld", "take"):
            t.insert(1, rng.choice(["set", "run"]))
        else:
            t[0] = rng.choice(["take", "meld", "lay", "swap", "discard"])
        out.append(" ".join(t))
    return out


def candidates(s: State) -> list[str]:
    """Moves enumerated independently of ``legal_moves``: every lay, swap and discard of a hand
    card, every 3-card meld (or take) in every order and with every prefix."""
    hand = [str(c) for c in s.hand(s.turn)]
    kinds = sorted(set(hand))
    out = ["draw", "resign"]
    if s.phase == "play":
        for c in kinds:
            out.append(f"discard {c}")
            for n in range(1, len(s.melds[s.turn]) + 2):
                out.extend([f"lay {c} {n}", f"swap {n} {c}"])
                if c == "X":
                    out.extend([f"lay X {n} low", f"lay X {n} high"])
        pool, verb = hand, "meld"
    else:
        pool, verb = hand, "take"
    triples: set[tuple[str, ...]] = set()
    top = [str(s.top)] if s.top is not None else []
    for combo in combinations(pool, 3 - len(top) if verb == "take" else 3):
        for order in permutations([*combo, *top] if verb == "take" else combo):
            triples.add(order)
    for order in sorted(triples):
        body = " ".join(order)
        out.extend([f"{verb} {body}", f"{verb} set {body}", f"{verb} run {body}"])
    return out
