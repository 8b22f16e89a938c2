"""The quick match on a real Redis (docs/LOBBY.md "Quick match"): bad requests change nothing,
two players meet, leaving is instant, the rating range widens with the wait, bots fill after the
chosen wait (or the player keeps waiting), a ticket nobody polls lapses, and no player is seated
twice when many threads and processes join, leave and run steps at once, nor when a join is
asked again (a retry after a lost answer, a double POST: issue 38)."""

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
from tests.support.lobby import LIFETIMES, Browser, signed_up
from tests.support.processes import WebServer
from tests.support.service_app import make_app


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
    # seated at an unfinished table, asking again gets it back (issue 38: never two tables);
    # once its game is over, the player may queue again (a new ticket)
    status, again = ask(ada, bots_after=None)
    assert status == 200 and again["match"]["id"] == mine["id"]
    assert again["match"]["table"] == table_id
    for client in (ada, bob):
        assert client.post(f"/api/tables/{table_id}/resign", json={}).status_code == 200
    assert ada.get(f"/api/tables/{table_id}").get_json()["table"]["status"] == "finished"
    status, fresh = ask(ada)
    assert status == 201 and fresh["match"]["id"] != mine["id"]


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


def seatings(rdb: redis.Redis[str]) -> dict[str, list[str]]:
    """Every seated human's name -> the tables they sit at."""
    found: dict[str, list[str]] = {}
    for key in sorted(rdb.scan_iter(keys.table("*"))):
        table = tables.Table.from_json(str(rdb.get(key)))
        for seat in table.seats:
            if seat["kind"] == "human" and seat.get("name"):
                found.setdefault(seat["name"], []).append(table.id)
    return found


def test_a_double_post_returns_the_same_ticket_and_table(app: Flask, rdb: redis.Redis[str]) -> None:
    """Issue 38: a quick-match join asked twice (a retry, a double click) gets the same ticket,
    waiting or matched, and its table: nobody is seated at two tables. Without any key."""
    ada, bob = app.test_client(), app.test_client()
    status, first = ask(ada, bots_after=None)
    assert status == 201
    status, again = ask(ada, bots_after=None)  # the same request while waiting: that ticket
    assert status == 200 and again["match"]["id"] == first["match"]["id"]
    assert again["match"]["status"] == "waiting"
    status, bobs = ask(bob, name="Bob", bots_after=None)
    assert status == 201 and bobs["match"]["status"] == "matched"
    table_id = bobs["match"]["table"]
    for client, body, mine in ((bob, {"name": "Bob"}, bobs), (ada, {}, first)):
        for _ in range(3):
            status, retry = ask(client, bots_after=None, **body)
            assert status == 200, retry
            assert retry["match"]["id"] == mine["match"]["id"]
            assert retry["match"]["table"] == table_id
            assert retry["match"]["token"] == poll(client)["token"]
    # another request while seated at the unfinished table: refused, the table in the error
    status, other = ask(bob, name="Bob", game="pikdame", seats=3)
    assert status == 409 and other["error"]["code"] == "already_matched"
    assert other["error"]["match"]["table"] == table_id
    assert seatings(rdb) == {"Ada": [table_id], "Bob": [table_id]}


def test_a_join_whose_answer_was_lost_after_the_match_seats_the_player_once(
    redis_url: str, rdb: redis.Redis[str], clock: Clock
) -> None:
    """Issue 38: a rated join matched, its answer lost (a 503: no replica confirmed the write);
    the client asks again, four times: the same ticket and table each time, one seat, and no
    second rated table whose timer would resign the absent seat."""
    app = make_app(redis_url, clock)
    ada, bob = signed_up(app, "Ada"), signed_up(app, "Bob")
    status, waiting = ask(ada, rated=True, bots_after=None)
    assert status == 201 and waiting["match"]["status"] == "waiting"
    lossy = make_app(redis_url, clock, PIKDAME_REDIS_WAIT_REPLICAS=1).test_client()
    assert bob._cookies is not None
    for cookie in bob._cookies.values():  # the same browser: Bob's session cookie
        lossy.set_cookie(cookie.key, cookie.value, domain=cookie.domain, path=cookie.path)
    lost = lossy.post(
        "/api/match",
        json={
            "game": "gin",
            "name": "Bob",
            "seats": 2,
            "turn_timer": 30,
            "rated": True,
            "bots_after": None,
        },
    )
    assert lost.status_code == 503, lost.get_json()
    seated = seatings(rdb)
    assert len(seated["Bob"]) == 1  # matched, its answer lost
    table_id = seated["Bob"][0]
    for _ in range(4):
        status, retry = ask(bob, name="Bob", rated=True, bots_after=None)
        assert status == 200, retry
        assert retry["match"]["status"] == "matched" and retry["match"]["table"] == table_id
    assert seatings(rdb) == {"Ada": [table_id], "Bob": [table_id]}
    assert poll(ada)["table"] == table_id


def test_a_join_racing_its_own_match_gets_the_matched_ticket(rdb: redis.Redis[str]) -> None:
    """The join script itself refuses a second ticket while the first is matched (a request that
    saw it waiting, then the step matched it): only a ticket whose table is over is let go."""
    pool = Pool("gin", 2, 30, False)
    now = 3_000_000
    for player in ("a", "b"):
        assert matcher.join(rdb, Seeker(player, player, None, 1500, False, None), pool, None, now)[
            0
        ]
    assert len(matcher.step_and_build(rdb, pool.name, LIFETIMES, now, lambda t: None, 0)) == 1
    held = matcher.current(rdb, "a")
    assert held is not None and held["status"] == "matched"
    seeker = Seeker("a", "a", None, 1500, False, None)
    assert matcher.join(rdb, seeker, pool, None, now) == (False, held["id"])
    queued, fresh = matcher.join(rdb, seeker, pool, None, now, release=held["id"])
    assert queued and fresh != held["id"]


