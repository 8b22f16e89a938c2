"""The quick match on a real Redis (docs/LOBBY.md "Quick match"): bad requests change nothing,
two players meet, leaving is instant, the rating range widens with the wait, bots fill after the
chosen wait (or the player keeps waiting), a ticket nobody polls lapses, and no player is seated
twice when many threads and processes join, leave and run steps at once."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from service.common import keys
from service.lobby import matcher, sweep
from service.lobby.matcher import Pool, Seeker
from service.tables import store as tables
from service.tables import timers
from tests.support.clock import Clock
from tests.support.lobby import LIFETIMES, signed_up


def ask(client: FlaskClient, **body: Any) -> tuple[int, Any]:
    body = {"game": "gin", "name": "Ada", "seats": 2, "turn_timer": 30, **body}
    response = client.post("/api/match", json=body)
    return response.status_code, response.get_json()


def poll(client: FlaskClient) -> dict[str, Any]:
    response = client.get("/api/match")
    assert response.status_code == 200, response.get_json()
    match: dict[str, Any] = response.get_json()["match"]
    return match


def match_keys(rdb: redis.Redis[str]) -> list[str]:
    return sorted(rdb.scan_iter(keys.MATCH_TAG + "*"))


def test_bad_requests_are_refused_and_change_nothing(app: Flask, rdb: redis.Redis[str]) -> None:
    client = app.test_client()
    refusals: list[tuple[dict[str, Any], int, str]] = [
        ({"game": "gin", "seats": 3}, 422, "bad_value"),
        ({"game": "pikdame", "seats": 5}, 422, "bad_value"),
        ({"game": "pikdame", "seats": 1}, 422, "bad_value"),
        ({"game": "skat"}, 422, "bad_value"),
        ({"turn_timer": 45}, 422, "bad_value"),
        ({"bots_after": 2}, 422, "bad_value"),
        ({"name": ""}, 422, "bad_value"),
        ({"rated": True}, 403, "account_required"),
        ({"seats": "two"}, 422, "bad_value"),
    ]
    for body, status, code in refusals:
        got, answer = ask(client, **body)
        assert got == status, (body, answer)
        assert answer["error"]["code"] == code, body
    assert match_keys(rdb) == []
    ada = signed_up(app, "Ada")
    got, answer = ask(ada, rated=True, turn_timer=0)
    assert got == 422 and answer["error"]["code"] == "bad_value"
    assert match_keys(rdb) == []
    assert client.get("/api/match").status_code == 401
    assert client.delete("/api/match", json={}).status_code == 401


def test_two_players_meet_and_leaving_is_instant(app: Flask, rdb: redis.Redis[str]) -> None:
    ada, bob, cy = app.test_client(), app.test_client(), app.test_client()
    status, body = ask(ada, bots_after=None)
    assert status == 201, body
    match = body["match"]
    assert match["status"] == "waiting" and match["table"] is None and match["rating"] == 1500
    assert match["range"] == matcher.BASE_RANGE and match["bots_after"] is None
    status, again = ask(ada)
    assert status == 409 and again["error"]["code"] == "already_queued"
    assert again["error"]["match"] == match["id"]
    # Cy joins (another pool: seats for four) and leaves at once: out of the pool
    assert ask(cy, name="Cy", game="pikdame", seats=4)[0] == 201
    left = cy.delete("/api/match", json={})
    assert left.status_code == 200 and left.get_json()["match"]["status"] == "left"
    assert cy.delete("/api/match", json={}).status_code == 404
    assert rdb.zcard(keys.match_pool("pikdame.4.30.casual", "since")) == 0
    status, body = ask(bob, name="Bob")
    assert status == 201 and body["match"]["status"] == "matched"
    mine = poll(ada)
    assert mine["status"] == "matched" and mine["table"] == body["match"]["table"]
    table_id = mine["table"]
    t = ada.get(f"/api/tables/{table_id}").get_json()["table"]
    assert t["matched"] is True and t["status"] == "playing" and t["rules"]["turn_timer"] == 30
    assert sorted(s["name"] for s in t["seats"]) == ["Ada", "Bob"]
    # the token answers the same seat (an API client without the cookie)
    by_token = app.test_client().get(
        f"/api/tables/{table_id}", headers={"Authorization": f"Bearer {mine['token']}"}
    )
    assert by_token.get_json()["table"]["seat"] == t["seat"]
    late = ada.delete("/api/match", json={})
    assert late.status_code == 409 and late.get_json()["error"]["code"] == "already_matched"
    assert late.get_json()["error"]["match"]["table"] == table_id
    # once seated, the player may queue again (a new ticket)
    assert ask(ada)[0] == 201


def test_the_range_widens_with_the_wait(rdb: redis.Redis[str]) -> None:
    pool = Pool("pikdame", 2, 60, False)
    start = 1_000_000
    for player, rating in (("low", 1500), ("high", 1700)):
        queued, _ = matcher.join(
            rdb, Seeker(player, player, None, rating, False, None), pool, None, start
        )
        assert queued
    assert matcher.range_after(0) == 50 and matcher.range_after(5000) == 150
    for waited in (0, 2000, 7000):  # 200 apart: a range of 190 after 7 s is not enough
        for player in ("low", "high"):
            ticket = matcher.current(rdb, player)
            assert ticket is not None
            matcher.keep_alive(rdb, ticket["id"], start + waited)
        assert matcher.step(rdb, pool.name, start + waited) == [], waited
    groups = matcher.step(rdb, pool.name, start + 7500)  # 50 + 20 × 7.5 = 200
    assert len(groups) == 1 and groups[0].bots == 0 and len(groups[0].tickets) == 2


def test_bots_fill_after_the_chosen_wait(app: Flask, rdb: redis.Redis[str], clock: Clock) -> None:
    ada, bob = app.test_client(), app.test_client()
    assert ask(ada, game="pikdame", seats=3, bots_after=20)[0] == 201
    assert ask(bob, name="Bob", game="pikdame", seats=3, bots_after=None)[0] == 201
    clock.advance(seconds=10)
    assert poll(bob)["status"] == "waiting"  # keeps Bob's ticket alive
    clock.advance(seconds=9)
    assert poll(ada)["status"] == "waiting"
    clock.advance(seconds=1)
    mine = poll(ada)
    assert mine["status"] == "matched", mine
    t = ada.get(f"/api/tables/{mine['table']}").get_json()["table"]
    assert [s["kind"] for s in t["seats"]] == ["human", "human", "bot"]
    assert poll(bob)["table"] == mine["table"]  # Bob was in range: seated, one bot fills
    # keep waiting (bots_after null): never filled with bots, whatever the wait
    cy = app.test_client()
    assert ask(cy, name="Cy", game="tausende", seats=4, bots_after=None)[0] == 201
    for _ in range(12):
        clock.advance(seconds=10)
        assert poll(cy)["status"] == "waiting"


def test_a_ticket_nobody_polls_lapses(app: Flask, rdb: redis.Redis[str], clock: Clock) -> None:
    ada, bob = app.test_client(), app.test_client()
    assert ask(ada)[0] == 201
    clock.advance(milliseconds=matcher.ALIVE_MS + 1)
    status, body = ask(bob, name="Bob", bots_after=None)
    assert status == 201 and body["match"]["status"] == "waiting"  # Ada left without a word
    assert poll(ada)["status"] == "expired"
    assert body["match"]["waiting"] == 1


def _join_many(url: str, pool: Pool, players: list[str], rating_of: Any, now: int) -> None:
    client: redis.Redis[str] = redis.Redis.from_url(url, decode_responses=True)
    for p in players:
        matcher.join(client, Seeker(p, p, None, rating_of(p), False, None), pool, 5, now)
        matcher.step_and_build(client, pool.name, LIFETIMES, now, lambda t: None, gap_ms=0)
        if p.endswith("7"):
            matcher.leave(client, p)
    client.close()


SWEEPER = """
import sys, redis
from service.lobby import matcher, sweep
from service.tables.store import Lifetimes
client = redis.Redis.from_url(sys.argv[1], decode_responses=True)
for n in range(int(sys.argv[3])):  # the sweeps' clock moves on past each step's gap
    now = int(sys.argv[2]) + n * matcher.STEP_GAP_MS
    matcher.sweep(client, Lifetimes(3600, 86400), now, lambda t: None)
