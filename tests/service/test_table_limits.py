"""Floods at tables ("rate limits per address and per table", docs/TABLES.md): one
address spreading requests over many tables is stopped (IPv6: its /64), as is one table's flood;
each refusal is a 429 with ``Retry-After`` in the one error envelope, and changes nothing."""

from __future__ import annotations

from typing import Any

import redis
from flask import Flask

from service.app import create_app
from service.common import keys

HUMAN: dict[str, Any] = {"kind": "human"}
BOT: dict[str, Any] = {"kind": "bot", "level": "beginner"}
SETUP = "10.9.9.9"  # the address the tables are made from (not the flooder's)


def limited_app(redis_url: str, **limits: str) -> Flask:
    return create_app(
        {
            "REDIS_URL": redis_url,
            "PIKDAME_SECRET": b"l" * 32,
            "TESTING": True,
            "PIKDAME_LIMIT_TABLES": "1000 per hour",
            "PIKDAME_LIMIT_JOINS": "1000 per hour",
            **limits,
        }
    )


def call(
    app: Flask, address: str, method: str, path: str, body: Any, token: str | None = None
) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return app.test_client().open(
        path, method=method, json=body, headers=headers, environ_base={"REMOTE_ADDR": address}
    )


def started_table(app: Flask, seats: list[dict[str, Any]]) -> tuple[str, str]:
    made = call(app, SETUP, "POST", "/api/tables", {"name": "Ada", "seats": seats})
    assert made.status_code == 201, made.get_json()
    table_id, token = made.get_json()["table"]["id"], made.get_json()["token"]
    assert call(app, SETUP, "POST", f"/api/tables/{table_id}/start", {}, token).status_code == 200
    return table_id, token


def stored(rdb: redis.Redis[str], table_id: str) -> tuple[Any, list[str]]:
    return rdb.get(keys.table(table_id)), rdb.lrange(keys.table_events(table_id), 0, -1)


def assert_limited(response: Any) -> None:
    """API.md: 429, the error envelope with a stable code, and when to come back."""
    assert response.status_code == 429
    assert response.get_json()["error"]["code"] == "rate_limited"
    assert int(response.headers["Retry-After"]) >= 1


def test_one_address_flooding_many_tables_is_stopped(redis_url: str, rdb: redis.Redis[str]) -> None:
    app = limited_app(
        redis_url,
        PIKDAME_LIMIT_TABLE_ADDRESS="10 per minute",
        PIKDAME_LIMIT_TABLE_MOVES="100 per minute",
    )
    made = [started_table(app, [HUMAN, BOT]) for _ in range(3)]
    before = [stored(rdb, t) for t, _ in made]
    answers = []
    for n in range(13):  # a bad cut (422, nothing changes) at each table in turn
        table_id, token = made[n % 3]
        move = {"move": "cut 200", "seq": 0}
        answers.append(call(app, "10.0.0.1", "POST", f"/api/tables/{table_id}/moves", move, token))
    assert [a.status_code for a in answers] == [422] * 10 + [429] * 3
    for answer in answers[10:]:
        assert_limited(answer)
    # every table route of the address counts together: a stream or a level change is refused too
    table_id, token = made[0]
    assert_limited(call(app, "10.0.0.1", "GET", f"/api/tables/{table_id}/events", None, token))
    level = {"level": "zen"}
    assert_limited(call(app, "10.0.0.1", "POST", f"/api/tables/{table_id}/seats/1", level, token))
    assert [stored(rdb, t) for t, _ in made] == before  # nothing changed
    # another address is not held up by the flood
    other = call(
        app, "10.0.0.2", "POST", f"/api/tables/{table_id}/moves", {"move": "cut 5", "seq": 0}, token
    )
    assert other.status_code == 200, other.get_json()


def test_an_ipv6_flood_counts_per_64(redis_url: str, rdb: redis.Redis[str]) -> None:
    app = limited_app(redis_url, PIKDAME_LIMIT_TABLE_ADDRESS="6 per minute")
    table_id, token = started_table(app, [HUMAN, BOT])
    codes = [
        call(
            app,
            f"2001:db8::{n + 1:x}",
            "POST",
            f"/api/tables/{table_id}/moves",
            {"move": "cut 0", "seq": 0},
            token,
        ).status_code
        for n in range(8)
    ]
    assert codes == [422] * 6 + [429] * 2
    elsewhere = call(
        app,
        "2001:db8:0:1::1",
        "POST",
        f"/api/tables/{table_id}/moves",
        {"move": "cut 0", "seq": 0},
        token,
    )
    assert elsewhere.status_code == 422


def test_guessed_invites_from_one_address_are_stopped(
    redis_url: str, rdb: redis.Redis[str]
) -> None:
    """A join counts per address whatever its answer (the joins' own limit counts only seats
    taken), so invite codes cannot be tried at speed."""
    app = limited_app(redis_url, PIKDAME_LIMIT_TABLE_ADDRESS="5 per minute")
    codes = [
        call(app, "10.0.0.3", "POST", f"/api/tables/join/guess{n:04d}", {"name": "Eve"}).status_code
        for n in range(7)
    ]
    assert codes == [404] * 5 + [429] * 2


def test_a_flood_of_level_changes_at_one_table_is_stopped(
    redis_url: str, rdb: redis.Redis[str]
) -> None:
    """Per table, every seat and address together (PIKDAME_LIMIT_TABLE_MOVES): the refused
    change leaves the bot's level as it was."""
    app = limited_app(redis_url, PIKDAME_LIMIT_TABLE_MOVES="4 per minute")
    table_id, token = started_table(app, [HUMAN, BOT])
    levels = ["zen", "advanced", "beginner", "zen", "beginner"]
    codes = []
    for n, level in enumerate(levels):
        path = f"/api/tables/{table_id}/seats/1"
        codes.append(call(app, f"10.0.1.{n}", "POST", path, {"level": level}, token).status_code)
    assert codes == [200] * 4 + [429]
    table = call(app, SETUP, "GET", f"/api/tables/{table_id}", None, token).get_json()["table"]
    assert table["seats"][1]["level"] == "zen"
