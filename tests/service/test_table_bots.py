"""The Meister at tables, off the request (issue 40 item 8, docs/TABLES.md "Bots off the
request"), on the real stack: a real redis-server, the bots worker and the steady worker exactly
as deploy/ runs them (service.commands).

- A human's move answers at once with the Meister to move (its move is not in the answer); a job
  on the bots' own queue plays it, and the table's read and its stream show it.
- A job for a seq that has moved on does nothing; a step whose job was lost (a web process killed
  before queueing it, a worker killed mid-step) is queued again by the sweep and played once.
- The moves are the engine's Meister's on the same views (G9, R10): the match replayed with the
  Meister moving inline gives the same moves.
- The bots' queue never delays a turn timer: the steady worker never takes a bot's step, and the
  bots worker nothing else.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask
from rq import Queue
from rq.job import JobStatus

from engine.core.records import Seat
from engine.gin.match import GinMatch
from engine.pikdame.match import Match
from service.common import keys
from service.reconcile import reconcile_bots
from service.tables import bots, timers
from service.tables import store as tables
from service.tables.reads import stream_message
from tests.support.api import caller
from tests.support.gin_player import gin_choice
from tests.support.processes import (
    Process,
    service_env,
    start_bots_worker,
    start_worker,
    wait_for,
)
from tests.support.scrapes import parse, scrape, scraped, value
from tests.support.servers import free_port
from tests.support.service_app import SECRET, Clock, make_app
from tests.support.tables import scripted_move

pytestmark = pytest.mark.integration

HUMAN: dict[str, Any] = {"kind": "human"}
MEISTER: dict[str, Any] = {"kind": "bot", "level": "meister"}
QUEUE = "bots-meister-test"
#: How long a test gives the bots worker for one bot turn (a Meister's decision is at most about
#: 1.5 s of CPU; the machine is shared): a bound on waiting, never a timing assertion.
TURN_S = 120


def bots_env(redis_url: str, **extra: str) -> dict[str, str]:
    """A bots worker's environment on this test's Redis and the tests' bots queue."""
    return service_env(redis_url, SECRET.decode(), PIKDAME_BOT_QUEUE=QUEUE, **extra)


@pytest.fixture
def bots_app(redis_url: str, rdb: redis.Redis[str], clock: Clock) -> Flask:
    return make_app(redis_url, clock, PIKDAME_BOT_QUEUE=QUEUE)


@pytest.fixture
def bot_queue(queue_url: str) -> Iterator[Queue]:
    q = bots.queue_on(redis.Redis.from_url(queue_url), QUEUE)
    q.empty()  # type: ignore[no-untyped-call]
    yield q
    q.empty()  # type: ignore[no-untyped-call]


@pytest.fixture
def bots_worker(redis_url: str, tmp_path: Path) -> Iterator[Process]:
    env = bots_env(redis_url)
    worker = start_bots_worker(env, tmp_path / "bots.log")
    try:
        yield worker
    finally:
        worker.stop()


def new_table(app: Flask, game: str) -> tuple[str, Any, dict[str, Any]]:
    """Ada against the Meister, no turn timer: the table's id, Ada's caller, T after the start."""
    spec = {"game": game, "name": "Ada", "seats": [HUMAN, MEISTER], "rules": {"turn_timer": None}}
    made = app.test_client().post("/api/tables", json=spec)
    assert made.status_code == 201, made.get_json()
    table_id = made.get_json()["table"]["id"]
    ada = caller(app.test_client(), made.get_json()["token"])
    status, body = ada("POST", f"/api/tables/{table_id}/start", {})
    assert status == 200, body
    return table_id, ada, body["table"]


def meister_due(app: Flask) -> tuple[str, Any, dict[str, Any]]:
    """:func:`new_table` for Gin, with Ada's first move made when the deal gave her the turn: T
    then waits for the Meister (seat 1), its step due."""
    table_id, ada, table = new_table(app, "gin")
    if table["turn"] != 1:
        status, body = ada(
            "POST",
            f"/api/tables/{table_id}/moves",
            {"move": gin_choice(table["view"]), "seq": table["seq"]},
        )
        assert status == 200, body
        table = body["table"]
    return table_id, ada, table


def read(ada: Any, table_id: str) -> dict[str, Any]:
    status, body = ada("GET", f"/api/tables/{table_id}", None)
    assert status == 200, body
    return dict(body["table"])


def logged(rdb: redis.Redis[str], table_id: str) -> list[tuple[int, str]]:
    return [(e["seat"], e["move"]) for e in tables.events_after(rdb, table_id, 0)]


def streamed(rdb: redis.Redis[str], table_id: str, after: int) -> dict[str, Any]:
    """The message a stream of seat 0 that has seen seq ``after`` sends next."""
    message = stream_message(rdb, table_id, 0, after, 0)
    assert message is not None
    data = next(line for line in message[1].splitlines() if line.startswith("data: "))
    return dict(json.loads(data[len("data: ") :]))