def test_an_anonymous_join_whose_answer_and_cookie_were_lost_comes_back_by_its_key(
    redis_url: str, rdb: redis.Redis[str], clock: Clock
) -> None:
    """Without an account the first answer carried the player's cookie: lost with it, only the
    Idempotency-Key (service/web/idempotency.py) knows the retry; it gets the same ticket and
    table, and its cookie, so a later plain retry is known by the session (issue 38)."""
    app = make_app(redis_url, clock)
    ada = app.test_client()
    assert ask(ada, bots_after=None)[0] == 201
    lossy = make_app(redis_url, clock, PIKDAME_REDIS_WAIT_REPLICAS=1).test_client()
    body = {"game": "gin", "name": "Bob", "seats": 2, "turn_timer": 30, "bots_after": None}
    key = {"Idempotency-Key": "match-retry-0001"}
    assert lossy.post("/api/match", json=body, headers=key).status_code == 503
    table_id = seatings(rdb)["Bob"][0]
    bob = app.test_client()  # no cookie came back
    retry = bob.post("/api/match", json=body, headers=key)
    assert retry.status_code == 201, retry.get_json()
    assert retry.get_json()["match"]["table"] == table_id
    again = bob.post("/api/match", json=body)  # the session now: no key needed
    assert again.status_code == 200 and again.get_json()["match"]["table"] == table_id
    assert seatings(rdb) == {"Ada": [table_id], "Bob": [table_id]}


@pytest.mark.integration
def test_joins_asked_at_once_on_the_real_server_seat_each_player_once(
    web: WebServer, rdb: redis.Redis[str]
) -> None:
    """Issue 38 on the stock gunicorn (several processes): a waiting player and a second one
    whose join is sent six times at once (a double POST, retries in waves); one ticket, one
    table, everyone seated once."""
    ada, bob = Browser(web.base), Browser(web.base)
    body = {"game": "gin", "name": "Ada", "seats": 2, "turn_timer": 30, "bots_after": None}
    assert ada.call("POST", "/api/match", body)[0] == 201
    # Bob's session first (a join he leaves), then his join six times at once
    other = {**body, "name": "Bob", "game": "pikdame", "seats": 3}
    assert bob.call("POST", "/api/match", other)[0] == 201
    assert bob.call("DELETE", "/api/match", {})[0] == 200
    answers: list[tuple[int, Any]] = []
    lock = threading.Lock()

    def join() -> None:
        got = bob.call("POST", "/api/match", {**body, "name": "Bob"})
        with lock:
            answers.append(got)

    for _wave in range(2):
        threads = [threading.Thread(target=join) for _ in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    statuses = sorted(status for status, _ in answers)
    assert statuses == [200] * 5 + [201], answers
    ids = {answer["match"]["id"] for _, answer in answers}
    assert len(ids) == 1
    table_id = seatings(rdb)["Bob"]
    assert seatings(rdb) == {"Ada": table_id, "Bob": table_id} and len(table_id) == 1


def test_a_ticket_names_its_tables_status_so_a_finished_table_is_not_reentered(
    app: Flask, clock: Clock
) -> None:
    """Issue 38: after any quick match, /spielen went back to the finished table for as long as
    the ticket lived. ``M.table_status`` says whether the table still waits or plays."""
    ada = app.test_client()
    status, body = ask(ada, game="gin", bots_after=5)
    assert status == 201 and body["match"]["table_status"] is None  # no table yet
    clock.advance(seconds=5)
    mine = poll(ada)
    assert mine["status"] == "matched" and mine["table_status"] == "playing", mine
    # against a bot alone a resignation ends the game at once (R8)
    resigned = ada.post(f"/api/tables/{mine['table']}/resign", json={})
    assert resigned.status_code == 200, resigned.get_json()
    after = poll(ada)
    assert after["status"] == "matched" and after["table"] == mine["table"]
    assert after["table_status"] == "finished"


def test_every_change_of_the_queue_wakes_the_lobbys_streams(
    app: Flask, rdb: redis.Redis[str]
) -> None:
    """Issue 38: "0 in der Schnellsuche" while a player waited: a join, a leave and a match
    changed the lobby's counters without a word on the lobby's channel, so its streams (which
    send on a notice or a heartbeat) kept the old count."""
    listener = rdb.pubsub(ignore_subscribe_messages=True)
    listener.subscribe(keys.LOBBY_CHANNEL)

    def notices() -> list[str]:
        heard = []
        while (message := listener.get_message(timeout=0.5)) is not None:
            heard.append(message["data"])
        return heard

    ada, bob = app.test_client(), app.test_client()
    notices()
    assert ask(ada, bots_after=None)[0] == 201
    assert notices(), "a join changes the queue's count"
    assert ada.delete("/api/match", json={}).status_code == 200
    assert notices(), "a leave changes the queue's count"
    assert ask(ada, bots_after=None)[0] == 201
    notices()
    status, body = ask(bob, name="Bob")
    assert status == 201 and body["match"]["status"] == "matched"
    assert notices(), "a match empties the queue"
    assert app.test_client().get("/api/lobby").get_json()["queued"].get("gin", 0) == 0
    listener.close()
