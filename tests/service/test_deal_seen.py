"""A day's deal is seen once per device and account: a ranked attempt never follows a rehearsal.

The deal is the same for everyone all day, so an attempt started "ohne Wertung" shows the ranked
one's cards and bot replies. Once a device (its session's player) or an account has started any
attempt of a day's daily game, that day offers it no ranked attempt of that game: 409
``deal_seen`` before anything is dealt, and the day's document says so before the page offers a
start (``ranked_start``). Signing up or in carries the device's seen days over to the account
(docs/API_LAYER.md, "A seen deal"). Unranked starts are listed by ``pikdame suspicious`` too."""

from __future__ import annotations

import json
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from service.common import keys
from tests.support.accounts import ORIGIN, sign_in, sign_up
from tests.support.api import start
from tests.support.authenticator import Authenticator
from tests.support.processes import pikdame, service_env
from tests.support.service_app import SECRET, Clock

GAMES = ["pikdame", "gin"]


@pytest.fixture(autouse=True)
def accounts_deployment(monkeypatch: pytest.MonkeyPatch) -> None:
    """The default deployment: anonymous attempts are not ranked."""
    monkeypatch.setenv("PIKDAME_RANK_ANONYMOUS", "0")


def _body(game: str) -> dict[str, str]:
    return {"name": "Ada"} if game == "pikdame" else {"name": "Ada", "game": game}


def _ranked_start(web: FlaskClient, date: str, game: str) -> dict[str, Any]:
    day = web.get(f"/api/daily/{date}", query_string={"game": game})
    assert day.status_code == 200, day.get_json()
    today = web.get("/api/daily", query_string={"game": game}).get_json()
    assert today["ranked_start"] == day.get_json()["ranked_start"]
    found: dict[str, Any] = day.get_json()["ranked_start"]
    return found


def _day_state(rdb: redis.Redis[str], date: str, game: str) -> dict[str, Any]:
    """What a refused start must leave as it was: the day's keys and every attempt."""
    return {
        key: rdb.dump(key)
        for key in sorted(rdb.scan_iter("pd:*"))
        if not key.startswith("pd:limits") and ":challenge" not in key
    }


@pytest.mark.parametrize("attach", [True, False])
@pytest.mark.parametrize("game", GAMES)
def test_a_rehearsed_deal_gets_no_ranked_attempt_after_sign_up(
    client: FlaskClient, clock: Clock, rdb: redis.Redis[str], game: str, attach: bool
) -> None:
    """The reported defect: an anonymous attempt (201, ranked false) showed the deal; the same
    browser signed up with a passkey and got a ranked attempt of the same deal (201). Now the
    sign-up carries the device's seen day over: 409 ``deal_seen``, nothing created, and the day's
    document said so first."""
    rehearsal, _ = start(client, clock.today, "Ada", game)
    assert rehearsal["ranked"] is False
    sign_up(client, Authenticator(ORIGIN), "Ada", attach=attach)
    assert _ranked_start(client, clock.today, game) == {"available": False, "reason": "deal_seen"}
    before = _day_state(rdb, clock.today, game)
    refused = client.post(f"/api/daily/{clock.today}/attempts", json=_body(game))
    assert refused.status_code == 409, refused.get_json()
    assert refused.get_json()["error"]["code"] == "deal_seen"
    assert "attempt" not in refused.get_json() and "token" not in refused.get_json()
    # API.md's order: the 409 before a bad name's 422
    bad_name = client.post(f"/api/daily/{clock.today}/attempts", json={**_body(game), "name": ""})
    assert bad_name.status_code == 409 and bad_name.get_json()["error"]["code"] == "deal_seen"
    assert _day_state(rdb, clock.today, game) == before
    # the other daily game's deal was never shown: its ranked attempt is still offered
    other = "gin" if game == "pikdame" else "pikdame"
    assert _ranked_start(client, clock.today, other) == {"available": True, "reason": None}
    assert start(client, clock.today, "Ada", other)[0]["ranked"] is True


