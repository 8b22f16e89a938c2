"""F6/F7: replay recomputes every bot move; a record whose bot move differs is ``bot_mismatch``.
The turn timer (R9) plays a human's turn with the advanced bot, as ordinary moves."""

from __future__ import annotations

import copy
import gc
import hashlib

import pytest

from engine import Game, ReplayError, daily_game, replay
from engine.core.cards import cards_of
from engine.pikdame.moves import Move
from engine.pikdame.state import State


def seed(name: str) -> bytes:
    return hashlib.sha256(f"tests/bots/replay/{name}".encode()).digest()


def timed_out_daily(name: str) -> tuple[Game, bytes]:
    """A daily round (R11: three zen bots) where the human's timer runs out every turn."""
    s = seed(name)
    game = daily_game(s, "Ada")
    while not game.finished:
        game.autoplay_turn(0)
    return game, s


@pytest.mark.parametrize("name", ["replay/1", "replay/2", "replay/3"])
def test_a_daily_round_of_bots_replays(name: str) -> None:
    game, s = timed_out_daily(name)
    record = game.to_record(s)
    again = replay(record, s)
    assert again.state.history == game.state.history
    assert again.state.outcome == game.state.outcome


def first_bot_discard(game: Game, s: bytes) -> tuple[int, Move]:
    """The index of the first bot discard and a different discard that bot could have made."""
    record = game.to_record(s)
    state = State.new_round(s, game.rules, game.dealer, game.cut)
    for i, entry in enumerate(record["moves"]):
        seat, text = entry["seat"], entry["move"]
        if seat != 0 and text.startswith("discard"):
            held = [c for c in cards_of(state.hands[seat]) if str(c) != text.split()[1]]
            if held:
                return i, Move.discard(held[0])
        state.push(text, seat)
    raise AssertionError("no bot discard to change")


def test_a_changed_bot_move_is_a_bot_mismatch() -> None:
    game, s = timed_out_daily("replay/tamper")
    i, other = first_bot_discard(game, s)
    tampered = copy.deepcopy(game.to_record(s))
    tampered["moves"][i]["move"] = str(other)
    with pytest.raises(ReplayError) as err:
        replay(tampered, s)
    assert err.value.code == "bot_mismatch"
    assert err.value.move_index == i


def test_replaying_a_record_leaves_no_reference_cycles() -> None:
    """The judge frees everything it makes by reference counting: a verification worker replays
    records all day, and every cycle it left (the optimiser's swap plans were a closure calling
    itself, one per call) waited for the collector, whose scans were 7.6 % of the CPU of 600
    replays in one process."""
    game, s = timed_out_daily("replay/cycles")
    record = game.to_record(s)
    replay(record, s)  # the process-wide caches filled once
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        replay(record, s)
        other, t = timed_out_daily("replay/cycles/2")
        replay(other.to_record(t), t)
        gc.collect()
        left = [type(o).__qualname__ for o in gc.garbage]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert left == []
