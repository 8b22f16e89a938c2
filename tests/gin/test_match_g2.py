"""G2 (match to 100, dealer rules) and G7 (a drawn hand is dealt again by the same dealer) over
whole matches; the match object's live play (play, bots answering, autoplay_turn)."""

from __future__ import annotations

import itertools

import pytest

from engine.core.errors import IllegalMoveError
from engine.gin.deal import deal
from engine.gin.match import TARGET, GinMatch
from engine.gin.state import HandState
from tests.support.gin_matches import HUMAN_VS_BOT, bot_match, human_match, seed


@pytest.mark.parametrize("k", range(12))
def test_g2_dealers_hands_and_totals(k: int) -> None:
    match = bot_match(k)
    results = match.results
    assert match.finished and results
    assert results[0].dealer == 1  # G2: seat 1 deals the first hand
    for prev, nxt in itertools.pairwise(results):
        assert nxt.hand_no == prev.hand_no + 1  # G3: drawn hands are numbered too
        if prev.outcome.end == "wall":
            assert nxt.dealer == prev.dealer  # G7: the same dealer deals again
        else:
            assert nxt.dealer == 1 - prev.dealer  # G2: the dealer alternates
    totals = [sum(r.outcome.scores[s] for r in results) for s in (0, 1)]
    assert totals == match.totals
    assert max(totals) >= TARGET  # G2: the match ends at 100 …
    before = [t - s for t, s in zip(totals, results[-1].outcome.scores, strict=True)]
    assert max(before) < TARGET  # … after the first scored hand that reaches it
    assert match.winner == (0 if totals[0] > totals[1] else 1)


def test_g3_every_hand_is_dealt_from_the_match_seed() -> None:
    match = bot_match(3)
    for r in match.results:
        d = deal(seed(3), r.hand_no, r.dealer)
        fresh = HandState.new(seed(3), r.hand_no, r.dealer)
        assert fresh.discard == [d.upcard]


def test_g2_play_rejects_bot_seats_and_moves_after_the_end() -> None:
    match = GinMatch.start(seed("p"), HUMAN_VS_BOT)
    with pytest.raises(IllegalMoveError) as info:
        match.play("pass", 1)
    assert info.value.code == "not_your_turn"
    match.play("resign", 0)
    assert match.finished and match.winner == 1
    assert match.result_json() == {"end": "resign", "winner": 1, "totals": [0, 0]}
    with pytest.raises(IllegalMoveError) as info:
        match.play("pass", 0)
    assert info.value.code == "round_over"


def test_g2_bots_answer_until_the_human_must_move() -> None:
    match = GinMatch.start(seed("q"), HUMAN_VS_BOT)
    assert match.to_move() == 0  # the human is non-dealer of hand 1
    events = match.play("pass", 0)
    assert events[0] == (0, "pass")
    assert match.finished or match.to_move() == 0


def test_autoplay_turn_finishes_the_humans_turn() -> None:
    match = human_match("auto", stop_after=3)
    assert match.to_move() == 0
    hand = match.hand_no
    events = match.autoplay_turn(0)
    assert events and events[0][0] == 0
    assert match.finished or match.to_move() == 0 or match.hand_no > hand
    with pytest.raises(IllegalMoveError):
        match.autoplay_turn(1)


def test_a_human_match_runs_to_the_end() -> None:
    match = human_match(5)
    assert match.finished and match.result_json() is not None
