"""Whole games to 1000 (engine.pikdame.match): R2's dealer rotation and cutter, F3's cut as a
move, the lucky grab, R7 totals, R8's end (strict_1000, ties), resign, bot level changes, and the
record ``pikdame-game/1`` replaying to the same game (docs/TABLES.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.pikdame.deal import deal
from engine.pikdame.errors import PikDameError, ReplayError
from engine.pikdame.match import GAME_FORMAT, Match, bot_cut, replay_match
from engine.pikdame.record import commitment
from engine.pikdame.rules import Rules, Seat
from tests.support.tables import seeds


def bots(*levels: str) -> tuple[Seat, ...]:
    return tuple(Seat("bot", level=lv) for lv in levels)


HUMAN = Seat("human", name="Ada")


def whole_game(players: int, label: str, strict: bool = False) -> Match:
    rules = Rules(players, strict_1000=strict)
    match, _ = Match.start(rules, bots(*["beginner"] * players), players - 1, seeds(label))
    return match


def roundtrip(match: Match) -> Match:
    return replay_match(json.loads(json.dumps(match.to_record())))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r2_dealer_moves_one_seat_on_each_round_and_the_seat_before_cuts(players: int) -> None:
    match = whole_game(players, f"rotation{players}")
    assert match.finished
    record = match.to_record()
    for entry in record["rounds"]:
        dealer = (players - 1 + entry["round"] - 1) % players
        assert entry["dealer"] == dealer
        # a bot cutter (the seat before the dealer) cut by rule from the commitment (R10)
        assert entry["cut"] == bot_cut(entry["commitment"])
        first = entry["moves"][0]["seat"]
        assert first == (dealer + 1) % players  # R2: the player after the dealer starts


def test_r2_two_seats_the_cutter_is_the_starting_player() -> None:
    match, events = Match.start(Rules(2), (HUMAN, *bots("beginner")), 1, seeds("two"))
    assert events == [] and match.awaiting_cut
    assert match.cutter == 0 and match.turn == 0
    match.play("cut 40", 0, seeds("two-next"))
    game = match.game
    assert game is not None and game.state.turn == 0


def test_f3_cut_is_a_move_of_the_cutter_and_deals_as_f3_says() -> None:
    match, events = Match.start(
        Rules(4), (HUMAN, *bots("beginner", "beginner"), HUMAN), 3, seeds("cut")
    )
    assert not match.awaiting_cut and match.cutter == 2  # a bot: it cut at once, by rule
    game = match.game
    assert game is not None and events[0] == (2, f"cut {bot_cut(game.commitment)}")
    match, _ = Match.start(Rules(3), (HUMAN, HUMAN, Seat("bot", level="zen")), 2, seeds("c4"))
    assert match.awaiting_cut and match.cutter == 1 and match.game is None
    seed = match.pending[1] if match.pending else b""
    events = match.play("cut 17", 1, seeds("c4-next"))
    assert events[0] == (1, "cut 17")
    d = deal(seed, 3, 2, 17)
    game = match.game
    assert game is not None and game.cut == 17
    assert [len(h) for h in d.hands] == game.state.hand_sizes
    assert match.rounds[-1][0].lucky == tuple(
        ["X" if i >= 104 else "QS" for i in d.lucky]
    )  # F3 step 4: the lucky grab, shown to everyone


@pytest.mark.parametrize("text", ["cut 0", "cut 110", "cut 999999999"])
def test_f3_a_cut_out_of_range_is_bad_value_and_changes_nothing(text: str) -> None:
    match, _ = Match.start(Rules(2), (HUMAN, *bots("beginner")), 1, seeds("range"))
    before = json.dumps(match.to_json())
    with pytest.raises(PikDameError) as e:
        match.play(text, 0, seeds("x"))
    assert e.value.code == "bad_value"
    assert json.dumps(match.to_json()) == before


@pytest.mark.parametrize(
    ("text", "seat", "code"),
    [
        ("cut", 0, "syntax"),
        ("cut x", 0, "syntax"),
        ("draw", 0, "wrong_phase"),
        ("cut 5", 1, "not_your_turn"),
    ],
)
def test_cut_errors_in_f7_order(text: str, seat: int, code: str) -> None:
    match, _ = Match.start(Rules(2), (HUMAN, HUMAN), 1, seeds("errors"))
    with pytest.raises(PikDameError) as e:
        match.play(text, seat, seeds("x"))
    assert e.value.code == code


def test_a_cut_once_dealt_is_wrong_phase() -> None:
    match, _ = Match.start(Rules(2), (HUMAN, *bots("beginner")), 1, seeds("again"))
    match.play("cut 3", 0, seeds("x"))
    with pytest.raises(PikDameError) as e:
        match.play("cut 3", 0, seeds("x"))
    assert e.value.code == "wrong_phase"


def test_r7_totals_carry_and_r8_ends_with_a_lone_leader_at_1000() -> None:
    match = whole_game(3, "totals")
    running = [0, 0, 0]
    for _, game in match.rounds:
        outcome = game.state.outcome
        assert outcome is not None
        running = [t + s for t, s in zip(running, outcome.round_scores, strict=True)]
        assert list(game.state.totals) == running
    best = max(running)
    assert best >= 1000 and running.count(best) == 1
    assert match.winner() == running.index(best)
    # no earlier round ended the game (R8)
    for _, game in match.rounds[:-1]:
        assert not game.state.game_over()


def test_r8_strict_1000_needs_more_than_1000() -> None:
    match = whole_game(2, "strict")
    game = match.game
    assert game is not None
    game.state.totals = [1000, 500]
    assert match.finished
    game.state.rules = Rules(2, strict_1000=True)
    match.rules = game.state.rules
    assert not match.finished
    game.state.totals = [1001, 500]
    assert match.finished


def test_r8_a_shared_top_total_plays_another_round() -> None:
    match = whole_game(2, "tie")
    game = match.game
    assert game is not None
    game.state.totals = [1040, 1040]
    assert not match.finished and match.turn is not None
    events = match._counted([], seeds("tie-next"))  # what follows a finished round
    assert match.round == len(match.rounds) and events  # the tie round, dealt by a bot's cut


def test_r8_resign_scores_the_round_as_r7_2_and_ends_the_game() -> None:
    match, _ = Match.start(Rules(2), (HUMAN, *bots("advanced")), 1, seeds("resign"))
    match.play("cut 60", 0, seeds("r"))
    match.play("draw", 0, seeds("r"))
    events = match.resign(0)
    assert events == [(0, "resign")] and match.finished
    game = match.game
    assert game is not None and game.state.outcome is not None
    assert game.state.outcome.end == "resign" and game.state.outcome.winner is None
    assert match.result() == {
        "end": "resign",
        "resigned_by": 0,
        "winner": match.winner(),
        "totals": match.totals,
    }
    assert roundtrip(match).result() == match.result()


def test_resign_before_the_cut_drops_the_undealt_round() -> None:
    match, _ = Match.start(Rules(2), (HUMAN, *bots("beginner")), 1, seeds("early"))
    match.resign(0)
    assert match.finished and match.rounds == []
    with pytest.raises(ReplayError):  # a record without a dealt round is not a game
        replay_match(match.to_record())


def test_a_level_change_is_recorded_and_replayed() -> None:
    match, _ = Match.start(Rules(2), (HUMAN, *bots("zen")), 1, seeds("level"))
    match.play("cut 10", 0, seeds("l"))
    match.set_level(1, "beginner")
    for _ in range(6):
        if match.finished:
            break
        match.autoplay_turn(0, seeds("l"))
    if not match.finished:
        match.resign(0)
    record = match.to_record((HUMAN, *bots("zen")))
    assert record["rounds"][0]["levels"][0]["level"] == "beginner"
    assert replay_match(json.loads(json.dumps(record))).result() == match.result()
    record["rounds"][0]["levels"] = []
    if any(m["seat"] == 1 for m in record["rounds"][0]["moves"]):
        with pytest.raises(ReplayError) as e:
            replay_match(record)
        assert e.value.code == "bot_mismatch"


def test_set_level_refuses_humans_and_unknown_levels() -> None:
    match, _ = Match.start(Rules(2), (HUMAN, *bots("zen")), 1, seeds("lv"))
    for seat, level in ((0, "zen"), (1, "grandmaster"), (5, "zen")):
        with pytest.raises(PikDameError) as e:
            match.set_level(seat, level)
        assert e.value.code == "bad_value"


def test_record_tampering_is_caught() -> None:
    match = whole_game(2, "tamper")
    record = match.to_record()
    bad_seed = json.loads(json.dumps(record))
    bad_seed["rounds"][0]["seed"] = "00" * 32
    with pytest.raises(ReplayError) as e:
        replay_match(bad_seed)
    assert e.value.code == "bad_format"
    bad_dealer = json.loads(json.dumps(record))
    bad_dealer["rounds"][0]["dealer"] = 0
    with pytest.raises(ReplayError):
        replay_match(bad_dealer)
    bad_total = json.loads(json.dumps(record))
    bad_total["result"]["totals"][0] += 5
    with pytest.raises(ReplayError) as e:
        replay_match(bad_total)
    assert e.value.code == "score_mismatch"
    extra = json.loads(json.dumps(record))
    extra["rounds"].append(extra["rounds"][-1])
    with pytest.raises(ReplayError):
        replay_match(extra)


def test_storage_roundtrip_keeps_the_game() -> None:
    match, _ = Match.start(Rules(3), (HUMAN, HUMAN, *bots("zen")), 2, seeds("store"))
    assert match.awaiting_cut
    copy = Match.from_json(json.loads(json.dumps(match.to_json())))
    assert copy.to_json() == match.to_json()
    match.play("cut 33", match.cutter, seeds("store-1"))
    copy.play("cut 33", copy.cutter, seeds("store-1"))
    assert copy.to_json() == match.to_json()
    match.play("draw", 0, seeds("store-2"))
    copy = Match.from_json(json.loads(json.dumps(match.to_json())))
    assert copy.to_json() == match.to_json()


def test_commitments_come_before_the_cards_and_seeds_only_after() -> None:
    match, _ = Match.start(Rules(2), (HUMAN, *bots("beginner")), 1, seeds("fair"))
    assert match.pending is not None
    assert match.commitment == commitment(match.pending[1])
    assert match.to_record()["rounds"] == []
    match.play("cut 50", 0, seeds("f"))
    assert match.to_record()["rounds"][0]["seed"] is None  # the round runs: still secret


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 4),
    label=st.text("abcdef", min_size=1, max_size=6),
    levels=st.lists(st.sampled_from(["beginner", "advanced"]), min_size=4, max_size=4),
    strict=st.booleans(),
    hod=st.booleans(),
)
def test_property_replay_equals_play_for_whole_bot_games(
    players: int, label: str, levels: list[str], strict: bool, hod: bool
) -> None:
    rules = Rules(players, hand_out_double=hod, strict_1000=strict)
    seats = bots(*levels[:players])
    match, events = Match.start(rules, seats, players - 1, seeds(label))
    assert match.finished and len(events) == match.seq
    again, _ = Match.start(rules, seats, players - 1, seeds(label))
    assert again.to_record() == match.to_record()  # determinism: same seeds, same game
    replayed = roundtrip(match)
    assert replayed.result() == match.result() and replayed.seq == match.seq
    total = max(match.totals)
    assert rules.reached_goal(total) and match.totals.count(total) == 1


def run_replay(doc: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", "replay"],
        input=json.dumps(doc),
        capture_output=True,
        text=True,
        check=False,
    )


def test_f7_replay_accepts_a_game_record() -> None:
    record = whole_game(2, "cli").to_record()
    assert record["format"] == GAME_FORMAT
    ok = run_replay(record)
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout) == {"ok": True, "result": record["result"]}
    record["rounds"][0]["moves"][3]["move"] = "resign"
    bad = run_replay(record)
    assert bad.returncode == 3
    assert json.loads(bad.stdout)["ok"] is False
    record["first_dealer"] = 7
    malformed = run_replay(record)
    assert (
        malformed.returncode == 2 and json.loads(malformed.stdout)["error"]["code"] == "bad_format"
    )