"""


@pytest.mark.integration
def test_no_player_is_seated_twice_under_concurrent_calls(
    redis_url: str, rdb: redis.Redis[str]
) -> None:
    pool = Pool("pikdame", 3, 30, False)
    now = 5_000_000
    players = [f"p{n:03d}" for n in range(240)]

    def rating_of(p: str) -> int:
        return 1400 + (int(p[1:]) * 37) % 300

    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    sweepers = [
        subprocess.Popen([sys.executable, "-c", SWEEPER, redis_url, str(now + 6000), "60"], env=env)
        for _ in range(2)
    ]
    threads = [
        threading.Thread(target=_join_many, args=(redis_url, pool, players[i::6], rating_of, now))
        for i in range(6)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for sweeper in sweepers:
        assert sweeper.wait(timeout=120) == 0
    later = now + 6000 + 61 * matcher.STEP_GAP_MS
    matcher.sweep(rdb, LIFETIMES, later, lambda t: None)  # bots fill what is left
    seated: dict[str, str] = {}
    for key in rdb.scan_iter(keys.table("*")):
        table = tables.Table.from_json(str(rdb.get(key)))
        humans = [s["player"] for s in table.seats if s["kind"] == "human"]
        assert len(humans) == len(set(humans)), table.id
        for player in humans:
            assert player not in seated, f"{player} at {seated.get(player)} and {table.id}"
            seated[player] = table.id
    left = {p for p in players if p.endswith("7")}
    for p in players:
        ticket = matcher.current(rdb, p)
        assert ticket is not None
        if ticket["status"] == "matched":
            assert seated[p] == ticket["table"]
        else:
            assert ticket["status"] == "left" and p in left and p not in seated
    assert set(seated) | left == set(players)
    assert rdb.zcard(keys.match_pool(pool.name, "since")) == 0


def test_the_workers_sweep_matches_and_fills_without_a_request(
    rdb: redis.Redis[str], queue_url: str
) -> None:
    """Tickets nobody polls between two sweeps still meet, and bots still fill, on the sweep of
    one worker (a second worker within the sweep's interval does nothing)."""
    timer_queue = timers.queue_on(redis.Redis.from_url(queue_url), "lobby-sweep")
    now = 9_000_000
    duel = Pool("gin", 2, 60, True)
    trio = Pool("tausende", 3, 30, False)
    for player, pool, bots in (("a", duel, None), ("b", duel, None), ("c", trio, 20)):
        seeker = Seeker(player, player.upper(), f"acc-{player}", 1500, True, None)
        assert matcher.join(rdb, seeker, pool, bots, now)[0]
    done = sweep.run(rdb, timer_queue, LIFETIMES, now, "worker-1", 3000)
    assert done["groups"] == 1
    assert sweep.run(rdb, timer_queue, LIFETIMES, now + 20_000, "worker-2", 3000)["groups"] == 0
    rdb.delete(sweep.LOCK)  # the interval passed
    for player in ("c",):
        ticket = matcher.current(rdb, player)
        assert ticket is not None and ticket["status"] == "waiting"
        matcher.keep_alive(rdb, ticket["id"], now + 19_000)
    assert sweep.run(rdb, timer_queue, LIFETIMES, now + 20_000, "worker-2", 3000)["groups"] == 1
    a, c = matcher.current(rdb, "a"), matcher.current(rdb, "c")
    assert a is not None and c is not None
    duel_table = tables.load(rdb, a["table"])
    assert duel_table is not None and duel_table.rated and duel_table.status == "playing"
    trio_table = tables.load(rdb, c["table"])
    assert trio_table is not None
    assert [s["kind"] for s in trio_table.seats] == ["human", "bot", "bot"]
    # the matched tables' first turn timers were scheduled on the timers' queue
    assert timer_queue.scheduled_job_registry.count >= 1


def test_a_pool_is_stepped_a_few_times_a_second_however_many_ask(rdb: redis.Redis[str]) -> None:
    """Polls, streams and sweeps step a pool at most every STEP_GAP_MS; a join steps at once."""
    pool = Pool("gin", 2, 30, False)
    t = 2_000_000
    assert matcher.step(rdb, pool.name, t, matcher.STEP_GAP_MS) == []
    for player in ("a", "b"):
        seeker = Seeker(player, player, None, 1500, False, None)
        assert matcher.join(rdb, seeker, pool, None, t)[0]
    assert matcher.step(rdb, pool.name, t + 100, matcher.STEP_GAP_MS) == []  # too soon
    assert len(matcher.step(rdb, pool.name, t + 100)) == 1  # a join's step: at once
    for player in ("c", "d"):
        seeker = Seeker(player, player, None, 1500, False, None)
        assert matcher.join(rdb, seeker, pool, None, t + 100)[0]
    assert matcher.step(rdb, pool.name, t + 300, matcher.STEP_GAP_MS) == []
    assert len(matcher.step(rdb, pool.name, t + 350, matcher.STEP_GAP_MS)) == 1
