"""HTTP under load: gunicorn as deployed, wrk on the same machine, beside a bare Flask endpoint.

    .venv/bin/python -m bench.bench_http [--seconds 5] [--rounds 3] [--entries 1000000]
        [--before-commit REV]   # also serve the hot paths as of REV, in the same run

Starts its own redis-server (AOF, fsync every second, as deployed) and gunicorn processes with
``deploy/gunicorn.conf.py`` unchanged: the service (``service.wsgi:app``) and the reference
(``bench.bare_app:app``, a constant). Rate limits stay on (their Redis round trips are part of
every request) with limits too high to be reached from one address. Every read is measured in
``--rounds`` rounds, targets interleaved, so slow moments of the shared machine hit all of them;
the figures are medians over the rounds. Writes bench/results/service.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import json
import os
import random
import shutil
import statistics
import subprocess
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis

from bench.loadkit import (
    ROOT,
    Web,
    WrkResult,
    command_line,
    cpu_seconds,
    load_average,
    parse_wrk,
    start_gunicorn,
    start_redis,
    write_result,
    wrk,
)
from engine import ENGINE_VERSION
from service.common import config, keys
from service.dailies import ranking

RESULT = ROOT / "bench" / "results" / "service.md"
MOVES_LUA = ROOT / "bench" / "moves.lua"
SECRET = "bench-secret"
DAY = dt.datetime.now(dt.UTC).date().isoformat()  # gunicorn runs on the real clock
HIGH = "1000000 per second"
SHAPE = config.load({"PIKDAME_SECRET": SECRET})  # what deploy/gunicorn.conf.py reads
SMALL_BOARD = 100
LOADS = itertools.count()  # the load players' names


@dataclass
class Target:
    """One URL measured by wrk, with its results over the rounds."""

    name: str
    url: str
    headers: dict[str, str] = field(default_factory=dict)
    script: Path | None = None
    pid: int = 0  # the gunicorn master serving it, for CPU per request
    runs: list[WrkResult] = field(default_factory=list)
    cpu_web: list[float] = field(default_factory=list)  # µs per request
    cpu_redis: list[float] = field(default_factory=list)

    def median(self, attr: str) -> float:
        return float(statistics.median(float(getattr(r, attr)) for r in self.runs))


def http_json(base: str, path: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method="POST" if data else "GET")
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


# The files the performance work changed (bench/results/service.md compares them before/after).
PERF_FILES = (
    "service/dailies/api_attempts.py",
    "service/dailies/api_daily.py",
    "service/dailies/api_leaderboard.py",
    "service/keys.py",
    "service/web/limits.py",
    "service/dailies/present.py",
    "service/queue.py",
    "service/ranking.py",
    "service/web/security.py",
    "service/store.py",
    "worker/verify.py",
)


def before_tree(rev: str, path: Path, whole: bool = False) -> Path:
    """HEAD's tree with PERF_FILES as of ``rev``: everything else (engine, bots, pages) the same,
    the service's hot paths before the change; with ``whole``, all of ``rev``'s tree (a change
    that moved the files, such as the refactor). Built with git archive; the working
    checkout is not touched."""
    path.mkdir(parents=True)

    def unpack(*what: str, commit: str) -> None:
        archive = subprocess.run(
            ["git", "archive", commit, *what], cwd=ROOT, capture_output=True, check=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(path)], input=archive, check=True)

    if whole:
        unpack(commit=rev)
        return path
    unpack(commit="HEAD")
    unpack(*PERF_FILES, commit=rev)
    return path


def first_move(view: dict[str, Any], rng: random.Random) -> str:
    """moves.lua's strategy for the first move (the script plays the rest)."""
    if view["phase"] == "draw":
        return "draw" if view["can_draw"] else "resign"
    return "discard " + str(rng.choice(view["hand"]))


def new_attempts(base: str, count: int, path: Path) -> None:
    """``count`` fresh attempts (each a new player: no cookie), written for moves.lua. The
    tokens stay in a temporary file, never in the results."""
    rng = random.Random(11)
    lines = []
    for _ in range(count):
        # a new name each time: names are unique per day, across runs too
        body = http_json(base, f"/api/daily/{DAY}/attempts", {"name": f"Load {next(LOADS)}"})
        attempt = body["attempt"]
        move = first_move(attempt["view"], rng)
        lines.append(f"{attempt['id']} {body['token']} {attempt['seq']} {move}")
    path.write_text("\n".join(lines) + "\n")


