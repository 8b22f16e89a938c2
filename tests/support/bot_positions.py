"""Seeded bot positions for the bot tests: states reached by bots playing real deals (F3).

Deal seeds are SHA-256 of a label, so every run plays the same rounds; nothing here is random.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence

from engine.core.cards import counts_of
from engine.pikdame.bots import choose_move
from engine.pikdame.rules import Rules
from engine.pikdame.state import State
from engine.pikdame.view import view

DAILY = Rules(players=4, hand_out_double=True)  # R11's rules
TAUSENDE = Rules(players=4, ruleset="tausende")  # R12
MAX_MOVES = 3000  # a round has 50 stock cards: far fewer moves than this, unless a bot stalls


def seed_of(label: str) -> bytes:
    return hashlib.sha256(f"pikdame/tests/bots/{label}".encode()).digest()


def play(
    seed: bytes, levels: Sequence[str], dealer: int = 3, rules: Rules = DAILY
) -> Iterator[State]:
    """Every state (before each move) of one bot round, then the final state; each move is
    pushed through ``State.push``, which raises on anything illegal (R4)."""
    state = State.new_round(seed, rules, dealer)
    for _ in range(MAX_MOVES):
        yield state
        if state.outcome is not None:
            return
        seat = state.turn
        state.push(choose_move(levels[seat], view(state, seat)), seat)
    raise AssertionError(f"round not over after {MAX_MOVES} moves: a bot stalls")


def sample_states(
    label: str, levels: Sequence[str], every: int, rules: Rules = DAILY
) -> list[State]:
    """Copies of every ``every``-th state of one round (the round is played to its end)."""
    out = []
    for i, state in enumerate(play(seed_of(label), levels, rules=rules)):
        if state.outcome is None and i % every == 0:
            out.append(state.copy())
    return out


def permute_hidden(state: State, key: str) -> State:
    """A copy of ``state`` in which the cards the seat to move cannot see (R10: other hands and
    the stock's order) are dealt anew, each hand keeping its size: a different hidden world with
    the same view."""
    other = state.copy()
    me = state.turn
    hidden = [c for s in range(state.players) if s != me for c in state.hand(s)]
    hidden.extend(state.stock)
    order = sorted(
        range(len(hidden)),
        key=lambda i: hashlib.sha256(f"{key}/{i}".encode()).digest(),
    )
    pool = [hidden[i] for i in order]
    for s in range(state.players):
        if s == me:
            continue
        size = state.hand_sizes[s]
        other.hands[s] = counts_of(pool[:size])
        pool = pool[size:]
    other.stock = pool
    return other
