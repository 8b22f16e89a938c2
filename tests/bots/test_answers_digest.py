"""The bots' and the optimiser's answers, pinned by one digest (R10, F6: a record replays only
against the bots that played it).

Every move of every level in every position of 24 seeded bot rounds, plus the optimiser's whole
arrangement for those positions and for 60 big dealt hands (some past the node budget, so the
fallback is pinned too). The digest was computed on the engine before its package refactor
(commit 949ac3b): a refactor must leave it as it is. If a change of behaviour is meant, bump
``BOTS_VERSION`` and the digest together.
"""

from __future__ import annotations

import hashlib
import json

from engine import Card, Meld, Rules, State, view
from engine.pikdame.bots import BOTS_VERSION, choose_move
from engine.pikdame.bots import PLAIN_LEVELS as LEVELS  # the Meister: tests/bots/test_meister.py
from engine.pikdame.optimiser import Arrangement, best_arrangement

#: The digest per BOTS_VERSION (version 9 computed on commit 949ac3b, before the refactor).
EXPECTED = {"9": "d118080eeeb85e9c38cf64a64afd57414e77ea469ddfc4f9078ceedf990f56aa"}
MIXES = (
    ("zen", "beginner", "advanced", "zen"),
    ("advanced", "zen", "beginner", "advanced"),
    ("beginner", "beginner", "zen", "advanced"),
)


def _arrangement(a: Arrangement) -> list[object]:
    return [[str(m) for m in a.moves], a.points, a.gain, [str(c) for c in a.kept], a.exact]


def answers_digest(rounds: int = 24, hands: int = 60) -> str:
    digest = hashlib.sha256()

    def feed(value: object) -> None:
        digest.update(json.dumps(value).encode() + b"\n")

    for r in range(rounds):
        levels = MIXES[r % len(MIXES)]
        seed = hashlib.sha256(f"tests/bots/answers/{r}".encode()).digest()
        state = State.new_round(seed, Rules(players=4, hand_out_double=r % 2 == 1), r % 4)
        while state.outcome is None:
            seat = state.turn
            seen = view(state, seat)
            feed([str(choose_move(level, seen)) for level in LEVELS])
            feed(_arrangement(best_arrangement(seen.hand, seen.melds[seat])))
            state.push(choose_move(levels[seat], seen), seat)
        feed(state.to_position())
    owned = (
        Meld.build([Card.parse(x) for x in ("X", "5H", "6H")]),
        Meld.build([Card.parse(x) for x in ("AS", "AD", "X")]),
    )
    for k in range(hands):
        ids = hashlib.sha256(f"tests/bots/answers/hand/{k}".encode()).digest() * 2
        hand = sorted(Card.from_id(ids[i] % 110) for i in range((15, 25, 40)[k % 3]))
        feed(_arrangement(best_arrangement(hand, owned if k % 2 else ())))
    return digest.hexdigest()


def test_answers_are_those_of_this_bots_version() -> None:
    assert answers_digest() == EXPECTED[BOTS_VERSION]
