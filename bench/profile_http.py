"""Where a read's time goes under load: py-spy on every gunicorn worker while wrk runs.

    .venv/bin/python -m bench.profile_http [--seconds 6] [--before-commit c6c7bb9]

For each read (today's challenge, an attempt's view, the top 50) the service runs as deployed
(gunicorn with deploy/gunicorn.conf.py, rate limits on) under ``wrk -t2 -c50``, and
``py-spy record`` samples every worker's request threads (wall clock: time spent waiting on Redis
counts). The table gives each part's share of the samples inside ``handle_request``. With
``--before-commit`` the same is done for the hot paths as of that commit (bench_http's tree).
Writes bench/results/profile.md.
"""

from __future__ import annotations

import argparse
import collections
import datetime as dt
import subprocess
import sys
import tempfile
from pathlib import Path

import redis

from bench.bench_http import DAY, before_tree, fill_board, http_json, service_env
from bench.loadkit import (
    ROOT,
    command_line,
    load_average,
    start_gunicorn,
    start_redis,
    write_result,
    wrk,
)
from tests.support.processes import descendants

RESULT = ROOT / "bench" / "results" / "profile.md"
PY_SPY = str(Path(sys.executable).with_name("py-spy"))
# (label, substring of a frame): the first that matches a sample's stack (leaf first) wins.
PARTS = [
    ("rate limit (Flask-Limiter, its Redis round trips)", "flask_limiter/"),
    ("Redis round trips of the view", "redis/"),
    ("request log", "service/web/logs.py"),
    ("JSON (jsonify)", "json/"),
    ("engine (game parse, view)", "engine/"),
    ("service code (views, hooks)", "service/"),
    ("sending the response (gunicorn write)", "gunicorn/http/wsgi.py"),
    ("Flask and Werkzeug", "flask/"),
    ("Flask and Werkzeug", "werkzeug/"),
]


def shares(raw: Path) -> tuple[int, dict[str, float]]:
    counts: collections.Counter[str] = collections.Counter()
    total = 0
    for path in raw.parent.glob(raw.name + "*"):
        for line in path.read_text().splitlines():
            stack, _, n = line.rpartition(" ")
            frames = stack.split(";")
            if not any("handle_request" in f for f in frames):
                continue
            total += int(n)
            for label, needle in PARTS:
                # the outermost frame of ours decides (a limiter frame calling redis is the limiter)
                if any(needle in f for f in frames):
                    counts[label] += int(n)
                    break
            else:
                counts["other (gunicorn, threads)"] += int(n)
    return total, {k: v / max(1, total) for k, v in counts.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=int, default=6)
    parser.add_argument("--before-commit", default=None)
    parser.add_argument("--out", type=Path, default=RESULT)
    args = parser.parse_args(argv)
    command = command_line("bench.profile_http", argv)
    load_start = load_average()
    tmp = Path(tempfile.mkdtemp(prefix="pikdame-profile-"))
    server = start_redis()
    client: redis.Redis[str] = redis.Redis.from_url(server.url, decode_responses=True)
    env = service_env(server.url)
    trees = {"current": before_tree("HEAD", tmp / "current") if args.before_commit else ROOT}
    if args.before_commit:
        trees[f"before ({args.before_commit})"] = before_tree(args.before_commit, tmp / "before")
    fill_board(client, 100)
    results: dict[tuple[str, str], tuple[float, int, dict[str, float]]] = {}
    try:
        for version, root in trees.items():
            web = start_gunicorn("service.wsgi:app", env, "/healthz", root=root)
            try:
                created = http_json(web.base, f"/api/daily/{DAY}/attempts", {"name": "Ada"})
                token = {"Authorization": f"Bearer {created['token']}"}
                reads = [
                    ("GET /api/daily", "/api/daily", {}),
                    ("GET /api/attempts/{id}", f"/api/attempts/{created['attempt']['id']}", token),
                    ("GET leaderboard top 50", f"/api/leaderboard/{DAY}", {}),
                ]
                for name, path, headers in reads:
                    raw = tmp / f"{len(results)}.raw"
                    record = [PY_SPY, "record", "-r", "200", "-d", str(args.seconds), "-f", "raw"]
                    spies = [
                        subprocess.Popen(
                            [*record, "-o", f"{raw}{i}", "--pid", str(pid)],
                            stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL,
                        )
                        for i, pid in enumerate(descendants(web.pid))
                    ]
                    result = wrk(
                        web.base + path,
                        threads=2,
                        connections=50,
                        seconds=args.seconds + 1,
                        headers=headers,
                    )
                    for spy in spies:
                        spy.wait(timeout=60)
                    total, parts = shares(raw)
                    results[(version, name)] = (result.rate, total, parts)
                    print(
                        f"  {version} {name}: {result.rate:,.0f} req/s, {total} samples", flush=True
                    )
            finally:
                web.stop()
    finally:
        server.stop()
    labels = [label for label, _ in PARTS if label != "Flask and Werkzeug"]
    labels += ["Flask and Werkzeug", "other (gunicorn, threads)"]
    lines = [
        "## Where a read's time goes (bench/profile_http.py)",
        "",
        f"Command: `{command.strip()}` · {dt.date.today()} · load average at the start "
        f"{load_start}, at the end {load_average()}.",
        "",
        "`py-spy record -r 200` on every gunicorn worker (deploy/gunicorn.conf.py) while "
        f"`wrk -t2 -c50 -d{args.seconds + 1}s` reads; wall-clock samples of the request threads "
        "(inside gunicorn's `handle_request`), so waiting for Redis counts. Each sample goes to "
        "the first part in the table found on its stack (a Redis call made by the rate limiter "
        "is the rate limiter's). Shares of the samples:",
        "",
        "| version | request | req/s | samples | " + " | ".join(labels) + " |",
        "| --- | --- | ---: | ---: | " + " | ".join("---:" for _ in labels) + " |",
    ]
    for (version, name), (rate, total, parts) in results.items():
        cells = " | ".join(f"{parts.get(label, 0.0):.0%}" for label in labels)
        lines.append(f"| {version} | {name} | {rate:,.0f} | {total} | {cells} |")
    lines.append("")
    write_result(args.out, lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
