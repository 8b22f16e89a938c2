"""Run every benchmark in bench/ (each writes bench/results/<topic>.md), then rebuild BENCHMARKS.md.

    .venv/bin/python -m bench.run_all [--only engine,bots] [--report-only]

Each benchmark runs in its own process, one after another, so they do not share the two cores.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
NOTES = RESULTS / "notes"
# Topic → the module that measures it, in the order BENCHMARKS.md lists them.
BENCHES = {
    # Pik Dame and Tausende beside the engine before its package refactor, same work
    "engine": ["bench.bench_engine", "--cpu", "--before-rev", "949ac3b"],
    "bots": ["bench.bench_bots"],
    "gin": ["bench.bench_gin"],
    # random Gin hands: ours beside OpenSpiel's and RLCard's game, same work, same run
    "gin_playouts": ["bench.bench_gin_playouts", "--ref-python", "var/refvenv/bin/python"],
    # the Gin daily's verification as the worker runs it, beside Pik Dame's daily
    "gin_daily": ["bench.bench_gin_daily"],
    # the move-by-move analysis (docs/ANALYSIS.md) beside each record's verification, same run
    "analysis": ["bench.bench_analysis"],
    # Gin's player's-view analysis against the truth: the graph turn by turn and a weak player's
    # loss, the uniform deals (analysis-3) beside the belief (analysis-4) on the same deals
    "gin_belief": ["bench.bench_gin_belief"],
    # Pik Dame's the same: the graph turn by turn, uniform deals (analysis-4) beside the belief
    # (analysis-5) on the same deals, and a round's analysis CPU by both
    "pikdame_belief": ["bench.bench_pikdame_belief"],
    "tausende_belief": [
        "bench.bench_pikdame_belief",
        "--ruleset",
        "tausende",
        "--deals",
        "1200",
        "--out",
        "bench/results/tausende_belief.md",
    ],
    # the service beside its code before the performance work (commit c6c7bb9), same run
    "service": ["bench.bench_http", "--before-commit", "c6c7bb9", "--limits-off-variant"],
    # the capacity plan's figures (deploy/SCALING.md), beside the release before (b9a4bd7: the
    # attempt's view still rendered by Flask on every read)
    "capacity": [
        "bench.bench_http",
        "--before-rev",
        "b9a4bd7",
        "--out",
        "bench/results/capacity.md",
    ],
    "profile": ["bench.profile_http", "--before-commit", "c6c7bb9"],
    # each hot path's CPU per request, part by part, and a move's service overhead, beside the
    # release before
    "profile_paths": ["bench.profile_paths", "--before-rev", "b9a4bd7"],
    # the deployed worker beside 853f098's own (the release whose 14-16 jobs/s set the goal),
    # the forking worker, stock rq and SimpleWorker, on the same distinct records
    "verify": [
        "bench.bench_verify",
        "--before-rev",
        "853f098",
        "--before-rev",
        "fd23a43",
        "--job-rev",
        "a1da5b6",
        "--rounds",
        "3",
    ],
    # the deployed worker beside the tree before this release's worker changes (adf7407: the
    # engine's reference cycles, the worker's two round trips) and the last release's (fd23a43),
    # 9 interleaved rounds on 300 records
    "verify_ab": [
        "bench.bench_verify",
        "--before-rev",
        "adf7407",
        "--before-rev",
        "fd23a43",
        "--deployed-only",
        "--rounds",
        "9",
        "--games",
        "300",
        "--out",
        "bench/results/verify_ab.md",
    ],
    # the verification's judge (replay, every bot move recomputed) in instructions, beside the
    # last release's: the engine's and bots' A/B, whatever the machine's load
    "judge": [
        "bench.bench_judge",
        "--before-rev",
        "451ec05",
        "--before-rev",
        "adf7407",
        "--before-rev",
        "fd23a43",
    ],
    "memory": ["bench.bench_memory"],
    # reads behind nginx (deploy/nginx as shipped) and the attempt's ETag
    "front": ["bench.bench_front", "--before-rev", "b9a4bd7"],
    # the public reads as deployed (the published ones with the publisher running), each run
    # right after the static file it is set against, beside the site and app before they were
    # published (03b6469)
    "front_public": [
        "bench.bench_front",
        "--only",
        "public",
        "--before-rev",
        "03b6469",
        "--rounds",
        "10",
        "--seconds",
        "2",
        "--out",
        "bench/results/front_public.md",
    ],
    # moves at saturation (no think time) through the deployed front (a process per core, two
    # threads each) and straight to gunicorn, beside fronts to gunicorns of other shapes (the
    # 4 x 4 shipped before, 2 x 4), same run
    "front_moves": [
        "bench.bench_front",
        "--only",
        "moves",
        "--rounds",
        "3",
        "--web-variant",
        "4x4",
        "--web-variant",
        "2x4",
        "--out",
        "bench/results/front_moves.md",
    ],
    # private reads (the attempt's view) under the shipped gunicorn shape and under the 4 x 4
    # shipped before
    "front_shapes": [
        "bench.bench_front",
        "--only",
        "private",
        "--rounds",
        "3",
        "--web-variant",
        "4x4",
        "--out",
        "bench/results/front_shapes.md",
    ],
    # what a published read and a micro-cache hit cost nginx beyond a static file, in
    # instructions, beside the site before the reads were published
    "callgrind_front": ["bench.callgrind_front", "--before-rev", "03b6469"],
    # the place in the field and league boards on a 1,000,000-entry board
    "field": ["bench.bench_field"],
    # live tables under load (1,000 open streams, 200 tables a move a second, 100 turn timers)
    # at the reset hour (two processes replaying zen rounds: the verifying workers' engine work),
    # each role in a CPU control group as systemd runs the units, the stream group at its
    # shipped weight; then the idle site's figures beside RQ's stock worker
    "tables": ["bench.bench_tables", "--idle", "--busy", "2", "--stream-weight", "400"],
    # 50 anonymous analysis callers at once beside tables' turn timers and a daily's
    # verifications: without them, on their own workers (deployed), on the steady workers (before)
    "analysis_isolation": ["bench.bench_analysis_isolation"],
    # a live stream's message: CPU per message beside the commit before it was read in one
    # round trip (and the position's cards looked up at once)
    "stream_read": ["bench.bench_stream_read", "--before-rev", "6a9337a"],
    # the quick match: a matching step with 1,000 waiting (Lua beside Python + WATCH) and the
    # time to a match (docs/LOBBY.md)
    "match": ["bench.bench_match"],
    # Tausende's fast legal_moves beside its first implementation, same run
    "tausende_moves": ["bench.bench_tausende_moves"],
    # game state on a three-master Redis Cluster vs one Redis (SCALING.md step 7)
    "cluster": ["bench.bench_cluster"],
    # what the requests' metrics cost a cheap read (docs/METRICS.md)
    "metrics": ["bench.bench_metrics"],
    # the week's tournament: folding one result at 100,000 entrants x 6 deals (docs/EVENTS.md)
    "events": ["bench.bench_events"],
    # the week's tournament's standings of 100,000 entrants through nginx (published) beside a
    # static file of the same bytes, and a signed-in player's read at gunicorn (docs/EVENTS.md)
    "event_front": ["bench.bench_event_front"],
    # the busiest hour end to end: simulated players through the whole site as deployed on one
    # box (nginx, web, stream group, workers, publisher, reconciler, Redis; the load generator
    # on the same cores), arrivals ramped until a verdict waits 60 s or the moves' p99 passes
    # 250 ms (deploy/SCALING.md's headline, observed)
    "busiest_hour": ["bench.bench_busiest_hour"],
    # a human's move at a Meister table, the Meister off the request, beside it inline
    # (docs/TABLES.md "Bots off the request")
    "table_bots": ["bench.bench_table_bots", "--tables", "6"],
}

HEADER = """# Benchmarks