def bots_played(ada: Any, table_id: str) -> dict[str, Any]:
    """T once the bots worker has played the Meister's turn (Ada to act, or the game over)."""
    return dict(wait_for(lambda: (t := read(ada, table_id))["turn"] != 1 and t, timeout=TURN_S))


def test_gin_a_meister_hand_is_played_by_the_bots_worker(
    bots_app: Flask,
    rdb: redis.Redis[str],
    bot_queue: Queue,
    redis_url: str,
    tmp_path: Path,
) -> None:
    table_id, ada, table = new_table(bots_app, "gin")
    if table["turn"] == 1:  # the Meister begins: its first move waits for the worker too
        assert logged(rdb, table_id) == [] and bot_queue.job_ids == [bots.job_id(table_id, 0)]
    else:
        status, body = ada(
            "POST",
            f"/api/tables/{table_id}/moves",
            {"move": gin_choice(table["view"]), "seq": table["seq"]},
        )
        assert status == 200, body
        # answered at once: Ada's move alone, the Meister to move, its step queued
        assert [e["seat"] for e in body["events"]] == [0]
        table = body["table"]
        assert table["turn"] == 1 and table["deadline"] is None
        assert bot_queue.job_ids == [bots.job_id(table_id, table["seq"])]
    due = table["seq"]
    stale = bots.job_id(table_id, due - 1)
    if due:  # a job of a seq that has moved on, queued first: it does nothing
        bots.enqueue(bot_queue, table_id, due - 1)
    before = logged(rdb, table_id)

    env = bots_env(redis_url)
    worker = start_bots_worker(env, tmp_path / "bots.log")
    try:
        table = bots_played(ada, table_id)
        after = logged(rdb, table_id)
        assert after[: len(before)] == before and after[len(before)][0] == 1
        if due:  # queued after the step's own job: it ran after it, and played nothing
            job = bot_queue.fetch_job(stale)
            assert job is not None
            wait_for(lambda: job.get_status(refresh=True) == JobStatus.FINISHED, timeout=TURN_S)
            assert job.return_value() == {"played": 0}
            assert logged(rdb, table_id) == after
        # the stream of a seat that saw the answer sends the Meister's move(s) and T after them
        message = streamed(rdb, table_id, due)
        assert [e["seat"] for e in message["events"]] == [s for s, _ in after[due:]]
        assert message["table"]["turn"] == table["turn"] and message["seq"] == table["seq"]

        # the whole first hand: Ada moves, the Meister answers through the worker
        while not table["rounds"] and table["status"] == "playing":
            if table["turn"] == 1:
                table = bots_played(ada, table_id)
                continue
            status, body = ada(
                "POST",
                f"/api/tables/{table_id}/moves",
                {"move": gin_choice(table["view"]), "seq": table["seq"]},
            )
            assert status == 200, body
            assert all(e["seat"] == 0 for e in body["events"])  # never the Meister's in it
            table = body["table"]
    finally:
        worker.stop()
    assert table["rounds"] and table["rounds"][0]["scores"] is not None

    # G9: the Meister's moves are the engine's on the same views (the match replayed with the
    # Meister moving inline, in this process, from the stored seed)
    stored = tables.load(rdb, table_id)
    assert stored is not None and stored.session is not None
    moves = logged(rdb, table_id)
    seed = bytes.fromhex(stored.session["record"]["seeds"]["seed"])
    seats = (Seat("human", name="Ada"), Seat("bot", level="meister"))
    inline = GinMatch.start(seed, seats)
    for seat, move in moves:
        if seat == 0 and len(inline.moves) < len(moves):
            assert inline.to_move() == 0
            inline.play(move, 0)
    assert inline.moves[: len(moves)] == moves
    assert len(moves) == len(set(e["seq"] for e in tables.events_after(rdb, table_id, 0)))


