"""Gin's Meister (G9, issue 40 item 8): blind, deterministic, legal, and never played out by the
analysis. A small budget of play-out moves keeps these fast; it changes how many deals the
Meister samples, never what it may see."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from engine.core.records import Seat
from engine.gin import bots
from engine.gin.analysis import analyse_hand
from engine.gin.bots import BOTS_VERSION, LEVELS, PLAIN_LEVELS, choose_move, meister
from engine.gin.state import HandState
from engine.gin.view import view
from tests.support.determinism import moves_in_another_process
from tests.support.gin_matches import seed
from tests.support.gin_positions import permuted

SMALL = 60  # play-out moves: the least deals (meister.LEAST) and a little more


@pytest.fixture(autouse=True)
def small_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(meister, "WORK", SMALL)


def _hand(k: int, levels: tuple[str, str] = ("strong", "plain")) -> list[HandState]:
    """Every state of a hand at which a seat is to move, the hand played to its end (G4–G7)."""
    s = HandState.new(seed(f"meister/{k}"), 1, k % 2)
    found = []
    while s.outcome is None:
        found.append(s.copy())
        s.push(choose_move(levels[s.turn], view(s, s.turn)), s.turn)
    found.append(s)
    return found


def _differing(states: list[HandState]) -> list[HandState]:
    return [
        s
        for s in states
        if s.outcome is None
        and s.phase != "defend"
        and choose_move("strong", view(s, s.turn)) != choose_move("plain", view(s, s.turn))
    ]


def test_the_level_is_registered_beside_the_others() -> None:
    assert LEVELS[:2] == PLAIN_LEVELS and "meister" in LEVELS and "meister" not in PLAIN_LEVELS


def test_g9_permuted_hidden_cards_never_change_the_meisters_move() -> None:
    rng = random.Random(7)
    states = [s for k in range(4) for s in _differing(_hand(k))][:10]
    assert len(states) >= 5  # not vacuous: the Meister really sampled deals here
    for s in states:
        seat = s.turn
        v = view(s, seat)
        move = str(choose_move("meister", v))
        for _ in range(2):
            t = permuted(s, seat, rng)
            assert view(t, seat) == v
            assert str(choose_move("meister", view(t, seat))) == move
        assert s.is_legal(move)


def test_the_meister_is_deterministic_here_and_in_another_process() -> None:
    states = [s for k in range(2) for s in _differing(_hand(k))][:4]
    assert states
    here = [str(choose_move("meister", view(s, s.turn))) for s in states]
    assert here == [str(choose_move("meister", view(s.copy(), s.turn))) for s in states]
    docs = [s.to_position() for s in states]
    expected = [
        str(choose_move("meister", view(HandState.from_position(d), s.turn)))
        for d, s in zip(docs, states, strict=True)
    ]
    setup = f"from engine.gin.bots import meister; meister.WORK = {SMALL}"
    assert (
        moves_in_another_process(
            "meister",
            docs,
            bots="engine.gin.bots",
            state="engine.gin.state.HandState",
            view_module="engine.gin.view",
            setup=setup,
        )
        == expected
    )


def test_a_hand_with_a_meister_seat_plays_to_its_end() -> None:
    """G4–G7: every move the Meister makes is legal (HandState.push raises otherwise)."""
    for k in range(2):
        assert _hand(k, ("meister", "strong"))[-1].outcome is not None


def test_the_analysis_plays_a_meister_seat_out_by_the_analyst(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 40 item 8: the Meister's own play-outs inside the analysis' would multiply its time;
    the analysis plays a Meister seat out by the strong bot."""
    states = _hand(3)
    start, final = states[0], states[-1]

    def refuse(_: object, work: int | None = None) -> object:
        raise AssertionError("the analysis played the Meister")

    monkeypatch.setitem(bots._CHOOSERS, "meister", refuse)
    seats = [Seat("human", name="a"), Seat("bot", level="meister")]
    doc = analyse_hand(start, list(final.history), 0, seats=seats, samples=2)
    assert doc["decisions"]


#: The Meister's answers, pinned: a Gin table's record names the bots' version (G9) and replays
#: by it, so a change of the Meister's answers (logic, candidates or budget) needs a new
#: BOTS_VERSION. Per version: (the digest of its moves in six positions at the tests' budget,
#: WORK, LEAST).
PINNED = {"1": ("9e6f87b8ad92e6a83da9579c9a4fa4d2617dc0a1d56b086896aa118085594984", 18000, 2)}
REAL_WORK = meister.WORK  # read at import, before the fixture makes it small


def test_the_meisters_answers_are_pinned_to_the_bots_version() -> None:
    states = [s for k in range(4, 12) for s in _differing(_hand(k))][:6]
    assert len(states) == 6
    answers = [str(choose_move("meister", view(s, s.turn))) for s in states]
    digest = hashlib.sha256(json.dumps(answers).encode()).hexdigest()
    assert (digest, REAL_WORK, meister.LEAST) == PINNED[BOTS_VERSION]