def fill_board(client: redis.Redis[str], entries: int, start: int = 0) -> float:
    """Ranked entries m<start> … m<entries-1> as the worker writes them (rank key + name),
    pipelined 10,000 at a time; returns the seconds it took."""
    rng = random.Random(7 + start)
    rank, names = keys.day_rank(DAY), keys.day_names(DAY)
    started = time.perf_counter()
    pipe = client.pipeline(transaction=False)
    for i in range(start, entries):
        key = ranking.rank_key(rng.randint(-600, 600), rng.randint(5, 60), rng.randrange(8 * 10**7))
        pipe.zadd(rank, {f"m{i}": key})
        pipe.hset(names, f"m{i}", f"Spieler {i}")
        pipe.hset(keys.attempt(f"m{i}"), "name", f"Spieler {i}")  # read by code before names
        if i % 10_000 == 9_999:
            pipe.execute()
    pipe.execute()
    return time.perf_counter() - started


def around_script(directory: Path, members: int, radius: int) -> Path:
    """A wrk script asking for the entries around a random ranked attempt on every request."""
    path = directory / f"around-{members}.lua"
    path.write_text(
        f"math.randomseed(7)\nrequest = function()\n"
        f'  local path = "/api/leaderboard/{DAY}/around/m" .. math.random(0, {members - 1})'
        f' .. "?radius={radius}"\n'
        f"  return wrk.format(nil, path)\nend\n"
    )
    return path


def measure(
    targets: list[Target], rounds: int, seconds: int, conns: int, threads: int, redis_pid: int
) -> None:
    for _ in range(rounds):
        for t in targets:
            web0, redis0 = cpu_seconds(t.pid, tree=True), cpu_seconds(redis_pid)
            result = wrk(
                t.url,
                threads=threads,
                connections=conns,
                seconds=seconds,
                headers=t.headers,
                script=t.script,
            )
            t.runs.append(result)
            n = max(1, result.requests)
            t.cpu_web.append((cpu_seconds(t.pid, tree=True) - web0) / n * 1e6)
            t.cpu_redis.append((cpu_seconds(redis_pid) - redis0) / n * 1e6)
            print(f"  {t.name}: {result.row()} (load {load_average()})", flush=True)


def read_rows(targets: list[Target], bare: Target) -> list[str]:
    rows = []
    for t in targets:
        ratios = [r.rate / b.rate for r, b in zip(t.runs, bare.runs, strict=True)]
        errors = sum(r.errors for r in t.runs)
        rows.append(
            f"| {t.name} | {t.median('rate'):,.0f} | {statistics.median(ratios):.0%} | "
            f"{t.median('p50'):.2f} | {t.median('p99'):.2f} | {errors} | "
            f"{statistics.median(t.cpu_web):,.0f} | {statistics.median(t.cpu_redis):,.0f} |"
        )
    return rows


def versus_rows(reads: list[Target], move_runs: dict[tuple[str, int], list[MoveRun]]) -> list[str]:
    """Current ÷ before, per round (the two measured next to each other), median over rounds:
    req/s (or moves/s) and CPU per request; empty without a *before* version."""
    by_name = {t.name: t for t in reads}
    rows = []
    for name, t in by_name.items():
        before = by_name.get(f"before: {name}")
        if before is None:
            continue
        rate = [a.rate / b.rate for a, b in zip(t.runs, before.runs, strict=True)]
        cpu = [b / a for a, b in zip(t.cpu_web, before.cpu_web, strict=True) if a > 0]
        rows.append(
            f"| {name} | {statistics.median(rate):.2f}× | {min(rate):.2f}–{max(rate):.2f} | "
            f"{statistics.median(cpu):.2f}× |"
        )
    for (label, think), runs in move_runs.items():
        before_runs = move_runs.get(("before: ", think))
        if label != "" or before_runs is None:
            continue
        rate = [a.result.rate / b.result.rate for a, b in zip(runs, before_runs, strict=True)]
        cpu = [b.cpu_web / a.cpu_web for a, b in zip(runs, before_runs, strict=True) if a.cpu_web]
        rows.append(
            f"| moves, think {think} ms | {statistics.median(rate):.2f}× | "
            f"{min(rate):.2f}–{max(rate):.2f} | {statistics.median(cpu):.2f}× |"
        )
    if not rows:
        return []
    return [
        "### Current vs before, side by side",
        "",
        "Each current measurement ÷ the *before* one made next to it in the same round, median "
        "over the rounds (the range shows the spread); *CPU* is before's web CPU per request ÷ "
        "the current's (above 1: the current code spends less).",
        "",
        "| request | req/s current ÷ before | range over rounds "
        "| CPU per request, before ÷ current |",
        "| --- | ---: | ---: | ---: |",
        *rows,
        "",
    ]