def test_a_lost_step_is_queued_again_by_the_sweep_and_played_once(
    bots_app: Flask,
    rdb: redis.Redis[str],
    bot_queue: Queue,
    redis_url: str,
    tmp_path: Path,
) -> None:
    """A web process killed between the table's write and the job's queueing leaves a due bot
    turn without a job (here: the job deleted); a worker killed mid-step leaves it started by a
    dead worker. The sweep (service.reconcile.reconcile_bots, run by every bots worker) queues
    the step again from the index ``keys.TABLE_BOTS``; the table's seq lets it through once."""
    table_id, ada, table = meister_due(bots_app)
    seq = table["seq"]
    # the job is lost
    bot_queue.empty()  # type: ignore[no-untyped-call]
    assert bot_queue.fetch_job(bots.job_id(table_id, seq)) is None
    stored = tables.load(rdb, table_id)
    assert stored is not None and stored.bot_due_ms is not None
    assert rdb.zscore(keys.TABLE_BOTS, table_id) == stored.bot_due_ms

    # not yet overdue: a queue that moves is never taken for a lost job
    assert reconcile_bots(rdb, bot_queue, stored.bot_due_ms) == []
    late = stored.bot_due_ms + bots.OVERDUE_MS + 1
    assert reconcile_bots(rdb, bot_queue, late) == [f"{table_id}:{seq}"]
    assert reconcile_bots(rdb, bot_queue, late) == []  # queued: left alone
    env = bots_env(redis_url)
    worker = start_bots_worker(env, tmp_path / "bots.log")
    try:
        table = bots_played(ada, table_id)
    finally:
        worker.stop()
    moves = tables.events_after(rdb, table_id, 0)
    assert [e["seq"] for e in moves] == list(range(1, len(moves) + 1))  # each once
    assert moves[seq]["seat"] == 1
    # once no bot is due, the sweep forgets the table
    assert reconcile_bots(rdb, bot_queue, late + 10**9) == []
    assert rdb.zscore(keys.TABLE_BOTS, table_id) is None


def test_the_bots_worker_counts_its_steps_and_the_tables_wait(
    bots_app: Flask,
    rdb: redis.Redis[str],
    bot_queue: Queue,
    redis_url: str,
    tmp_path: Path,
) -> None:
    """Issue 43: the bots worker's own metrics listener (PIKDAME_BOTS_METRICS_BIND,
    docs/METRICS.md): every step by outcome (a job whose table moved on is ``stale``) and, for
    each step played, the table's wait from the bot's turn falling due."""
    table_id, ada, table = meister_due(bots_app)
    bots.enqueue(bot_queue, table_id, table["seq"] + 1000)  # a seq the table never reaches
    port = free_port()
    env = bots_env(redis_url, PIKDAME_BOTS_METRICS_BIND=f"127.0.0.1:{port}")
    worker = start_bots_worker(env, tmp_path / "bots.log")
    try:
        bots_played(ada, table_id)
        wait_for(lambda: scraped(port, "pikdame_bot_steps_total", outcome="stale") == 1, TURN_S)
        samples = parse(scrape(port))
    finally:
        worker.stop()
    played = value(samples, "pikdame_bot_steps_total", outcome="played")
    assert played >= 1  # the Meister's turn: one step per deferred move
    assert value(samples, "pikdame_bot_wait_seconds_count") == played
    assert not any(table_id in v or "Ada" in v for _, k in samples for _, v in k)  # no id, no name


def test_a_step_killed_with_its_worker_is_played_once_by_the_next(
    bots_app: Flask,
    rdb: redis.Redis[str],
    bot_queue: Queue,
    redis_url: str,
    tmp_path: Path,
) -> None:
    """``kill -9`` of the bots worker mid-step (the step's job stands in as a long sleep under
    the step's id, so the kill lands while it runs): the job is left started by a dead worker;
    the sweep takes it for lost and queues the real step again, which the next worker plays,
    once."""
    table_id, ada, table = meister_due(bots_app)
    seq = table["seq"]
    name = bots.job_id(table_id, seq)
    bot_queue.empty()  # type: ignore[no-untyped-call]
    bot_queue.enqueue_call("time.sleep", args=(600,), job_id=name, timeout=900)
    env = bots_env(redis_url)
    first = start_bots_worker(env, tmp_path / "bots-1.log")
    wait_for(lambda: (j := bot_queue.fetch_job(name)) is not None and j.is_started, timeout=60)
    first.kill()
    stored = tables.load(rdb, table_id)
    assert stored is not None and stored.seq == seq and stored.bot_due_ms is not None
    late = stored.bot_due_ms + bots.OVERDUE_MS + 1
    assert reconcile_bots(rdb, bot_queue, late) == [f"{table_id}:{seq}"]  # lost: queued again
    second = start_bots_worker(env, tmp_path / "bots-2.log")
    try:
        bots_played(ada, table_id)
    finally:
        second.stop()
    moves = tables.events_after(rdb, table_id, 0)
    assert [e["seq"] for e in moves] == list(range(1, len(moves) + 1))  # each once
    assert moves[seq]["seat"] == 1


