"""Analyses are isolated and bounded (issue 38, docs/ANALYSIS.md "Workers"), on the real stack:
a real Redis, the steady worker (turn timers, verifications) and the analysis worker exactly as
deploy/ runs them (service.commands).

- The steady worker never takes an analysis, and the analysis worker nothing else: a turn timer
  or a verification never waits behind an analysis.
- Every analysis stops at its CPU budget (PIKDAME_ANALYSIS_CPU_S), whatever it computes.
- A running analysis keeps its heartbeat: its execution's entry in RQ's started registry moves
  on while it runs, so no other worker takes it for one abandoned by a dead worker.
- ``kill -9`` of the analysis worker mid-job: its work horse dies with it, the next ask queues
  the job again (202), also after another worker's maintenance marked it abandoned and its
  execution expired (RQ's ``Job.delete`` raised "Execution not found": 500): not a single 5xx.
- Per-caller limits: queueing an analysis counts, asking again while it waits or reading a
  cached document does not; over the limit, 429 with ``Retry-After`` and nothing queued.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask
from rq import Queue
from rq.job import Job, JobStatus
from rq.registry import StartedJobRegistry
from rq.serializers import JSONSerializer

from service.common import analysis_queue, keys
from service.tables import analyses
from service.tables import store as tables
from tests.support.api import caller
from tests.support.processes import (
    Process,
    descendants,
    service_env,
    start_analysis_worker,
    start_worker,
    wait_for,
)
from tests.support.scrapes import parse, scrape, scraped, value
from tests.support.servers import free_port
from tests.support.service_app import SECRET, Clock, make_app
from tests.support.tables import play_turn

pytestmark = pytest.mark.integration

HUMAN: dict[str, Any] = {"kind": "human"}
BOT: dict[str, Any] = {"kind": "bot", "level": "beginner"}


def rq_client(queue_url: str) -> redis.Redis[bytes]:
    return redis.Redis.from_url(queue_url)  # RQ's keys: the queue role's


def finished_round(app: Flask) -> tuple[str, Any]:
    """A Pik Dame table whose first round has ended and whose game is over (Ada resigned)."""
    made = app.test_client().post("/api/tables", json={"name": "Ada", "seats": [HUMAN, BOT]})
    assert made.status_code == 201, made.get_json()
    table_id = made.get_json()["table"]["id"]
    ada = caller(app.test_client(), made.get_json()["token"])
    status, body = ada("POST", f"/api/tables/{table_id}/start", {})
    assert status == 200, body
    table = body["table"]
    for _ in range(3000):
        if table["rounds"] and table["rounds"][0]["scores"] is not None:
            break
        table = play_turn(ada, table)
    assert ada("POST", f"/api/tables/{table_id}/resign", {})[0] == 200
    return table_id, ada


def test_timers_and_verifications_never_wait_behind_an_analysis(
    redis_url: str, queue_url: str, rdb: redis.Redis[str], tmp_path: Path
) -> None:
    """Each role takes its own queues' jobs only (worker.settings, worker.analysis_settings)."""
    client = rq_client(queue_url)
    analysis = analysis_queue.queue_on(client, "analysis")
    timer = Queue("tables", connection=client, serializer=JSONSerializer)
    verify = Queue("verify", connection=client, serializer=JSONSerializer)
    jobs = {q.name: q.enqueue_call("time.sleep", args=(0,)) for q in (analysis, timer, verify)}
    env = service_env(redis_url, SECRET.decode())

    steady = start_worker(env, tmp_path / "steady.log", burst=True)
    assert steady.popen.wait(timeout=120) == 0
    status = {name: job.get_status(refresh=True) for name, job in jobs.items()}
    assert status == {
        "analysis": JobStatus.QUEUED,  # never the steady worker's
        "tables": JobStatus.FINISHED,
        "verify": JobStatus.FINISHED,
    }
    late = timer.enqueue_call("time.sleep", args=(0,))
    analyst = start_analysis_worker(env, tmp_path / "analysis.log", burst=True)
    assert analyst.popen.wait(timeout=120) == 0
    assert jobs["analysis"].get_status(refresh=True) == JobStatus.FINISHED
    assert late.get_status(refresh=True) == JobStatus.QUEUED  # never the analysis worker's


