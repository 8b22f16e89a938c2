"""The verifier pins every daily record to the day's setup (R11) before replaying.

Each forged record below is self-consistent (it replays cleanly from the day's seed, and its
score matches), so only the pin can tell it from an honest one.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable

import pytest
import redis
from flask.testing import FlaskClient

from engine import DAILY_DEALER, DAILY_RULES, Game, Seat, daily_seats, daily_seed, deal, replay
from service.common import keys
from tests.support.api import resign_at_once
from tests.support.service_app import SECRET, Clock
from worker.verify import verify


def resigned_attempt(client: FlaskClient, clock: Clock) -> str:
    return resign_at_once(client, clock.today, "Ada")[0]


def store_forgery(rdb: redis.Redis[str], aid: str, game: Game) -> None:
    """Replace the stored game with ``game`` (resigned at once), its score made to match."""
    game.play("resign", 0)
    outcome = game.state.outcome
    assert outcome is not None
    replay(game.to_record(), daily_seed(SECRET, "2026-11-30"))  # the forgery replays cleanly
    rdb.hset(
        keys.attempt(aid),
        mapping={"game": json.dumps(game.to_json()), "score": str(outcome.round_scores[0])},
    )


def other_cut(seed: bytes) -> int:
    automatic = deal(seed, 4, DAILY_DEALER, None).cut
    return 10 if automatic != 10 else 11


SEED = daily_seed(SECRET, "2026-11-30")
BEGINNERS = (Seat("human", name="Ada"), *(Seat("bot", level="beginner") for _ in range(3)))
FORGERIES: dict[str, tuple[Callable[[], Game], str]] = {
    "weaker bots": (lambda: Game.start(SEED, DAILY_RULES, BEGINNERS, DAILY_DEALER), "seats"),
    "a chosen cut": (
        lambda: Game.start(SEED, DAILY_RULES, daily_seats("Ada"), DAILY_DEALER, other_cut(SEED)),
        "deal",
    ),
    "another dealer": (lambda: Game.start(SEED, DAILY_RULES, daily_seats("Ada"), 0), "deal"),
    "no hand-out double": (
        lambda: Game.start(
            SEED,
            dataclasses.replace(DAILY_RULES, hand_out_double=False),
            daily_seats("Ada"),
            DAILY_DEALER,
        ),
        "rules",
    ),
    "another name in seat 0": (
        lambda: Game.start(SEED, DAILY_RULES, daily_seats("Eve"), DAILY_DEALER),
        "seats",
    ),
}


@pytest.mark.parametrize("forgery", sorted(FORGERIES))
def test_a_record_off_the_days_setup_is_rejected_with_a_reason(
    forgery: str,
    client: FlaskClient,
    clock: Clock,
    rdb: redis.Redis[str],
    rankings: redis.Redis[str],
) -> None:
    make, field = FORGERIES[forgery]
    aid = resigned_attempt(client, clock)
    store_forgery(rdb, aid, make())
    assert verify(rdb, aid, SECRET, rankings)["status"] == "rejected"
    assert rdb.hget(keys.attempt(aid), "reason") == f"setup_mismatch in {field}"
    assert rankings.zcard("pd:day:2026-11-30:rank") == 0


def test_the_days_own_setup_still_verifies(
    client: FlaskClient, clock: Clock, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    aid = resigned_attempt(client, clock)
    assert verify(rdb, aid, SECRET, rankings)["status"] == "verified"


def test_the_verdict_is_announced_when_recorded(
    client: FlaskClient, clock: Clock, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    """The verifier publishes each new verdict on the attempt's channel (keys.verdict_channel),
    so a request can wait for it instead of polling; a repeated run announces nothing."""
    aid = resigned_attempt(client, clock)
    listener = rdb.pubsub(ignore_subscribe_messages=True)
    listener.subscribe(f"pd:verdict:{aid}")
    assert verify(rdb, aid, SECRET, rankings)["status"] == "verified"
    verify(rdb, aid, SECRET, rankings)
    heard = [listener.get_message(timeout=0.5) for _ in range(4)]  # the subscription, then data
    listener.close()
    assert [m["data"] for m in heard if m is not None] == ["verified"]
