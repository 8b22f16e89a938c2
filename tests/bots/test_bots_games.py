"""Bots only play legal moves and always finish the round (R4, R4.4, R7): many seeded rounds,
every level in every seat, every move through ``State.push`` (which rejects anything illegal)."""

from __future__ import annotations

import pytest

from engine.pikdame.bots import LEVELS, choose_move
from engine.pikdame.cards import points_of
from engine.pikdame.rules import Rules
from engine.pikdame.state import State
from engine.pikdame.view import view
from tests.support.bot_positions import DAILY, MAX_MOVES, play, seed_of

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
            hand = points_of(final.hand(seat))
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


def test_rounds_whose_stock_runs_out() -> None:
    """R4.4: with the stock nearly gone, bots take when they must (only a take is legal on an
    empty stock) and the round ends, by going out or by the stock running out (R7.2)."""
    levels = ("zen", "advanced", "beginner", "zen")
    ends: set[str] = set()
    forced = 0
    for r in range(10):
        state = State.new_round(seed_of(f"stock/{r}"), DAILY, dealer=r % 4)
        for _ in range(12 + r):  # a few real moves first
            if state.outcome is not None:
                break
            seat = state.turn
            state.push(choose_move(levels[seat], view(state, seat)), seat)
        if state.outcome is not None:
            continue  # out in one turn (R7.3): nothing left to test here
        # Move all but 1–3 stock cards under the discard pile: same 110 cards (R1), and a
        # position the engine accepts (F5); only the stock's size and the pile change.
        keep = 1 + r % 3
        state.discard = [*state.stock[: len(state.stock) - keep], *state.discard]
        state.stock = state.stock[len(state.stock) - keep :]
        state = State.from_position(state.to_position())
        for _ in range(MAX_MOVES):
            if state.outcome is not None:
                break
            seat = state.turn
            move = choose_move(levels[seat], view(state, seat))
            if state.phase == "draw" and not state.stock:
                forced += 1
                assert move.kind == "take"  # R4.4: the only legal move
            state.push(move, seat)
        assert state.outcome is not None
        assert state.card_count() == 110
        ends.add(state.outcome.end)
    assert forced > 0  # the forced take really happened
    assert "stock" in ends  # R7.2 endings happened too