def test_an_analysis_stops_at_its_cpu_budget_whatever_it_computes(
    redis_url: str, queue_url: str, rdb: redis.Redis[str], tmp_path: Path
) -> None:
    """PIKDAME_ANALYSIS_CPU_S bounds every job's CPU in its work horse (a job that would take
    hours here: a Python loop), whatever the machine's load; it fails, and is answered once as
    ``failed`` (503 ``analysis_failed``), not queued again like a killed job."""
    client = rq_client(queue_url)
    q = analysis_queue.queue_on(client, "analysis")
    endless = {"stmt": "sum(range(100))", "number": 10**10}
    job = q.enqueue_call("timeit.timeit", kwargs=endless, job_id="burner", timeout=3600)
    env = service_env(redis_url, SECRET.decode(), PIKDAME_ANALYSIS_CPU_S="1")
    worker = start_analysis_worker(env, tmp_path / "analysis.log", burst=True)
    try:
        assert worker.popen.wait(timeout=300) == 0
    finally:
        worker.stop()
    assert job.get_status(refresh=True) == JobStatus.FAILED
    result = job.latest_result()
    assert result is not None and "AnalysisOverBudget" in str(result.exc_string)
    assert analysis_queue.ask(q, "timeit.timeit", (), "burner") == "failed"
    assert analysis_queue.fetch(q, "burner") is None  # asked again, it is queued anew


def test_an_analysis_worker_counts_its_jobs_on_its_own_listener(
    redis_url: str, queue_url: str, rdb: redis.Redis[str], tmp_path: Path
) -> None:
    """Issue 43: the analysis worker's metrics listener (PIKDAME_ANALYSIS_METRICS_BIND,
    docs/METRICS.md) counts every job that ended, by status, and its run, although each ran in a
    work horse that is gone with its own counts: one that finished, one stopped by its CPU
    budget."""
    client = rq_client(queue_url)
    q = analysis_queue.queue_on(client, "analysis")
    q.enqueue_call("time.sleep", args=(0,), job_id="quick")
    endless = {"stmt": "sum(range(100))", "number": 10**10}
    q.enqueue_call("timeit.timeit", kwargs=endless, job_id="burner", timeout=3600)
    port = free_port()
    env = service_env(
        redis_url,
        SECRET.decode(),
        PIKDAME_ANALYSIS_CPU_S="1",
        PIKDAME_ANALYSIS_METRICS_BIND=f"127.0.0.1:{port}",
    )
    worker = start_analysis_worker(env, tmp_path / "analysis.log")  # not burst: it listens on
    try:
        wait_for(lambda: scraped(port, "pikdame_analyses_total", status="failed") == 1, 300)
        samples = parse(scrape(port))
    finally:
        worker.stop()
    assert value(samples, "pikdame_analyses_total", status="finished") == 1
    assert value(samples, "pikdame_analysis_duration_seconds_count") == 2


def started_entry(client: redis.Redis[bytes], job: Job) -> tuple[bytes, float] | None:
    """The job's execution in the analyses' started registry and its score (when it expires)."""
    registry = StartedJobRegistry("analysis", connection=client, serializer=JSONSerializer)
    entries = client.zrange(registry.key, 0, -1, withscores=True)
    mine = [(m, s) for m, s in entries if m.decode().startswith(f"{job.id}:")]
    return mine[0] if mine else None


def test_a_running_analysis_keeps_its_heartbeat(
    redis_url: str, queue_url: str, rdb: redis.Redis[str], tmp_path: Path
) -> None:
    client = rq_client(queue_url)
    q = analysis_queue.queue_on(client, "analysis")
    job = q.enqueue_call("time.sleep", args=(8,), timeout=60)
    env = service_env(redis_url, SECRET.decode())
    worker = start_analysis_worker(env, tmp_path / "analysis.log", beat_s=1)
    try:
        first = wait_for(lambda: started_entry(client, job), timeout=60)
        # the worker beats for the job while it runs: its execution's expiry moves on
        later = wait_for(
            lambda: (e := started_entry(client, job)) is not None and e[1] > first[1] and e,
            timeout=30,
        )
        assert later[0] == first[0]  # the same execution, still running
        assert job.get_status(refresh=True) == JobStatus.STARTED
        wait_for(lambda: job.get_status(refresh=True) == JobStatus.FINISHED, timeout=60)
    finally:
        worker.stop()


def kill_mid_job(worker: Process, client: redis.Redis[bytes], job_id: str) -> list[int]:
    """``kill -9`` of the worker once it runs ``job_id``; returns its work horse's pids."""
    wait_for(lambda: Job.fetch(job_id, client, JSONSerializer).is_started, timeout=60)
    horses = descendants(worker.popen.pid)
    os.kill(worker.popen.pid, signal.SIGKILL)
    worker.popen.wait(timeout=10)
    return horses


