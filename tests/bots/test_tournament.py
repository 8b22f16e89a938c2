"""The tournament command: reproducible, rotating seats and dealers, a table per level."""

from __future__ import annotations

import pytest

from engine.pikdame import tournament
from engine.pikdame.rules import Rules


def test_same_seed_same_rounds() -> None:
    rules = Rules(players=3, hand_out_double=True)
    _, first = tournament.run(6, ["advanced", "beginner", "beginner"], "t", rules)
    _, second = tournament.run(6, ["advanced", "beginner", "beginner"], "t", rules)
    assert [(r.levels, r.scores) for r in first] == [(r.levels, r.scores) for r in second]
    _, other = tournament.run(6, ["advanced", "beginner", "beginner"], "u", rules)
    assert [r.scores for r in other] != [r.scores for r in first]


def test_every_level_plays_every_seat_of_a_deal() -> None:
    rules = Rules(players=3, hand_out_double=True)
    tallies, results = tournament.run(6, ["zen", "advanced", "beginner"], "seats", rules)
    for deal in range(2):
        rotations = [r.levels for r in results[3 * deal : 3 * deal + 3]]
        for seat in range(3):
            assert sorted(lv[seat] for lv in rotations) == ["advanced", "beginner", "zen"]
    assert all(t.seats == 6 for t in tallies.values())
    assert sum(t.wins for t in tallies.values()) == sum(r.winner is not None for r in results)


def test_paired_differences_and_ci() -> None:
    mean, ci = tournament.mean_ci([1.0, 3.0])
    assert mean == 2.0
    assert ci == pytest.approx(1.96 * (2.0**0.5) / (2**0.5))
    r = tournament.RoundResult(("zen", "advanced", "advanced"), (30, 10, -10), 0, 50)
    assert tournament.paired([r], "zen", "advanced") == [30.0]


def test_main_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert tournament.main(["--rounds", "4", "--seats", "zen,beginner"]) == 0
    out = capsys.readouterr().out
    assert "zen" in out and "beginner" in out and "paired zen - beginner" in out
    with pytest.raises(SystemExit):
        tournament.main(["--seats", "zen,grandmaster"])
