"""Accounts with passkeys (Trust): sign up, sign in on another device, devices, sign
out everywhere, delete; forged, replayed and unknown WebAuthn answers are 400 and change nothing;
ranked play needs an account, anonymous play is "ohne Wertung"."""

from __future__ import annotations

import datetime as dt
import gzip
import json
from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from engine import replay
from service.accounts import store as accounts
from service.common import keys, ownership
from service.dailies import archive
from service.web.limits import address_of
from service.web.redisconn import settings_of
from tests.support.accounts import ORIGIN, sign_in, sign_up
from tests.support.api import resign_at_once, start
from tests.support.authenticator import Authenticator, b64
from tests.support.processes import pikdame, service_env
from tests.support.service_app import SECRET, make_app
from worker.verify import verify


@pytest.fixture(autouse=True)
def accounts_deployment(monkeypatch: pytest.MonkeyPatch) -> None:
    """The default deployment: anonymous attempts are not ranked."""
    monkeypatch.setenv("PIKDAME_RANK_ANONYMOUS", "0")


def _state(rdb: redis.Redis[str], rankings: redis.Redis[str]) -> dict[str, Any]:
    """Everything stored on the game state's and the rankings' servers but challenges, rate
    limits and the queue: what a refused request must leave as it was."""
    found = {}
    for role, server in (("state", rdb), ("rankings", rankings)):
        for key in sorted(server.scan_iter("pd:*")):
            if ":challenge" in key or key.startswith("pd:limits"):
                continue
            kind = server.execute_command("TYPE", key)
            found[f"{role} {key}"] = server.hgetall(key) if kind == "hash" else server.dump(key)
    return found


def refused_changing_nothing(
    client: FlaskClient,
    rdb: redis.Redis[str],
    rankings: redis.Redis[str],
    path: str,
    body: dict[str, Any],
) -> None:
    """A forged WebAuthn answer: 400 ``bad_credential``, nothing stored, nobody signed in."""
    before = _state(rdb, rankings)
    response = client.post(path, json=body)
    assert response.status_code == 400, response.get_json()
    assert response.get_json()["error"]["code"] == "bad_credential"
    assert _state(rdb, rankings) == before
    assert client.get("/api/account").status_code == 401


def test_sign_up_in_two_steps_then_the_first_attempt_of_the_day_is_ranked(
    client: FlaskClient, clock: Any, rdb: redis.Redis[str]
) -> None:
    account = sign_up(client, Authenticator(ORIGIN), "Ada")
    assert account["name"] == "Ada" and len(account["devices"]) == 1
    assert client.get("/api/account").get_json()["account"]["id"] == account["id"]
    attempt, _ = start(client, clock.today)
    assert attempt["ranked"] is True
    again = client.post(f"/api/daily/{clock.today}/attempts", json={"name": "Ada"})
    assert again.status_code == 409
    assert again.get_json()["error"]["code"] == "attempt_exists"
    player = rdb.hget(ownership.account_key(account["id"]), "player")
    assert player is not None and ownership.account_of(rdb, player) == account["id"]


