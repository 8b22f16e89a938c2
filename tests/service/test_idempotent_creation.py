"""Creations asked again (docs/TABLES.md, "Idempotency-Key"): a table or league whose answer was
lost (a 503 after the write: the replica did not confirm) and which the client asks for again with
the same key exists once, and the retry gets the first answer's resource; through the real
service on real Redis."""

from __future__ import annotations

from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from tests.support.service_app import Clock, make_app

TABLE = {"name": "Ada", "seats": [{"kind": "human"}, {"kind": "bot", "level": "beginner"}]}
LEAGUE = {"name": "Stammtisch"}
ROUTES: dict[str, dict[str, Any]] = {"/api/tables": TABLE, "/api/leagues": LEAGUE}


def made(rdb: redis.Redis[str], rankings: redis.Redis[str], path: str) -> int:
    """How many tables (their invites) or leagues exist."""
    if path == "/api/tables":
        return len(list(rdb.scan_iter("pd:invite:*")))
    return len(list(rankings.scan_iter("pd:{l:*}:league")))


def post(client: FlaskClient, path: str, body: dict[str, Any], key: str | None) -> Any:
    headers = {} if key is None else {"Idempotency-Key": key}
    return client.post(path, json=body, headers=headers)


def resource(path: str, answer: dict[str, Any]) -> str:
    return str(answer["table"]["id"] if path == "/api/tables" else answer["league"]["code"])


@pytest.mark.parametrize("path", list(ROUTES))
def test_a_creation_asked_again_after_a_lost_answer_exists_once(
    redis_url: str, clock: Clock, rdb: redis.Redis[str], rankings: redis.Redis[str], path: str
) -> None:
    """The write happened, its answer became a 503 (no replica confirmed it); the client asks
    again with the same key and gets 201 with the one resource made."""
    body = ROUTES[path]
    before = made(rdb, rankings, path)
    unconfirmed = make_app(redis_url, clock, PIKDAME_REDIS_WAIT_REPLICAS=1).test_client()
    lost = post(unconfirmed, path, body, "retry-key-0001")
    assert lost.status_code == 503, lost.get_json()
    assert made(rdb, rankings, path) == before + 1  # applied, its answer lost
    retry = make_app(redis_url, clock).test_client()  # the replica is back; no cookie came
    first = post(retry, path, body, "retry-key-0001")
    again = post(retry, path, body, "retry-key-0001")
    assert first.status_code == again.status_code == 201, first.get_json()
    assert sorted(first.get_json()) == sorted(again.get_json())
    assert resource(path, first.get_json()) == resource(path, again.get_json())
    assert made(rdb, rankings, path) == before + 1
    if path == "/api/tables":  # the creator's token works: the seat is the retrying client's
        token = first.get_json()["token"]
        assert token == again.get_json()["token"]
        table_id = first.get_json()["table"]["id"]
        seen = retry.get(f"/api/tables/{table_id}", headers={"Authorization": f"Bearer {token}"})
        assert seen.status_code == 200 and seen.get_json()["table"]["seat"] == 0
        assert token not in str(rdb.get(next(iter(rdb.scan_iter("pd:{i:*}:idempotency")))))
    fresh = post(retry, path, body, "retry-key-0002")  # a new submission: a new resource
    assert fresh.status_code == 201
    assert resource(path, fresh.get_json()) != resource(path, first.get_json())
    assert made(rdb, rankings, path) == before + 2


@pytest.mark.parametrize("path", list(ROUTES))
def test_without_a_key_each_creation_makes_one(
    client: FlaskClient, rdb: redis.Redis[str], rankings: redis.Redis[str], path: str
) -> None:
    before = made(rdb, rankings, path)
    answers = [post(client, path, ROUTES[path], None) for _ in range(2)]
    assert [a.status_code for a in answers] == [201, 201]
    assert resource(path, answers[0].get_json()) != resource(path, answers[1].get_json())
    assert made(rdb, rankings, path) == before + 2


