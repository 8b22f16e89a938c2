"""Verification through real RQ and a real Redis: full daily records verified per second.

    .venv/bin/python -m bench.bench_verify [--games 200] [--jobs N] [--before-rev 853f098]...
        [--rounds R] [--deployed-only]

Plays ``--games`` daily rounds through the API (in-process app, real Redis, a random-discard
player), so each record is a real one with the three zen bots' moves in it. By default every job
is one of them, a different game (as at the reset hour, where no two records are alike and no
cache carries over from one job to the next); ``--jobs`` above ``--games`` adds copies of them
(new attempt ids and players, the same moves), labelled so in the result.
Each configuration then verifies the same jobs from scratch: the deployed worker (``pikdame
worker``: SteadyWorker, each job in its own warm process) beside the same worker forking a work
horse per job as before (bench/forking_worker.py), the stock ``rq worker`` command as deployed
(forking a work horse per job), two of them, ``rq worker-pool -n 2``, and the non-forking
``SimpleWorker`` (one and two processes). With ``--before-rev`` the first reference is that
commit's own deployed worker, whole (its tree exported with git archive, its queue and its
``worker_args``), verifying the same records: the release a goal's "today" was measured on
(``--before-rev`` again adds another commit's, say the last release's, for an A/B).
``--rounds`` runs every configuration that many times, interleaved (each round all of them in
turn, each round starting one configuration further on), and reports each one's median rate
with every round's; ``--deployed-only`` leaves out the stock and forking workers (an A/B of
deployed workers).
Throughput counts from the first job's start to the last job's end (RQ's own timestamps), so
process start-up is apart; it is reported too. Writes bench/results/verify.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import redis

from bench.bench_http import before_tree
from bench.loadkit import ROOT, command_line, load_average, run_json, start_redis, write_result
from engine import ENGINE_VERSION
from service.app import create_app
from service.commands import worker_args
from service.common import keys
from service.dailies.queue import enqueue_verify, queue

RESULT = ROOT / "bench" / "results" / "verify.md"
SECRET = b"bench-secret"
DAY = dt.datetime.now(dt.UTC).date().isoformat()
RQ = str(Path(sys.executable).with_name("rq"))
STOCK = ["-c", "worker.settings", "--serializer", "json"]


def play_games(url: str, games: int) -> list[str]:
    """Finish ``games`` ranked attempts through the API; returns their ids."""
    clock = dt.datetime.combine(dt.date.fromisoformat(DAY), dt.time(12), dt.UTC)
    app = create_app(
        {
            "REDIS_URL": url,
            "PIKDAME_SECRET": SECRET,
            "PIKDAME_NOW": lambda: clock,
            "PIKDAME_LIMITS_ENABLED": False,
            "PIKDAME_RANK_ANONYMOUS": True,  # ranked without accounts, as before
        }
    )
    import logging

    logging.getLogger("pikdame.access").disabled = True
    rng = random.Random(5)
    ids = []
    for i in range(games):
        client = app.test_client()
        body = client.post(f"/api/daily/{DAY}/attempts", json={"name": f"V{i}"}).get_json()
        attempt = body["attempt"]
        headers = {"Authorization": f"Bearer {body['token']}"}
        while attempt["status"] == "playing":
            view = attempt["view"]
            if view["phase"] == "draw":
                move = "draw" if view["can_draw"] else "resign"
            else:
                move = "discard " + rng.choice(view["hand"])
            response = client.post(
                f"/api/attempts/{attempt['id']}/moves",
                json={"move": move, "seq": attempt["seq"]},
                headers=headers,
            )
            assert response.status_code == 200, response.get_json()
            attempt = response.get_json()["attempt"]
        assert attempt["ranked"], "only a ranked attempt is verified"
        ids.append(attempt["id"])
    return ids


def copies(client: redis.Redis[str], ids: list[str], jobs: int) -> list[str]:
    """``jobs`` attempts: the played ones, then copies with new ids and players."""
    out = list(ids)
    i = 0
    while len(out) < jobs:
        source = ids[i % len(ids)]
        fields: dict[str | bytes, str] = {}
        fields.update(client.hgetall(keys.attempt(source)))
        copy = f"{source}c{i}"
        fields.update({"id": copy, "player": f"p{copy}"})
        client.hset(keys.attempt(copy), mapping=fields)
        out.append(copy)
        i += 1
    return out


def reset(client: redis.Redis[str], ids: list[str]) -> None:
    """Forget every verdict, ranking and RQ key, so the next configuration starts afresh."""
    for pattern in ("rq:*", "pd:day:*:rank", "pd:day:*:names", "pd:player:*"):
        for key in client.scan_iter(pattern, count=1000):
            client.delete(key)
    client.delete(keys.ALLTIME, keys.FINISHED)
    pipe = client.pipeline(transaction=False)
    for aid in ids:
        pipe.hset(keys.attempt(aid), "verification", "queued")
        pipe.hdel(keys.attempt(aid), "reason")
    pipe.execute()


# The job's code alone (replay + verdict + ranking, no RQ) in a fresh interpreter: its bots'
# caches start empty and carry over from record to record, as in a deployed worker. (In the
# process that played the games every position would already be cached.)
JOB_CPU = """
import json, sys, time
import redis
from worker.verify import verify
client = redis.Redis.from_url(sys.argv[1], decode_responses=True)
secret = sys.argv[2].encode()
cpu = []
for aid in sys.argv[3:]:
    t = time.process_time()
    assert verify(client, aid, secret, client)["status"] == "verified"
    cpu.append((time.process_time() - t) * 1000)