def test_anonymous_play_is_ohne_wertung_and_not_limited_to_one(
    client: FlaskClient, clock: Any, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    """Without an account an attempt of today is played unranked (``ranked: false``),
    so a new browser no longer earns a second ranked attempt."""
    first, _ = start(client, clock.today)
    second, _ = start(client, clock.today)
    assert first["ranked"] is False and second["ranked"] is False
    assert rankings.zcard(keys.day_rank(clock.today)) == 0


def test_operator_may_rank_anonymous_play(
    redis_url: str, rdb: redis.Redis[str], clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PIKDAME_RANK_ANONYMOUS=1 (small private deployments): anonymous attempts ranked."""
    monkeypatch.setenv("PIKDAME_RANK_ANONYMOUS", "1")
    ranked_app = make_app(redis_url, clock)
    attempt, _ = start(ranked_app.test_client(), clock.today)
    assert attempt["ranked"] is True


def test_sign_in_on_another_device_with_a_discoverable_passkey(app: Flask) -> None:
    phone = Authenticator(ORIGIN)
    account = sign_up(app.test_client(), phone, "Ada")
    laptop = app.test_client()
    assert laptop.get("/api/account").status_code == 401
    assert sign_in(laptop, phone)["id"] == account["id"]
    assert laptop.get("/api/account").status_code == 200


def test_replayed_challenge_is_refused_and_changes_nothing(
    client: FlaskClient, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    device = Authenticator(ORIGIN)
    options = client.post("/api/account/signup/options", json={"name": "Ada"}).get_json()
    credential = device.create(options["options"])
    body = {"handle": options["handle"], "credential": credential}
    assert client.post("/api/account", json=body).status_code == 201
    before = _state(rdb, rankings)
    again = client.post("/api/account", json=body)
    assert again.status_code == 400 and again.get_json()["error"]["code"] == "bad_credential"
    assert _state(rdb, rankings) == before
    signin = client.post("/api/account/signin/options", json={}).get_json()
    answer = device.get(signin["options"])
    first = {"handle": signin["handle"], "credential": answer}
    assert client.post("/api/account/signin", json=first).status_code == 200
    before = _state(rdb, rankings)
    assert client.post("/api/account/signin", json=first).status_code == 400
    assert _state(rdb, rankings) == before


@pytest.mark.parametrize("forgery", ["origin", "signature", "challenge", "mangled"])
def test_forged_sign_in_is_400_and_changes_nothing(
    app: Flask, rdb: redis.Redis[str], rankings: redis.Redis[str], forgery: str
) -> None:
    device = Authenticator(ORIGIN)
    sign_up(app.test_client(), device)
    other = app.test_client()
    options = other.post("/api/account/signin/options", json={}).get_json()
    if forgery == "origin":
        device.origin = "https://evil.example"
    if forgery == "challenge":
        options["options"]["challenge"] = b64(b"a challenge the server never sent")
    answer = device.get(options["options"])
    if forgery == "signature":
        answer["response"]["signature"] = b64(b"\x30\x06\x02\x01\x01\x02\x01\x01")
    if forgery == "mangled":
        answer["response"] = {"clientDataJSON": "!!"}
    body = {"handle": options["handle"], "credential": answer}
    refused_changing_nothing(other, rdb, rankings, "/api/account/signin", body)


def test_unknown_credential_is_400(app: Flask, rdb: redis.Redis[str]) -> None:
    stranger = Authenticator(ORIGIN)
    stranger.create(
        {"rp": {"id": "localhost"}, "user": {"id": b64(b"nobody")}, "challenge": b64(b"x")}
    )
    client = app.test_client()
    options = client.post("/api/account/signin/options", json={}).get_json()
    answer = stranger.get(options["options"])
    response = client.post(
        "/api/account/signin", json={"handle": options["handle"], "credential": answer}
    )
    assert response.status_code == 400
    assert "unknown passkey" in response.get_json()["error"]["message"]


def test_devices_add_and_remove_but_never_the_last(client: FlaskClient) -> None:
    phone = Authenticator(ORIGIN)
    sign_up(client, phone)
    key = Authenticator(ORIGIN)
    options = client.post("/api/account/devices/options", json={}).get_json()
    assert options["options"]["excludeCredentials"]  # the phone's passkey is not made twice
    added = client.post(
        "/api/account/devices",
        json={
            "handle": options["handle"],
            "credential": key.create(options["options"]),
            "label": "Schlüssel",
        },
    )
    assert added.status_code == 201
    devices = added.get_json()["account"]["devices"]
    by_label = {d["label"]: d["id"] for d in devices}
    assert sorted(by_label) == ["Gerät 1", "Schlüssel"]
    assert client.delete("/api/account/devices/nope", json={}).status_code == 404
    removed = client.delete(f"/api/account/devices/{by_label['Schlüssel']}", json={})
    assert removed.status_code == 200 and len(removed.get_json()["account"]["devices"]) == 1
    last = client.delete(f"/api/account/devices/{by_label['Gerät 1']}", json={})
    assert last.status_code == 409 and last.get_json()["error"]["code"] == "last_device"
    # a removed passkey no longer signs in
    other = client.application.test_client()
    options = other.post("/api/account/signin/options", json={}).get_json()
    answer = key.get(options["options"])
    response = other.post(
        "/api/account/signin", json={"handle": options["handle"], "credential": answer}
    )
    assert response.status_code == 400


def test_sign_out_everywhere_ends_every_session(app: Flask, clock: Any) -> None:
    phone = Authenticator(ORIGIN)
    first = app.test_client()
    sign_up(first, phone)
    attempt, _ = start(first, clock.today)
    second = app.test_client()
    sign_in(second, phone)
    out = second.post("/api/account/signout", json={"everywhere": True})
    assert out.status_code == 200
    assert first.get("/api/account").status_code == 401
    assert second.get("/api/account").status_code == 401
    # the old session no longer owns the account's attempt
    assert first.get(f"/api/attempts/{attempt['id']}").status_code == 401
    sign_in(first, phone)
    assert first.get(f"/api/attempts/{attempt['id']}").status_code == 200


def test_anonymous_history_is_attached_to_a_new_account(
    client: FlaskClient, clock: Any, rdb: redis.Redis[str]
) -> None:
    anonymous, _ = start(client, clock.today)
    player = rdb.hget(keys.attempt(anonymous["id"]), "player")
    assert player is not None and ownership.account_of(rdb, player) is None
    account = sign_up(client, Authenticator(ORIGIN))
    assert ownership.account_of(rdb, player) == account["id"]
    assert player in ownership.players(rdb, account["id"])


def test_delete_account_keeps_scores_as_geloescht(
    client: FlaskClient, clock: Any, rdb: redis.Redis[str]
) -> None:
    sign_up(client, Authenticator(ORIGIN), "Ada")
    attempt_id, _ = resign_at_once(client, clock.today, "Ada")
    assert client.delete("/api/account", json={}).status_code == 200
    assert rdb.hget(keys.attempt(attempt_id), "name") == accounts.DELETED_NAME
    assert rdb.hget(keys.attempt(attempt_id), "status") == "finished"
    assert client.get("/api/account").status_code == 401
    assert client.delete("/api/account", json={}).status_code == 401


def test_bad_input_is_a_clear_4xx(
    client: FlaskClient, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    before = _state(rdb, rankings)
    too_long = client.post("/api/account/signup/options", json={"name": "x" * 25})
    assert too_long.status_code == 422
    unknown = client.post("/api/account", json={"handle": "nope", "credential": {}})
    assert unknown.status_code == 400 and unknown.get_json()["error"]["code"] == "bad_credential"
    assert client.post("/api/account/devices/options", json={}).status_code == 401
    assert _state(rdb, rankings) == before


def test_archive_lists_every_day_from_launch_played_or_not(
    redis_url: str, rdb: redis.Redis[str], clock: Any
) -> None:
    """The archive from day one: a fresh install lists every day since its launch
    date, and practice of a day nobody played opens once it has closed."""
    app = make_app(redis_url, clock, PIKDAME_LAUNCH_DATE="2026-11-25")
    web = app.test_client()
    days = web.get("/api/days").get_json()["days"]
    assert [d["date"] for d in days] == [f"2026-11-{d}" for d in (29, 28, 27, 26, 25)]
    assert all(d["attempts"] == 0 and d["seed"] is not None for d in days[1:])
    assert [d["date"] for d in web.get("/api/days?limit=2").get_json()["days"]] == [
        "2026-11-29",
        "2026-11-28",
    ]
    practice = web.post("/api/daily/2026-11-27/practice", json={"name": "Ada"})
    assert practice.status_code == 201 and practice.get_json()["attempt"]["ranked"] is False


def test_rankings_are_provisional_until_the_day_closes(client: FlaskClient, clock: Any) -> None:
    """ "Vorläufig" until the day and its grace have closed."""
    today = clock.today
    assert client.get(f"/api/leaderboard/{today}").get_json()["provisional"] is True
    clock.advance(hours=15, minutes=30)  # 00:30 the next day: in the grace period
    assert client.get(f"/api/leaderboard/{today}").get_json()["provisional"] is True
    clock.advance(hours=2)
    assert client.get(f"/api/leaderboard/{today}").get_json()["provisional"] is False


def test_operator_lists_suspicious_patterns(
    app: Flask, clock: Any, rdb: redis.Redis[str], rankings: redis.Redis[str], redis_url: str
) -> None:
    """``pikdame suspicious DATE``: three accounts made and three ranked attempts started from
    one address, each account minutes old at its top score."""
    started = []
    for name in ("Ada", "Bea", "Cleo"):
        web = app.test_client()
        sign_up(web, Authenticator(ORIGIN), name)
        attempt_id, _ = resign_at_once(web, clock.today, name)
        assert verify(rdb, attempt_id, SECRET, rankings)["status"] == "verified"
        started.append(attempt_id)
    result = pikdame(service_env(redis_url, SECRET.decode()), "suspicious", clock.today)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["shared_address"] == [{"address": "127.0.0.1", "attempts": sorted(started)}]
    assert sorted(f["attempt_id"] for f in report["fresh_account_top_score"]) == sorted(started)
    assert all(f["minutes_before"] == 0 for f in report["fresh_account_top_score"])
    (many,) = report["many_accounts_one_address"]
    assert many["address"] == "127.0.0.1" and len(many["accounts"]) == 3
    bad = pikdame(service_env(redis_url, SECRET.decode()), "suspicious", "2026-02-30")
    assert bad.returncode != 0 and "YYYY-MM-DD" in bad.stderr


@pytest.mark.parametrize(
    ("address", "counted_as"),
    [
        ("203.0.113.7", "203.0.113.7"),
        ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff:1:2:3", "2001:db8:1:2::/64"),
        ("::ffff:203.0.113.7", "203.0.113.7"),
    ],
)
def test_ipv6_addresses_count_per_64(address: str, counted_as: str) -> None:
    assert address_of(address) == counted_as


@pytest.mark.parametrize("forgery", ["origin", "rp", "challenge", "attestation"])
def test_forged_sign_up_is_400_and_creates_nothing(
    client: FlaskClient, rdb: redis.Redis[str], rankings: redis.Redis[str], forgery: str
) -> None:
    device = Authenticator("https://evil.example" if forgery == "origin" else ORIGIN)
    step = client.post("/api/account/signup/options", json={"name": "Ada"}).get_json()
    options = step["options"]
    if forgery == "rp":
        options["rp"]["id"] = "evil.example"
    if forgery == "challenge":
        options["challenge"] = b64(b"a challenge the server never sent")
    credential = device.create(options)
    if forgery == "attestation":
        credential["response"]["attestationObject"] = b64(b"\xa0")
    body = {"handle": step["handle"], "credential": credential}
    refused_changing_nothing(client, rdb, rankings, "/api/account", body)
    assert rdb.zcard(accounts.ACCOUNTS_BY_TIME) == 0


def test_attached_history_becomes_the_accounts(
    redis_url: str,
    rdb: redis.Redis[str],
    rankings: redis.Redis[str],
    clock: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A device's anonymous history can be attached to a new account: a device that
    played ranked on two days (a deployment ranking anonymous play) and founded a league signs
    up with attach: the account's streak, statistics, league and all-time entry are the
    device's, and today's ranked attempt stays the account's only one of the day."""
    monkeypatch.setenv("PIKDAME_RANK_ANONYMOUS", "1")
    app = make_app(redis_url, clock, PIKDAME_LAUNCH_DATE="2026-11-25")
    device = app.test_client()
    clock.set_day("2026-11-29")
    played = [resign_at_once(device, clock.today, "Ada")[0]]
    clock.set_day("2026-11-30")
    played.append(resign_at_once(device, clock.today, "Ada")[0])
    assert [verify(rdb, a, SECRET, rankings)["status"] for a in played] == ["verified"] * 2
    league = device.post("/api/leagues", json={"name": "Skat-Runde"}).get_json()["league"]
    before = device.get("/api/me/stats").get_json()
    assert before["streaks"]["pikdame"]["current"] == 2 and before["stats"]["games"] == 2
    player = rdb.hget(keys.attempt(played[0]), "player") or ""
    total = rankings.zscore(keys.ALLTIME, player)

    account = sign_up(device, Authenticator(ORIGIN), "Ada")
    after = device.get("/api/me/stats").get_json()
    # the device's history is the account's now; ratings are an account's own (none before it)
    assert before.pop("ratings") is None and after.pop("ratings") is not None
    assert after == before
    assert [lg["code"] for lg in device.get("/api/leagues").get_json()["leagues"]] == [
        league["code"]
    ]
    owner = f"a:{account['id']}"
    assert rankings.smembers(keys.league_members(league["code"])) == {owner}
    assert not rankings.exists(keys.owner_days(f"p:{player}", "pikdame"))
    home = ownership.load(rdb, account["id"])
    assert home is not None
    assert rankings.zscore(keys.ALLTIME, home.player) == total
    assert rankings.zscore(keys.ALLTIME, player) is None
    assert rankings.hget(keys.player(home.player), "days") == "2"
    again = device.post(f"/api/daily/{clock.today}/attempts", json={"name": "Ada"})
    assert again.status_code == 409 and again.get_json()["error"]["code"] == "attempt_exists"


def test_an_empty_device_history_attaches_to_nothing(
    client: FlaskClient, clock: Any, rankings: redis.Redis[str]
) -> None:
    """Attaching a device that never finished a ranked game moves nothing and creates nothing.
    (Its attempt of yesterday: one of today's deal would leave the account no ranked attempt
    today, tests/service/test_deal_seen.py.)"""
    yesterday = clock.today
    start(client, yesterday)
    clock.advance(days=1)
    account = sign_up(client, Authenticator(ORIGIN), "Ada")
    assert not any(rankings.scan_iter(f"pd:{{o:a:{account['id']}}}:*"))
    assert (
        client.post(f"/api/daily/{clock.today}/attempts", json={"name": "Ada"}).status_code == 201
    )


def test_a_deleted_name_leaves_the_archive_files_too(
    redis_url: str, rdb: redis.Redis[str], rankings: redis.Redis[str], clock: Any, tmp_path: Path
) -> None:
    """Its name disappears from every board: a day archived a week ago, its attempts
    and slots expired; deleting the account rewrites the archive file (the line's name and the
    record's seat) and the day's board; the record still replays, the other player stays."""
    app = make_app(redis_url, clock, PIKDAME_ARCHIVE_DIR=str(tmp_path / "archive"))
    ada, bob = app.test_client(), app.test_client()
    sign_up(ada, Authenticator(ORIGIN), "Adelheid")
    sign_up(bob, Authenticator(ORIGIN), "Bob")
    ids = [resign_at_once(c, clock.today, n)[0] for c, n in ((ada, "Adelheid"), (bob, "Bob"))]
    assert [verify(rdb, a, SECRET, rankings)["status"] for a in ids] == ["verified"] * 2
    day = clock.today
    clock.moment = dt.datetime(2026, 12, 1, 3, 0, tzinfo=dt.UTC)  # closed (24:00 + grace)
    store = archive.from_settings(settings_of(app))
    assert archive.archive_day(rdb, store, day, settings_of(app)) == 2
    for pattern in ("pd:{a:*}:attempt", "pd:{a:*}:replay", "pd:token:*", "pd:{d:*}:player:*"):
        for key in rdb.scan_iter(pattern):  # a week later: expired
            rdb.delete(key)
    assert b"Adelheid" in gzip.decompress(store.read(day) or b"")

    assert ada.delete("/api/account", json={}).status_code == 200
    data = gzip.decompress(store.read(day) or b"")
    assert b"Adelheid" not in data and b"Bob" in data
    lines = {e["attempt_id"]: e for e in map(json.loads, data.splitlines())}
    assert lines[ids[0]]["name"] == accounts.DELETED_NAME
    assert lines[ids[0]]["record"]["seats"][0]["name"] == accounts.DELETED_NAME
    replay(lines[ids[0]]["record"])  # still a record that replays on its own (F7)
    web = app.test_client()
    board = web.get(f"/api/leaderboard/{day}").get_json()
    assert "Adelheid" not in json.dumps(board) and "Bob" in json.dumps(board)
    replayed = web.get(f"/replay/{ids[0]}/positions")
    assert replayed.status_code == 200 and "Adelheid" not in replayed.get_data(as_text=True)


def test_a_deleted_name_leaves_the_league_boards(
    client: FlaskClient, clock: Any, rdb: redis.Redis[str], rankings: redis.Redis[str]
) -> None:
    """The league boards name members by their owner's name: a deleted account's is "gelöscht",
    its score stays."""
    sign_up(client, Authenticator(ORIGIN), "Adelheid")
    attempt_id, _ = resign_at_once(client, clock.today, "Adelheid")
    assert verify(rdb, attempt_id, SECRET, rankings)["status"] == "verified"
    code = client.post("/api/leagues", json={"name": "Runde"}).get_json()["league"]["code"]
    other = client.application.test_client()
    other.post(f"/api/leagues/{code}/join", json={})
    before = other.get(f"/api/leagues/{code}").get_json()
    assert "Adelheid" in json.dumps(before)
    assert client.delete("/api/account", json={}).status_code == 200
    after = other.get(f"/api/leagues/{code}").get_json()
    assert "Adelheid" not in json.dumps(after)
    text = json.dumps(after, ensure_ascii=False)
    assert text.count(accounts.DELETED_NAME) == json.dumps(before).count("Adelheid")