def gone(pids: list[int]) -> bool:
    return not any(Path(f"/proc/{pid}").exists() for pid in pids)


def test_a_killed_analysis_is_queued_again_without_a_single_5xx(
    app: Flask, redis_url: str, queue_url: str, rdb: redis.Redis[str], tmp_path: Path
) -> None:
    table_id, ada = finished_round(app)
    table = tables.load(rdb, table_id)
    assert table is not None
    client = rq_client(queue_url)
    q = analysis_queue.queue_on(client, "analysis")
    path = f"/api/tables/{table_id}/analysis?round=1&mode="
    ids = {mode: analyses.job_id(table, 1, 0, mode) for mode in ("view", "deal")}
    for job_id in ids.values():  # jobs that are still running when their worker is killed
        q.enqueue_call("time.sleep", args=(600,), job_id=job_id, timeout=900)
    env = service_env(redis_url, SECRET.decode())
    answers: list[int] = []
    horses: list[int] = []
    try:
        horses += kill_mid_job(start_analysis_worker(env, tmp_path / "a1.log"), client, ids["view"])
        horses += kill_mid_job(start_analysis_worker(env, tmp_path / "a2.log"), client, ids["deal"])
        wait_for(lambda: gone(horses), timeout=30)  # each horse died with its worker
        assert Job.fetch(ids["view"], client, JSONSerializer).is_started  # left behind

        # at once: the job's worker is dead, the job is queued again
        answers.append(ada("GET", path + "view", None)[0])
        assert Job.fetch(ids["view"], client, JSONSerializer).is_queued
        # later: another worker's maintenance took it for abandoned (its heartbeat's TTL
        # passed) and failed it, and its execution expired while RQ's registries still name it
        registry = StartedJobRegistry("analysis", connection=client, serializer=JSONSerializer)
        registry.cleanup(timestamp=time.time() + 3600)
        deal = Job.fetch(ids["deal"], client, JSONSerializer)
        assert deal.is_failed
        for key in client.scan_iter(f"rq:execution:{ids['deal']}:*"):
            client.delete(key)
        answers.append(ada("GET", path + "deal", None)[0])
        assert Job.fetch(ids["deal"], client, JSONSerializer).is_queued

        for mode, job_id in ids.items():  # the analysis itself, queued anew, asked again
            again = Job.fetch(job_id, client, JSONSerializer)
            assert again.func_name == analyses.JOB_PATH
            assert again.meta == {"kills": 1}  # KILLS_MAX kills in a row, then it fails
            answers.append(ada("GET", path + mode, None)[0])
    finally:
        for pid in horses:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    assert answers == [202] * 4


def test_each_caller_queues_a_limited_number_of_analyses(
    app: Flask, redis_url: str, queue_url: str, rdb: redis.Redis[str], clock: Clock
) -> None:
    table_id, _ = finished_round(app)
    table = tables.load(rdb, table_id)
    assert table is not None
    limited = make_app(
        redis_url, clock, PIKDAME_LIMITS_ENABLED=True, PIKDAME_LIMIT_ANALYSES="2 per hour"
    )
    stranger = limited.test_client()
    path = f"/api/tables/{table_id}/analysis?round=1"
    get: Any = lambda query: stranger.get(  # noqa: E731
        path + query, environ_base={"REMOTE_ADDR": "10.7.7.7"}
    )
    assert get("&seat=0").status_code == 202  # queued: counts
    for _ in range(5):  # asking again while it waits: free
        assert get("&seat=0").status_code == 202
    assert get("&seat=0&mode=deal").status_code == 202  # the second
    refused = get("&seat=1")
    assert refused.status_code == 429
    assert refused.get_json()["error"]["code"] == "rate_limited"
    assert int(refused.headers["Retry-After"]) >= 1
    q = analysis_queue.queue_on(rq_client(queue_url), "analysis")
    assert analysis_queue.fetch(q, analyses.job_id(table, 1, 1, "view")) is None  # not queued
    # a cached document is read whatever the count
    engine = table.kind.engine_version
    rdb.set(keys.table_analysis(table_id, 1, 1, "view", engine), '{"cached": true}')
    assert get("&seat=1").get_json() == {"cached": True}
    # another caller has a count of its own
    other = stranger.get(path + "&seat=1&mode=deal", environ_base={"REMOTE_ADDR": "10.8.8.8"})
    assert other.status_code == 202