def test_sign_in_carries_the_devices_seen_day_to_the_account(app: Flask, clock: Clock) -> None:
    """An account made on the phone; the laptop played today anonymously, then signed in."""
    phone = Authenticator(ORIGIN)
    sign_up(app.test_client(), phone, "Ada")
    laptop = app.test_client()
    start(laptop, clock.today)
    sign_in(laptop, phone)
    refused = laptop.post(f"/api/daily/{clock.today}/attempts", json={"name": "Ada"})
    assert refused.status_code == 409 and refused.get_json()["error"]["code"] == "deal_seen"
    # the account (on any device) has seen it now
    other = app.test_client()
    sign_in(other, phone)
    assert _ranked_start(other, clock.today, "pikdame")["reason"] == "deal_seen"
    # the next day is a new deal
    clock.advance(days=1)
    assert _ranked_start(laptop, clock.today, "pikdame") == {"available": True, "reason": None}
    assert start(laptop, clock.today)[0]["ranked"] is True


def test_the_days_document_tells_the_caller_what_a_start_would_be(
    app: Flask, clock: Clock, rdb: redis.Redis[str]
) -> None:
    """``ranked_start`` before the deal is shown: anonymous play is "ohne Wertung"; an account
    is offered its ranked attempt until it has one; a closed day offers none. A caller without
    credentials gets the same answer as everyone else (the micro-cache may keep it)."""
    nobody = app.test_client()
    expected = {"available": False, "reason": "anonymous"}
    assert _ranked_start(nobody, clock.today, "pikdame") == expected
    account = app.test_client()
    sign_up(account, Authenticator(ORIGIN), "Ada")
    assert _ranked_start(account, clock.today, "pikdame") == {"available": True, "reason": None}
    start(account, clock.today)
    taken = {"available": False, "reason": "attempt_exists"}
    assert _ranked_start(account, clock.today, "pikdame") == taken
    yesterday = "2026-11-29"
    past = account.get(f"/api/daily/{yesterday}").get_json()["ranked_start"]
    assert past == {"available": False, "reason": "day_closed"}
    # an anonymous device that saw the deal: signing up would not rank today either
    device = app.test_client()
    start(device, clock.today)
    assert _ranked_start(device, clock.today, "pikdame")["reason"] == "deal_seen"


def test_an_accounts_own_ranked_attempt_stays_attempt_exists(
    client: FlaskClient, clock: Clock
) -> None:
    """Its own ranked start shows the deal too; asking again still finds that attempt (409
    ``attempt_exists`` with its id), so the page resumes it."""
    sign_up(client, Authenticator(ORIGIN), "Ada")
    attempt, _ = start(client, clock.today)
    again = client.post(f"/api/daily/{clock.today}/attempts", json={"name": "Ada"})
    assert again.status_code == 409
    assert again.get_json()["error"] == {
        "code": "attempt_exists",
        "message": again.get_json()["error"]["message"],
        "attempt_id": attempt["id"],
    }


def test_seen_marks_last_no_longer_than_the_day(
    client: FlaskClient, clock: Clock, rdb: redis.Redis[str]
) -> None:
    """A seen mark is a duration on the app's clock: it ends with the day's grace."""
    attempt, _ = start(client, clock.today)
    player = rdb.hget(keys.attempt(attempt["id"]), "player") or ""
    ttl = rdb.ttl(keys.day_seen(clock.today, player))
    # 09:00 on the clock: 15 hours to midnight plus the grace (120 minutes)
    assert 0 < ttl <= 17 * 3600


def test_unranked_starts_feed_the_suspicious_patterns(
    app: Flask, clock: Clock, redis_url: str
) -> None:
    """A rehearsal from a browser whose cookies were cleared before signing up: one address
    started an unranked attempt of the day, then a ranked one. ``pikdame suspicious`` lists it
    (``rehearsed``), per daily game."""
    for game in GAMES:
        rehearsal, _ = start(app.test_client(), clock.today, "Ada", game)
        clock.advance(minutes=3)
        fresh = app.test_client()
        sign_up(fresh, Authenticator(ORIGIN), f"Ada{game}")
        ranked, _ = start(fresh, clock.today, "Ada", game)
        assert ranked["ranked"] is True
        result = pikdame(service_env(redis_url, SECRET.decode()), "suspicious", clock.today)
        assert result.returncode == 0, result.stderr
        report = json.loads(result.stdout)
        found = report if game == "pikdame" else report[game]
        assert found["rehearsed"] == [
            {"address": "127.0.0.1", "unranked": [rehearsal["id"]], "ranked": [ranked["id"]]}
        ]
        assert found["shared_address"] == []  # one ranked start: not that pattern
