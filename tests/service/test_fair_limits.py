"""Limits that are fair behind one address and cannot be dodged.

Only starts that create an attempt count; players behind one address (a school, an office) are
counted per player once they have one, and a crowd of new readers is served; moves to made-up
attempt ids are limited per address; the replay positions have a limit and are cached.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import redis
from flask import Flask
from flask.testing import FlaskClient

from service.common import keys
from tests.support.api import resign_at_once
from tests.support.service_app import Clock, make_app


def limited(redis_url: str, clock: Clock, **limits: Any) -> Flask:
    return make_app(redis_url, clock, PIKDAME_LIMITS_ENABLED=True, **limits)


def new_player(app: Flask) -> FlaskClient:
    return app.test_client()  # a browser of its own, behind the same address (127.0.0.1)


def test_only_created_attempts_count_toward_the_start_limit(
    redis_url: str, rdb: redis.Redis[str], clock: Clock
) -> None:
    app = limited(redis_url, clock, PIKDAME_LIMIT_ATTEMPTS="2 per hour")
    path = f"/api/daily/{clock.today}/attempts"
    ada = new_player(app)
    assert ada.post(path, json={"name": "Ada"}).status_code == 201
    # double clicks and retries: 409, and refused names: 422; none of them counts
    assert [ada.post(path, json={"name": "Ada"}).status_code for _ in range(5)] == [409] * 5
    bob = new_player(app)
    assert bob.post(path, json={"name": "\u3164"}).status_code == 422
    assert bob.post(path, json={"name": "Bob"}).status_code == 201
    cy = new_player(app)
    response = cy.post(path, json={"name": "Cy"})
    assert response.status_code == 429  # the third creation from the address
    assert response.headers["Retry-After"]


def test_a_hundred_players_behind_one_address_reading_once_each(
    redis_url: str, rdb: redis.Redis[str], clock: Clock
) -> None:
    app = limited(redis_url, clock)  # the shipped defaults
    statuses = [new_player(app).get("/api/daily").status_code for _ in range(100)]
    statuses += [
        new_player(app).get(f"/api/leaderboard/{clock.today}").status_code for _ in range(100)
    ]
    assert statuses == [200] * 200


def test_players_with_a_session_are_counted_each_on_their_own(
    redis_url: str, rdb: redis.Redis[str], clock: Clock
) -> None:
    app = limited(redis_url, clock, PIKDAME_LIMIT_DEFAULT="5 per hour")
    players = []
    for i in range(10):
        client = new_player(app)
        with client.session_transaction() as session:
            session["player"] = f"p{i:02d}"  # what starting an attempt leaves in the cookie
        players.append(client)
    assert [p.get("/api/daily").status_code for p in players for _ in range(5)] == [200] * 50
    assert players[0].get("/api/daily").status_code == 429  # each has a limit still
    anonymous = [new_player(app).get("/api/daily").status_code for _ in range(6)]
    assert anonymous == [200] * 5 + [429]  # no player: the address is counted


def test_moves_to_made_up_attempt_ids_are_limited_per_address(
    redis_url: str, rdb: redis.Redis[str], clock: Clock
) -> None:
    app = limited(redis_url, clock, PIKDAME_LIMIT_MOVES="5 per hour")
    client = new_player(app)
    statuses = [
        client.post(f"/api/attempts/{i:016x}/moves", json={"move": "draw", "seq": 0}).status_code
        for i in range(7)
    ]
    assert statuses == [404] * 5 + [429] * 2


def test_replay_positions_are_limited_and_cached(
    redis_url: str, rdb: redis.Redis[str], clock: Clock
) -> None:
    app = limited(redis_url, clock, PIKDAME_LIMIT_REPLAYS="3 per hour")
    aid, _ = resign_at_once(new_player(app), clock.today, "Ada")
    clock.moment = dt.datetime(2026, 12, 1, 3, 0, tzinfo=dt.UTC)  # the day has closed
    reader = new_player(app)
    path = f"/replay/{aid}/positions"
    first = reader.get(path)
    assert first.status_code == 200
    assert "immutable" in first.headers["Cache-Control"]
    assert rdb.exists(keys.replay(aid))
    assert [reader.get(path).status_code for _ in range(3)] == [200, 200, 429]
    assert reader.get("/replay/0000000000000000/positions").status_code == 429


def test_one_ipv6_customer_cannot_multiply_the_start_limit_by_its_64s(
    redis_url: str, rdb: redis.Redis[str], clock: Clock
) -> None:
    """An IPv6 client counts as its /64, but one customer usually holds a /56 (homes) or a /48
    (businesses): each new /64 of it used to open a fresh start count. Creations are counted per
    /64 at the limit, per /56 at 4 times it and per /48 at 16 times it (docs: README, limits),
    so a customer gets at most 4 or 16 times one address's starts, while unrelated devices that a
    mobile network gives a /64 each share a generous budget. IPv4 is counted as before."""
    app = limited(redis_url, clock, PIKDAME_LIMIT_ATTEMPTS="1 per hour")
    path = f"/api/daily/{clock.today}/attempts"

    def start_from(address: str) -> int:
        web = app.test_client()
        web.environ_base["REMOTE_ADDR"] = address
        return web.post(path, json={"name": f"P{address.replace(':', '')}"}).status_code

    assert start_from("2001:db8:0:100::1") == 201
    assert start_from("2001:db8:0:100::2") == 429  # the same /64
    # three more /64s of the same /56: four in all, then refused
    assert [start_from(f"2001:db8:0:1{n:02x}::1") for n in (1, 2, 3)] == [201] * 3
    assert start_from("2001:db8:0:1ff::1") == 429
    # one /64 in each of the same /48's other /56s: sixteen starts in the /48, then refused
    others = [start_from(f"2001:db8:0:{n:x}00::1") for n in range(2, 16)]
    assert others == [201] * 12 + [429] * 2
    assert start_from("2001:db8:1:100::1") == 201  # another /48: another customer
    assert [start_from(f"198.51.100.{n}") for n in (1, 1, 2)] == [201, 429, 201]


def test_one_ipv6_customer_cannot_multiply_the_table_limit_by_its_64s(
    redis_url: str, rdb: redis.Redis[str], clock: Clock
) -> None:
    """Tables created (and joins) are counted per /64 and per /56 and /48 alike."""
    app = limited(redis_url, clock, PIKDAME_LIMIT_TABLES="1 per hour")
    table = {"name": "Ada", "seats": [{"kind": "human"}, {"kind": "bot", "level": "beginner"}]}

    def create_from(address: str) -> int:
        web = app.test_client()
        web.environ_base["REMOTE_ADDR"] = address
        return web.post("/api/tables", json=table).status_code

    made = [create_from(f"2001:db8:5:1{n:02x}::1") for n in range(5)]
    assert made == [201] * 4 + [429]
