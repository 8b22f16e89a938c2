"""Metrics in Prometheus' format from every role (issue 43; docs/METRICS.md), on real parts:
redis-server, the API's gunicorn and the stream group (their masters serve their workers' sums),
a verification worker, the publisher, and Debian's nginx with the shipped site, which never
serves them.

A daily game is played through nginx and verified while every role is scraped: the counters
move as they should, by exact amounts, and no scrape holds a player's name, a token, an attempt
id or a path instead of its route. No assertion on a duration's size: only counts, and sums on
the tests' clock.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import promql_parser
import pytest
import redis
import yaml
from flask import Flask
from prometheus_client import REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.multiprocess import MultiProcessCollector

from service import backlog
from service.common import config, exposition, metrics
from service.tables import ratings
from service.tables.ratings import Rated
from service.web.publishing import KEPT, Publisher
from tests.support.front import NGINX_DIR, Front, nginx_binary, start_front
from tests.support.player import play_to_end
from tests.support.processes import (
    Process,
    WebServer,
    descendants,
    json_call,
    service_env,
    start_stream,
    start_web,
    start_worker,
    wait_for,
)
from tests.support.scrapes import Samples, parse, scrape, value
from tests.support.servers import RedisServer, free_port, start_redis
from tests.support.service_app import SECRET, Clock, make_app
from worker import jobs

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
ROLES = ("web", "stream", "worker", "publisher")
#: Every label a metric carries: chosen by the code, never a player's, a token or a path.
LABELS = {"route", "method", "status", "kind", "game", "queue", "role", "where", "outcome", "le"}
NAME = "Quintus Metricus"  # the player: in no scrape


def declared_names() -> set[str]:
    """The sample names the code can write: service.common.metrics' families (with their
    suffixes) and service.backlog's gauges."""
    names = set(backlog.NAMES)
    for metric in metrics.ALL:
        base = metric._name  # the family's name, without _total
        kind = metric._type
        if kind == "counter":
            names |= {f"{base}_total", f"{base}_created"}
        elif kind == "histogram":
            names |= {f"{base}_{s}" for s in ("bucket", "count", "sum", "created")}
        else:
            names.add(base)
    return names


@dataclass
class Stack:
    server: RedisServer
    web: WebServer
    stream: WebServer
    front: Front
    ports: dict[str, int]
    env: dict[str, str]
    workers: list[Process]

    def scrape(self, role: str) -> str:
        return scrape(self.ports[role])

    def samples(self, role: str) -> Samples:
        return parse(self.scrape(role))


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[Stack]:
    if nginx_binary() is None:
        pytest.skip("nginx is not installed")
    server = start_redis()
    ports = {role: free_port() for role in ROLES}
    env = service_env(
        server.url,
        SECRET.decode(),
        PIKDAME_HEARTBEAT_SECONDS="1",
        PIKDAME_PROXIES="127.0.0.1",
        PIKDAME_QUEUE="verify-metrics",
        PIKDAME_ANALYSIS_QUEUE="analysis-metrics",
        PIKDAME_TABLE_QUEUE="tables-metrics",
        PIKDAME_METRICS_BIND=f"127.0.0.1:{ports['web']}",
        PIKDAME_STREAM_METRICS_BIND=f"127.0.0.1:{ports['stream']}",
        PIKDAME_WORKER_METRICS_BIND=f"127.0.0.1:{ports['worker']}",
        PIKDAME_PUBLISH_METRICS_BIND=f"127.0.0.1:{ports['publisher']}",
    )
    web = start_web(env, tmp_path / "web.log")
    stream = start_stream(env, tmp_path / "stream.log")
    front = start_front(web.base.split("//")[1], stream=stream.base.split("//")[1])
    env["PIKDAME_PUBLISH_DIR"] = str(front.published)
    workers: list[Process] = []
    publisher = subprocess.Popen(
        [sys.executable, "-m", "service.publish"],
        env=env,
        stdout=(tmp_path / "publisher.log").open("wb"),
        stderr=subprocess.STDOUT,
    )
    try:
        yield Stack(server, web, stream, front, ports, env, workers)
    finally:
        publisher.terminate()
        publisher.wait(timeout=30)
        for worker in workers:
            worker.stop()
        front.stop()
        stream.process.stop()
        web.process.stop()
        server.close()


def answers(port: int) -> bool:
    try:
        scrape(port)
    except OSError:
        return False
    return True


