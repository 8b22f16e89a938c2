"""The Gin daily challenge's engine parts (docs/GIN_DAILY.md): the F4 seed with Gin's
message, the day's setup, the score, the released bots, and a stored match that plays on exactly
as the uninterrupted one (the service stores the match between every two moves)."""

from __future__ import annotations

import hashlib
import hmac
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import gin
from engine.core.errors import FormatError, ReplayError
from engine.gin import GinMatch, choose_move
from engine.gin.releases import register, unregister


def test_the_daily_seed_is_f4_with_gins_message() -> None:
    secret = b"k"
    expected = hmac.new(secret, b"pikdame/daily-gin/v1/2026-11-30", hashlib.sha256).digest()
    assert gin.daily_seed(secret, "2026-11-30") == expected
    assert gin.daily_seed(secret, "2026-12-01") != expected
    for bad in ("2026-11-31", "30.11.2026", "2026-1-30"):
        with pytest.raises(FormatError):
            gin.daily_seed(secret, bad)


def test_the_day_is_the_player_against_the_strong_bot_seat_1_dealing() -> None:
    match = gin.daily_match(gin.daily_seed(b"k", "2026-11-30"), "Ada")
    record = match.to_record()
    assert record["seats"] == [{"kind": "human", "name": "Ada"}, {"kind": "bot", "level": "strong"}]
    assert match.state.dealer == 1 and match.to_move() == 0  # G2: seat 1 deals the first hand
    assert record["seeds"] == {
        "commitment": hashlib.sha256(gin.daily_seed(b"k", "2026-11-30")).hexdigest(),
        "seed": None,
    }


def play_out(match: GinMatch, stored: bool) -> GinMatch:
    """Seat 0 played by the plain bot; with ``stored``, the match goes through its storage form
    between every two requests, as the service keeps it."""
    for _ in range(5000):
        if match.finished:
            return match
        move = choose_move("plain", match.view(0))
        match.play(move, 0)
        if stored:
            match = GinMatch.from_json(json.loads(json.dumps(match.to_json())))
    raise AssertionError("the match did not end")


@settings(max_examples=8, deadline=None)
@given(st.binary(min_size=32, max_size=32))
def test_a_stored_match_plays_on_as_the_uninterrupted_one(seed: bytes) -> None:
    """The defect found by the daily's verifier: the storage form lost the hand's history, so a
    bot answering after a reload saw no discards of the other seat and could play another move
    than the replay's bot (bot_mismatch for an honest match)."""
    live = play_out(gin.daily_match(seed, "Ada"), stored=True)
    straight = play_out(gin.daily_match(seed, "Ada"), stored=False)
    assert live.moves == straight.moves
    gin.replay(live.to_record(reveal_seed=True))  # verifies


def test_a_stored_match_keeps_each_seats_view() -> None:
    match = gin.daily_match(gin.daily_seed(b"k", "2026-11-30"), "Ada")
    for _ in range(40):
        if match.finished:
            break
        match.play(choose_move("plain", match.view(0)), 0)
        again = GinMatch.from_json(json.loads(json.dumps(match.to_json())))
        for seat in (0, 1):
            assert again.view(seat) == match.view(seat)


def test_the_score_is_the_totals_difference_and_a_resignation_counts_the_target() -> None:
    match = gin.daily_match(gin.daily_seed(b"k", "2026-11-30"), "Ada")
    with pytest.raises(FormatError):
        gin.daily_score(match)  # not over yet
    match.play("resign", 0)
    assert match.totals == [0, 0]
    assert gin.daily_score(match) == -100  # the bot's total counts as at least 100
    assert gin.daily_hands(match) == 1
    done = play_out(gin.daily_match(gin.daily_seed(b"k", "2026-11-29"), "Ada"), stored=False)
    assert gin.daily_score(done) == done.totals[0] - done.totals[1]
    assert gin.daily_hands(done) == len(done.results)


def test_a_record_replays_with_the_bots_of_its_released_version() -> None:
    match = play_out(gin.daily_match(gin.daily_seed(b"k", "2026-11-30"), "Ada"), stored=False)
    record = match.to_record(reveal_seed=True)
    assert gin.bots_of(record["engine"]) is choose_move
    with pytest.raises(gin.UnknownVersion):
        gin.bots_of("pikdame-gin/rules-1/bots-0")
    # bots that would answer differently: the replay finds the mismatch
    register("test-other", lambda level, v: choose_move("plain", v))
    try:
        with pytest.raises(ReplayError) as caught:
            gin.replay(record, None, gin.bots_of("test-other"))
        assert caught.value.code == "bot_mismatch"
    finally:
        unregister("test-other")
    assert gin.replay(record, None, gin.bots_of(record["engine"])).totals == match.totals
