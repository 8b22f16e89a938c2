"""What the metrics cost a request (docs/METRICS.md): CPU per ``GET /api/daily`` in the app with
the requests' metrics (service.web.measure, multiprocess mode as under gunicorn) beside the same
app without them, and one request's metrics alone.

    .venv/bin/python -m bench.bench_metrics [--blocks 30] [--size 200]

Both apps run in one fresh interpreter on a real redis-server (Flask's test client, no network),
their requests interleaved in ``--blocks`` blocks of ``--size``: a loaded machine's noise falls
on both alike. Writes bench/results/metrics.md.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from typing import Any

from bench.loadkit import ROOT, command_line, load_average, run_json, start_redis, write_result

RESULT = ROOT / "bench" / "results" / "metrics.md"

# Run in a fresh interpreter: two apps on one Redis, one with the requests' metrics and one
# without, their requests interleaved in blocks (the machine's load falls on both alike): CPU µs
# per GET /api/daily of each block; then one request's metrics alone.
MEASURE = """
import json, logging, sys, time
url, blocks, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
from service.web import measure
from service.common import metrics
from tests.support.service_app import Clock, make_app
register = measure.register
measure.register = lambda app: None
plain = make_app(url, Clock()).test_client()
measure.register = register
measured = make_app(url, Clock()).test_client()
logging.getLogger("pikdame.access").setLevel(logging.WARNING)
for client in (plain, measured):
    for _ in range(300):
        client.get("/api/daily")
found = {"without": [], "with": []}
for _ in range(blocks):
    for side, client in (("without", plain), ("with", measured)):
        started = time.process_time()
        for _ in range(size):
            client.get("/api/daily")
        found[side].append((time.process_time() - started) / size * 1e6)
route = "/api/attempts/<id:attempt_id>/moves"
started = time.process_time()
for _ in range(100_000):
    metrics.observe_request(route, "POST", 200, 0.012)
found["observe_us"] = (time.process_time() - started) / 100_000 * 1e6
print(json.dumps(found))
"""


def run(url: str, blocks: int, size: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="pikdame-metrics-bench-") as directory:
        env = {"PROMETHEUS_MULTIPROC_DIR": directory, "PATH": "/usr/bin:/bin"}
        found: dict[str, Any] = run_json(MEASURE, [url, str(blocks), str(size)], ROOT, env)
        return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--blocks", type=int, default=30)
    parser.add_argument("--size", type=int, default=200, help="requests a block")
    args = parser.parse_args(argv)
    server = start_redis()
    try:
        found = run(server.url, args.blocks, args.size)
    finally:
        server.stop()
    without = statistics.median(found["without"])
    with_ = statistics.median(found["with"])
    paired = statistics.median(w - o for w, o in zip(found["with"], found["without"], strict=True))
    lines = [
        "## What the metrics cost a request (bench/bench_metrics.py)",
        "",
        f"`{command_line('bench.bench_metrics', argv)}` (load average {load_average()})",
        "",
        "| | CPU µs a request, median of the blocks |",
        "| --- | --- |",
        f"| `GET /api/daily` without the requests' metrics | {without:.0f} |",
        f"| `GET /api/daily` with them (multiprocess mode, as under gunicorn) | {with_:.0f} |",
        f"| with minus without, block by block (median) | {paired:.0f} |",
        f"| one request's metrics alone (`observe_request`) | {found['observe_us']:.1f} |",
        "",
    ]
    write_result(RESULT, lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