def test_pikdame_a_meister_seat_moves_in_the_bots_worker(
    bots_app: Flask,
    rdb: redis.Redis[str],
    bot_queue: Queue,
    bots_worker: Process,
) -> None:
    """Pik Dame (R10): Ada cuts and plays; each of the Meister's turns comes from the worker,
    never in Ada's answer; its moves are the engine's on the same views."""
    table_id, ada, table = new_table(bots_app, "pikdame")
    turns = 0
    while turns < 3 and table["status"] == "playing":
        if table["turn"] == 1:
            table = bots_played(ada, table_id)
            turns += 1
            continue
        for move in scripted_move(table):
            status, body = ada(
                "POST", f"/api/tables/{table_id}/moves", {"move": move, "seq": table["seq"]}
            )
            if status == 200:
                break
        assert status == 200, body
        if body["table"]["turn"] == 1 and body["table"]["status"] == "playing":
            assert all(e["seat"] == 0 for e in body["events"])  # the Meister's is not in it
        table = body["table"]
    assert turns == 3

    stored = tables.load(rdb, table_id)
    assert stored is not None and stored.session is not None
    match = Match.from_json(stored.session)  # no level deferred: the Meister moves inline
    facts, game = match.rounds[-1]
    moves = logged(rdb, table_id)
    inline = type(game).start(facts.seed, match.rules, match.seats, facts.dealer, facts.cut)
    played = [(s, m) for s, m in moves if not m.startswith("cut ")]
    for seat, move in played:
        if seat == 0 and len(inline.state.history) < len(played):
            inline.play(move, 0)
    assert inline.state.history[: len(played)] == played


def test_r9_the_turn_timer_stops_before_the_meister_too(
    bots_app: Flask, rdb: redis.Redis[str], clock: Clock
) -> None:
    """R9: when Ada's time runs out, the timer's bot plays her turn and the Meister's answer is
    left to the bots' worker (the timer's job queues its step, worker.jobs.table_turn_timeout)."""
    spec = {"game": "gin", "name": "Ada", "seats": [HUMAN, MEISTER], "rules": {"turn_timer": 30}}
    made = bots_app.test_client().post("/api/tables", json=spec)
    assert made.status_code == 201, made.get_json()
    table_id = made.get_json()["table"]["id"]
    ada = caller(bots_app.test_client(), made.get_json()["token"])
    status, body = ada("POST", f"/api/tables/{table_id}/start", {})
    assert status == 200, body
    lifetimes = tables.Lifetimes(3600, 3600)
    now = int(clock().timestamp() * 1000)
    while (stored := tables.load(rdb, table_id)) is not None and stored.bot_due_ms is not None:
        done = tables.play_bots(rdb, table_id, stored.seq, lifetimes, now)  # as the worker
        assert done is not None
    assert stored is not None and stored.deadline_ms is not None
    seq = stored.seq
    clock.advance(seconds=31)
    now = int(clock().timestamp() * 1000)
    done = tables.autoplay(rdb, table_id, seq, lifetimes, now)
    assert done is not None and done.events and all(s == 0 for s, _ in done.events)
    table = done.table
    assert table.bot_due_ms == now and table.deadline_ms is None
    assert rdb.zscore(keys.TABLE_BOTS, table_id) == now
    assert tables.autoplay(rdb, table_id, table.seq, lifetimes, now) is None  # no human's turn
    step = tables.play_bots(rdb, table_id, table.seq, lifetimes, now)
    assert step is not None and step.events[0][0] == 1
    assert tables.play_bots(rdb, table_id, table.seq, lifetimes, now) is None  # stale: nothing


def test_the_bots_queue_never_delays_a_turn_timer(
    redis_url: str, queue_url: str, rdb: redis.Redis[str], tmp_path: Path
) -> None:
    """Each worker takes its own queues' jobs only (worker.settings, worker.bots_settings): with
    a bot's step waiting, the steady worker plays the timer and leaves the step; the bots worker
    plays the step and never a timer."""
    client: redis.Redis[bytes] = redis.Redis.from_url(queue_url)
    bot_q = bots.queue_on(client, "bots-order")
    timer_q = timers.queue_on(client, "tables-order")
    for q in (bot_q, timer_q):
        q.empty()  # type: ignore[no-untyped-call]
    step = bot_q.enqueue_call("time.sleep", args=(0,))
    timer = timer_q.enqueue_call("time.sleep", args=(0,))
    env = service_env(
        redis_url,
        SECRET.decode(),
        PIKDAME_BOT_QUEUE="bots-order",
        PIKDAME_TABLE_QUEUE="tables-order",
    )
    steady = start_worker(env, tmp_path / "steady.log", burst=True)
    assert steady.popen.wait(timeout=120) == 0
    assert timer.get_status(refresh=True) == JobStatus.FINISHED
    assert step.get_status(refresh=True) == JobStatus.QUEUED  # never the steady worker's
    late = timer_q.enqueue_call("time.sleep", args=(0,))
    worker = start_bots_worker(env, tmp_path / "bots.log", burst=True)
    assert worker.popen.wait(timeout=120) == 0
    assert step.get_status(refresh=True) == JobStatus.FINISHED
    assert late.get_status(refresh=True) == JobStatus.QUEUED  # never the bots worker's