print(json.dumps(cpu))
"""


def job_cpu(url: str, ids: list[str], tree: Path = ROOT) -> list[float]:
    """CPU ms of each job's own code (``tree``'s), verified in order by one fresh process."""
    cpu: list[float] = run_json(JOB_CPU, [url, SECRET.decode(), *ids], tree, dict(os.environ))
    return cpu


def job_cpu_beside(
    url: str, client: redis.Redis[str], ids: list[str], rev: str, rounds: int = 2
) -> tuple[list[float], list[float]]:
    """The job's code alone, ``rev``'s (its ``worker.verify.verify`` takes the same arguments)
    and ours, alternating ``rounds`` times on the same records: each round's mean CPU ms per
    verification, theirs and ours."""
    tree = before_tree(rev, Path(tempfile.mkdtemp(prefix="pikdame-bench-")) / "j", whole=True)
    theirs: list[float] = []
    ours: list[float] = []
    for _ in range(rounds):
        for side, where in ((theirs, tree), (ours, ROOT)):
            reset(client, ids)
            side.append(statistics.mean(job_cpu(url, ids, where)))
    return theirs, ours


@dataclass
class Run:
    name: str
    processes: int
    wall: float  # command start to exit (start-up included)
    span: float  # first job started to last job ended
    job_ms: list[float]
    cpu: float  # CPU seconds of the worker processes and their work horses, start-up included
    redis_cpu: float  # CPU seconds of the redis-server meanwhile (its share of the work)
    idle_cpu: float = 0.0  # the same processes' CPU seconds with nothing queued: their start-up
    idle_redis_cpu: float = 0.0  # the redis-server's meanwhile

    rates: tuple[float, ...] = ()  # each round's jobs/s, when merged from several rounds

    @property
    def rate(self) -> float:
        """Jobs a second: the median of the rounds' when merged, else this run's."""
        return statistics.median(self.rates) if self.rates else len(self.job_ms) / self.span

    @classmethod
    def merged(cls, runs: list[Run]) -> Run:
        """One row for the same configuration's rounds: the median rate, every job's time, the
        CPU and wall per job as if one run."""
        if len(runs) == 1:
            return runs[0]
        return cls(
            runs[0].name,
            runs[0].processes,
            statistics.median(r.wall for r in runs),
            sum(r.span for r in runs),
            [ms for r in runs for ms in r.job_ms],
            sum(r.cpu for r in runs),
            sum(r.redis_cpu for r in runs),
            sum(r.idle_cpu for r in runs),
            sum(r.idle_redis_cpu for r in runs),
            tuple(len(r.job_ms) / r.span for r in runs),
        )

    @property
    def work_cpu_ms(self) -> float:
        """The workers' CPU ms per job, start-up apart (a deployed worker starts once a day)."""
        return (self.cpu - self.idle_cpu) / len(self.job_ms) * 1000

    @property
    def per_cpu_second(self) -> float:
        """Jobs per CPU-second of the workers and the redis-server together, start-up apart:
        the throughput of a core, whatever waits on round trips."""
        spent = self.cpu - self.idle_cpu + self.redis_cpu - self.idle_redis_cpu
        return len(self.job_ms) / spent


