"""Attaching a device's history to an account ("a device's anonymous history can be
attached to a new account"), where the day's attempts meet: an account's first attempt of the day
is its ranked one (per daily game, docs/ACCOUNTS.md), and a verification racing the attach is
counted for the account, never for the device's old owner (steps ordered by hand on real Redis)."""

from __future__ import annotations

from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from service.accounts import owners
from service.accounts import store as accounts
from service.common import keys, ownership
from service.dailies import store
from tests.support.accounts import ORIGIN, sign_up
from tests.support.api import resign_at_once
from tests.support.authenticator import Authenticator
from tests.support.service_app import SECRET, Clock, make_app
from worker.verify import rank_once, verify


@pytest.fixture
def ranked_anonymous(redis_url: str, rdb: redis.Redis[str], clock: Clock) -> Flask:
    """A deployment ranking anonymous play (PIKDAME_RANK_ANONYMOUS=1): the only way a device has
    a ranked attempt of its own before signing up."""
    return make_app(redis_url, clock, PIKDAME_RANK_ANONYMOUS="1")


def _player(rdb: redis.Redis[str], attempt_id: str) -> str:
    return rdb.hget(keys.attempt(attempt_id), "player") or ""


def _home(rdb: redis.Redis[str], account: dict[str, Any]) -> str:
    return rdb.hget(ownership.account_key(account["id"]), "player") or ""


@pytest.mark.parametrize("game", ["pikdame", "gin"])
def test_after_sign_up_the_devices_ranked_attempt_is_the_accounts_in_every_daily_game(
    ranked_anonymous: Flask, clock: Clock, rdb: redis.Redis[str], game: str
) -> None:
    """An account's first attempt of the day is its ranked one: the device's ranked
    attempt of the day becomes the account's, in Gin as in Pik Dame, so signing up does not
    open a second ranked attempt of the day."""
    device = ranked_anonymous.test_client()
    resign_at_once(device, clock.today, "Ada", game)
    sign_up(device, Authenticator(ORIGIN), "Ada")
    body = {"name": "Ada"} if game == "pikdame" else {"name": "Ada", "game": game}
    again = device.post(f"/api/daily/{clock.today}/attempts", json=body)
    assert again.status_code == 409, again.get_json()
    assert again.get_json()["error"]["code"] == "attempt_exists"


@pytest.mark.parametrize("account_first", [True, False])
@pytest.mark.parametrize("game", ["pikdame", "gin"])
def test_an_accounts_first_attempt_of_the_day_is_its_ranked_one(
    ranked_anonymous: Flask,
    clock: Clock,
    rdb: redis.Redis[str],
    rankings: redis.Redis[str],
    account_first: bool,
    game: str,
) -> None:
    """An account's first attempt of the day is its ranked one: a device and the
    account it is attached to both have a verified ranked attempt of the day. The earlier
    started stays ranked and on the board; the other is played "ohne Wertung" from then on and
    leaves the day's board, the day counted once in the statistics, streak and all-time board."""
    phone, laptop = ranked_anonymous.test_client(), ranked_anonymous.test_client()
    account = sign_up(phone, Authenticator(ORIGIN), "Ada")
    order = (
        [(phone, "Ada"), (laptop, "Bea")] if account_first else [(laptop, "Bea"), (phone, "Ada")]
    )
    ids, tokens = {}, {}
    for who, name in order:
        ids[id(who)], token = resign_at_once(who, clock.today, name, game)
        tokens[ids[id(who)]] = token
        clock.advance(minutes=5)
    for attempt_id in ids.values():
        assert verify(rdb, attempt_id, SECRET, rankings)["status"] == "verified"
    kept, dropped = (ids[id(phone)], ids[id(laptop)])
    if not account_first:
        kept, dropped = dropped, kept
    device = _player(rdb, ids[id(laptop)])
    assert rankings.zcard(keys.day_rank(clock.today, game)) == 2  # before: both on the board

    home = _home(rdb, account)
    assert accounts.attach(rdb, account["id"], device)
    gone = owners.take_over(rdb, rankings, clock.today, device, home, f"a:{account['id']}")

    assert gone == [dropped]
    board = phone.get(f"/api/leaderboard/{clock.today}", query_string={"game": game}).get_json()
    assert [e["attempt_id"] for e in board["entries"]] == [kept]
    assert store.attempt_for_player(rdb, clock.today, home, game) == kept
    headers = {"Authorization": f"Bearer {tokens[dropped]}"}
    shown = laptop.get(f"/api/attempts/{dropped}", headers=headers).get_json()["attempt"]
    assert shown["ranked"] is False  # "ohne Wertung"
    me = phone.get("/api/me/stats").get_json()
    assert me["streaks"][game]["current"] == 1
    if game == "pikdame":
        assert me["stats"]["games"] == 1
    assert rankings.hget(keys.player(home, game), "days") == "1"
    assert rankings.zscore(keys.alltime(game), device) is None
    day = phone.get(f"/api/daily/{clock.today}", query_string={"game": game}).get_json()
    assert day["attempts"] == 1
    assert verify(rdb, dropped, SECRET, rankings)["status"] == "unranked"  # a retried job
    assert rankings.zcard(keys.day_rank(clock.today, game)) == 1
    assert owners.take_over(rdb, rankings, clock.today, device, home, f"a:{account['id']}") == []
    again = phone.get(f"/api/daily/{clock.today}", query_string={"game": game}).get_json()
    assert again["attempts"] == 1 and phone.get("/api/me/stats").get_json() == me  # run again