@dataclass
class MoveRun:
    name: str
    think: int
    result: WrkResult
    games: int
    failures: int
    app_ms: list[float]  # each move's time inside the app (its request log's "ms")
    cpu_web: float  # µs per move
    cpu_redis: float

    def app(self, q: float) -> float:
        ms = sorted(self.app_ms) or [0.0]
        return ms[int(q * (len(ms) - 1))]


def run_moves(
    web: Web,
    name: str,
    players: int,
    think_ms: int,
    seconds: int,
    directory: Path,
    redis_pid: int,
) -> MoveRun:
    """``players`` players (one wrk thread and connection each) playing moves.lua."""
    # Enough attempts that no player runs out: with no think time, room for 2,000 moves/s
    # among all players at 30 of a player's moves per attempt; else 40 moves per think time.
    if think_ms <= 0:
        per_player = int(seconds * 2000 / players / 30) + 4
    else:
        per_player = max(4, int(seconds * 40 / max(think_ms, 25)) + 4)
    attempts = directory / f"attempts-{name}-{think_ms}.txt"
    new_attempts(web.base, players * per_player, attempts)
    exe = shutil.which("wrk") or "wrk"
    args = [exe, f"-t{players}", f"-c{players}", f"-d{seconds}s", "--latency", "--timeout", "10s"]
    args += ["-s", str(MOVES_LUA), web.base, "--", str(attempts), str(think_ms), str(players)]
    offset = web.log.stat().st_size
    web0, redis0 = cpu_seconds(web.pid, tree=True), cpu_seconds(redis_pid)
    out = subprocess.run(args, capture_output=True, text=True, check=True, timeout=seconds + 120)
    web1, redis1 = cpu_seconds(web.pid, tree=True), cpu_seconds(redis_pid)
    attempts.unlink()

    def count(label: str) -> int:
        for line in out.stdout.splitlines():
            if line.startswith(label):
                return int(line.split(":")[1])
        return -1

    app_ms = []
    with web.log.open() as log:
        log.seek(offset)
        for line in log:
            if line.startswith("{") and '"attempts.post_move"' in line:
                app_ms.append(float(json.loads(line)["ms"]))
    result = parse_wrk(out.stdout)
    n = max(1, result.requests)
    run = MoveRun(
        name,
        think_ms,
        result,
        count("games finished"),
        # a read after a player's last attempt is no move: counted as a failure of the run
        count("move failures") + count("reads past the last attempt"),
        app_ms,
        (web1 - web0) / n * 1e6,
        (redis1 - redis0) / n * 1e6,
    )
    print(
        f"  moves {name} think {think_ms}: {result.row()} games {run.games} failures "
        f"{run.failures}, in the app p99 {run.app(0.99):.1f} ms (load {load_average()})",
        flush=True,
    )
    return run


def _median(values: list[float]) -> float:
    return float(statistics.median(values))


def move_cells(runs: list[MoveRun]) -> str:
    """A moves table's common cells, medians over the rounds: moves/s, wrk's p50 / p90 / p99,
    the app's own p50 / p99, the web's CPU per move."""
    return (
        f"{_median([r.result.rate for r in runs]):,.0f} | "
        f"{_median([r.result.p50 for r in runs]):.2f} | "
        f"{_median([r.result.p90 for r in runs]):.2f} | "
        f"{_median([r.result.p99 for r in runs]):.2f} | "
        f"{_median([r.app(0.5) for r in runs]):.1f} / {_median([r.app(0.99) for r in runs]):.1f} | "
        f"{_median([r.cpu_web for r in runs]):,.0f}"
    )


def move_failures(runs: list[MoveRun]) -> int:
    """Failed moves and wrk's errors, summed over the rounds."""
    return sum(r.failures + r.result.errors for r in runs)


