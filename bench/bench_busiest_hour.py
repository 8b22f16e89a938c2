"""The busiest hour, measured end to end: simulated players through the shipped site, arrivals
ramped until verification falls behind or moves get slow. Writes bench/results/busiest_hour.md.

    .venv/bin/python -m bench.bench_busiest_hour [--step-seconds 120] [--start-rate 3600]
        [--factor 1.5] [--max-steps 12] [--think-min 1] [--think-max 3]
        [--reads-per-player 6] [--drain-seconds 60] [--workers CORES] [--seed 1] [--out PATH]

    # a short run (about three minutes with start-up and drain; a round lasts about 30 s):
    .venv/bin/python -m bench.bench_busiest_hour --step-seconds 60 --start-rate 3600 \\
        --factor 1.5 --max-steps 2 --drain-seconds 30

The site runs as deploy/ runs it on one box, every process on this machine's cores beside the
load generator (so the figures are the box's with its load generator, not the box's alone):
redis-server (AOF, fsync every second), the API's gunicorn (deploy/gunicorn.conf.py), the
tables' stream group (deploy/gunicorn_stream.conf.py, idle here), one steady worker per core
(``pikdame worker``: service.commands.worker_args), one analysis worker, the publisher
(``python -m service.publish``), nginx with the shipped site (tests/support/front.py) and the
reconciler every two minutes (pikdame-reconcile.timer), each role's metrics listener on.

Arrivals are open-loop (Poisson, a seeded generator of the load program's own) at a rate that
grows by ``--factor`` every ``--step-seconds``. Each player reads today's challenge, starts
today's attempt, plays the whole round move by move (tests/support/player.py's player: draw,
discard the costliest card) thinking ``--think-min``–``--think-max`` seconds before each move,
and once its round has finished waits for the verdict as the end page does
(``GET …/verification?wait=25``; a ``Retry-After`` answer is asked again after that many
seconds), then reads its place on the board. Beside them anonymous readers, ``--reads-per-player``
per arriving player, each read on a new connection, read the published board and challenge and
the micro-cached later pages and all-time board. Every request goes through nginx on one kept-alive
connection per player.

Ranked play: each player is a new anonymous client, ranked with the operator's
``PIKDAME_RANK_ANONYMOUS=1`` (accounts cost passkey ceremonies per player; the verification job
is the same for an account's attempt: judge, rank, record). Rate limits stay on with limits no
one address reaches (every simulated player comes from 127.0.0.1), so each request still pays its
count.

Per step: players' arrivals an hour, the moves sent during the step (p50/p99/max through nginx,
from the client), the verdicts seen during the step (lag: the finishing move's answer to the
verdict seen by the client) and the oldest finished round still waiting at the step's end, the
worker's own lag histogram (``pikdame_verification_lag_seconds``, finish to rank written), reads,
errors, the event loop's own lateness (when it is large, the load generator is the bottleneck),
and CPU seconds per role. A step fails when a verdict waited over 60 s (seen or still waiting),
the moves' p99 is over 250 ms, or over 1 % of the requests failed; the ramp stops at the first
failed step, and the sustainable rate is the last step that passed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import redis

from bench.bench_front import start_publisher
from bench.bench_http import service_env
from bench.loadkit import (
    ROOT,
    Redis,
    command_line,
    cpu_seconds,
    load_average,
    start_redis,
    write_result,
)
from service.commands import analysis_worker_args, worker_args
from service.web.publishing import BOARD_PAGE
from tests.support.front import Front, start_front
from tests.support.player import next_move
from tests.support.processes import Process, WebServer, spawn, start_stream, start_web
from tests.support.servers import free_port

RESULT: Final = ROOT / "bench" / "results" / "busiest_hour.md"
LAG_LIMIT_S: Final = 60.0  # the alert's verification lag (deploy/prometheus/alerts.yml)
MOVE_P99_LIMIT_MS: Final = 250.0
ERROR_LIMIT: Final = 0.01
OTHER_WORK: Final = 0.2  # the machine's share busy with other work that marks a run loaded
WAIT_S: Final = 25  # the end page's long poll (templates/static/js/pikdame/end.js)
RECONCILE_EVERY_S: Final = 120  # deploy/systemd/pikdame-reconcile.timer
REQUEST_TIMEOUT_S: Final = 60.0
LAG_METRIC: Final = "pikdame_verification_lag_seconds"


# --- a small keep-alive HTTP/1.1 client (no asyncio HTTP library is installed) -----------------


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


class Http:
    """One client's kept-alive HTTP/1.1 connection to the front, opened again when it closes
    (as a browser's). A request on a reused connection that the server had closed meanwhile is
    sent once more on a new one (nothing of it was answered)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def call(
        self, method: str, path: str, body: dict[str, Any] | None = None, token: str = ""
    ) -> Answer:
        head = f"{method} {path} HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\n"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        data = b""
        if body is not None:
            data = json.dumps(body).encode()
            head += f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
        request = head.encode() + b"\r\n" + data
        for _ in range(2):
            reused = self.writer is not None
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
            assert self.reader is not None and self.writer is not None
            try:
                self.writer.write(request)
                await self.writer.drain()
                line = await self.reader.readline()
                if not line:
                    raise ConnectionResetError("closed before an answer")
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if reused:
                    continue
                raise
            try:
                return await self._rest(line)
            except BaseException:
                self.close()
                raise
        raise ConnectionResetError("closed twice before an answer")

    async def _rest(self, line: bytes) -> Answer:
        assert self.reader is not None
        status = int(line.split()[1])
        headers: dict[str, str] = {}
        while True:
            header = await self.reader.readline()
            if header in (b"\r\n", b"\n", b""):
                break
            name, _, value = header.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        if "content-length" in headers:
            body = await self.reader.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            chunks = []
            while True:
                size = int((await self.reader.readline()).split(b";")[0], 16)
                if size == 0:
                    while (await self.reader.readline()) not in (b"\r\n", b"\n", b""):
                        pass
                    break
                chunks.append(await self.reader.readexactly(size))
                await self.reader.readexactly(2)
            body = b"".join(chunks)
        elif status in (204, 304):
            body = b""
        else:
            body = await self.reader.read()
            headers["connection"] = "close"
        if headers.get("connection", "").lower() == "close":
            self.close()
        return Answer(status, headers, body)


# --- the site as deployed ----------------------------------------------------------------------


@dataclass
class Site:
    """Every role of the one-box deployment, running; ``stop`` ends them in reverse order."""

    redis: Redis
    web: WebServer
    stream: WebServer
    workers: list[Process]
    analysis: Process
    front: Front
    publisher: subprocess.Popen[bytes]
    worker_metrics: list[str]
    env: dict[str, str]
    logs: Path
    stopping: threading.Event = field(default_factory=threading.Event)

    @property
    def web_log(self) -> Path:
        return self.logs / "web.log"

    def pids(self) -> dict[str, list[int]]:
        return {
            "web": [self.web.process.popen.pid],
            "stream": [self.stream.process.popen.pid],
            "workers": [w.popen.pid for w in self.workers],
            "analysis": [self.analysis.popen.pid],
            "redis": [self.redis.process.pid],
            "nginx": [self.front.process.pid],
            "publisher": [self.publisher.pid],
        }

    def stop(self) -> None:
        self.stopping.set()
        self.front.stop()
        self.publisher.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.publisher.wait(timeout=15)
        for process in [self.analysis, *self.workers, self.stream.process, self.web.process]:
            process.stop()
        self.redis.stop()


def reconcile_every(site: Site) -> None:
    """``pikdame reconcile`` every two minutes, as its systemd timer runs it."""
    while not site.stopping.wait(RECONCILE_EVERY_S):
        subprocess.run(
            [sys.executable, "-m", "service.cli", "reconcile"],
            env=site.env,
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
            timeout=RECONCILE_EVERY_S,
        )


def start_site(workers: int) -> Site:
    """Every role started as deployed (see the module's docstring); on a failure to start, what
    had started is stopped again."""
    logs = Path(tempfile.mkdtemp(prefix="pikdame-busiest-", dir=os.environ.get("BENCH_LOG_DIR")))
    server = start_redis()
    started: list[Any] = [server]
    try:
        env = {
            **service_env(server.url),
            "PIKDAME_PROXIES": "127.0.0.1",  # behind the front
            "PIKDAME_LOGLEVEL": "info",  # as deployed
            "PYTHONPATH": str(ROOT),
            # every role's metrics listener on, on ports of this run's
            "PIKDAME_METRICS_BIND": f"127.0.0.1:{free_port()}",
            "PIKDAME_STREAM_METRICS_BIND": f"127.0.0.1:{free_port()}",
            "PIKDAME_PUBLISH_METRICS_BIND": f"127.0.0.1:{free_port()}",
        }
        web = start_web(env, logs / "web.log", processes=None)  # a process per core, as deployed
        started.append(web.process)
        stream = start_stream(env, logs / "stream.log", processes=None)
        started.append(stream.process)
        metrics, steady = [], []
        for n in range(workers):
            bind = f"127.0.0.1:{free_port()}"
            metrics.append(f"http://{bind}/metrics")
            worker_env = {**env, "PIKDAME_WORKER_METRICS_BIND": bind}
            steady.append(spawn(worker_args(), worker_env, logs / f"worker{n}.log"))
            started.append(steady[-1])
        analysis = spawn(analysis_worker_args(), env, logs / "analysis.log")
        started.append(analysis)
        front = start_front(
            web.base.removeprefix("http://"), stream=stream.base.removeprefix("http://")
        )
        started.append(front)
        publisher = start_publisher(env, front.published)
    except BaseException:
        for part in reversed(started):
            part.stop()
        raise
    site = Site(server, web, stream, steady, analysis, front, publisher, metrics, env, logs)
    threading.Thread(target=reconcile_every, args=(site,), daemon=True).start()
    return site


# --- what a step records --------------------------------------------------------------------


def quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass
class Step:
    """What happened during one step of the ramp (a request belongs to the step it was sent in,
    a verdict to the step it was seen in)."""

    index: int
    rate: float  # offered players an hour
    seconds: float = 0.0
    arrivals: int = 0
    started: int = 0  # rounds started (201)
    finished: int = 0
    moves: list[float] = field(default_factory=list)  # ms
    reads: list[float] = field(default_factory=list)  # ms
    lags: list[float] = field(default_factory=list)  # s
    requests: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    oldest_waiting: float = 0.0  # s, the oldest finished round without a verdict at the end
    queue: int = 0  # jobs in the verification queue at the end
    loop_late: list[float] = field(default_factory=list)  # ms the event loop woke late
    app_moves: list[float] = field(default_factory=list)  # ms inside the app (its request log)
    worker_lag: tuple[int, float, float] = (0, float("nan"), float("nan"))  # n, mean, p99 ≤
    cpu: dict[str, float] = field(default_factory=dict)  # CPU seconds by role
    machine_busy: float = float("nan")  # the whole machine, share of all cores
    load: str = ""
    aborted: bool = False

    def error_count(self) -> int:
        return sum(self.errors.values())

    def failures(self) -> list[str]:
        why = []
        worst_lag = max([*self.lags, self.oldest_waiting])
        if worst_lag > LAG_LIMIT_S:
            why.append(f"verification lag {worst_lag:.0f} s")
        if self.moves and quantile(self.moves, 0.99) > MOVE_P99_LIMIT_MS:
            why.append(f"moves' p99 {quantile(self.moves, 0.99):.0f} ms")
        if self.requests and self.error_count() > ERROR_LIMIT * self.requests:
            why.append(f"{self.error_count()} errors")
        return why


class Run:
    """The load program's state: the current step, every player's round, what each step saw."""

    def __init__(self, host: str, port: int, day: str, args: argparse.Namespace) -> None:
        self.host, self.port, self.day, self.args = host, port, day, args
        self.steps: list[Step] = []
        self.drain = Step(-1, 0.0)
        self.current: Step = self.drain
        self.waiting: dict[str, float] = {}  # attempt id → when its round finished
        self.names = 0
        self.cut_off = 0  # players still playing or waiting when the drain ended
        self.cache: dict[str, int] = {}  # the public reads' X-Cache-Status (PUBLISHED, HIT…)
        self.cpu: dict[str, float] = {}  # CPU seconds by role over the whole run, drain included
        self.seconds = 0.0
        self.tasks: set[asyncio.Task[None]] = set()

    @staticmethod
    def error(step: Step, kind: str) -> None:
        step.errors[kind] = step.errors.get(kind, 0) + 1

    async def timed(
        self,
        http: Http,
        method: str,
        path: str,
        body: dict[str, Any] | None = None,
        token: str = "",
    ) -> tuple[Answer | None, float]:
        """The answer (None when the request failed: counted as an error) and its ms."""
        step = self.current
        step.requests += 1
        began = time.perf_counter()
        try:
            answer = await asyncio.wait_for(
                http.call(method, path, body, token), timeout=REQUEST_TIMEOUT_S
            )
        except (OSError, TimeoutError, EOFError, ValueError) as e:
            http.close()
            self.error(step, type(e).__name__)
            return None, (time.perf_counter() - began) * 1000
        ms = (time.perf_counter() - began) * 1000
        if answer.status >= 400:
            self.error(step, f"{method} {answer.status}")
        return answer, ms

    def spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def player(self, rng: random.Random) -> None:
        http = Http(self.host, self.port)
        try:
            await self._play(http, rng)
        finally:
            http.close()

    async def _play(self, http: Http, rng: random.Random) -> None:
        args = self.args
        step = self.current
        answer, ms = await self.timed(http, "GET", "/api/daily")
        self.read(step, answer, ms)
        await asyncio.sleep(rng.uniform(args.think_min, args.think_max))
        self.names += 1
        body = {"name": f"Last {self.names}"}
        answer, _ = await self.timed(http, "POST", f"/api/daily/{self.day}/attempts", body)
        if answer is None or answer.status != 201:
            return
        self.current.started += 1
        started = answer.json()
        token, attempt = started["token"], started["attempt"]
        path = f"/api/attempts/{attempt['id']}"
        while attempt["status"] != "finished":
            await asyncio.sleep(rng.uniform(args.think_min, args.think_max))
            move = {"move": next_move(attempt["view"], None), "seq": attempt["seq"]}
            step = self.current
            answer, ms = await self.timed(http, "POST", f"{path}/moves", move, token)
            step.moves.append(ms)
            if answer is not None and answer.status == 503 and "retry-after" in answer.headers:
                await asyncio.sleep(float(answer.headers["retry-after"]))
                continue
            if answer is None or answer.status != 200:
                return
            attempt = answer.json()["attempt"]
        finished = time.perf_counter()
        self.current.finished += 1
        self.waiting[attempt["id"]] = finished
        try:
            await self._await_verdict(http, path, token, finished)
        finally:
            self.waiting.pop(attempt["id"], None)
        step = self.current
        answer, ms = await self.timed(
            http, "GET", f"/api/leaderboard/{self.day}/around/{attempt['id']}?radius=5"
        )
        self.read(step, answer, ms)

    async def _await_verdict(self, http: Http, path: str, token: str, finished: float) -> None:
        """As the end page waits: long polls of WAIT_S, again after a Retry-After's seconds."""
        while True:
            answer, _ = await self.timed(
                http, "GET", f"{path}/verification?wait={WAIT_S}", None, token
            )
            if answer is None or answer.status != 200:
                await asyncio.sleep(1.0)
                continue
            verification = answer.json()["verification"]
            if verification and verification["status"] in ("verified", "rejected"):
                self.current.lags.append(time.perf_counter() - finished)
                if verification["status"] != "verified" or verification.get("rank") is None:
                    self.error(self.current, "not verified with a rank")
                return
            if "retry-after" in answer.headers:
                await asyncio.sleep(float(answer.headers["retry-after"]))

    def read(self, step: Step, answer: Answer | None, ms: float) -> None:
        """A public read's time, and where the front answered it from."""
        step.reads.append(ms)
        if answer is not None:
            status = answer.headers.get("x-cache-status") or "app"
            self.cache[status] = self.cache.get(status, 0) + 1

    async def reader(self, rng: random.Random) -> None:
        """An anonymous visitor's one read (a new connection): the published challenge and
        board's first page, or the micro-cached second page and all-time board."""
        paths = (
            "/api/daily",
            f"/api/leaderboard/{self.day}?offset=0&limit={BOARD_PAGE}",
            f"/api/leaderboard/{self.day}?offset={BOARD_PAGE}&limit={BOARD_PAGE}",
            "/api/leaderboard/all-time?offset=0&limit=50",
        )
        http = Http(self.host, self.port)
        try:
            step = self.current
            answer, ms = await self.timed(http, "GET", rng.choice(paths))
            self.read(step, answer, ms)
        finally:
            http.close()

    async def arrivals(self, rate_s: float, until: float, rng: random.Random) -> None:
        """Players (and their readers) arriving at ``rate_s`` a second until ``until``."""
        reads_s = rate_s * self.args.reads_per_player
        next_player = time.perf_counter() + rng.expovariate(rate_s)
        next_read = time.perf_counter() + (rng.expovariate(reads_s) if reads_s else 1e18)
        while True:
            due = min(next_player, next_read)
            if due >= until:
                return
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            if next_player <= next_read:
                self.current.arrivals += 1
                self.spawn(self.player(random.Random(rng.random())))
                next_player += rng.expovariate(rate_s)
            else:
                self.spawn(self.reader(random.Random(rng.random())))
                next_read += rng.expovariate(reads_s)

    def oldest_waiting(self) -> float:
        now = time.perf_counter()
        return max((now - t for t in self.waiting.values()), default=0.0)


async def loop_lateness(run: Run, period: float = 0.1) -> None:
    """How late the event loop wakes (the load generator's own delay in every latency)."""
    while True:
        before = time.perf_counter()
        await asyncio.sleep(period)
        run.current.loop_late.append((time.perf_counter() - before - period) * 1000)


# --- CPU and the worker's lag histogram -----------------------------------------------------


def role_cpu(site: Site) -> dict[str, float]:
    cpu = {}
    for role, pids in site.pids().items():
        total = 0.0
        for pid in pids:
            with contextlib.suppress(FileNotFoundError, ProcessLookupError):
                total += cpu_seconds(pid, tree=True)
        cpu[role] = total
    own = resource.getrusage(resource.RUSAGE_SELF)
    cpu["generator"] = own.ru_utime + own.ru_stime
    children = resource.getrusage(resource.RUSAGE_CHILDREN)  # the reconciler's runs
    cpu["reconciler"] = children.ru_utime + children.ru_stime
    return cpu


def machine_jiffies() -> tuple[int, int]:
    """(busy, total) jiffies of every core since boot (/proc/stat)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


BUCKET = re.compile(LAG_METRIC + r'_bucket\{le="([^"]+)"\} ([0-9.e+]+)')


def worker_histogram(site: Site) -> dict[str, float]:
    """The workers' verification lag histogram summed: bucket bounds → counts, and the sum."""
    found: dict[str, float] = {}
    for url in site.worker_metrics:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                text = response.read().decode()
        except OSError:
            continue
        for le, count in BUCKET.findall(text):
            found[le] = found.get(le, 0.0) + float(count)
        m = re.search(LAG_METRIC + r"_sum ([0-9.e+]+)", text)
        if m:
            found["sum"] = found.get("sum", 0.0) + float(m.group(1))
    return found


def histogram_step(before: dict[str, float], after: dict[str, float]) -> tuple[int, float, float]:
    """(verdicts, mean lag, the bucket bound holding the 99th percentile) between two scrapes."""
    count = int(after.get("+Inf", 0) - before.get("+Inf", 0))
    if count <= 0:
        return 0, float("nan"), float("nan")
    mean = (after.get("sum", 0.0) - before.get("sum", 0.0)) / count
    bounds = sorted((float(le), le) for le in after if le != "sum")
    for bound, le in bounds:
        if after[le] - before.get(le, 0.0) >= 0.99 * count:
            return count, mean, bound
    return count, mean, float("inf")


def app_moves(log: Path, offset: int) -> list[float]:
    """The moves' times inside the app (ms, the request log's), from ``offset`` on."""
    found = []
    with log.open() as lines:
        lines.seek(offset)
        for line in lines:
            if line.startswith("{") and '"attempts.post_move"' in line:
                with contextlib.suppress(ValueError, KeyError):
                    found.append(float(json.loads(line)["ms"]))
    return found


# --- the ramp ---------------------------------------------------------------------------------


async def ramp(site: Site, args: argparse.Namespace) -> Run:
    host, port = site.front.base.removeprefix("http://").split(":")
    first = Http(host, int(port))
    daily = (await first.call("GET", "/api/daily")).json()
    first.close()
    run = Run(host, int(port), daily["date"], args)
    rng = random.Random(args.seed)
    queue = redis.Redis.from_url(site.redis.url)
    late = asyncio.get_running_loop().create_task(loop_lateness(run))
    cpu_start, run_start = await asyncio.to_thread(role_cpu, site), time.perf_counter()
    rate = float(args.start_rate)
    for index in range(args.max_steps):
        step = Step(index + 1, rate)
        run.steps.append(step)
        run.current = step
        cpu0, jiffies0 = await asyncio.to_thread(role_cpu, site), machine_jiffies()
        histogram0 = await asyncio.to_thread(worker_histogram, site)
        log0 = site.web_log.stat().st_size
        began = time.perf_counter()
        until = began + args.step_seconds
        feeding = asyncio.get_running_loop().create_task(arrivals_with_watch(run, rate, until, rng))
        await feeding
        step.aborted = time.perf_counter() < until - 0.5
        step.seconds = time.perf_counter() - began
        step.oldest_waiting = run.oldest_waiting()
        step.queue = int(await asyncio.to_thread(queue.llen, "rq:queue:verify"))
        cpu1, jiffies1 = await asyncio.to_thread(role_cpu, site), machine_jiffies()
        histogram1 = await asyncio.to_thread(worker_histogram, site)
        step.cpu = {role: cpu1[role] - cpu0[role] for role in cpu1}
        busy, total = jiffies1[0] - jiffies0[0], jiffies1[1] - jiffies0[1]
        step.machine_busy = busy / total if total else float("nan")
        step.worker_lag = histogram_step(histogram0, histogram1)
        step.app_moves = await asyncio.to_thread(app_moves, site.web_log, log0)
        step.load = load_average()
        print(summary(step), flush=True)
        if step.failures():
            break
        rate *= args.factor
    run.current = run.drain
    # No more arrivals: the players in their rounds go on for ``--drain-seconds``.
    deadline = time.perf_counter() + args.drain_seconds
    while run.tasks and time.perf_counter() < deadline:
        await asyncio.sleep(0.5)
    run.drain.oldest_waiting = run.oldest_waiting()
    run.cut_off = len(run.tasks)
    for task in list(run.tasks):
        task.cancel()
    await asyncio.gather(*run.tasks, return_exceptions=True)
    late.cancel()
    cpu_end = await asyncio.to_thread(role_cpu, site)
    run.cpu = {role: cpu_end[role] - cpu_start[role] for role in cpu_end}
    run.seconds = time.perf_counter() - run_start
    return run


async def arrivals_with_watch(run: Run, rate: float, until: float, rng: random.Random) -> None:
    """The step's arrivals, ended early once a finished round has waited past the limit."""
    feeding = asyncio.get_running_loop().create_task(run.arrivals(rate / 3600, until, rng))
    while not feeding.done():
        if run.oldest_waiting() > LAG_LIMIT_S:
            feeding.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await feeding
            return
        await asyncio.sleep(1.0)


# --- the report -------------------------------------------------------------------------------


def summary(step: Step) -> str:
    lag = max([*step.lags, 0.0])
    return (
        f"step {step.index}: {step.rate:,.0f}/h offered, {step.arrivals} arrived, "
        f"{len(step.moves)} moves p99 {quantile(step.moves, 0.99):.0f} ms, "
        f"{len(step.lags)} verdicts max lag {lag:.1f} s, oldest waiting "
        f"{step.oldest_waiting:.1f} s, errors {step.error_count()} (load {step.load})"
        + (f" FAILED: {', '.join(step.failures())}" if step.failures() else "")
    )


def fmt(value: float, digits: int = 0) -> str:
    return "–" if value != value else f"{value:,.{digits}f}"  # NaN: nothing measured


def step_rows(steps: list[Step]) -> list[str]:
    rows = []
    for s in steps:
        seconds = s.seconds or float("nan")
        n, mean, p99 = s.worker_lag
        cells = [
            str(s.index),
            fmt(s.rate),
            fmt(s.arrivals / seconds * 3600),
            str(s.started),
            str(s.finished),
            fmt(len(s.moves) / seconds, 1),
            fmt(quantile(s.moves, 0.5), 1),
            fmt(quantile(s.moves, 0.99), 1),
            fmt(max(s.moves, default=float("nan")), 1),
            fmt(quantile(s.app_moves, 0.99), 1),
            str(len(s.lags)),
            fmt(quantile(s.lags, 0.5), 2),
            fmt(quantile(s.lags, 0.99), 2),
            fmt(max(s.lags, default=float("nan")), 2),
            fmt(s.oldest_waiting, 1),
            str(s.queue),
            f"{n}: {fmt(mean, 3)} / ≤ {fmt(p99, 2)}",
            fmt(len(s.reads) / seconds, 1),
            fmt(quantile(s.reads, 0.99), 1),
            str(s.error_count()),
            fmt(quantile(s.loop_late, 0.99), 1),
            "; ".join(s.failures()) or "within",
        ]
        rows.append("| " + " | ".join(cells) + " |")
    return rows


ROLES: Final = (
    "web",
    "stream",
    "workers",
    "analysis",
    "redis",
    "nginx",
    "publisher",
    "reconciler",
    "generator",
)


def cpu_rows(steps: list[Step], cores: int) -> list[str]:
    rows = []
    for s in steps:
        site = sum(v for k, v in s.cpu.items() if k != "generator")
        per_round = site / s.started * 1000 if s.started else float("nan")
        cells = " | ".join(f"{s.cpu.get(role, 0.0) / s.seconds:.2f}" for role in ROLES)
        rows.append(
            f"| {s.index} | {cells} | {site / s.seconds / cores:.0%} | "
            f"{fmt(s.machine_busy * 100)} % | {fmt(per_round)} | {s.load} |"
        )
    return rows


def whole_run(run: Run) -> list[str]:
    """CPU per verified round over the whole run (the idle roles' baseline included), the
    figure to set beside the capacity plan's CPU per player."""
    verdicts = sum(len(s.lags) for s in [*run.steps, run.drain])
    started = sum(s.started for s in [*run.steps, run.drain])
    if not verdicts or not run.seconds:
        return []
    moves = sum(len(s.moves) for s in [*run.steps, run.drain])
    site = sum(v for k, v in run.cpu.items() if k != "generator")
    parts = ", ".join(
        f"{role} {run.cpu.get(role, 0.0) / verdicts * 1000:.1f}"
        for role in ROLES
        if role != "generator"
    )
    return [
        f"Whole run ({run.seconds:.0f} s, {started} rounds started, {verdicts} verified, "
        f"{moves / started:.1f} moves a round): the site's CPU **{site / verdicts * 1000:.0f} ms "
        f"per verified round** ({parts} ms; the idle roles' baseline included, the rounds cut "
        "off at the end not counted); the load generator's "
        f"{run.cpu.get('generator', 0.0) / verdicts * 1000:.1f} ms apart.",
        "",
    ]


def contention(steps: list[Step], cores: int) -> list[str]:
    """A warning when other work kept the machine busy beside the run (its figures are then the
    site's under that contention, not the box's capacity)."""
    others = []
    for s in steps:
        ours = sum(s.cpu.values()) / s.seconds / cores if s.seconds else 0.0
        if s.machine_busy == s.machine_busy:  # measured
            others.append(max(0.0, s.machine_busy - ours))
    if not others or max(others) < OTHER_WORK:
        return []
    low, high = f"{min(others):.0%}", f"{max(others):.0%}"
    spread = low if low == high else f"{low}–{high}"
    return [
        f"**Preliminary: a loaded machine.** Other work kept {spread} "
        "of the machine's cores busy beside this run (its own processes, the generator "
        "included, are counted apart): the figures are the site's under that contention, not "
        "the box's capacity. Measure again on a quiet machine before deploy/SCALING.md is "
        "changed from them.",
        "",
    ]


def sustainable(steps: list[Step]) -> list[str]:
    passed = [s for s in steps if not s.failures()]
    if not passed:
        return [
            f"**Sustainable: below the first step's {steps[0].rate:,.0f} players an hour** "
            "(it failed already)."
            if steps
            else "No step ran."
        ]
    s = passed[-1]
    per_hour = s.arrivals / s.seconds * 3600
    end = "" if len(passed) < len(steps) else "; the ramp ended there, no step failed"
    return [
        f"**Sustainable: {s.rate:,.0f} players an hour offered** (step {s.index}, "
        f"{per_hour:,.0f} arrived an hour{end}), the load generator on the same cores: moves p50 "
        f"{fmt(quantile(s.moves, 0.5), 1)} ms, p99 {fmt(quantile(s.moves, 0.99), 1)} ms; "
        f"verification lag p50 {fmt(quantile(s.lags, 0.5), 2)} s, p99 "
        f"{fmt(quantile(s.lags, 0.99), 2)} s, max {fmt(max(s.lags, default=float('nan')), 2)} s."
    ]


def report(run: Run, args: argparse.Namespace, argv: list[str] | None, started: str) -> list[str]:
    cores = os.cpu_count() or 1
    drain = run.drain
    errors: dict[str, int] = {}
    for s in [*run.steps, drain]:
        for kind, count in s.errors.items():
            errors[kind] = errors.get(kind, 0) + count
    return [
        "## The busiest hour, end to end (bench/bench_busiest_hour.py)",
        "",
        f"`{command_line('bench.bench_busiest_hour', argv)}`, started {started} UTC on "
        f"{cores} cores; the whole site as deployed on one box (nginx with the shipped site, "
        "gunicorn as deploy/gunicorn.conf.py, the stream group, one steady worker per core, "
        "the analysis worker, the publisher, the reconciler, redis-server with AOF) **and the "
        "load generator on the same cores**. Players think "
        f"{args.think_min:g}–{args.think_max:g} s before each move and read "
        f"{args.reads_per_player:g} more reads each as anonymous visitors; anonymous attempts "
        "ranked (`PIKDAME_RANK_ANONYMOUS=1`).",
        "",
        *contention(run.steps, cores),
        *sustainable(run.steps),
        "",
        "A step fails when a verdict waited over 60 s (seen, or the oldest still waiting at the "
        "step's end), the moves' p99 is over 250 ms, or over 1 % of requests failed. *Moves*: "
        "sent during the step, ms from the client through nginx; *lag*: the finishing move's "
        "answer to the verdict seen by the client (its long poll), s, verdicts seen during the "
        "step; *in app p99*: the moves' time inside the app (its request log; the rest of a "
        "move's time is nginx, gunicorn's queue and the client); *worker*: the workers' own "
        "histogram, finish to rank written (verdicts: mean s / the bucket bound holding the "
        "p99); *loop p99*: how late the load generator's event loop "
        "woke (ms; large values mean the generator, not the site, was late).",
        "",
        "| step | offered /h | arrived /h | started | finished | moves/s | move p50 | move p99 "
        "| move max | in app p99 | verdicts | lag p50 | lag p99 | lag max | oldest waiting "
        "| queue | worker | reads/s | read p99 | errors | loop p99 | verdict |",
        "|" + " ---: |" * 21 + " --- |",
        *step_rows(run.steps),
        "",
        "CPU by role, in cores (CPU seconds per second of the step); *site* is every role but the "
        "generator as a share of all cores; *machine* is the whole machine's busy share (other "
        "work on it included); *ms/round* is the site's CPU per round started in the step.",
        "",
        "| step | " + " | ".join(ROLES) + " | site | machine | ms/round | load average |",
        "| ---: | " + " | ".join("---:" for _ in ROLES) + " | ---: | ---: | ---: | --- |",
        *cpu_rows(run.steps, cores),
        "",
        *whole_run(run),
        f"After the ramp: {args.drain_seconds:g} s with no arrivals, then "
        f"{run.cut_off} players still playing or waiting were cut off; oldest finished "
        f"round without a verdict then {drain.oldest_waiting:.1f} s; errors meanwhile "
        f"{drain.error_count()}. Errors by kind over the run: "
        + (", ".join(f"{kind} {count}" for kind, count in sorted(errors.items())) or "none")
        + ". The public reads were answered from (nginx's X-Cache-Status; *app*: none): "
        + (", ".join(f"{status} {count}" for status, count in sorted(run.cache.items())) or "none")
        + ".",
        "",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--step-seconds", type=float, default=120.0)
    parser.add_argument("--start-rate", type=float, default=3600.0, help="players an hour")
    parser.add_argument("--factor", type=float, default=1.5, help="each step's rate ÷ the last")
    parser.add_argument("--max-steps", type=int, default=12)
    parser.add_argument("--think-min", type=float, default=1.0, help="s before a move, at least")
    parser.add_argument("--think-max", type=float, default=3.0, help="s before a move, at most")
    parser.add_argument("--reads-per-player", type=float, default=6.0)
    parser.add_argument("--drain-seconds", type=float, default=60.0)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="steady workers")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=RESULT)
    args = parser.parse_args(argv)
    started = time.strftime("%Y-%m-%d %H:%M", time.gmtime())
    site = start_site(args.workers)
    try:
        run = asyncio.run(ramp(site, args))
    finally:
        site.stop()
    write_result(args.out, report(run, args, argv, started))
    print(f"logs: {site.logs}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