def check_labels(text: str, rules: set[str]) -> None:
    """Only the code's labels, and a route is a URL rule (or "unmatched"), never a path."""
    for (name, labels), _ in parse(text).items():
        if not name.startswith("pikdame_"):
            continue  # prometheus_client's own (python_gc_*, process_*): the process's facts
        assert name in declared_names(), name
        assert {k for k, _ in labels} <= LABELS, (name, labels)
        route = dict(labels).get("route")
        assert route is None or route in rules | {metrics.UNMATCHED}, route


@pytest.mark.integration
def test_every_role_is_scraped_while_a_daily_game_is_played_and_verified(
    stack: Stack, tmp_path: Path
) -> None:
    for role in ROLES[:2]:
        assert answers(stack.ports[role]), role
    wait_for(lambda: answers(stack.ports["publisher"]))
    opener = urllib.request.build_opener()

    # the public site (the shipped nginx conf) has no metrics: the app's 404, no sample
    try:
        urllib.request.urlopen(stack.front.base + "/metrics", timeout=10)
        raise AssertionError("the public site answered /metrics")
    except urllib.error.HTTPError as e:
        assert e.code == 404 and b"pikdame_" not in e.read()
    site = (NGINX_DIR / "proxy.conf").read_text() + (NGINX_DIR / "pikdame.conf").read_text()
    assert not any(str(p) in site for p in (9100, 9101, 9102)), "nginx names a metrics port"

    # a lobby stream through nginx, open while the stream group is scraped
    events = urllib.request.urlopen(stack.front.base + "/api/lobby/events", timeout=30)
    assert events.readline().startswith(b"retry:")
    wait_for(lambda: value(stack.samples("stream"), "pikdame_streams_open", kind="lobby") == 1)

    # a daily game through nginx, finished before any worker runs: it waits, queued
    status, daily = json_call(opener, stack.front.base, "GET", "/api/daily", None)
    assert status == 200
    date = daily["date"]
    status, created = json_call(
        opener, stack.front.base, "POST", f"/api/daily/{date}/attempts", {"name": NAME}
    )
    assert status == 201, created
    token, aid = created["token"], created["attempt"]["id"]

    def call(method: str, path: str, body: Any) -> tuple[int, Any]:
        return json_call(opener, stack.front.base, method, path, body, token)

    assert play_to_end(call, aid)["status"] == "finished"
    web = stack.samples("web")
    post = {"route": "/api/daily/<date>/attempts", "method": "POST", "status": "201"}
    assert value(web, "pikdame_http_requests_total", **post) == 1
    assert value(web, "pikdame_http_request_duration_seconds_count", **post) == 1
    moves = [
        v
        for (n, labels), v in web.items()
        if n == "pikdame_http_requests_total"
        and dict(labels).get("route", "").endswith("/moves")
        and dict(labels)["status"] == "200"
    ]
    assert moves and sum(moves) >= 1  # every move, under its route, not its path
    assert value(web, "pikdame_verification_waiting") == 1
    assert value(web, "pikdame_queue_jobs", queue="verify-metrics") == 1

    # a web worker dies and gunicorn starts another: its counts stay in the group's sums
    # (gunicorn's child_exit folds them, service.common.exposition.fold)
    answered = sum(v for (n, _), v in web.items() if n == "pikdame_http_requests_total")
    master = stack.web.process.popen.pid
    victim = descendants(master)[0]
    os.kill(victim, signal.SIGKILL)
    wait_for(lambda: victim not in (kids := descendants(master)) and len(kids) == 2)
    web = stack.samples("web")
    assert value(web, "pikdame_http_requests_total", **post) == 1
    assert sum(v for (n, _), v in web.items() if n == "pikdame_http_requests_total") >= answered
    for role in ("state", "queue", "rankings"):
        assert value(web, "pikdame_redis_up", role=role) == 1

    # a worker verifies it: the lag observed once, the backlog empty
    stack.workers.append(start_worker(stack.env, tmp_path / "worker.log"))
    wait_for(lambda: answers(stack.ports["worker"]))
    wait_for(
        lambda: (
            call("GET", f"/api/attempts/{aid}", None)[1]["attempt"]["verification"]["status"]
            == "verified"
        )
    )
    worker = stack.samples("worker")
    assert value(worker, "pikdame_verifications_total", status="verified") == 1
    assert value(worker, "pikdame_verification_lag_seconds_count") == 1
    web = stack.samples("web")
    assert value(web, "pikdame_verification_waiting") == 0
    assert value(web, "pikdame_queue_jobs", queue="verify-metrics") == 0

    # the stream closed: the group's open streams go back to none
    events.close()
    wait_for(lambda: value(stack.samples("stream"), "pikdame_streams_open", kind="lobby") == 0)
    stream = stack.samples("stream")
    assert value(stream, "pikdame_streams_opened_total", kind="lobby") == 1
    lobby = {"route": "/api/lobby/events", "method": "GET", "status": "200"}
    assert value(stream, "pikdame_http_requests_total", **lobby) == 1

    # the publisher's second moves on
    first = value(stack.samples("publisher"), "pikdame_publisher_last_published_second")
    wait_for(
        lambda: (
            value(stack.samples("publisher"), "pikdame_publisher_last_published_second")
            > max(first, 0)
        )
    )

    # the refresher's kept reads are aged at each scrape (present, from the publisher's start)
    kept_age = ("pikdame_publisher_kept_age_seconds", frozenset[tuple[str, str]]())
    assert stack.samples("publisher")[kept_age] >= 0

    # nothing personal in any scrape; routes are rules
    app = make_app(stack.server.url, Clock())
    rules = {rule.rule for rule in app.url_map.iter_rules()}
    for role in ROLES:
        text = stack.scrape(role)
        for secret in (NAME, token, aid):
            assert secret not in text, (role, secret)
        check_labels(text, rules)


