"""Bots only play legal moves and always finish the round (R4, R4.4, R7): many seeded rounds,
every level in every seat, every move through ``State.push`` (which rejects anything illegal)."""

from __future__ import annotations

import pytest

from engine.bots import LEVELS
from engine.state import Rules
from tests.bots.positions import MAX_MOVES, play, seed_of

TABLES = (
    ("zen", "zen", "zen", "zen"),
    ("advanced", "advanced", "advanced", "advanced"),
    ("beginner", "beginner", "beginner", "beginner"),
    ("zen", "advanced", "beginner", "advanced"),
)


@pytest.mark.parametrize("levels", TABLES, ids=["-".join(t) for t in TABLES])
def test_rounds_are_legal_and_end(levels: tuple[str, ...]) -> None:
    """R4: every bot move is accepted by the engine; R7: each round ends with an outcome whose
    scores follow R7.1 (melds minus hand, the winner's hand empty) and 110 cards remain."""
    ends = set()
    for r in range(12):
        final = None
        for state in play(seed_of(f"games/{'-'.join(levels)}/{r}"), levels, dealer=r % 4):
            assert state.card_count() == 110  # R1/R6: no card appears or vanishes
            final = state
        assert final is not None and final.outcome is not None
        outcome = final.outcome
        ends.add(outcome.end)
        assert outcome.end in ("out", "stock")  # bots never resign
        for seat, got in enumerate(outcome.round_scores):
            melds = sum(m.points for m in final.melds[seat])
            hand = sum(c.points for c in final.hand(seat))
            base = melds - (0 if seat == outcome.winner else hand)
            assert got == (2 * base if outcome.doubled else base)
        if outcome.winner is not None:
            assert final.hand_sizes[outcome.winner] == 0
        assert len(final.history) < MAX_MOVES
    assert ends  # at least one kind of ending observed


@pytest.mark.parametrize("players", (2, 3))
def test_fewer_seats(players: int) -> None:
    """R2: with 2 or 3 seats the bots also play legal, finished rounds."""
    rules = Rules(players=players, hand_out_double=False)
    for r in range(4):
        levels = [LEVELS[(r + s) % 3] for s in range(players)]
        states = list(play(seed_of(f"seats/{players}/{r}"), levels, dealer=0, rules=rules))
        assert states[-1].outcome is not None
