"""The engine's command line, run as a real subprocess exactly as FORMATS.md F7 writes it."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from engine import Game, Move, Rules, Seat, State
from engine.pikdame.deal import deal
from tests.support.engine_cli import run

SEED = hashlib.sha256(b"cli-test").digest()


def finished_record(seed: bytes) -> dict[str, Any]:
    """Two humans play a whole round: draw (or the forced take, R4.4), discard the first card."""
    seats = (Seat("human", name="A"), Seat("human", name="B"))
    game = Game.start(seed, Rules(players=2), seats, dealer=1)
    while not game.finished:
        state = game.state
        if state.phase == "draw":
            move = next(m for m in state.legal_moves() if m.kind in ("draw", "take"))
        else:
            move = Move.discard(state.hand(state.turn)[0])
        game.play(move, state.turn)
    return game.to_record(seed)


def test_deal_prints_the_position_after_the_automatic_cut() -> None:
    """F7 deal without --cut: F3 step 2's automatic cut; the document is F5."""
    code, doc, _ = run("deal", "--seed", SEED.hex(), "--players", "4", "--dealer", "3")
    assert code == 0
    assert doc == State.new_round(SEED, Rules(players=4), 3).to_position()
    assert doc["format"] == "pikdame-position/1"
    assert [len(h) for h in doc["hands"]] == [15, 15, 15, 15]
    assert len(doc["stock"]) == 110 - 60


def test_deal_with_a_chosen_cut_differs_from_the_automatic_one() -> None:
    auto = deal(SEED, 3, 0).cut
    other = auto % 109 + 1
    code, doc, _ = run(
        "deal", "--seed", SEED.hex(), "--players", "3", "--dealer", "0", "--cut", str(other)
    )
    assert code == 0
    assert doc == State.new_round(SEED, Rules(players=3), 0, other).to_position()
    assert doc != State.new_round(SEED, Rules(players=3), 0).to_position()


@pytest.mark.parametrize(
    "args",
    [
        ["deal", "--seed", "zz", "--players", "4", "--dealer", "3"],
        ["deal", "--seed", SEED.hex(), "--players", "5", "--dealer", "0"],
        ["deal", "--seed", SEED.hex(), "--players", "4", "--dealer", "4"],
        ["deal", "--seed", SEED.hex(), "--players", "4", "--dealer", "0", "--cut", "110"],
        ["nonsense"],
    ],
)
def test_malformed_arguments_exit_2_with_a_message(args: list[str]) -> None:
    code, out, err = run(*args)
    assert code == 2
    assert out is None
    assert json.loads(err)["error"]["code"] == "bad_format"


def test_check_applies_legal_moves_and_stops_at_the_first_illegal_one() -> None:
    position = State.new_round(SEED, Rules(players=4), 3).to_position()
    card = position["hands"][0][0]
    moves = ["draw", f"discard {card}", "discard QS", "draw"]
    code, doc, _ = run("check", stdin=json.dumps({"position": position, "moves": moves}))
    assert code == 3
    assert [r["ok"] for r in doc["results"]] == [True, True, False]
    assert doc["results"][2]["error"]["code"] == "wrong_phase"  # seat 1 must draw first (R4)
    expected = State.from_position(position)
    expected.push("draw")
    expected.push(f"discard {card}")
    assert doc["position"] == expected.to_position()


def test_check_exit_0_when_all_moves_are_legal(tmp_path: Path) -> None:
    position = State.new_round(SEED, Rules(players=2), 1).to_position()
    path = tmp_path / "in.json"
    path.write_text(json.dumps({"position": position, "moves": ["draw"]}))
    code, doc, _ = run("check", str(path))
    assert code == 0
    assert doc["results"] == [{"move": "draw", "ok": True}]
    assert doc["position"]["phase"] == "play"


@pytest.mark.parametrize(
    "stdin",
    ["{", "[]", '{"position": {}, "moves": []}', '{"position": 1}', '{"moves": [1]}'],
)
def test_check_malformed_input_exits_2(stdin: str) -> None:
    code, out, err = run("check", stdin=stdin)
    assert code == 2
    assert out is None
    assert "bad_format" in err


def test_replay_verifies_a_finished_record() -> None:
    record = finished_record(SEED)
    code, doc, _ = run("replay", stdin=json.dumps(record))
    assert code == 0
    assert doc == {"ok": True, "result": record["result"]}


def test_replay_rejects_a_changed_score_and_an_illegal_move() -> None:
    record = finished_record(SEED)
    forged = json.loads(json.dumps(record))
    forged["result"]["round_scores"][1] += 5
    code, doc, _ = run("replay", stdin=json.dumps(forged))
    assert code == 3
    assert doc["ok"] is False and doc["error"]["code"] == "score_mismatch"

    illegal = json.loads(json.dumps(record))
    assert illegal["moves"][1]["move"].startswith("discard")
    illegal["moves"][1]["move"] = "draw"  # a second draw in one turn (R4.1)
    code, doc, _ = run("replay", stdin=json.dumps(illegal))
    assert code == 3
    assert doc["error"]["move_index"] == 1
    assert doc["error"]["code"] == "wrong_phase"


def test_replay_of_a_record_without_seed_is_malformed() -> None:
    record = finished_record(SEED)
    record["deal"]["seed"] = None
    code, doc, _ = run("replay", stdin=json.dumps(record))
    assert code == 2
    assert doc["error"]["code"] == "bad_format"


def test_replay_rejects_a_seed_that_breaks_the_commitment() -> None:
    """F4: SHA-256(seed) must equal the published commitment."""
    record = finished_record(SEED)
    record["deal"]["seed"] = hashlib.sha256(b"another").hexdigest()
    code, doc, _ = run("replay", stdin=json.dumps(record))
    assert code == 2
    assert "commitment" in doc["error"]["message"]


def test_a_bot_mismatch_names_a_differing_engine_version() -> None:
    """F6 names the engine that played; replay says so when a bot move differs under another."""
    from engine import ENGINE_VERSION, daily_game

    game = daily_game(SEED, "Ada")
    game.play("draw", 0)
    game.play(Move.discard(game.state.hand(0)[-1]), 0)
    record = game.to_record(SEED)
    bot = next(i for i, m in enumerate(record["moves"]) if m["seat"] == 1)
    record["moves"][bot]["move"] = "resign"
    code, doc, _ = run("replay", stdin=json.dumps(record))
    assert code == 3 and doc["error"]["code"] == "bot_mismatch"
    assert "played by engine" not in doc["error"]["message"]
    record["engine"] = "pikdame-engine/rules-1/bots-0"
    code, doc, _ = run("replay", stdin=json.dumps(record))
    assert code == 3 and doc["error"]["code"] == "bot_mismatch"
    assert "played by engine 'pikdame-engine/rules-1/bots-0'" in doc["error"]["message"]
    assert ENGINE_VERSION in doc["error"]["message"]
