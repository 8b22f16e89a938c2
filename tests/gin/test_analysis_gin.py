"""The move-by-move analysis of a Gin hand (docs/ANALYSIS.md, ``gin-analysis/1``): a discard
that throws away a gin is a blunder, the bot's own move (its melds in any order) costs nothing,
one record gives one document (twice, on the command line, secret or revealed), and the default
mode depends on nothing the seat did not see (hypothesis)."""

from __future__ import annotations

import hashlib
import json
import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.core.analysis import sample_stream
from engine.core.errors import FormatError, ReplayError
from engine.core.records import commitment
from engine.gin.analysis import ANALYSIS_FORMAT, analyse, analyse_position, sample_world
from engine.gin.bots import choose_move
from engine.gin.cards import NAMES, from_mask
from engine.gin.daily import daily_seats
from engine.gin.match import GinMatch
from engine.gin.state import HandState
from engine.gin.view import view
from tests.support.engine_cli import run
from tests.support.gin_positions import position

SEED = hashlib.sha256(b"analysis/gin").digest()

#: G7: two cards left in the stock, so a plain discard ends the hand drawn (0); discarding KD
#: and knocking is gin (G6: 25 + the defender's deadwood, at least 25).
GIN_IN_HAND = position(
    "AS 2S 3S 4S 5H 5D 5C 9C TC JC KD",
    "6H 7H 8H 2D 3D 9D QH QS KS 4C",
    discard="7S",
    stock="JD QD",
)
GIN = "knock KD AS 2S 3S 4S | 5H 5D 5C | 9C TC JC"


def analysis_of(moves: list[str], **kw: Any) -> dict[str, Any]:
    doc = {"position": GIN_IN_HAND, "moves": [{"seat": 0, "move": m} for m in moves], "seat": 0}
    return analyse_position(doc, **kw)


@pytest.mark.parametrize("mode", ["view", "deal"])
def test_a_discard_that_throws_away_gin_is_named_a_blunder(mode: str) -> None:
    got = analysis_of(["discard KD"], mode=mode, samples=6)
    (decision,) = got["decisions"]
    assert decision["played"] == "discard KD"
    assert decision["best"].startswith("knock KD ")
    assert decision["mark"] == "blunder"
    assert Fraction(decision["expected"]["played"]) == 0  # the wall (G7)
    assert Fraction(decision["cost"]) >= 25  # gin: 25 + the defender's deadwood (G6)
    if mode == "view":
        assert Fraction(decision["interval"][0]) > 0
    else:
        # the real defender holds 6H 7H 8H and has 2+3+9+10+10+10+4 = 48 deadwood
        assert (decision["cost"], decision["interval"]) == ("73", None)
    assert got["summary"] == {
        "decisions": 1,
        "matching": 0,
        "inaccuracies": 0,
        "mistakes": 0,
        "blunders": 1,
        "total_cost": decision["cost"],
        "result": 0,
    }


@pytest.mark.parametrize("mode", ["view", "deal"])
def test_the_bots_knock_costs_nothing_whatever_the_order_of_its_melds(mode: str) -> None:
    played = "knock KD 9C TC JC | 5H 5D 5C | AS 2S 3S 4S"
    got = analysis_of([played], mode=mode, samples=6)
    (decision,) = got["decisions"]
    assert (decision["same"], decision["cost"], decision["mark"]) == ("move", "0", None)
    assert decision["samples"] == 0 and decision["interval"] is None


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    """A Gin match (the daily's seats) whose player plays like the plain bot."""
    match = GinMatch.start(SEED, daily_seats("Ada"))
    while not match.finished:
        match.play(choose_move("plain", match.view(0)), 0)
    return match.to_record(reveal_seed=True)


@pytest.fixture(scope="module")
def analysed(record: dict[str, Any]) -> dict[str, Any]:
    return analyse(record, hand=2, samples=3)


def test_the_document_has_its_documented_shape(
    record: dict[str, Any], analysed: dict[str, Any]
) -> None:
    got = analysed
    assert got["format"] == ANALYSIS_FORMAT
    assert got["source"] == {"format": "gin-log/1", "engine": record["engine"], "hand": 2}
    assert (got["seat"], got["mode"], got["analyst"]) == (0, "view", "strong")
    assert got["sampling"] == {"fixed": 3}
    match = GinMatch(SEED, daily_seats("Ada"))
    own = []
    for i, m in enumerate(record["moves"]):
        if match.state.hand_no == 2 and m["seat"] == 0 and m["move"] != "resign":
            own.append(i)
        match.push(m["move"], m["seat"])
    assert [d["move_index"] for d in got["decisions"]] == own
    first_hand_result = record["hands"][1]
    scores = first_hand_result["scores"]
    assert got["summary"]["result"] == scores[0] - scores[1]
    assert [p["turn"] for p in got["graph"]] == sorted({d["turn"] for d in got["decisions"]})


def test_the_same_record_gives_the_same_document_twice_and_on_the_command_line(
    record: dict[str, Any], analysed: dict[str, Any]
) -> None:
    assert analyse(record, hand=2, samples=3) == analysed
    status, out, err = run(
        "gin", "analyse", "--hand", "2", "--samples", "3", stdin=json.dumps(record)
    )
    assert (status, err) == (0, "")
    assert out == analysed


