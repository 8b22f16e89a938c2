"""Tausende's whole game for tables (R12 with R8, R2, F3): Pik Dame's ``Match`` deals R12.1's 108
cards (the cut 1 … 107, no lucky grab), ends at 1000, and writes a ``pikdame-game/1`` record that
names the ruleset and replays; Pik Dame's own records are unchanged."""

from __future__ import annotations

import json

import pytest

from engine.pikdame.errors import IllegalMoveError, ReplayError
from engine.pikdame.match import Match, bot_cut, replay_match
from engine.pikdame.rules import Rules, Seat
from engine.pikdame.version import ENGINE_VERSION, TAUSENDE_ENGINE_VERSION
from tests.support.tables import seeds

TAUSENDE = Rules(3, ruleset="tausende", go_out_on_opening=True)
BOTS = (Seat("bot", level="zen"), Seat("bot", level="advanced"), Seat("bot", level="beginner"))


def test_a_game_of_bots_reaches_1000_and_its_record_replays() -> None:
    match, _ = Match.start(TAUSENDE, BOTS, 2, seeds("tausende-match"))
    assert match.finished and max(match.totals) >= 1000  # R8 via R12.7
    record = json.loads(json.dumps(match.to_record()))
    assert record["rules"]["ruleset"] == "tausende" and record["rules"]["go_out_on_opening"]
    assert record["engine"] == TAUSENDE_ENGINE_VERSION
    for entry in record["rounds"]:
        assert entry["lucky"] == []  # R12.1: no lucky grab
        assert entry["cut"] == bot_cut(entry["commitment"], 108)
    assert replay_match(record).result() == match.result()
    record["rounds"][0]["cut"] = 108  # a cut beyond R12.1's deck
    with pytest.raises(ReplayError):
        replay_match(record)


def test_the_cut_is_1_to_107_and_a_refused_cut_changes_nothing() -> None:
    seats = (Seat("human", name="Ada"), Seat("bot", level="zen"))
    match, events = Match.start(Rules(2, ruleset="tausende"), seats, 1, seeds("tausende-cut"))
    assert events == [] and match.awaiting_cut and match.cutter == 0
    before = match.to_json()
    with pytest.raises(IllegalMoveError) as refused:
        match.play("cut 108", 0, seeds("unused"))
    assert refused.value.code == "bad_value"
    assert match.to_json() == before
    assert match.play("cut 107", 0, seeds("unused"))[0] == (0, "cut 107")
    game = match.game
    assert game is not None and game.state.card_count() == 108
    assert len(game.state.hand(0)) == 13 and len(game.state.discard) == 1  # the face-up card


def test_pik_dame_records_are_unchanged() -> None:
    seats = (Seat("bot", level="zen"), Seat("bot", level="beginner"))
    match, _ = Match.start(Rules(2), seats, 1, seeds("pikdame-match"))
    record = match.to_record()
    assert record["engine"] == ENGINE_VERSION and "ruleset" not in record["rules"]
    assert all(r["cut"] == bot_cut(r["commitment"]) for r in record["rounds"])