@pytest.fixture
def job_env(redis_url: str, clock: Clock, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A worker's context on this test's Redis and the tests' clock (worker.jobs)."""
    for name, given in service_env(redis_url, SECRET.decode()).items():
        monkeypatch.setenv(name, given)
    cached = jobs.context
    cached.cache_clear()
    ctx = cached()
    clocked = replace(ctx, settings=replace(ctx.settings, now=clock))
    monkeypatch.setattr(jobs, "context", lambda: clocked)
    yield
    cached.cache_clear()


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


@pytest.mark.integration
def test_a_late_turn_timer_a_seat_and_a_rating_are_counted_on_the_tests_clock(
    app: Flask, clock: Clock, rdb: redis.Redis[str], job_env: None
) -> None:
    # a turn timer played 5 s after its deadline (R9): 5 s of lateness
    ada = app.test_client()
    seats = [{"kind": "human"}, {"kind": "bot", "level": "beginner"}]
    body = {"name": "Ada", "seats": seats, "rules": {"turn_timer": 30}}
    made = ada.post("/api/tables", json=body).get_json()
    table_id, auth = made["table"]["id"], {"Authorization": f"Bearer {made['token']}"}
    assert ada.post(f"/api/tables/{table_id}/start", json={}, headers=auth).status_code == 200
    table = ada.get(f"/api/tables/{table_id}", headers=auth).get_json()["table"]
    count = sample("pikdame_turn_timer_lateness_seconds_count")
    total = sample("pikdame_turn_timer_lateness_seconds_sum")
    clock.advance(seconds=35)
    assert jobs.table_turn_timeout(table_id, table["seq"])["played"] >= 1
    assert sample("pikdame_turn_timer_lateness_seconds_count") == count + 1
    assert sample("pikdame_turn_timer_lateness_seconds_sum") == pytest.approx(total + 5)
    # a job for a seq that moved on plays nothing and observes nothing
    assert jobs.table_turn_timeout(table_id, table["seq"])["played"] == 0
    assert sample("pikdame_turn_timer_lateness_seconds_count") == count + 1

    # a quick-match ticket seated after 20 s with a bot (docs/LOBBY.md)
    seated = sample("pikdame_match_time_to_seat_seconds_count", game="pikdame")
    waited = sample("pikdame_match_time_to_seat_seconds_sum", game="pikdame")
    bob = app.test_client()
    ask = {"game": "pikdame", "name": "Bob", "seats": 3, "turn_timer": 30, "bots_after": 20}
    assert bob.post("/api/match", json=ask).status_code == 201
    clock.advance(seconds=20)
    assert bob.get("/api/match").get_json()["match"]["status"] == "matched"
    assert bob.get("/api/match").get_json()["match"]["status"] == "matched"  # seated once
    assert sample("pikdame_match_time_to_seat_seconds_count", game="pikdame") == seated + 1
    assert sample("pikdame_match_time_to_seat_seconds_sum", game="pikdame") == pytest.approx(
        waited + 20
    )

    # a rated table settled once, however often it is asked
    rated = sample("pikdame_rating_updates_total", game="gin")
    rated_seats = [Rated(0, "acc-m1", "A", None, 1), Rated(1, "acc-m2", "B", None, 2)]
    ratings.settle(rdb, "gin", "metrics-table", rated_seats, 1000)
    ratings.settle(rdb, "gin", "metrics-table", rated_seats, 2000)
    assert sample("pikdame_rating_updates_total", game="gin") == rated + 1


def test_the_kept_reads_age_from_the_publishers_start_then_from_their_newest_version(
    app: Flask, tmp_path: Path
) -> None:
    """The refresher runs in a process of its own, so the publisher reads its health from what
    it wrote (``pikdame_publisher_kept_age_seconds``, alert StandingsRefresherBehind): the age
    grows while no version is written, whether it never was or stopped being."""
    now = [1_000_000.0]
    publisher = Publisher(app, tmp_path / "published", wall=lambda: now[0])
    now[0] += 42
    assert publisher.kept_age() == 42  # nothing written since the start
    version = tmp_path / "published" / KEPT / str(int((now[0] - 2) * 1000))
    version.mkdir(parents=True)
    assert publisher.kept_age() == 2
    now[0] += 100  # the refresher wrote nothing since
    assert publisher.kept_age() == 102


def test_a_route_is_its_rule_and_an_unknown_path_one_label(app: Flask) -> None:
    """Two attempts' reads are one route; any unknown path is "unmatched" (bounded labels)."""
    client = app.test_client()
    route = "/api/attempts/<id:attempt_id>"
    before = sample("pikdame_http_requests_total", route=route, method="GET", status="404")
    unmatched = sample("pikdame_http_requests_total", route="unmatched", method="GET", status="404")
    for path in ("/api/attempts/abc", "/api/attempts/def"):
        assert client.get(path).status_code == 404
    for path in ("/no/such/page", "/another/one"):
        assert client.get(path).status_code == 404
    assert sample("pikdame_http_requests_total", route=route, method="GET", status="404") == (
        before + 2
    )
    assert sample("pikdame_http_requests_total", route="unmatched", method="GET", status="404") == (
        unmatched + 2
    )
    assert sample("pikdame_http_requests_total", route="/api/attempts/abc") == 0


# A gunicorn worker's life in one process: requests answered, a stream left open, then death.
WORKER_LIFE = """
import os
from service.common import metrics
metrics.observe_request("/healthz", "GET", 200, 0.01)
metrics.observe_request("/healthz", "GET", 200, 0.02)
metrics.stream_opened("table")
print(os.getpid())
"""


def test_a_dead_workers_counts_stay_in_the_sum_and_its_files_go(tmp_path: Path) -> None:
    """gunicorn replaces a worker every max_requests: the master folds its counters into the
    group's archive (service.common.exposition.fold), so the sums hold while the files a scrape
    reads stay as few as the live workers; its open streams leave the sum."""
    env = {**os.environ, exposition.MULTIPROC_ENV: str(tmp_path)}
    pids = [
        int(
            subprocess.run(
                [sys.executable, "-c", WORKER_LIFE],
                env=env,
                cwd=ROOT,
                capture_output=True,
                text=True,
                check=True,
            ).stdout
        )
        for _ in range(2)
    ]
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=str(tmp_path))  # type: ignore[no-untyped-call]
    healthz = {"route": "/healthz", "method": "GET", "status": "200"}

    def read() -> Samples:
        return parse(generate_latest(registry).decode())

    before = read()
    assert value(before, "pikdame_http_requests_total", **healthz) == 4
    assert value(before, "pikdame_streams_open", kind="table") == 2
    for pid in pids:
        exposition.fold(pid, str(tmp_path))
    after = read()
    assert value(after, "pikdame_http_requests_total", **healthz) == 4
    assert value(after, "pikdame_http_request_duration_seconds_count", **healthz) == 4
    assert value(after, "pikdame_http_request_duration_seconds_sum", **healthz) == pytest.approx(
        0.06
    )
    assert value(after, "pikdame_streams_open", kind="table") == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "counter_archive.db",
        "histogram_archive.db",
    ]


