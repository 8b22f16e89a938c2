"""Analyses beside turn timers and a daily's verification (issue 38): 50 anonymous callers ask at
once for analyses of finished tables' rounds (every seat, both modes) and poll as the API says
(``Retry-After: 1``) while tables' turn timers fall due and the day's finished attempts are
verified. Writes bench/results/analysis_isolation.md.

    .venv/bin/python -m bench.bench_analysis_isolation [--requests 50] [--timers 40]
        [--verifications 8] [--window 90] [--steady 2] [--analysts 1]

Three runs, each on a fresh stack (redis-server, the API's gunicorn, the workers exactly as
deploy/ runs them: ``worker_args()`` and ``analysis_worker_args()``):

- ``without``: no analysis asked (the reference);
- ``isolated``: the analyses asked, served by their own worker (the deployed shape);
- ``shared``: the analyses asked, the steady workers listening to the analyses' queue too and no
  analysis worker (the shape before issue 38).

Timer lateness: how long after each deadline the timer's cut was published (the table's live
channel, one pattern subscription, as bench_tables). Verification lag: from queueing a finished
attempt's verification (what the finishing move does; one every ``window / verifications``
seconds) to its job's end as RQ records it. No figure here is asserted by any test.
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import threading
import time
from pathlib import Path
from typing import Any

import redis

from bench.bench_tables import listen_timers, new_table, parse_deadline, percentile
from bench.bench_verify import SECRET, play_games, reset
from bench.loadkit import command_line, load_average, write_result
from service.commands import analysis_worker_args, worker_args
from service.dailies.queue import enqueue_verify, fetch, queue
from tests.support.processes import Process, WebServer, service_env, spawn, start_web
from tests.support.servers import start_redis
from tests.support.tables import play_turn

ROOT = Path(__file__).resolve().parent.parent
RESULT = ROOT / "bench" / "results" / "analysis_isolation.md"
HUMAN: dict[str, Any] = {"kind": "human"}
BOT: dict[str, Any] = {"kind": "bot", "level": "beginner"}


class State:
    """What the listener thread shares (bench_tables.listen_timers' ``state``)."""

    def __init__(self) -> None:
        self.stop = threading.Event()
        self.published: dict[tuple[str, int], float] = {}


def finished_tables(web: WebServer, wanted: int) -> list[tuple[str, int, str]]:
    """Finished four-seat Pik Dame tables (round 1 played to its end, then resigned) until there
    are ``wanted`` analyses to ask: (table, seat, mode), every seat in both modes."""
    asks: list[tuple[str, int, str]] = []
    while len(asks) < wanted:
        status, body = web.call(
            "POST", "/api/tables", {"name": "Ada", "seats": [HUMAN] + [BOT] * 3}
        )
        assert status == 201, body
        table_id, token = body["table"]["id"], body["token"]

        def call(method: str, path: str, data: Any, token: str = token) -> tuple[int, Any]:
            return web.call(method, path, data, token)

        status, body = call("POST", f"/api/tables/{table_id}/start", {})
        assert status == 200, body
        table = body["table"]
        for _ in range(3000):
            if table["rounds"] and table["rounds"][0]["scores"] is not None:
                break
            table = play_turn(call, table)
        assert call("POST", f"/api/tables/{table_id}/resign", {})[0] == 200
        asks += [(table_id, seat, mode) for seat in range(4) for mode in ("view", "deal")]
    return asks[:wanted]


def ask_analyses(
    web: WebServer, asks: list[tuple[str, int, str]], end: float, answers: dict[int, int]
) -> list[threading.Thread]:
    """One anonymous caller per analysis: ask, then again every second until 200 or ``end``."""

    def caller(table_id: str, seat: int, mode: str) -> None:
        path = f"/api/tables/{table_id}/analysis?round=1&seat={seat}&mode={mode}"
        while time.time() < end:
            status, _ = web.call("GET", path, None)
            answers[status] = answers.get(status, 0) + 1
            if status == 200:
                return
            time.sleep(1)

    threads = [threading.Thread(target=caller, args=a, daemon=True) for a in asks]
    for thread in threads:
        thread.start()
    return threads


def run(shape: str, args: argparse.Namespace, logs: Path) -> dict[str, Any]:
    server = start_redis()
    url = server.url
    env = service_env(url, SECRET.decode())
    processes: list[Process] = []
    web = start_web(env, logs / f"{shape}-web.log")
    try:
        ids = play_games(url, args.verifications) if args.verifications else []
        client: redis.Redis[str] = redis.Redis.from_url(url, decode_responses=True)
        reset(client, ids)  # their verification is queued during the window, not before
        asks = finished_tables(web, args.requests) if shape != "without" else []
        steady = worker_args()
        if shape == "shared":  # before issue 38: every worker on every queue, analyses last
            steady += ["tables", "verify", "analysis"]
        for n in range(args.steady):
            processes.append(spawn(steady, env, logs / f"{shape}-worker{n}.log"))
        if shape == "isolated":
            for n in range(args.analysts):
                processes.append(spawn(analysis_worker_args(), env, logs / f"{shape}-a{n}.log"))
        time.sleep(5)  # the workers' imports

        state = State()
        deadlines: dict[str, float] = {}
        lateness: dict[str, float] = {}
        listener = threading.Thread(
            target=listen_timers, args=(url, deadlines, lateness, state), daemon=True
        )
        listener.start()
        start = time.time()
        end = start + args.window
        answers: dict[int, int] = {}
        callers = ask_analyses(web, asks, end, answers)
        verify_q = queue(url, "verify")
        queued: dict[str, float] = {}
        made: list[str] = []

        def make_timers() -> None:  # deadlines 30 s on, all inside the window
            spacing = (args.window - 45) / max(1, args.timers)
            for n in range(args.timers):
                time.sleep(max(0.0, start + n * spacing - time.time()))
                table_id, token = new_table(web, [HUMAN, BOT], turn_timer=30)
                _, body = web.call("GET", f"/api/tables/{table_id}", None, token)
                deadlines[table_id] = parse_deadline(body["table"]["deadline"])
                made.append(table_id)

        def queue_verifications() -> None:  # what each finishing move does, spread out
            spacing = args.window / max(1, len(ids) + 1)
            for n, aid in enumerate(ids):
                time.sleep(max(0.0, start + (n + 1) * spacing - time.time()))
                queued[aid] = time.time()
                enqueue_verify(verify_q, aid)

        drivers = [
            threading.Thread(target=make_timers, daemon=True),
            threading.Thread(target=queue_verifications, daemon=True),
        ]
        for thread in drivers:
            thread.start()
        # until every timer fired (or a minute and a half after the window: reported unfired)
        while time.time() < end + 90:
            done = not any(t.is_alive() for t in drivers) and len(lateness) >= len(made)
            if done and time.time() > end:
                break
            time.sleep(0.2)
        state.stop.set()
        for thread in callers:
            thread.join(timeout=5)
        # each verification's lag: from its queueing to its job's end, on RQ's record (the
        # same machine's clock), not to when this loop happened to look
        verdicts: dict[str, float] = {}
        for aid, at in queued.items():
            job = fetch(verify_q, aid)
            if job is not None and job.ended_at is not None:
                verdicts[aid] = job.ended_at.timestamp() - at
        late = sorted(lateness.values())
        lags = sorted(verdicts.values())
        return {
            "shape": shape,
            "asks": len(asks),
            "answers": dict(sorted(answers.items())),
            "timers": len(made),
            "fired": len(late),
            "t_median_s": round(statistics.median(late), 2) if late else None,
            "t_p99_s": round(percentile(late, 0.99), 2) if late else None,
            "t_max_s": round(late[-1], 2) if late else None,
            "verified": len(lags),
            "of": len(ids),
            "v_median_s": round(statistics.median(lags), 2) if lags else None,
            "v_max_s": round(lags[-1], 2) if lags else None,
        }
    finally:
        for process in processes:
            process.kill()
        web.process.stop()
        server.close()


def rows(results: list[dict[str, Any]]) -> list[str]:
    out = [
        "| run | analyses asked (answers) | timers fired | timer lateness median / p99 / max |"
        " verified | verification lag median / max |",
        "|---|---|---|---|---|---|",
    ]
    for r in results:
        answers = ", ".join(f"{n}× {s}" for s, n in r["answers"].items()) or "none"
        out.append(
            f"| {r['shape']} | {r['asks']} ({answers}) | {r['fired']}/{r['timers']} |"
            f" {r['t_median_s']} / {r['t_p99_s']} / {r['t_max_s']} s |"
            f" {r['verified']}/{r['of']} | {r['v_median_s']} / {r['v_max_s']} s |"
        )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--timers", type=int, default=40)
    parser.add_argument("--verifications", type=int, default=8)
    parser.add_argument("--window", type=int, default=90)
    parser.add_argument("--steady", type=int, default=2)
    parser.add_argument("--analysts", type=int, default=1)
    parser.add_argument("--shapes", default="without,isolated,shared")
    args = parser.parse_args(argv)
    logging.getLogger("pikdame.access").disabled = True
    logs = Path("/tmp") / f"bench-analysis-isolation-{int(time.time())}"
    logs.mkdir(parents=True)
    load = load_average()
    results = [run(shape, args, logs) for shape in args.shapes.split(",")]
    print(json.dumps(results))
    by = {r["shape"]: r for r in results}
    isolated, without = by.get("isolated"), by.get("without")
    goal = (
        "met"
        if isolated and isolated["t_p99_s"] is not None and isolated["t_p99_s"] <= 0.5
        else "not met"
    )
    lag = (
        f"verification lag median / max {isolated['v_median_s']} / {isolated['v_max_s']} s"
        f" against {without['v_median_s']} / {without['v_max_s']} s without them"
        if isolated and without
        else "verification lag: run both `isolated` and `without` to compare"
    )
    write_result(
        RESULT,
        [
            "## Analyses beside turn timers and verifications (bench/bench_analysis_isolation.py)",
            "",
            f"`{command_line('bench.bench_analysis_isolation', argv)}`"
            f" — load average before: {load}",
            "",
            *rows(results),
            "",
            f"Goal (isolated): timer lateness p99 ≤ 0.5 s under {args.requests} concurrent"
            f" anonymous analysis requests: {goal}; {lag}.",
            "",
        ],
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
