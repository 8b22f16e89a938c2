"""What each hot request path costs, part by part: cProfile in one process, no load generator.

    .venv/bin/python -m bench.profile_paths [--before-rev 949ac3b] [--requests 2000] [--repeats 3]

The app runs in-process (Flask's test client, a real redis-server as in bench_http), one request
after another, so the CPU time of a request is measured without the noise of a shared machine
under load (bench_http measures the same paths under gunicorn and wrk, where the noise is).
For each path: CPU µs per request (best of three runs), then one profiled run whose self time
is split into parts by where the code lives. With ``--before-rev`` the same is done for the
whole service tree of that commit (as bench_http's ``--before-rev``), in a process of its own.
Writes bench/results/profile_paths.md.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime as dt
import itertools
import json
import os
import pstats
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULT = ROOT / "bench" / "results" / "profile_paths.md"
# (part, substrings of a function's file or name): the first that matches takes its self time.
PARTS: list[tuple[str, tuple[str, ...]]] = [
    ("test client (not in production)", ("werkzeug/test.py", "flask/testing.py")),
    ("Flask-Limiter", ("flask_limiter/", "/limits/")),
    ("Redis client and its socket", ("redis/", "hiredis", "socket")),
    ("validation (flask-openapi3, pydantic)", ("flask_openapi3/", "pydantic")),
    ("JSON", ("json/", "_json")),
    ("request log", ("logging/", "service/web/logs.py")),
    ("session cookie", ("itsdangerous/", "flask/sessions.py", "hmac", "service/web/sessions.py")),
    ("engine (game, view, bots)", ("engine/",)),
    ("service code", ("service/",)),
    ("Flask and Werkzeug", ("flask/", "werkzeug/")),
]
OTHER = "other (interpreter, stdlib)"
MOVE = "POST a move (and the bots')"
ENGINE = "engine per move"  # the same kind of move's engine and bots' CPU alone
PATHS = ["bare Flask", "GET /api/daily", "GET /api/attempts/{id}", "same, 304 (If-None-Match)"]
PATHS += ["GET leaderboard top 50", "GET around me (r=5)", MOVE]


def part_of(filename: str, name: str) -> str:
    where = f"{filename}:{name}"
    for part, needles in PARTS:
        if any(n in where for n in needles):
            return part
    return OTHER


def shares(profile: cProfile.Profile) -> dict[str, float]:
    """Self time per part, as a share of the whole minus the test client's own."""
    stats = pstats.Stats(profile)
    times: dict[str, float] = {}
    for (filename, _, name), row in stats.stats.items():  # type: ignore[attr-defined]
        part = part_of(filename, name)
        times[part] = times.get(part, 0.0) + row[2]
    times.pop(PARTS[0][0], None)
    total = sum(times.values()) or 1.0
    return {part: t / total for part, t in times.items()}


