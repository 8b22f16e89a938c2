"""The verification's judge in instructions: a daily record replayed with every bot move
recomputed, ours beside earlier commits', on the same distinct records.

    .venv/bin/python -m bench.bench_judge [--records 40] --before-rev fd23a43...

Plays ``--records`` daily rounds through the API (``bench_verify.play_games``: a random-discard
player against the three zen bots, every record a different game, as at the reset hour: the first
of bench_verify's). Each tree's ``worker.verify.judge`` then judges them in turn, in a fresh
process under valgrind's callgrind, and the same process judging none; the difference over the
records is the judge's instructions per record (the bots' caches start empty and fill from
record to record, as in a deployed worker). Instructions are deterministic and unaffected by the
machine's load, where bench_verify's jobs/s on a shared 2-core box move by a tenth from one round
to the next: this is the A/B of a change to the engine or the bots. The job's Redis work and
RQ's are not in it (bench_verify has those). A tree judged needs ``worker.steady.tune_collector``
(from c407169 on). Writes bench/results/judge.md.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.bench_http import before_tree
from bench.bench_verify import SECRET, play_games
from bench.loadkit import ROOT, command_line, start_redis, write_result
from engine import ENGINE_VERSION

RESULT = ROOT / "bench" / "results" / "judge.md"

# Judge the first N attempts of argv (after the Redis URL and the secret) in turn; N = 0 loads
# the same attempts and judges none (the process's start-up, counted apart).
JUDGE = """
import sys
import redis
from service.dailies import store
from worker.steady import tune_collector
from worker.verify import judge
client = redis.Redis.from_url(sys.argv[1], decode_responses=True)
secret, n, ids = sys.argv[2].encode(), int(sys.argv[3]), sys.argv[4:]
attempts = [store.load(client, aid) for aid in ids]
tune_collector()
for attempt in attempts[:n]:
    assert judge(attempt, secret).status == "verified", attempt.id
"""


def _env(tree: Path) -> dict[str, str]:
    return {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}


def instructions(tree: Path, url: str, ids: list[str], judged: int) -> int:
    """The instructions of one process (``tree``'s code) judging the first ``judged`` of ``ids``."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise SystemExit("bench_judge needs valgrind (apt-get install valgrind)")
    tool = [valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    done = subprocess.run(
        [*tool, sys.executable, "-c", JUDGE, url, SECRET.decode(), str(judged), *ids],
        env=_env(tree),
        cwd=tree,
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise RuntimeError(f"{tree}: exit {done.returncode}: {done.stderr[-2000:]}")
    found = re.search(r"Collected : (\d+)", done.stderr)
    assert found, done.stderr[-2000:]
    return int(found.group(1))


def per_record(tree: Path, url: str, ids: list[str]) -> float:
    """The judge's instructions per record in ``tree``: all of ``ids`` judged, less none. A
    first run without callgrind judges them all and so writes the bytecode caches of every
    module the judge imports, lazily ones too (the bots and the optimiser load on a first
    decision), so that neither counted run compiles a module: a tree exported afresh counted
    its compiling in the judged run and our checkout, compiled long ago, did not (the same
    commit counted 0.85× in our checkout against its export)."""
    warm = [sys.executable, "-c", JUDGE, url, SECRET.decode(), str(len(ids)), *ids]
    subprocess.run(warm, env=_env(tree), cwd=tree, check=True)
    return (instructions(tree, url, ids, len(ids)) - instructions(tree, url, ids, 0)) / len(ids)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--records", type=int, default=40, help="played, then judged")
    parser.add_argument("--before-rev", action="append", default=[], help="repeatable")
    parser.add_argument("--out", type=Path, default=RESULT)
    args = parser.parse_args(argv)
    server = start_redis()
    try:
        url = f"redis://127.0.0.1:{server.port}/0"
        ids = play_games(url, args.records)
        rows = [("ours", per_record(ROOT, url, ids))]
        for rev in args.before_rev:
            tree = before_tree(rev, Path(tempfile.mkdtemp(prefix="pikdame-bench-")) / "t", True)
            rows.append((rev, per_record(tree, url, ids)))
    finally:
        server.stop()
    ours = rows[0][1]
    lines = [
        "## The verification's judge in instructions (bench/bench_judge.py)",
        "",
        f"Command: `{command_line('bench.bench_judge', argv)}` · engine `{ENGINE_VERSION}`",
        "",
        f"{len(ids)} daily rounds played through the API (a random-discard player against the "
        "three zen bots), judged in turn by each tree's "
        "`worker.verify.judge` (the record replayed from the day's seed, every bot move "
        "recomputed, the score compared) in one fresh process under valgrind's callgrind; the "
        "same process judging none is taken off. Instructions are deterministic: the machine's "
        "load does not move them.",
        "",
        "| tree | instructions per record | ours against it |",
        "| --- | ---: | ---: |",
    ]
    for name, value in rows:
        lines.append(f"| {name} | {value / 1e6:.2f} M | {ours / value:.3f}× |")
    write_result(args.out, lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