def move_row(label: str, think: int, runs: list[MoveRun]) -> str:
    """Medians over the rounds (rounds finished and failures: summed)."""
    return (
        f"| {label.rstrip(': ') or 'current'} | {think} | {move_cells(runs)} | "
        f"{_median([r.cpu_redis for r in runs]):,.0f} | "
        f"{sum(r.games for r in runs)} | {move_failures(runs)} |"
    )


def redis_benchmark(port: int, requests: int) -> list[str]:
    """redis-benchmark's raw figures on the filled board (random members, 50 clients)."""
    rank = keys.day_rank(DAY)
    commands = {
        "ZREVRANK (around me: the position)": ["ZREVRANK", rank, "m__rand_int__"],
        "ZREVRANGE 0 49 WITHSCORES (top 50)": ["ZREVRANGE", rank, "0", "49", "WITHSCORES"],
        "ZADD (a verified attempt ranked)": ["ZADD", rank, "__rand_int__", "m__rand_int__"],
    }
    rows = []
    for label, command in commands.items():
        out = (
            subprocess.run(
                [
                    "redis-benchmark",
                    "-p",
                    str(port),
                    "-n",
                    str(requests),
                    "-c",
                    "50",
                    "-r",
                    "1000000",
                    "--csv",
                    *command,
                ],
                capture_output=True,
                text=True,
                check=True,
                timeout=300,
            )
            .stdout.strip()
            .splitlines()
        )
        header = [h.strip('"') for h in out[0].split(",")]
        values = dict(zip(header, (v.strip('"') for v in out[-1].split(",")), strict=True))
        rows.append(
            f"| {label} | {float(values['rps']):,.0f} | {values['p50_latency_ms']} | "
            f"{values['p99_latency_ms']} |"
        )
    return rows


