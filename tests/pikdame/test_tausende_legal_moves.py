"""Tausende's ``legal_moves`` (R12): the fast implementation lists exactly what the
first one listed (every candidate tried with ``push`` on a copy: tests/support/tausende.py), in
the same order, over many positions of bot and random play under every R12.8 option; and the
exhaustive direction of legal = accepted: every move ``push`` accepts in a position, from a
bounded enumeration of candidate moves, is in ``legal_moves``."""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.cards import NAMES
from engine.pikdame.bots import choose_move
from engine.pikdame.errors import PikDameError
from engine.pikdame.rules import Rules
from engine.pikdame.state import State
from engine.pikdame.tausende import TausendeState
from engine.pikdame.view import view
from tests.support.tausende import legal_moves_by_trying, state

LEVELS = ("beginner", "advanced", "zen")
CARD_NAMES = sorted({NAMES[c] for c in range(53)} | {"X"})


def walk(
    seed_int: int, players: int, options: tuple[bool, bool, bool], plan: list[int]
) -> Iterator[TausendeState]:
    """The positions of one round: each step is a bot's move (plan value % 4 < 3: that level,
    so seats open and meld, R12.3) or a uniformly chosen legal move."""
    seed = hashlib.sha256(b"legal/" + seed_int.to_bytes(8, "big")).digest()
    ace_high_only, no_joker_swap, go_out_on_opening = options
    rules = Rules(
        players,
        ruleset="tausende",
        ace_high_only=ace_high_only,
        no_joker_swap=no_joker_swap,
        go_out_on_opening=go_out_on_opening,
    )
    s = State.new_round(seed, rules, players - 1)
    assert isinstance(s, TausendeState)
    for step in plan:
        if s.finished:
            return
        yield s
        if step % 4 < 3:
            move = choose_move(LEVELS[step % 4], view(s, s.turn))
        else:
            moves = [m for m in s.legal_moves() if m.kind != "resign"]
            move = moves[step % len(moves)]
        s.push(move)


def same_lists(s: TausendeState) -> None:
    for max_meld in (None, 3):
        fast = [str(m) for m in s.legal_moves(max_meld)]
        reference = [str(m) for m in legal_moves_by_trying(s, max_meld)]
        assert fast == reference, (max_meld, s.to_position())


options = st.tuples(st.booleans(), st.booleans(), st.booleans())


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 2**32),
    st.integers(2, 4),
    options,
    st.lists(st.integers(0, 10**6), min_size=20, max_size=200),
)
def test_the_fast_legal_moves_are_the_first_implementations(
    seed_int: int, players: int, opts: tuple[bool, bool, bool], plan: list[int]
) -> None:
    seen = 0
    for s in walk(seed_int, players, opts, plan):
        same_lists(s)
        seen += 1
    assert seen


def test_the_fast_legal_moves_on_the_awkward_positions() -> None:
    """R12.6/R12.7 Q♠ cases, R12.8 options, lay-offs and swaps on another seat's meld (R12.5),
    a take by a player who has opened (R12.4) with Q♠s in the pile."""
    run = {"kind": "run", "cards": ["5H", "X", "7H"]}
    aces = {"kind": "set", "cards": ["AS", "AH", "X"]}
    cases = [
        state([["QS", "QS"], ["2C", "3C"]], phase="play", opened=[True, False]),
        state([["QS", "6H"], ["2C", "3C"]], phase="play", opened=[True, False]),
        state([["QS"], ["2C", "3C"]], phase="play", opened=[True, False]),
        state(
            [["6H", "AD", "X", "QS", "4H"], ["2C", "3C"]],
            melds=[[], [run, aces]],
            opened=[True, True],
        ),
        state(
            [["6H", "AD", "X", "QS", "4H"], ["2C", "3C"]],
            melds=[[], [run, aces]],
            opened=[True, True],
            no_joker_swap=True,
        ),
        state(
            [["6H", "X"], ["2C", "3C"]],
            melds=[[run], []],
            opened=[True, False],
            opened_at_turn_start=False,
        ),
        state(
            [["6H", "X"], ["2C", "3C"]],
            melds=[[run], []],
            opened=[True, False],
            opened_at_turn_start=False,
            go_out_on_opening=True,
        ),
        state(
            [["QH", "KH", "5C"], ["2C", "3C"]],
            phase="draw",
            opened=[True, False],
            discard=["QS", "QS", "AH"],
        ),
        state(
            [["QH", "KH", "QS"], ["2C", "3C"]],
            phase="draw",
            opened=[True, False],
            discard=["QS", "AH"],
        ),
        state([["QH", "KH"], ["2C", "3C"]], phase="draw", opened=[True, False], discard=["AH"]),
        state(
            [["QH", "KH", "JH", "5C"], ["2C", "3C"]],
            phase="draw",
            opened=[True, False],
            discard=["AH"],
            ace_high_only=True,
        ),
        state([["QS", "6H", "7D"], ["2C", "3C"]], phase="draw", swaps=1, discard=["9D"]),
    ]
    for s in cases:
        same_lists(s)


def candidates(s: TausendeState) -> Iterator[str]:
    """A bounded enumeration of moves to try: every card in every one-card form, every meld
    address of every seat (one past the last too), melds and takes of up to four cards."""
    yield from ("draw", "pass", "resign")
    for card in CARD_NAMES:
        yield f"discard {card}"
        yield f"swap-up {card}"
        for seat in range(s.players):
            for n in range(1, len(s.melds[seat]) + 2):
                yield f"lay {card} {seat}.{n}"
                yield f"lay {card} {seat}.{n} low"
                yield f"swap {seat}.{n} {card}"
                if seat == s.turn:
                    yield f"lay {card} {n}"
                    yield f"lay {card} {n} low"
                    yield f"swap {n} {card}"
    hand = sorted(str(c) for c in s.hand(s.turn))
    top = [str(s.discard[-1])] if s.discard else []
    for size in (2, 3, 4):
        for chosen in sorted(set(itertools.combinations(hand, size))):
            for prefix in ("", "set ", "run "):
                if size >= 3:
                    yield f"meld {prefix}{' '.join(chosen)}"
                if top and size <= 3:
                    yield f"take {prefix}{' '.join((*chosen, *top))}"


@settings(max_examples=25, deadline=None)
@given(
    st.integers(0, 2**32),
    st.integers(2, 4),
    options,
    st.lists(st.integers(0, 10**6), min_size=1, max_size=120),
)
def test_every_accepted_move_is_listed(
    seed_int: int, players: int, opts: tuple[bool, bool, bool], plan: list[int]
) -> None:
    """legal ⊇ accepted: whatever ``push`` accepts (in its canonical form) is in the list."""
    positions = list(walk(seed_int, players, opts, plan))
    for s in positions[-1:] + positions[len(positions) // 2 : len(positions) // 2 + 1]:
        listed = {str(m) for m in s.legal_moves()}
        for text in candidates(s):
            try:
                done = s.copy().push(text)
            except PikDameError:
                continue
            assert str(done) in listed, (text, str(done), s.to_position())
