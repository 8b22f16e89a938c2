"""What the shipped deployments promise, read from deploy/.

No shipped deployment publishes gunicorn (its threads never time out a half-sent request): nginx
is in front, buffers requests and is the only trusted proxy; the units restart forever.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from service.common import config

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
LONG_RUNNING = [
    "pikdame-web.service",
    "pikdame-stream.service",
    "pikdame-worker@.service",
    "pikdame-analysis@.service",
    "pikdame-bots@.service",
    "pikdame-publish.service",
]


def directives(text: str) -> dict[str, str]:
    return dict(
        line.split("=", 1) for line in text.splitlines() if "=" in line and line[:1].isalpha()
    )


@pytest.mark.parametrize("unit", LONG_RUNNING)
def test_systemd_units_restart_forever_with_a_delay(unit: str) -> None:
    found = directives((DEPLOY / "systemd" / unit).read_text())
    assert found["Restart"] == "always"
    assert int(found["RestartSec"]) >= 1
    assert found["StartLimitIntervalSec"] == "0"


def test_the_systemd_web_listens_on_loopback_only() -> None:
    start = directives((DEPLOY / "systemd" / "pikdame-web.service").read_text())["ExecStart"]
    assert "--bind 127.0.0.1:" in start


def test_the_stream_group_is_first_on_a_contended_core() -> None:
    """Every stream of a gevent worker waits while the worker waits for a core: the stream
    unit weighs more than every other unit (systemd's default 100), in compose too (Docker's
    default 1,024 shares). bench_tables --busy 2 --stream-weight 400 measures it."""
    units = sorted((DEPLOY / "systemd").glob("*.service"))
    weights = {u.name: int(directives(u.read_text()).get("CPUWeight", "100")) for u in units}
    stream = weights.pop("pikdame-stream.service")
    assert stream == 400 and max(weights.values()) == 100, weights
    assert "    cpu_shares: 4096" in compose_service("stream")
    others = (DEPLOY / "docker-compose.yml").read_text()
    for service in ("stream", "analysis"):
        others = others.replace(compose_service(service), "")
    assert "cpu_shares" not in others


def test_analyses_take_what_the_timers_and_moves_leave_of_a_core() -> None:
    """Issue 38: the analysis workers weigh least (systemd's and Docker's defaults are 100 and
    1,024), and only they serve the analyses' queue."""
    unit = directives((DEPLOY / "systemd" / "pikdame-analysis@.service").read_text())
    assert int(unit["CPUWeight"]) < 100
    assert unit["ExecStart"].endswith("pikdame analysis-worker")
    assert "    cpu_shares: 256" in compose_service("analysis")
    assert '["pikdame", "analysis-worker"]' in compose_service("analysis")


def test_a_sentinel_setups_redis_is_promotable_only_after_its_first_sync() -> None:
    """Failover: the drop-in for Debian's redis-server starts every server of the
    Sentinel setup with replica-priority 0 and lets ``pikdame redis-promotable`` raise it (what
    tests/service/test_failover.py does by hand with the killed primary)."""
    unit = DEPLOY / "systemd" / "redis-server.service.d" / "pikdame-sentinel.conf"
    lines = [line for line in unit.read_text().splitlines() if line.startswith("Exec")]
    assert lines[0] == "ExecStart="  # replaces Debian's command line
    assert lines[1].startswith("ExecStart=/usr/bin/redis-server ")
    assert lines[1].endswith(" --replica-priority 0")
    assert " redis-promotable " in lines[2] and lines[2].startswith("ExecStartPost=-")


def compose_service(name: str) -> str:
    """One service's block of docker-compose.yml (text: no YAML parser in the dev deps)."""
    text = (DEPLOY / "docker-compose.yml").read_text()
    match = re.search(rf"^  {name}:\n((?:    .*\n|\n)*)", text, re.MULTILINE)
    assert match, name
    return match.group(1)


def test_compose_publishes_nginx_only_and_trusts_only_it() -> None:
    assert "ports:" in compose_service("nginx")
    for service in ("web", "worker", "reconcile", "redis"):
        assert "ports:" not in compose_service(service), service
    web = compose_service("web")
    address = re.search(r"ipv4_address: ([0-9.]+)", compose_service("nginx"))
    assert address
    assert f'PIKDAME_PROXIES: "{address.group(1)}"' in web
    assert 'PIKDAME_SECURE_COOKIES: "1"' in web
    assert "*" not in web


def test_compose_mounts_every_file_the_site_includes_and_shares_the_published_reads() -> None:
    """nginx refuses to start on an include it cannot read: every /etc/nginx/pikdame/ file the
    site includes is mounted into the nginx container; the publisher's files reach nginx, read
    only, where the site's roots look for them (PIKDAME_PUBLISH_DIR's default)."""
    nginx, publisher = compose_service("nginx"), compose_service("publisher")
    included = {
        name
        for path in (DEPLOY / "nginx").glob("*.conf")
        for name in re.findall(r"include /etc/nginx/pikdame/([\w.]+);", path.read_text())
    }
    assert {"http.conf", "proxy.conf", "headers.conf", "published.conf"} <= included
    for name in included:
        assert f"/etc/nginx/pikdame/{name}:ro" in nginx, name
    shipped = str(config.load({"PIKDAME_SECRET": "x"}).publish_dir)
    assert f"published:{shipped}:ro" in nginx
    assert f"published:{shipped}\n" in publisher + "\n"
    roots = re.findall(
        r"root (\S+?)/\$time_iso8601/", (DEPLOY / "nginx" / "proxy.conf").read_text()
    )
    assert roots and set(roots) == {shipped}
    assert "service.publish" in publisher
    unit = (DEPLOY / "systemd" / "pikdame-publish.service").read_text()
    assert "python -m service.publish" in unit and "RuntimeDirectory=pikdame" in unit