def child(requests: int) -> dict[str, Any]:
    """Measure the tree on sys.path (the current checkout or an earlier commit's)."""
    import redis

    from bench.bench_http import DAY, fill_board, service_env
    from bench.loadkit import start_redis
    from service.app import create_app

    bare_app = __import__("bench.bare_app", fromlist=["app"]).app
    server = start_redis()
    names = itertools.count()
    try:
        os.environ.update(service_env(server.url))
        app = create_app({"REDIS_URL": server.url})
        client: redis.Redis[str] = redis.Redis.from_url(server.url, decode_responses=True)
        fill_board(client, 100)
        api = app.test_client(use_cookies=False)
        created = api.post(f"/api/daily/{DAY}/attempts", json={"name": "Profile"}).get_json()
        own = {"Authorization": f"Bearer {created['token']}"}
        view = f"/api/attempts/{created['attempt']['id']}"
        tag = api.get(view, headers=own).headers.get("ETag")

        def getter(c: Any, path: str, headers: dict[str, str]) -> Callable[[], None]:
            return lambda: c.get(path, headers=headers)

        moves: list[Callable[[], None]] = []
        engine_s: list[float] = []  # the engine's and bots' CPU of each move played (below)

        def engine_of(attempt_id: str, chosen: str) -> None:
            """The CPU the same move costs in the engine alone, before it is played: the game
            read from its stored document, the move and the bots' answers, seat 0's view (what
            store.play and the route ask of the game's adapter); not in the timed runs."""
            from service.dailies import store as attempts

            stored = attempts.load(client, attempt_id)
            if stored is None:
                return
            daily, data = stored.daily, json.loads(stored.game_json)
            started = time.process_time()
            game = daily.load(data)
            events = daily.play(game, chosen)
            daily.played_view(game, events)
            engine_s.append(time.process_time() - started)

        def move() -> None:
            if not moves:
                name = f"Mover {next(names)}"
                body = api.post(f"/api/daily/{DAY}/attempts", json={"name": name}).get_json()
                state = {"a": body["attempt"], "h": {"Authorization": f"Bearer {body['token']}"}}

                def one() -> None:
                    a = state["a"]
                    v = a["view"]
                    if v["phase"] == "draw":
                        chosen = "draw" if v["can_draw"] else "resign"
                    else:
                        chosen = f"discard {v['hand'][0]}"
                    if measuring_engine:
                        engine_of(a["id"], chosen)
                    answer = api.post(
                        f"/api/attempts/{a['id']}/moves",
                        json={"move": chosen, "seq": a["seq"]},
                        headers=state["h"],
                    ).get_json()
                    state["a"] = answer["attempt"]
                    if answer["attempt"]["status"] != "playing":
                        moves.clear()

                moves.append(one)
            moves[0]()

        calls: dict[str, Callable[[], None]] = {
            "bare Flask": getter(bare_app.test_client(), "/bare", {}),
            "GET /api/daily": getter(api, "/api/daily", {}),
            "GET /api/attempts/{id}": getter(api, view, own),
            "GET leaderboard top 50": getter(api, f"/api/leaderboard/{DAY}", {}),
            "GET around me (r=5)": getter(api, f"/api/leaderboard/{DAY}/around/m5", {}),
            MOVE: move,
        }
        if tag is not None:
            calls["same, 304 (If-None-Match)"] = getter(api, view, {**own, "If-None-Match": tag})
        found: dict[str, Any] = {}
        measuring_engine = False
        for name in PATHS:
            call = calls.get(name)
            if call is None:
                continue
            n = requests // 4 if name.startswith("POST") else requests
            for _ in range(min(n, 200)):
                call()
            best = float("inf")
            for _ in range(3):
                started = time.process_time()
                for _ in range(n):
                    call()
                best = min(best, time.process_time() - started)
            profile = cProfile.Profile()
            profile.enable()
            for _ in range(n):
                call()
            profile.disable()
            found[name] = {"us": best / n * 1e6, "shares": shares(profile)}
        # The same kind of moves once more, untimed, each move's engine CPU measured alone
        # (trees without the adapters' load/play/played_view have no figure).
        measuring_engine = True
        try:
            for _ in range(requests // 4):
                move()
            found[ENGINE] = {"us": sum(engine_s) / len(engine_s) * 1e6}
        except (AttributeError, ImportError, TypeError):
            pass
        return found
    finally:
        server.stop()


def measure(tree: Path, requests: int) -> dict[str, Any]:
    """Run :func:`child` in a process whose imports come from ``tree``."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        env = {**os.environ, "PYTHONPATH": str(tree)}
        command = [sys.executable, str(Path(__file__).resolve()), "--child", out.name]
        command += ["--requests", str(requests)]
        subprocess.run(command, cwd=tree, env=env, check=True, stderr=subprocess.DEVNULL)
        result: dict[str, Any] = json.loads(Path(out.name).read_text())
        return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--before-rev", default=None)
    parser.add_argument("--repeats", type=int, default=3, help="turns of each version")
    parser.add_argument("--out", type=Path, default=RESULT)
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child is not None:
        Path(args.child).write_text(json.dumps(child(args.requests)))
        return 0
    from bench.bench_http import before_tree
    from bench.loadkit import command_line, load_average, write_result

    command = command_line("bench.profile_paths", argv)
    tmp = Path(tempfile.mkdtemp(prefix="pikdame-profile-paths-"))
    versions = {"current": before_tree("HEAD", tmp / "current", whole=True)}
    if args.before_rev:
        versions[f"before ({args.before_rev})"] = before_tree(
            args.before_rev, tmp / "before", whole=True
        )
    # The versions take turns (a shared machine's load drifts); per path the fastest of the
    # repeats counts, with its own profile.
    results: dict[str, dict[str, Any]] = {label: {} for label in versions}
    for _ in range(args.repeats):
        for label, tree in versions.items():
            for name, found in measure(tree, args.requests).items():
                kept = results[label].get(name)
                if kept is None or found["us"] < kept["us"]:
                    results[label][name] = found
    labels = [p for p, _ in PARTS[1:]] + [OTHER]
    current = results["current"]
    lines = [
        "## Where a request's CPU goes, path by path (bench/profile_paths.py)",
        "",
        f"Command: `{command.strip()}` · {dt.date.today()} · load average at the end "
        f"{load_average()}.",
        "",
        "The app in one process (Flask's test client, a real redis-server, rate limits on as in "
        "bench_http), one request after another: *CPU µs/req* is the best of three runs of "
        f"{args.requests} requests in each of {args.repeats} turns of each version taken in "
        "alternation (a move: a quarter as many, each with the bots' answers), "
        "including the test client's own work (see the bare Flask row); the shares split one "
        "cProfile run's self time by where the code lives (the test client's own time left "
        "out). cProfile slows small functions more than big ones: the shares say where to look, "
        "the µs what it costs.",
        "",
        "The parts: *validation* is flask-openapi3's pydantic models of each route's path, "
        "query and body; the counted reads and the moves count their rate limit in a round trip "
        "of their own (service/web/limits.py), not through *Flask-Limiter*; *session cookie* "
        "is only read where one is sent (service/web/sessions.py); the owner's bearer read of "
        "an attempt (its 200 and its 304) is answered before Flask from its head and the view "
        "its last move stored (service/dailies/early_views.py). *Redis client* includes the "
        "time in the socket calls.",
        "",
    ]
    if len(results) > 1:
        before = results[next(k for k in results if k != "current")]
        lines += [
            "| request | CPU µs/req current | before | before ÷ current |",
            "| --- | ---: | ---: | ---: |",
        ]
        for name in PATHS:
            if name in current and name in before:
                now, then = current[name]["us"], before[name]["us"]
                lines.append(f"| {name} | {now:,.0f} | {then:,.0f} | {then / now:.2f}× |")
            elif name in current:
                lines.append(f"| {name} | {current[name]['us']:,.0f} | – | – |")
        lines.append("")
    lines += [
        "| version | request | CPU µs/req | " + " | ".join(labels) + " |",
        "| --- | --- | ---: | " + " | ".join("---:" for _ in labels) + " |",
    ]
    for label, found in results.items():
        for name in PATHS:
            if name not in found:
                continue
            cells = " | ".join(f"{found[name]['shares'].get(p, 0.0):.0%}" for p in labels)
            lines.append(f"| {label} | {name} | {found[name]['us']:,.0f} | {cells} |")
    lines += [
        "",
        "A move's service overhead (goal ≤ 1.5 ms): the move's request CPU above, less the CPU "
        "the engine and the bots spend on the same kind of move measured alone in the same "
        "process (the stored game loaded into the engine, the move and the bots' answers, seat "
        "0's view: the mean over a quarter as many moves, untimed runs of the same player); "
        "what is left is HTTP, validation, Redis, JSON, the game's document and the request "
        "log.",
        "",
        "| version | move CPU µs | engine and bots µs | service overhead µs |",
        "| --- | ---: | ---: | ---: |",
    ]
    for label, found in results.items():
        if MOVE in found and ENGINE in found:
            move_us, engine_us = found[MOVE]["us"], found[ENGINE]["us"]
            lines.append(
                f"| {label} | {move_us:,.0f} | {engine_us:,.0f} | {move_us - engine_us:,.0f} |"
            )
    lines.append("")
    write_result(args.out, lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
