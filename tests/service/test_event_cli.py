"""``pikdame event-info`` (docs/EVENTS.md, FORMATS.md F4e): every deal's commitment, the seeds only
once the event has closed (Sunday 24:00 UTC plus the grace), on the tests' clock."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
from typing import Any

import pytest
from click.testing import CliRunner

from service import cli
from service.common import config
from tests.support.clock import Clock
from tests.support.processes import pikdame, service_env

SECRET = "event-cli-secret"


def seed(game: str, week: str, n: int) -> bytes:
    """F4e computed apart from the service."""
    message = f"pikdame/event/v1/{game}/{week}/{n}".encode()
    return hmac.new(SECRET.encode(), message, hashlib.sha256).digest()


def on_clock(monkeypatch: pytest.MonkeyPatch, clock: Clock, *args: str) -> dict[str, Any]:
    """The command run in this process with the settings' clock set to the tests' clock."""
    real = config.load

    def load(overrides: dict[str, Any] | None = None) -> config.Settings:
        given = {"PIKDAME_SECRET": SECRET, "PIKDAME_GRACE_MINUTES": "120", "PIKDAME_NOW": clock}
        return real({**(overrides or {}), **given})

    monkeypatch.setattr(config, "load", load)
    result = CliRunner().invoke(cli.main, ["event-info", *args])
    assert result.exit_code == 0, result.output
    document: dict[str, Any] = json.loads(result.output)
    return document


def test_the_seeds_stay_secret_until_the_close(
    monkeypatch: pytest.MonkeyPatch, clock: Clock
) -> None:
    """2030-W01 ends Sunday 2030-01-06 24:00 UTC; with 120 minutes' grace it closes 2030-01-07
    02:00 UTC. A second before: commitments only, no seed anywhere; from the close: the seeds."""
    week = "2030-W01"  # Monday 2029-12-31 … Sunday 2030-01-06: the ISO year differs from the date's
    commitments = [hashlib.sha256(seed("pikdame", week, n)).hexdigest() for n in range(1, 7)]
    clock.moment = dt.datetime(2030, 1, 7, 1, 59, 59, tzinfo=dt.UTC)  # in the grace
    before = on_clock(monkeypatch, clock, week)
    assert (
        before["opens_at"] == "2029-12-31T00:00:00Z" and before["ends_at"] == "2030-01-07T00:00:00Z"
    )
    assert before["closes_at"] == "2030-01-07T02:00:00Z"
    assert [d["commitment"] for d in before["deals"]] == commitments
    assert [d["seed"] for d in before["deals"]] == [None] * 6
    assert not any(seed("pikdame", week, n).hex() in json.dumps(before) for n in range(1, 7))
    clock.moment = dt.datetime(2030, 1, 7, 2, tzinfo=dt.UTC)
    after = on_clock(monkeypatch, clock, week)
    assert [d["seed"] for d in after["deals"]] == [
        seed("pikdame", week, n).hex() for n in range(1, 7)
    ]
    assert [d["n"] for d in after["deals"]] == list(range(1, 7))


def test_this_week_by_default_and_per_game(monkeypatch: pytest.MonkeyPatch, clock: Clock) -> None:
    """Without a week, the clock's: a Sunday evening is still its week, a Monday the next."""
    clock.moment = dt.datetime(2026, 12, 27, 23, 0, tzinfo=dt.UTC)  # Sunday of 2026-W52
    now = on_clock(monkeypatch, clock, "--game", "gin")
    assert now["week"] == "2026-W52" and now["game"] == "gin"
    assert now["deals"][0]["commitment"] == hashlib.sha256(seed("gin", "2026-W52", 1)).hexdigest()
    assert all(d["seed"] is None for d in now["deals"])
    clock.moment = dt.datetime(2026, 12, 28, 0, 0, tzinfo=dt.UTC)
    assert on_clock(monkeypatch, clock)["week"] == "2026-W53"


def test_as_the_operator_runs_it(redis_url: str) -> None:
    """As a process: a long-closed week gives its seeds, a far one none, a bad week an error."""
    env = service_env(redis_url, SECRET)
    past = pikdame(env, "event-info", "2020-W53", "--game", "gin")
    assert past.returncode == 0, past.stderr
    assert [d["seed"] for d in json.loads(past.stdout)["deals"]] == [
        seed("gin", "2020-W53", n).hex() for n in range(1, 7)
    ]
    far = pikdame(env, "event-info", "2999-W01")
    assert far.returncode == 0, far.stderr
    assert all(d["seed"] is None for d in json.loads(far.stdout)["deals"])
    assert seed("pikdame", "2999-W01", 1).hex() not in far.stdout + far.stderr
    for bad in ("2025-W53", "2026-W5", "next"):
        wrong = pikdame(env, "event-info", bad)
        assert wrong.returncode != 0 and "WEEK" in wrong.stderr, bad