Every figure below was written by the benchmark named with it (`bench/`), on the project's
2-core machine, with the exact command that produced it. Machines here are noisy: comparisons are
made side by side in one run, and medians and ratios are quoted. `make bench` reruns them all and
rebuilds this file from `bench/results/*.md`; no test asserts a timing.
"""


def assemble() -> str:
    """BENCHMARKS.md: each result file as its benchmark wrote it, followed by its reading
    (``bench/results/notes/<topic>.md``, written by hand: a rerun overwrites the result, not
    what was concluded from it, which is then checked against the new figures)."""
    parts = [HEADER]
    known = [RESULTS / f"{topic}.md" for topic in BENCHES]
    others = sorted(p for p in RESULTS.glob("*.md") if p not in known)
    for path in [*known, *others]:
        if path.exists():
            parts.append(path.read_text().strip() + "\n")
            notes = NOTES / path.name
            if notes.exists():
                parts.append(notes.read_text().strip() + "\n")
    return "\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--only", default=None, help="comma-separated topics")
    parser.add_argument("--report-only", action="store_true")
    args = parser.parse_args(argv)
    failed = []
    if not args.report_only:
        topics = args.only.split(",") if args.only else list(BENCHES)
        for topic in topics:
            module, *extra = BENCHES[topic]
            if not (ROOT / (module.replace(".", "/") + ".py")).exists():
                print(f"skipping {topic}: {module} does not exist", file=sys.stderr)
                continue
            if "--ref-python" in extra and not (ROOT / extra[-1]).exists():
                extra = []
            rc = subprocess.call([sys.executable, "-m", module, *extra], cwd=ROOT)
            if rc:
                failed.append(topic)
    (ROOT / "BENCHMARKS.md").write_text(assemble())
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