def _finished_on_device(app: Flask, clock: Clock, rdb: redis.Redis[str]) -> tuple[str, str]:
    """A device's ranked attempt finished, its verification still queued: (attempt, player)."""
    attempt_id, _ = resign_at_once(app.test_client(), clock.today, "Ada")
    return attempt_id, _player(rdb, attempt_id)


def _counted_for_account(
    rankings: redis.Redis[str], account_id: str, home: str, device: str, date: str
) -> None:
    """The verified day is the account's: its statistics, streak and all-time entry; nothing is
    left under the device's old owner or player id."""
    owner = f"a:{account_id}"
    assert list(rankings.hgetall(keys.owner_days(owner, "pikdame"))) == [date]
    assert rankings.hget(keys.streak(owner, "pikdame"), "current") == "1"
    assert rankings.hget(keys.player(home), "days") == "1"
    assert not rankings.exists(keys.owner_days(f"p:{device}", "pikdame"))
    assert not rankings.exists(keys.streak(f"p:{device}", "pikdame"))
    assert rankings.zscore(keys.ALLTIME, device) is None
    assert not rankings.exists(keys.player(device))


def test_a_verification_after_the_attach_is_the_accounts(
    ranked_anonymous: Flask, clock: Clock, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    """The attach race: the device finished, signed up with attach, then the worker
    verified: the day is counted for the account, its all-time entry too."""
    device_client = ranked_anonymous.test_client()
    attempt_id, _ = resign_at_once(device_client, clock.today, "Ada")
    device = _player(rdb, attempt_id)
    account = sign_up(device_client, Authenticator(ORIGIN), "Ada")
    assert verify(rdb, attempt_id, SECRET, rankings)["status"] == "verified"
    _counted_for_account(rankings, account["id"], _home(rdb, account), device, clock.today)


@pytest.mark.parametrize("between", ["link", "merge"])
def test_a_verification_between_the_attach_steps_is_the_accounts(
    ranked_anonymous: Flask,
    clock: Clock,
    rdb: redis.Redis[str],
    rankings: redis.Redis[str],
    between: str,
) -> None:
    """The attach race, each step ordered by hand: the worker verifies after the
    device's id is linked to the account (``link``) or after its streaks and statistics moved but
    before its all-time entry did (``merge``); the attach's remaining steps then run. The day is
    the account's either way."""
    attempt_id, device = _finished_on_device(ranked_anonymous, clock, rdb)
    account = sign_up(ranked_anonymous.test_client(), Authenticator(ORIGIN), "Bea")
    home, owner = _home(rdb, account), f"a:{account['id']}"
    assert accounts.attach(rdb, account["id"], device)
    if between == "merge":
        owners.merge(rankings, f"p:{device}", owner)
    assert verify(rdb, attempt_id, SECRET, rankings)["status"] == "verified"
    owners.take_over(rdb, rankings, clock.today, device, home, owner)
    _counted_for_account(rankings, account["id"], home, device, clock.today)


def test_a_ranking_that_resolved_the_owner_before_the_attach_follows_the_move(
    ranked_anonymous: Flask, clock: Clock, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    """The attach race at its narrowest: the verifier resolved the owner (the device's
    ``p:…``) before the attach, and ranks after the whole attach ran: its ranking script finds
    the redirect the move left and counts the day for the account."""
    attempt_id, device = _finished_on_device(ranked_anonymous, clock, rdb)
    account = sign_up(ranked_anonymous.test_client(), Authenticator(ORIGIN), "Bea")
    home, owner = _home(rdb, account), f"a:{account['id']}"
    stale = ownership.owner_of(rdb, device)
    assert stale == f"p:{device}"
    assert accounts.attach(rdb, account["id"], device)
    owners.take_over(rdb, rankings, clock.today, device, home, owner)
    attempt = store.load(rdb, attempt_id)
    assert attempt is not None and attempt.score is not None
    assert rank_once(rankings, attempt, attempt.score, 1, stale)
    _counted_for_account(rankings, account["id"], home, device, clock.today)
    assert not rank_once(rankings, attempt, attempt.score, 1, stale)  # once


def test_signing_up_from_the_device_attaches_and_moves_nothing_twice(
    client: FlaskClient, clock: Clock, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    """Running the take-over again (a retried request) changes nothing."""
    account = sign_up(client, Authenticator(ORIGIN), "Ada")
    attempt_id, _ = resign_at_once(client, clock.today, "Ada")
    assert verify(rdb, attempt_id, SECRET, rankings)["status"] == "verified"
    home, owner = _home(rdb, account), f"a:{account['id']}"
    before = rankings.hgetall(keys.owner_days(owner, "pikdame"))
    assert owners.take_over(rdb, rankings, clock.today, home, home, owner) == []
    assert rankings.hgetall(keys.owner_days(owner, "pikdame")) == before


@pytest.mark.parametrize("account_first", [True, False])
@pytest.mark.parametrize("game", ["pikdame", "gin"])
def test_the_all_time_best_forgets_the_dropped_attempt(
    ranked_anonymous: Flask,
    clock: Clock,
    rdb: redis.Redis[str],
    rankings: redis.Redis[str],
    account_first: bool,
    game: str,
) -> None:
    """The attempt dropped by the attach ("ohne Wertung") no longer counts anywhere,
    the all-time board's best day and the statistics' best included, in both daily games, even
    when it scored more than the ranked one (ranked by hand here with a higher score, as if it
    had been played better: both resigned attempts of one day would score alike)."""
    phone, laptop = ranked_anonymous.test_client(), ranked_anonymous.test_client()
    account = sign_up(phone, Authenticator(ORIGIN), "Ada")
    order = [phone, laptop] if account_first else [laptop, phone]
    ids = {}
    for who in order:
        ids[id(who)], _ = resign_at_once(who, clock.today, "Ada" if who is phone else "Bea", game)
        clock.advance(minutes=5)
    kept, dropped = ids[id(order[0])], ids[id(order[1])]
    assert verify(rdb, kept, SECRET, rankings)["status"] == "verified"
    kept_score = (store.load(rdb, kept) or pytest.fail("no attempt")).score
    assert kept_score is not None
    later = store.load(rdb, dropped) or pytest.fail("no attempt")
    assert rank_once(rankings, later, kept_score + 37, 1, ownership.owner_of(rdb, later.player))
    device, home = _player(rdb, ids[id(laptop)]), _home(rdb, account)

    assert accounts.attach(rdb, account["id"], device)
    assert owners.take_over(rdb, rankings, clock.today, device, home, f"a:{account['id']}") == [
        dropped
    ]

    assert rankings.hget(keys.player(home, game), "best") == str(kept_score)
    board = phone.get("/api/leaderboard/all-time", query_string={"game": game}).get_json()
    assert [(e["days"], e["best"], e["total"]) for e in board["entries"]] == [
        (1, kept_score, kept_score)
    ]
    stats = phone.get("/api/me/stats", query_string={"game": game}).get_json()["stats"]
    assert (stats["games"], stats["best"]) == (1, kept_score)
