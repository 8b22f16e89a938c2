"""The engine's games, one registry (engine/games.py): the names, Pik Dame's rulesets, and the
command line's game words derived from them (``python -m engine --help`` lists each)."""

from __future__ import annotations

import hashlib
import io
import subprocess
import sys
from typing import Any

import pytest

from engine import Rules, cli, games
from engine.gin.game import GIN
from engine.pikdame import cli as pikdame_cli
from engine.pikdame.game import PIKDAME, TAUSENDE
from tests.support.engine_cli import ROOT, run, run_text
from tests.support.game_shape import play_first_moves

SEED = hashlib.sha256(b"tests/cli/registry").digest()
#: What chooses the first round's deal of each registered game (its rules, Gin's hand number):
#: a game added to the registry fails here until its shape is played through.
FIRST_ROUND: dict[str, Any] = {
    "pikdame": Rules(players=3),
    "gin": 1,
    "tausende": Rules(players=3, ruleset="tausende"),
}


def test_the_registry_names_every_game_once() -> None:
    """Every game of the registry once, by its own name (a game added there needs no line
    here); the three of the engine's own packages among them, in the pages' order."""
    assert tuple(games.GAMES) == games.NAMES and len(set(games.NAMES)) == len(games.NAMES)
    assert all(game.name == name for name, game in games.GAMES.items())
    known = {"pikdame": PIKDAME, "gin": GIN, "tausende": TAUSENDE}
    assert {name: games.GAMES[name] for name in known} == known
    assert [name for name in games.NAMES if name in known] == ["pikdame", "gin", "tausende"]
    with pytest.raises(TypeError):
        games.GAMES["gin"] = PIKDAME  # type: ignore[index]


def test_pikdames_rulesets_are_games_of_the_registry() -> None:
    """R12: Tausende is a ruleset of Pik Dame's engine and a game of its own name; the game
    type of each ruleset deals that ruleset."""
    assert games.PIKDAME_RULESETS == ("pikdame", "tausende")
    for ruleset in games.PIKDAME_RULESETS:
        state = games.GAMES[ruleset].new_round(SEED, Rules(players=2), 0)
        assert state.to_position()["rules"].get("ruleset", "pikdame") == ruleset


@pytest.mark.parametrize("name", games.NAMES)
def test_every_registered_game_has_the_shared_shape(name: str) -> None:
    assert set(FIRST_ROUND) == set(games.NAMES)
    play_first_moves(games.GAMES[name], SEED, FIRST_ROUND[name], 1, 6)


NAMED = tuple(cli.named_games())


def test_the_command_lines_game_words_come_from_the_registry() -> None:
    """F7's commands are Pik Dame's rulesets'; every other game's follow its name (G9), each
    running its package's command line (``<package>.cli``'s ``main``)."""
    assert tuple(n for n in games.NAMES if n not in games.PIKDAME_RULESETS) == NAMED
    assert "gin" in NAMED
    for name, main in cli.named_games().items():
        assert main.__module__ == games.COMMAND_LINES[name] == f"{games.package(name)}.cli"
    assert games.COMMAND_LINES["gin"] == "engine.gin.cli"


def test_f7s_commands_are_the_pikdame_parsers() -> None:
    parser = pikdame_cli.build_parser(NAMED)
    help_text = parser.format_help()
    for word in (*pikdame_cli.COMMANDS, "tournament", *NAMED):
        assert word in help_text.splitlines()[0]
    assert pikdame_cli.COMMANDS == ("deal", "check", "replay")


def test_f7s_commands_load_no_other_game() -> None:
    """A Pik Dame command imports neither the registry nor Gin: its start stays as fast."""
    script = (
        "import io, sys; from engine.cli import main; "
        "code = main(['deal', '--seed', 'ab' * 32, '--players', '2', '--dealer', '0'], "
        "io.StringIO()); "
        "loaded = [m for m in sys.modules if m.startswith(('engine.gin', 'engine.games'))]; "
        "print(code, sorted(loaded))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert proc.stdout.strip() == "0 []", proc.stderr


def test_a_named_games_command_line_runs_in_process() -> None:
    out = io.StringIO()
    assert cli.main(["gin", "deal", "--seed", "ab" * 32], out) == 0
    assert out.getvalue().startswith('{"format": "gin-position/1", "hand": 1, "dealer": 1')


def test_help_lists_f7s_commands_and_every_named_game() -> None:
    code, out, err = run_text("--help")
    assert (code, err) == (0, "")
    commands = out.splitlines()[0]
    assert commands.startswith("usage: python -m engine")
    for word in ("deal", "check", "replay", "tournament", "analyse", *NAMED):
        assert word in commands
        assert any(line.split()[:1] == [word] for line in out.splitlines()), word


@pytest.mark.parametrize("name", NAMED)
def test_each_named_games_help_follows_its_name(name: str) -> None:
    code, out, _ = run_text(name, "--help")
    assert code == 0
    assert out.startswith(f"usage: python -m engine {name} ")
    assert "deal" in out and "check" in out and "replay" in out
    # issue 40 item 7: analyse (docs/ANALYSIS.md) is named in every --help
    assert any(line.split()[:1] == ["analyse"] for line in out.splitlines()), out


def test_an_unknown_command_is_malformed_whatever_the_registry_holds() -> None:
    """F7: malformed input exits 2 with a bad_format message on standard error."""
    code, out, err = run("tausende", "deal")
    assert (code, out) == (2, None)
    assert '"bad_format"' in err