def test_nginx_reads_whole_requests_before_proxying() -> None:
    proxy = directives(
        "\n".join(
            line.split("#")[0].strip().rstrip(";").replace(" ", "=", 1)
            for line in (DEPLOY / "nginx" / "proxy.conf").read_text().splitlines()
        )
    )
    assert proxy["proxy_request_buffering"] == "on"
    assert proxy["client_body_buffer_size"] == proxy["client_max_body_size"]
    assert proxy["client_body_timeout"].endswith("s")
    assert proxy["client_header_timeout"].endswith("s")
    for site in ("pikdame.conf", "compose.conf"):
        assert "include /etc/nginx/pikdame/proxy.conf;" in (DEPLOY / "nginx" / site).read_text()


def _printed_ints(script: str, given: dict[str, str] | None = None) -> list[int]:
    """The integers ``script`` prints, run in a fresh interpreter that reads deploy/'s configs
    as gunicorn does (its own collector, its own signal handlers), with ``given`` set."""
    env = {**os.environ, "PYTHONPATH": str(DEPLOY.parent), "PIKDAME_SECRET": "test"}
    for name in ("WEB_CONCURRENCY", "PIKDAME_THREADS", "PIKDAME_STREAM_PROCESSES"):
        env.pop(name, None)
    env.update(given or {})
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True
    )
    return [int(v) for v in done.stdout.split()]


def test_web_workers_share_the_preloaded_app_and_are_not_recycled_every_few_seconds() -> None:
    """Reads: gunicorn's master freezes the preloaded app's objects before each fork
    (a worker's collections then never write to the pages it shares with the master), and a
    worker is replaced after 100,000 requests or more (at 5,000 a reset-hour worker was
    replaced every few seconds, each new one paying its first requests again)."""
    script = (
        "import gc, runpy, sys\n"
        f"conf = runpy.run_path({str(DEPLOY / 'gunicorn.conf.py')!r})\n"
        "assert conf['preload_app'] is True\n"
        "before = gc.get_freeze_count()\n"
        "conf['pre_fork'](None, None)\n"
        "print(before, gc.get_freeze_count(), conf['max_requests'], conf['max_requests_jitter'])\n"
    )
    before, after, max_requests, jitter = _printed_ints(script)
    assert before == 0 and after > 10_000  # what the master holds, now frozen
    assert max_requests >= 100_000 and 0 < jitter <= max_requests // 10


def test_a_stream_worker_freezes_the_loaded_app_before_serving() -> None:
    """A gevent stream worker (not preloaded: it imports the app itself) moves what it has
    loaded to the collector's permanent generation, so a full collection under load walks the
    streams' objects only, not the app's (about 150,000 objects, 80 ms of CPU each time:
    bench/results/notes/tables.md); its SIGTERM handler is still chained."""
    script = (
        "import gc, runpy, signal\n"
        f"conf = runpy.run_path({str(DEPLOY / 'gunicorn_stream.conf.py')!r})\n"
        "assert conf['preload_app'] is False\n"
        "import service.wsgi\n"  # the app, as gunicorn loads it before post_worker_init
        "before = gc.get_freeze_count()\n"
        "conf['post_worker_init'](None)\n"
        "chained = signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL\n"
        "print(before, gc.get_freeze_count(), int(chained))\n"
    )
    before, after, chained = _printed_ints(script)
    assert before == 0 and after > 10_000 and chained == 1


@pytest.mark.parametrize(
    ("given", "web", "threads", "streams"),
    [
        ({}, config.per_core(os.cpu_count()), 2, config.per_core(os.cpu_count())),  # deployed
        ({"WEB_CONCURRENCY": "1"}, 1, 2, config.per_core(os.cpu_count())),  # each on its own
        ({"WEB_CONCURRENCY": "4", "PIKDAME_STREAM_PROCESSES": "1"}, 4, 2, 1),
    ],
)
def test_the_stream_group_is_sized_apart_from_the_web_tier(
    given: dict[str, str], web: int, threads: int, streams: int
) -> None:
    """A process per core for the API (two threads each) and for the stream group, each sized
    by itself (WEB_CONCURRENCY, PIKDAME_STREAM_PROCESSES): a move is CPU-bound, and more API
    processes or threads than cores made it wait behind the others (bench/results/
    front_moves.md), while the stream group keeps its workers for its streams."""
    script = (
        "import runpy\n"
        f"web = runpy.run_path({str(DEPLOY / 'gunicorn.conf.py')!r})\n"
        f"stream = runpy.run_path({str(DEPLOY / 'gunicorn_stream.conf.py')!r})\n"
        "print(web['workers'], web['threads'], stream['workers'])\n"
    )
    assert _printed_ints(script, given) == [web, threads, streams]


@pytest.mark.parametrize(("cores", "processes"), [(None, 1), (1, 1), (2, 2), (4, 4), (64, 4)])
def test_a_process_per_core_at_most_four(cores: int | None, processes: int) -> None:
    assert config.per_core(cores) == processes