# Run in an exported tree: its own queue module and its deployed worker's command line (the
# queue moved from service.data to service.dailies when the service was split by domain).
BEFORE_SETUP = """
import json, sys
try:
    from service.dailies.queue import enqueue_verify, queue
except ImportError:
    from service.data.queue import enqueue_verify, queue
from service.commands import worker_args
url, ids = sys.argv[1], sys.argv[2:]
q = queue(url, "verify")
assert all(enqueue_verify(q, aid) for aid in ids)
print(json.dumps(worker_args(burst=True)))
"""


def _server_cpu(raw: redis.Redis[bytes]) -> float:
    """The redis-server's CPU seconds so far (its main thread and the rest, user and system)."""
    info = raw.info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


def _run_processes(
    raw: redis.Redis[bytes], commands: list[list[str]], env: dict[str, str], tree: Path, name: str
) -> tuple[float, float, float]:
    """Run the burst workers of ``commands`` to their end: the wall seconds, their CPU seconds
    and the redis-server's meanwhile."""
    redis_cpu0 = _server_cpu(raw)
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    procs = [
        subprocess.Popen(
            command, env=env, cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        for command in commands
    ]
    for p in procs:
        _, err = p.communicate(timeout=900)
        if p.returncode:
            raise RuntimeError(f"{name}: exit {p.returncode}: {err.decode()[-2000:]}")
    wall = time.perf_counter() - started
    cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = cpu1.ru_utime + cpu1.ru_stime - cpu0.ru_utime - cpu0.ru_stime
    return wall, cpu, _server_cpu(raw) - redis_cpu0


def run_config(
    url: str,
    client: redis.Redis[str],
    ids: list[str],
    name: str,
    workers: int,
    commands: list[list[str]],
    tree: Path = ROOT,
) -> Run:
    """Verify every job of ``ids`` afresh with ``commands`` run in ``tree``; an empty command
    is ``tree``'s own deployed worker, queued by ``tree``'s own code."""
    reset(client, ids)
    env = {
        **os.environ,
        "REDIS_URL": url,
        "PIKDAME_SECRET": SECRET.decode(),
        "PYTHONPATH": str(tree),
    }
    if tree != ROOT:  # its own commands (queueing nothing yet)
        own: list[str] = run_json(BEFORE_SETUP, [url], tree, env)
        commands = [c if c else [*own, "-q"] for c in commands]
    raw = redis.Redis.from_url(url)
    # One of the processes with nothing queued, twice (the lesser: start-up noise only adds),
    # for the start-up of each: a configuration's commands are copies of one (a pool's one
    # command starts all of its processes).
    idle = min(_run_processes(raw, commands[:1], env, tree, name)[1:] for _ in range(2))
    idle_cpu, idle_redis_cpu = (x * len(commands) for x in idle)
    if tree == ROOT:
        q = queue(url, "verify")
        for aid in ids:
            assert enqueue_verify(q, aid)
    else:
        run_json(BEFORE_SETUP, [url, *ids], tree, env)
    wall, cpu, redis_cpu = _run_processes(raw, commands, env, tree, name)
    starts, ends, job_ms = [], [], []
    for aid in ids:
        started_at, ended_at = raw.hmget(f"rq:job:verify-{aid}", "started_at", "ended_at")
        assert started_at and ended_at, f"{name}: job for {aid} did not run"
        s = dt.datetime.fromisoformat(started_at.decode().replace("Z", "+00:00"))
        e = dt.datetime.fromisoformat(ended_at.decode().replace("Z", "+00:00"))
        starts.append(s)
        ends.append(e)
        job_ms.append((e - s).total_seconds() * 1000)
    verified = sum(client.hget(keys.attempt(a), "verification") == "verified" for a in ids)
    assert verified == len(ids), f"{name}: {verified} of {len(ids)} verified"
    span = (max(ends) - min(starts)).total_seconds()
    run = Run(name, workers, wall, span, job_ms, cpu, redis_cpu, idle_cpu, idle_redis_cpu)
    print(f"  {name}: {run.rate:.1f} jobs/s, wall {wall:.1f} s (load {load_average()})", flush=True)
    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=None, help="default: --games (all distinct)")
    parser.add_argument("--out", type=Path, default=RESULT)
    parser.add_argument(
        "--before-rev",
        action="append",
        default=[],
        help="also verify with this commit's own deployed worker (repeatable)",
    )
    parser.add_argument("--rounds", type=int, default=1, help="interleaved rounds of every row")
    parser.add_argument(
        "--deployed-only", action="store_true", help="only the deployed workers (ours, before)"
    )
    parser.add_argument(
        "--job-rev",
        default=None,
        help="also time this commit's job code alone on the same records, alternating with ours",
    )
    args = parser.parse_args(argv)
    command = command_line("bench.bench_verify", argv)
    load_start = load_average()
    server = start_redis()
    try:
        client: redis.Redis[str] = redis.Redis.from_url(server.url, decode_responses=True)
        played = play_games(server.url, args.games)
        moves = [int(client.hget(keys.attempt(a), "seq") or 0) for a in played]
        ids = copies(client, played, args.jobs or args.games)
        reset(client, ids)
        cpu = job_cpu(server.url, played)
        beside = job_cpu_beside(server.url, client, played, args.job_rev) if args.job_rev else None
        worker = [RQ, "worker", *STOCK, "--burst", "-q"]
        simple = [*worker, "-w", "rq.worker.SimpleWorker"]
        deployed = [*worker_args(burst=True), "-q"]
        forking = [*deployed, "-w", "bench.forking_worker.ForkingSteadyWorker"]
        configs: list[tuple[str, int, list[list[str]], Path]] = [
            ("deployed `pikdame worker` (SteadyWorker, jobs in its process)", 1, [deployed], ROOT),
            ("deployed `pikdame worker` ×2", 2, [deployed, deployed], ROOT),
        ]
        for rev in args.before_rev:
            tree = before_tree(
                rev, Path(tempfile.mkdtemp(prefix="pikdame-bench-")) / rev, whole=True
            )
            configs += [
                (f"before ({rev}): its deployed worker", 1, [[]], tree),
                (f"before ({rev}) ×2", 2, [[], []], tree),
            ]
        plain: list[tuple[str, int, list[list[str]]]] = [
            ("SteadyWorker forking a work horse per job", 1, [forking]),
            ("SteadyWorker forking ×2", 2, [forking, forking]),
            ("`rq worker` (stock: forks a work horse per job)", 1, [worker]),
            ("`rq worker` ×2", 2, [worker, worker]),
            ("`rq worker-pool -n 2`", 2, [[RQ, "worker-pool", *STOCK, "--burst", "-q", "-n", "2"]]),
            ("`rq worker -w rq.worker.SimpleWorker` (no fork)", 1, [simple]),
            ("`rq worker -w rq.worker.SimpleWorker` ×2", 2, [simple, simple]),
        ]
        if not args.deployed_only:
            configs += [(n, w, cmds, ROOT) for n, w, cmds in plain]
        rounds: dict[str, list[Run]] = {name: [] for name, *_ in configs}
        for r in range(args.rounds):
            # Each round starts one configuration further on: whichever runs first after the
            # play (or after a pool's minute-long exit) runs on a cold box, so no configuration
            # is always the one that does.
            for n, w, cmds, t in configs[r % len(configs) :] + configs[: r % len(configs)]:
                rounds[n].append(run_config(server.url, client, ids, n, w, cmds, t))
        runs = [Run.merged(done) for done in rounds.values()]
    finally:
        server.stop()
    load_end = load_average()
    named = {run.name: run for run in runs}
    first_before = f"before ({args.before_rev[0]}): its deployed worker" if args.before_rev else ""
    forking_one = named.get("SteadyWorker forking a work horse per job")
    before = named.get(first_before) or forking_one or runs[0]
    one = named.get("`rq worker` (stock: forks a work horse per job)", before)
    pool_base = named.get("`rq worker -w rq.worker.SimpleWorker` (no fork)", before)
    lines = [
        "## Verification through RQ: the deployed worker beside earlier commits' "
        "(bench/bench_verify.py --deployed-only)"
        if args.deployed_only
        else "## Verification through RQ (bench/bench_verify.py)",
        "",
        f"Command: `{command.strip()}` · engine `{ENGINE_VERSION}` · {dt.date.today()} · "
        f"{os.cpu_count()} cores shared with other engineers' jobs; load average at the start "
        f"{load_start}, at the end {load_end}.",
        "",
        f"{len(played)} daily rounds played through the API (random-discard player against the "
        f"three zen bots; {statistics.median(moves)} moves per record, median), "
        + (
            f"{len(ids)} jobs, every one a different record"
            if len(ids) == len(played)
            else f"copied to {len(ids)} jobs (records repeat: caches carry over)"
        )
        + "; each configuration verifies all of them from scratch (replay from the "
        "day's seed with every bot move recomputed, score compared, ranked) with one redis-server "
        "(AOF, fsync every second) on the same machine. *jobs/s* = jobs / (last job's end − first "
        "job's start) from RQ's timestamps; *wall* includes starting the processes; *CPU ms per "
        "job* is the CPU time of the worker processes and their work horses (start-up "
        "included) divided by the jobs; *redis-server CPU* is the server's own (INFO cpu) over "
        "the same run, its share of every job. *Start-up apart*: one of each configuration's "
        "processes first runs with nothing queued (twice, the lesser kept), and that CPU (and "
        "the redis-server's) for each of its processes is taken off (a deployed worker starts "
        "once a day); *jobs per CPU-second* counts the "
        "workers' and the redis-server's CPU together, the throughput of a core whatever "
        "waits on round trips.",
        "",
        "The job's code alone (no RQ), in one fresh process verifying the records in turn: "
        f"**{statistics.median(cpu):.1f} ms CPU** per "
        f"verification (median of {len(cpu)}; p90 {sorted(cpu)[int(0.9 * (len(cpu) - 1))]:.1f} "
        f"ms), i.e. {1000 / statistics.median(cpu):,.0f} per core-second.",
        "",
    ]
    if beside is not None:
        theirs, ours = beside
        lines += [
            f"Beside {args.job_rev}'s job code on the same records, the two trees alternating "
            f"{len(ours)} times (mean CPU ms per verification, each in a fresh process): theirs "
            f"{', '.join(f'{x:.1f}' for x in theirs)}, ours {', '.join(f'{x:.1f}' for x in ours)}"
            f": **{statistics.median(theirs) / statistics.median(ours):.2f}×** as fast.",
            "",
        ]
    lines += [
        "| workers | processes | jobs/s | each round's jobs/s | per process "
        "| vs 1 process of its reference (before; forking; stock; SimpleWorker) | job p50 ms "
        "| job p99 ms | wall s | CPU ms per job | redis-server CPU µs per job "
        "| CPU ms per job, start-up apart | jobs per CPU-second (worker + Redis) "
        "| vs its reference per CPU-second |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
        "| ---: | ---: |",
    ]
    for run in runs:
        base = (
            pool_base
            if "SimpleWorker" in run.name
            else (forking_one or before)
            if "forking" in run.name
            else before
            if "before" in run.name or "deployed" in run.name
            else one
        )
        ms = sorted(run.job_ms)
        lines.append(
            f"| {run.name} | {run.processes} | {run.rate:.1f} | "
            f"{', '.join(f'{r:.1f}' for r in run.rates) or f'{run.rate:.1f}'} | "
            f"{run.rate / run.processes:.1f} | "
            f"{run.rate / base.rate:.2f}× | {statistics.median(ms):.1f} | "
            f"{ms[int(0.99 * (len(ms) - 1))]:.1f} | {run.wall:.1f} | "
            f"{run.cpu / len(run.job_ms) * 1000:.1f} | "
            f"{run.redis_cpu / len(run.job_ms) * 1e6:.0f} | {run.work_cpu_ms:.1f} | "
            f"{run.per_cpu_second:.1f} | {run.per_cpu_second / base.per_cpu_second:.2f}× |"
        )
    lines.append("")
    write_result(args.out, lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