def test_the_listeners_are_on_loopback_by_default_and_a_worker_has_none() -> None:
    defaults = {v.name: v.default for v in config.VARIABLES}
    for name in ("PIKDAME_METRICS_BIND", "PIKDAME_STREAM_METRICS_BIND"):
        assert str(defaults[name]).startswith("127.0.0.1:"), name
    assert str(defaults["PIKDAME_PUBLISH_METRICS_BIND"]).startswith("127.0.0.1:")
    for name in (
        "PIKDAME_WORKER_METRICS_BIND",
        "PIKDAME_ANALYSIS_METRICS_BIND",
        "PIKDAME_BOTS_METRICS_BIND",
    ):
        assert defaults[name] == "", name  # one port per worker: its unit's


PROMQL_NAME = re.compile(r"\bpikdame_[a-z_]+\b")


def promql_names(text: str) -> set[str]:
    """The metric names a PromQL expression reads; raises ValueError if it does not parse
    (promql-parser: Prometheus' grammar, offline)."""
    promql_parser.parse(text)
    return set(PROMQL_NAME.findall(text))


def test_the_alert_rules_and_the_dashboard_read_only_metrics_the_code_writes() -> None:
    known = declared_names()
    rules = yaml.safe_load((DEPLOY / "prometheus" / "alerts.yml").read_text())
    alerts = {r["alert"]: r for g in rules["groups"] for r in g["rules"]}
    assert {
        "VerificationLagOver60s",
        "ServerErrors",
        "RedisUnreachable",
        "TurnTimersLate",
        "PublisherStopped",
    } <= set(alerts)
    for name, rule in alerts.items():
        assert rule["expr"] and rule["labels"]["severity"] and rule["annotations"]["summary"]
        promql_parser.parse_duration(rule["for"])
        assert promql_names(rule["expr"]) <= known, name
    assert promql_names(alerts["VerificationLagOver60s"]["expr"]) & {
        "pikdame_verification_oldest_waiting_seconds"
    }
    scrape = yaml.safe_load((DEPLOY / "prometheus" / "prometheus.yml").read_text())
    assert "alerts.yml" in scrape["rule_files"]
    targets = {
        t for job in scrape["scrape_configs"] for c in job["static_configs"] for t in c["targets"]
    }
    defaults = {v.name: v.default for v in config.VARIABLES}
    for name in ("PIKDAME_METRICS_BIND", "PIKDAME_STREAM_METRICS_BIND"):
        assert defaults[name] in targets
    assert defaults["PIKDAME_PUBLISH_METRICS_BIND"] in targets
    compose = yaml.safe_load((DEPLOY / "prometheus" / "compose.yml").read_text())
    assert compose["rule_files"] == scrape["rule_files"]
    jobs_ = {job["job_name"] for job in compose["scrape_configs"]}
    assert jobs_ == {job["job_name"] for job in scrape["scrape_configs"]}
    for unit_name, setting, port in (
        ("pikdame-worker@", "PIKDAME_WORKER_METRICS_BIND", 920),
        ("pikdame-analysis@", "PIKDAME_ANALYSIS_METRICS_BIND", 921),
        ("pikdame-bots@", "PIKDAME_BOTS_METRICS_BIND", 922),
    ):
        unit = (DEPLOY / "systemd" / f"{unit_name}.service").read_text()
        assert f"{setting}=127.0.0.1:{port}%i" in unit, unit_name
        assert f"127.0.0.1:{port}1" in targets, unit_name

    dashboard = json.loads((DEPLOY / "grafana" / "pikdame.json").read_text())
    exprs = [t["expr"] for p in dashboard["panels"] for t in p.get("targets", [])]
    assert exprs
    for expr in exprs:
        assert promql_names(expr) <= known, expr
    shown = set().union(*(promql_names(e) for e in exprs))
    for wanted in (
        "pikdame_http_requests_total",
        "pikdame_verification_lag_seconds_bucket",
        "pikdame_queue_jobs",
        "pikdame_streams_open",
        "pikdame_match_tickets_waiting",
        "pikdame_match_time_to_seat_seconds_bucket",
        "pikdame_rating_updates_total",
        "pikdame_redis_errors_total",
        "pikdame_turn_timer_lateness_seconds_bucket",
        "pikdame_publisher_last_published_second",
    ):
        assert wanted in shown, wanted