def test_a_secret_record_analyses_with_the_services_seed_and_says_nothing_of_it(
    record: dict[str, Any], analysed: dict[str, Any]
) -> None:
    secret = {**record, "seeds": {**record["seeds"], "seed": None}}
    assert analyse(secret, hand=2, samples=3, seed=SEED) == analysed
    text = json.dumps(analysed)
    assert SEED.hex() not in text and commitment(SEED) not in text
    with pytest.raises(FormatError, match="not revealed"):
        analyse(secret, hand=2)
    status, out, err = run("gin", "analyse", stdin=json.dumps(secret))
    assert status == 2 and out is None and "not revealed" in err


def test_the_real_deal_mode_and_bad_arguments(record: dict[str, Any]) -> None:
    got = analyse(record, hand=1, mode="deal")
    assert got["sampling"] is None
    assert all(d["interval"] is None for d in got["decisions"])
    assert analyse(record, hand=1, mode="deal") == got
    for kw in ({"mode": "peek"}, {"samples": 1}, {"seat": 2}, {"hand": 99}):
        with pytest.raises(FormatError):
            analyse(record, **kw)
    broken = {**record, "moves": [{"seat": 0, "move": "draw"}]}
    with pytest.raises(ReplayError) as info:
        analyse(broken)
    assert (info.value.code, info.value.move_index) == ("wrong_phase", 0)


def _dealt(seed: int, skip: int) -> HandState | None:
    state = HandState.new(hashlib.sha256(b"gin view-only %d" % seed).digest(), 1, 1)
    for _ in range(skip):
        if state.outcome is not None or state.phase == "defend":
            return None
        state.push(choose_move("strong", view(state, state.turn)))
    return None if state.outcome is not None or state.phase == "defend" else state


@given(
    seed=st.integers(0, 10**6),
    skip=st.integers(0, 16),
    rng=st.randoms(use_true_random=False),
)
@settings(max_examples=15, deadline=None)
def test_hidden_cards_the_seat_never_saw_change_nothing(
    seed: int, skip: int, rng: random.Random
) -> None:
    """G9: the other hand's cards it held throughout and the stock below what was drawn are
    shuffled among their places; the default analysis gives the same document."""
    state = _dealt(seed, skip)
    assume(state is not None)
    assert state is not None
    start = state.to_position()
    s = HandState.from_position(start)
    kept = s.hands[1] & ~s.took[1]  # what it took from the pile is public (G9)
    moves = []
    for _ in range(14):
        if s.outcome is not None:
            break
        mover = s.turn
        move = choose_move("plain" if mover == 0 else "strong", view(s, mover))
        if move.kind == "knock":  # a knock shows the knocker's cards (G6): stop before it
            break
        s.push(move, mover)
        moves.append({"seat": mover, "move": str(move)})
        kept &= s.hands[1]
    assume(any(m["seat"] == 0 for m in moves))
    drawn = len(start["stock"]) - len(s.stock)
    pool = [NAMES[c] for c in from_mask(kept)] + start["stock"][drawn:]
    rng.shuffle(pool)
    held = [n for n in start["hands"][1] if n not in {NAMES[c] for c in from_mask(kept)}]
    need = kept.bit_count()
    other = {
        **start,
        "hands": [start["hands"][0], held + pool[:need]],
        "stock": start["stock"][:drawn] + pool[need:],
    }
    assume(HandState.from_position(other).to_position() != start)
    first = analyse_position({"position": start, "moves": moves, "seat": 0}, samples=2)
    second = analyse_position({"position": other, "moves": moves, "seat": 0}, samples=2)
    assert first == second


@given(seed=st.integers(0, 10**6), skip=st.integers(0, 30))
@settings(max_examples=25, deadline=None)
def test_a_sampled_world_looks_like_the_real_hand_to_the_seat(seed: int, skip: int) -> None:
    state = HandState.new(hashlib.sha256(b"gin worlds %d" % seed).digest(), 1, 1)
    for _ in range(skip):
        if state.outcome is not None:
            break
        state.push(choose_move("strong", view(state, state.turn)))
    assume(state.outcome is None)
    seat = state.turn
    v = view(state, seat)
    stream = sample_stream("test", {"seed": seed})
    for _ in range(2):
        world = sample_world(v, stream)
        assert view(world, seat).to_json() == v.to_json()
        assert world.took[1 - seat] & ~world.hands[1 - seat] == 0
        world.push(choose_move("strong", view(world, seat)), seat)


def test_samples_above_48_are_honoured_and_the_candidates_named() -> None:
    """Issue 40 items 1 and 4: ``samples=60`` gave 48 deals while the document said
    {"fixed": 60}; the best shown is the candidate measured best (the bots' choices, the
    analyst's first), each candidate's value beside it."""
    got = analysis_of(["discard KD"], samples=60)
    assert got["sampling"] == {"fixed": 60}
    assert got["analysis"] == "analysis-5" and got["work"] > 0
    (decision,) = got["decisions"]
    assert decision["samples"] == 60
    candidates = decision["candidates"]
    assert candidates[0]["move"].startswith("knock KD ")
    values = [Fraction(c["expected"]) for c in candidates]
    assert Fraction(decision["expected"]["best"]) == max(values)
    assert decision["played_better"] is False and decision["unjudged"] is False
