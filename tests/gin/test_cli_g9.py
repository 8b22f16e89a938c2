"""G9 command line with F7's shapes: ``python -m engine gin deal | check | replay``, exit codes
0 / 3 / 2 and the stable error codes."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from engine.cli import main
from engine.gin.state import HandState
from tests.support.gin_matches import bot_match, human_match
from tests.support.gin_positions import position

ROOT = Path(__file__).resolve().parents[2]
SEED_HEX = "00" * 32


def run(argv: list[str], stdin: str = "") -> tuple[int, Any]:
    out = io.StringIO()
    code = main(["gin", *argv], out=out, stdin=io.StringIO(stdin))
    text = out.getvalue()
    return code, json.loads(text) if text else None


def test_g9_deal() -> None:
    code, doc = run(["deal", "--seed", SEED_HEX])
    assert code == 0
    assert doc == HandState.new(bytes(32), 1, 1).to_position()
    code, doc = run(["deal", "--seed", SEED_HEX, "--hand", "2", "--dealer", "0"])
    assert code == 0 and doc["hand"] == 2 and doc["dealer"] == 0 and doc["turn"] == 1


def test_g9_deal_bad_arguments_exit_2(capsys: Any) -> None:
    for argv in (
        ["deal", "--seed", "zz"],
        ["deal", "--seed", SEED_HEX, "--hand", "0"],
        ["deal", "--seed", SEED_HEX, "--dealer", "2"],
        ["deal"],
        ["nonsense"],
    ):
        code, doc = run(argv)
        assert code == 2 and doc is None
        assert json.loads(capsys.readouterr().err.splitlines()[-1])["error"]["code"] == "bad_format"


def test_g9_check_all_legal_exit_0() -> None:
    doc = {
        "position": position("5S 6S 7S 8H 8D 8C 2C 3C 4C AH KD", "8S 9S KH KS QC JC 2D 3H 4H 5H"),
        "moves": ["knock KD 5S 6S 7S | 8H 8D 8C | 2C 3C 4C", "defend 3h 4h 5h / 8s@1 9s@1"],
    }
    code, out = run(["check"], json.dumps(doc))
    assert code == 0
    assert [r["ok"] for r in out["results"]] == [True, True]
    assert out["position"]["outcome"]["scores"] == [41, 0]


def test_g9_check_stops_at_the_first_illegal_move_exit_3() -> None:
    doc = {
        "position": position("5S 6S 7S 8H 8D 8C 2C 3C 4C AH KD", "8S 9S KH KS QC JC 2D 3H 4H 5H"),
        "moves": ["knock AH 5S 6S 7S | 8H 8D 8C", "discard KD", "draw"],
    }
    code, out = run(["check"], json.dumps(doc))
    assert code == 3
    assert out["results"] == [
        {
            "move": "knock AH 5S 6S 7S | 8H 8D 8C",
            "ok": False,
            "error": {
                "code": "knock_not_allowed",
                "message": out["results"][0]["error"]["message"],
            },
        }
    ]
    assert out["position"] == HandState.from_position(doc["position"]).to_position()


def test_g9_check_malformed_input_exit_2() -> None:
    for text in (
        "not json",
        "[]",
        json.dumps({"position": {}, "moves": []}),
        json.dumps({"position": position("AS", "2S"), "moves": ["draw"]}),
        json.dumps(
            {
                "position": position(
                    "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS", "AH 2H 3H 4H 5H 6H 7H 8H 9H TH"
                ),
                "moves": [1],
            }
        ),
    ):
        code, out = run(["check"], text)
        assert code == 2 and out is None


def test_g9_replay_ok_and_forged(tmp_path: Path) -> None:
    record = human_match(1).to_record(reveal_seed=True)
    code, out = run(["replay"], json.dumps(record))
    assert code == 0 and out == {"ok": True, "result": record["result"]}
    record["totals"][1] += 1
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(record))
    code, out = run(["replay", str(path)])
    assert code == 3 and out["ok"] is False and out["error"]["code"] == "score_mismatch"
    assert out["error"]["move_index"] is None


def test_g9_replay_bad_format_exit_2() -> None:
    record = bot_match(1).to_record()  # no seed
    code, out = run(["replay"], json.dumps(record))
    assert code == 2 and out["error"]["code"] == "bad_format"


def test_g9_python_dash_m_engine_gin_end_to_end() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "gin", "deal", "--seed", SEED_HEX],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["format"] == "gin-position/1"


def test_g9_tournament_command_is_reproducible(capsys: Any) -> None:
    outputs = []
    for _ in range(2):
        assert main(["gin", "tournament", "--matches", "4", "--seed", "t"]) == 0
        outputs.append([x for x in capsys.readouterr().out.splitlines() if "wall time" not in x])
    assert outputs[0] == outputs[1]
    assert any("paired strong - plain" in line for line in outputs[0])