@pytest.mark.parametrize("path", list(ROUTES))
def test_a_key_with_another_body_or_malformed_is_refused_with_stable_codes(
    client: FlaskClient, rdb: redis.Redis[str], rankings: redis.Redis[str], path: str
) -> None:
    body = ROUTES[path]
    assert post(client, path, body, "reused-key-01").status_code == 201
    before = made(rdb, rankings, path)
    other = {**body, "name": "Bea"}
    reused = post(client, path, other, "reused-key-01")
    assert reused.status_code == 422
    assert reused.get_json()["error"]["code"] == "idempotency_key_reused"
    for bad in ("short", "x" * 129, "spaces are not ok"):
        refused = post(client, path, body, bad)
        assert refused.status_code == 400
        assert refused.get_json()["error"]["code"] == "bad_idempotency_key"
    assert made(rdb, rankings, path) == before


@pytest.mark.parametrize("path", list(ROUTES))
def test_one_callers_key_never_answers_another_callers_resource(
    app: Flask, rdb: redis.Redis[str], rankings: redis.Redis[str], path: str
) -> None:
    """Keys are per caller: another session with the same key makes its own resource and never
    sees the first one's (a table's token above all)."""
    ada, bea = app.test_client(), app.test_client()
    for who in (ada, bea):  # each their own session (a league of their own)
        assert who.post("/api/leagues", json={"name": "Eigene"}).status_code == 201
    first = post(ada, path, ROUTES[path], "shared-key-01")
    assert first.status_code == 201
    theirs = post(bea, path, ROUTES[path], "shared-key-01")
    assert theirs.status_code == 201
    assert resource(path, theirs.get_json()) != resource(path, first.get_json())
    if path == "/api/tables":
        assert theirs.get_json()["token"] != first.get_json()["token"]


@pytest.mark.parametrize("path", list(ROUTES))
def test_a_key_replayed_by_another_client_never_answers_the_creators_resource(
    app: Flask, rdb: redis.Redis[str], rankings: redis.Redis[str], path: str
) -> None:
    """The key is bound to its caller. A creator without a cookie (its first request ever) is
    bound to its address and its browser (User-Agent); its answer sets the creator's cookie, so
    a retry after that comes as the creator. Another client of the same address replaying the
    key and the body, without the cookie, gets a resource of its own, never the creator's (a
    table's token above all), whether the creator has retried or not."""
    body = ROUTES[path]
    ada = app.test_client()
    ada_agent = {"User-Agent": "Ada's browser"}
    first = ada.post(path, json=body, headers={"Idempotency-Key": "ada-key-0001", **ada_agent})
    assert first.status_code == 201
    eve = app.test_client()  # the same address (a school's), no cookie, another browser
    replay = eve.post(path, json=body, headers={"Idempotency-Key": "ada-key-0001"})
    assert replay.status_code == 201
    assert resource(path, replay.get_json()) != resource(path, first.get_json())
    if path == "/api/tables":
        assert replay.get_json()["token"] != first.get_json()["token"]
    # Ada's own retry still answers her resource (her cookie binds it to her player)
    again = ada.post(path, json=body, headers={"Idempotency-Key": "ada-key-0001", **ada_agent})
    assert resource(path, again.get_json()) == resource(path, first.get_json())


@pytest.mark.parametrize("path", list(ROUTES))
def test_a_cookieless_callers_answer_is_handed_back_once(
    redis_url: str, clock: Clock, rdb: redis.Redis[str], rankings: redis.Redis[str], path: str
) -> None:
    """A lost answer retried without a cookie gets the first answer once, with the creator's
    cookie; a later cookieless replay of the key (the same address and browser: a copy of the
    request) makes a resource of its own instead of handing the creator's out again."""
    body = ROUTES[path]
    unconfirmed = make_app(redis_url, clock, PIKDAME_REDIS_WAIT_REPLICAS=1).test_client()
    assert post(unconfirmed, path, body, "lost-key-0001").status_code == 503
    app = make_app(redis_url, clock)
    retry = post(app.test_client(), path, body, "lost-key-0001")
    assert retry.status_code == 201
    copy = post(app.test_client(), path, body, "lost-key-0001")
    assert copy.status_code == 201
    assert resource(path, copy.get_json()) != resource(path, retry.get_json())
    if path == "/api/tables":
        assert copy.get_json()["token"] != retry.get_json()["token"]
