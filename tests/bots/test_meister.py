"""The Meister (R10, issue 40 item 8): blind, deterministic, legal, and never played out by the
analysis. A small work budget keeps these fast; the budget changes how many deals it samples,
never what it may see."""

from __future__ import annotations

import hashlib
import json

import pytest

from engine.core.cards import NUM_KINDS, Counts
from engine.pikdame import bots
from engine.pikdame.analysis import analyse_round, learn
from engine.pikdame.bots import BOTS_VERSION, choose_move, meister
from engine.pikdame.rules import LEVELS, PLAIN_LEVELS, Seat
from engine.pikdame.state import State
from engine.pikdame.view import view
from tests.support.bot_positions import (
    DAILY,
    TAUSENDE,
    permute_hidden,
    play,
    sample_states,
    seed_of,
)
from tests.support.determinism import moves_in_another_process

SMALL = 150  # work units: the least deals (meister.LEAST) and a little more
MIXED = ("zen", "advanced", "beginner", "zen")


@pytest.fixture(autouse=True)
def small_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(meister, "WORK", SMALL)


def _differing(states: list[State]) -> list[State]:
    """The positions where zen and advanced disagree: there the Meister samples deals."""
    return [
        s
        for s in states
        if str(choose_move("zen", view(s, s.turn))) != str(choose_move("advanced", view(s, s.turn)))
    ]


def test_the_level_is_registered_and_the_analysis_never_plays_it() -> None:
    assert "meister" in LEVELS and "meister" not in PLAIN_LEVELS
    assert LEVELS[:3] == PLAIN_LEVELS  # the existing levels keep their order and answers


def test_r10_permuted_hidden_cards_never_change_the_meisters_move() -> None:
    states = _differing(sample_states("meister/blind", MIXED, every=2))[:8]
    assert len(states) >= 5  # not vacuous: the Meister really sampled deals here
    for i, state in enumerate(states):
        seat = state.turn
        move = choose_move("meister", view(state, seat))
        other = permute_hidden(state, f"meister/{i}")
        assert other.hands != state.hands or other.stock != state.stock
        assert view(other, seat) == view(state, seat)
        assert choose_move("meister", view(other, seat)) == move
        assert state.copy().push(move, seat) is not None  # R4: legal


def test_the_meister_is_deterministic_here_and_in_another_process() -> None:
    states = _differing(sample_states("meister/determinism", MIXED, every=3))[:4]
    assert states
    here = [str(choose_move("meister", view(s, s.turn))) for s in states]
    assert here == [str(choose_move("meister", view(s.copy(), s.turn))) for s in states]
    docs = [s.to_position() for s in states]
    # a position keeps no history: the child's view has none, so compare with the same here
    expected = [
        str(choose_move("meister", view(State.from_position(d), s.turn)))
        for d, s in zip(docs, states, strict=True)
    ]
    setup = f"from engine.pikdame.bots import meister; meister.WORK = {SMALL}"
    assert (
        moves_in_another_process(
            "meister",
            docs,
            bots="engine.pikdame.bots",
            state="engine.pikdame.state.State",
            view_module="engine.pikdame.view",
            setup=setup,
        )
        == expected
    )


def test_a_round_with_a_meister_seat_plays_to_its_end() -> None:
    """R4, R7: every move the Meister makes is legal (State.push raises otherwise)."""
    states = list(play(seed_of("meister/round"), ("meister", "zen", "advanced", "zen"), dealer=1))
    assert states[-1].outcome is not None


def test_r12_a_meister_seat_at_tausende_plays_zens_move() -> None:
    for s in sample_states("meister/tausende", MIXED, every=6, rules=TAUSENDE)[:6]:
        v = view(s, s.turn)
        assert choose_move("meister", v) == choose_move("zen", v)


def test_known_cards_from_the_history_alone_are_the_analysis_knowledge() -> None:
    """What the Meister works out from the public history (its view) is what the analysis
    learns from the states (R4.1's takes), less only a joker won by a swap."""
    known: list[Counts] = [[0] * NUM_KINDS for _ in range(4)]
    before: State | None = None
    compared = 0
    for state in play(seed_of("meister/known"), MIXED, dealer=2):
        if before is not None:
            mover, text = state.history[-1]
            learn(known, before, state, mover, before.copy().push(text, mover))
        if state.outcome is None:
            v = view(state, state.turn)
            mine = meister.known_cards(v)
            swapped = any(t.startswith("swap") for _, t in v.history)
            for s in range(4):
                if s != v.seat:
                    if swapped:
                        assert all(a <= b for a, b in zip(mine[s], known[s], strict=True))
                    else:
                        assert mine[s] == known[s]
            compared += 1
        before = state.copy()
    assert compared > 20 and any(sum(k) for k in known)


def test_the_analysis_plays_a_meister_seat_out_by_the_analyst(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 40 item 8: a Meister's play-outs inside the analysis' would take minutes; its seat
    is played out by zen (the analyst), also after a table's level change to meister (R9)."""
    final = list(play(seed_of("meister/analysis"), ("zen",) * 4, dealer=0))[-1]
    start = State.new_round(seed_of("meister/analysis"), DAILY, dealer=0)
    moves = final.history[:12]
    bots.choose_move("zen", view(start, start.turn))  # the choosers are loaded

    def refuse(_: object, work: int | None = None) -> object:
        raise AssertionError("the analysis played the Meister")

    monkeypatch.setitem(bots._CHOOSERS, "meister", refuse)
    seats = [Seat("human", name="a"), Seat("bot", level="meister")] + [Seat("bot", level="zen")] * 2
    doc = analyse_round(
        start, moves, 0, seats=seats, level_changes={3: [(2, "meister")]}, samples=2
    )
    assert doc["decisions"]


#: The Meister's answers, pinned like the other bots' (tests/bots/test_answers_digest.py): a
#: table's record with a Meister seat names BOTS_VERSION and replays by it (F6, F7 bot_mismatch),
#: so a change of its answers (its logic, candidates or budget) needs a new BOTS_VERSION.
#: Per version: (the digest of its moves in six positions at the tests' budget, WORK, LEAST).
PINNED = {"9": ("df8fffbc1c3736f642287fdc8f6bcb3ff468bf39657a222fe6e63530f5c161ea", 20000, 2)}
REAL_WORK = meister.WORK  # read at import, before the fixture makes it small


def test_the_meisters_answers_are_pinned_to_the_bots_version() -> None:
    states = _differing(sample_states("meister/pinned", MIXED, every=2))[:6]
    assert len(states) == 6
    answers = [str(choose_move("meister", view(s, s.turn))) for s in states]
    digest = hashlib.sha256(json.dumps(answers).encode()).hexdigest()
    assert (digest, REAL_WORK, meister.LEAST) == PINNED[BOTS_VERSION]