def service_env(redis_url: str) -> dict[str, str]:
    """The environment of a benchmarked gunicorn: its Redis, the bench secret, rate limits on
    (each request pays its Redis round trip) but too high to be reached, quiet logs."""
    return {
        **os.environ,
        "REDIS_URL": redis_url,
        "PIKDAME_SECRET": SECRET,
        "PIKDAME_LIMIT_DEFAULT": HIGH,
        "PIKDAME_LIMIT_MOVES": HIGH,
        "PIKDAME_LIMIT_ATTEMPTS": HIGH,
        "PIKDAME_LOGLEVEL": "warning",
        # anonymous players ranked as before accounts, so both trees do the same work
        "PIKDAME_RANK_ANONYMOUS": "1",
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=int, default=5, help="per wrk run")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--threads", type=int, default=2, help="wrk threads for reads")
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--think", type=int, default=500, help="players' mean think time, ms")
    parser.add_argument("--move-seconds", type=int, default=10)
    parser.add_argument("--entries", type=int, default=1_000_000)
    parser.add_argument(
        "--before-commit",
        default=None,
        help="also measure the service with PERF_FILES as of this commit (the rest as of HEAD)",
    )
    parser.add_argument(
        "--before-rev",
        default=None,
        help="also measure the whole service tree of this commit (files moved since)",
    )
    parser.add_argument(
        "--limits-off-variant",
        action="store_true",
        help="also read from the current code with rate limits off (what the limiter costs)",
    )
    parser.add_argument("--out", type=Path, default=RESULT)
    args = parser.parse_args(argv)
    command = command_line("bench.bench_http", argv)
    load_start = load_average()
    tmp = Path(tempfile.mkdtemp(prefix="pikdame-bench-http-"))
    server = start_redis()
    client: redis.Redis[str] = redis.Redis.from_url(server.url, decode_responses=True)
    env = service_env(server.url)
    webs: list[Web] = []
    try:
        bare = start_gunicorn("bench.bare_app:app", env, "/bare")
        webs.append(bare)
        # Beside an old version, both are served from clean trees of HEAD (the same engine and
        # bots whatever the working checkout holds uncommitted).
        earlier = args.before_commit or args.before_rev
        current = ROOT if earlier is None else before_tree("HEAD", tmp / "current", whole=True)
        services = {"": start_gunicorn("service.wsgi:app", env, "/healthz", root=current)}
        webs.append(services[""])
        if earlier is not None:
            before = before_tree(earlier, tmp / "before", whole=args.before_rev is not None)
            services["before: "] = start_gunicorn("service.wsgi:app", env, "/healthz", root=before)
            webs.append(services["before: "])
        readers = dict(services)
        if args.limits_off_variant:
            # How much of a read the rate limiter costs: the current code with limits off
            # (reads only; not a deployable setting).
            off = {**env, "PIKDAME_LIMITS_ENABLED": "0"}
            readers["rate limits off: "] = start_gunicorn(
                "service.wsgi:app", off, "/healthz", root=current
            )
            webs.append(readers["rate limits off: "])
        fill_board(client, SMALL_BOARD)
        around_small = around_script(tmp, SMALL_BOARD, 5)
        bare_t = Target("bare Flask endpoint (constant)", bare.base + "/bare", pid=bare.pid)
        reads: list[Target] = [bare_t]
        for n, (label, web) in enumerate(readers.items()):
            # one name each: names are unique per day
            created = http_json(web.base, f"/api/daily/{DAY}/attempts", {"name": f"Ada {n}"})
            view_headers = {"Authorization": f"Bearer {created['token']}"}
            reads += [
                Target(f"{label}GET /api/daily", web.base + "/api/daily", pid=web.pid),
                Target(
                    f"{label}GET /api/attempts/{{id}} (bearer)",
                    web.base + f"/api/attempts/{created['attempt']['id']}",
                    view_headers,
                    pid=web.pid,
                ),
                Target(
                    f"{label}GET leaderboard top 50",
                    web.base + f"/api/leaderboard/{DAY}",
                    pid=web.pid,
                ),
                Target(f"{label}GET around me (r=5)", web.base, script=around_small, pid=web.pid),
            ]
        # Each read of the current code right beside the same read of the others (load drifts
        # on a shared machine: neighbours in time see the same load).
        groups = [reads[1 + 4 * i : 5 + 4 * i] for i in range(len(readers))]
        reads = [bare_t, *(t for same in zip(*groups, strict=True) for t in same)]
        print(f"reads, board of {SMALL_BOARD}", flush=True)
        conns, threads = args.connections, args.threads
        measure(reads, args.rounds, args.seconds, conns, threads, server.process.pid)

        print("moves", flush=True)
        move_runs: dict[tuple[str, int], list[MoveRun]] = {}
        for _ in range(args.rounds):
            for think in (args.think, 0):
                for label, web in services.items():
                    run = run_moves(
                        web, label, args.players, think, args.move_seconds, tmp, server.process.pid
                    )
                    move_runs.setdefault((label, think), []).append(run)

        fill_seconds = 0.0
        big: list[Target] = []
        raw: list[str] = []
        if args.entries > SMALL_BOARD:
            print(f"filling the board to {args.entries:,}", flush=True)
            fill_seconds = fill_board(client, args.entries, SMALL_BOARD)
            web = services[""]
            big_bare = Target(bare_t.name, bare_t.url, pid=bare.pid)
            big = [
                big_bare,
                Target("GET leaderboard top 50", web.base + f"/api/leaderboard/{DAY}", pid=web.pid),
                Target(
                    "GET leaderboard page in the middle",
                    web.base + f"/api/leaderboard/{DAY}?offset={args.entries // 2}",
                    pid=web.pid,
                ),
                Target(
                    "GET around me (r=5), random entry",
                    web.base,
                    script=around_script(tmp, args.entries, 5),
                    pid=web.pid,
                ),
            ]
            measure(big, args.rounds, args.seconds, conns, threads, server.process.pid)
            raw = redis_benchmark(server.port, 200_000)
        memory = client.memory_usage(keys.day_rank(DAY), samples=0) or 0
        names_memory = client.memory_usage(keys.day_names(DAY), samples=0) or 0
    finally:
        for web in webs:
            web.stop()
        server.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    load_end = load_average()
    wrk_args = f"wrk -t{threads} -c{conns} -d{args.seconds}s --latency"
    lines = [
        "## Service over HTTP (bench/bench_http.py)",
        "",
        f"Command: `{command.strip()}` · engine `{ENGINE_VERSION}` · {dt.date.today()} · "
        f"{os.cpu_count()} cores shared with other engineers' jobs; load average at the start "
        f"{load_start}, at the end {load_end}.",
        "",
        f"gunicorn with `deploy/gunicorn.conf.py` as deployed ({SHAPE.web_processes} gthread "
        f"workers × {SHAPE.web_threads} threads), one "
        "redis-server (AOF, fsync every second), and the load generator all on the same 2 cores. "
        "Rate limits on (every request counted in Redis) but set too high to be reached; "
        "*before* rows: the service's hot paths as of the commit named in the command (the rest "
        "of the code as of HEAD); *rate limits off* rows: the current code with limits disabled, "
        "i.e. what counting costs a read. "
        f"Reads: `{wrk_args}` per target, {args.rounds} rounds with the targets interleaved; "
        "medians over the rounds; *vs bare* is the median of the per-round ratios to the bare "
        "Flask endpoint (`bench/bare_app.py`, same gunicorn settings). *CPU µs/req*: CPU time "
        "of all the target's gunicorn processes (and of redis-server) during its runs divided by "
        "its requests.",
        "",
        f"### Reads (board of {SMALL_BOARD} entries)",
        "",
        "| request | req/s | vs bare | p50 ms | p99 ms | errors | web CPU µs/req "
        "| Redis CPU µs/req |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        *read_rows(reads, bare_t),
        "",
        *versus_rows(reads, move_runs),
        "### Moves: POST /api/attempts/{id}/moves with the bot turns it triggers",
        "",
        f"{args.players} players at once (`wrk -t{args.players} -c{args.players} "
        f"-d{args.move_seconds}s -s bench/moves.lua`, {args.rounds} rounds, versions and think "
        "times interleaved; medians over the rounds), one connection each, each playing its own "
        "attempts: draw, then discard a random card; a finished round is queued for verification "
        "and the player starts its next attempt. *think* is the mean pause between a player's "
        "moves (uniform 0 … 2× mean); 0 is the saturation test (every player moves as soon as "
        "the answer arrives): it gives the peak moves/s. *in the app* is the move's time from "
        "the app's own request log (before_request to after_request), so the gap to wrk's "
        "figure is queueing in gunicorn, the kernel and the load generator. *CPU µs/move* is "
        "the CPU time of all gunicorn processes (and of redis-server) over the run divided by "
        "the moves. A player's first move goes out without a pause: gunicorn's gthread worker "
        "holds a thread for up to 5 s on a new connection that has not sent its request yet, "
        "which would stall other players' moves behind idle new connections (nginx in front, as "
        "deployed, only connects with a whole request).",
        "",
        "| code | think ms | moves/s | p50 ms | p90 ms | p99 ms | in the app p50 / p99 ms "
        "| web CPU µs/move | Redis CPU µs/move | rounds finished | failures |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        *(move_row(label, think, runs) for (label, think), runs in move_runs.items()),
        "",
    ]
    if big:
        lines += [
            f"### Rankings at scale: a board of {args.entries:,} entries",
            "",
            f"Filled through a pipeline (10,000 commands per round trip) in {fill_seconds:.1f} s; "
            f"`MEMORY USAGE` of the sorted set {memory / 2**20:.1f} MiB, of the names hash "
            f"{names_memory / 2**20:.1f} MiB. Same wrk settings; *vs board of {SMALL_BOARD}* "
            "compares the p50 latency with the small board's above.",
            "",
            "| request | req/s | vs bare | p50 ms | p99 ms | errors | web CPU µs/req "
            f"| Redis CPU µs/req | p50 vs board of {SMALL_BOARD} |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        small = {t.name: t for t in reads}
        baseline = {
            "GET leaderboard top 50": small["GET leaderboard top 50"],
            "GET leaderboard page in the middle": small["GET leaderboard top 50"],
            "GET around me (r=5), random entry": small["GET around me (r=5)"],
        }
        for row, t in zip(read_rows(big, big[0]), big, strict=True):
            ref = baseline.get(t.name)
            ratio = f"{t.median('p50') / ref.median('p50'):.2f}×" if ref else "–"
            lines.append(f"{row} {ratio} |")
        lines += [
            "",
            "redis-benchmark on the same board (`redis-benchmark -n 200000 -c 50 -r 1000000 "
            "--csv <command>`, random members):",
            "",
            "| command | ops/s | p50 ms | p99 ms |",
            "| --- | ---: | ---: | ---: |",
            *raw,
            "",
        ]
    write_result(args.out, lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
