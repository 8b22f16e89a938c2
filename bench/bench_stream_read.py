"""A live stream's message: CPU per message (``service.tables.reads.stream_read``), ours beside a
commit's, on the same tables of a real redis-server.

    .venv/bin/python -m bench.bench_stream_read [--before-rev 6a9337a] [--reads 3000] [--rounds 3]

Every move at a table sends a message to each of its open streams, and the stream group's gevent
workers make them one after another: the CPU of one message is what a busy site's stream workers
wait for a core to do. The tables are made once, with this tree's code: a Pik Dame table of two
humans 30 moves in, and a Gin table with a turn timer whose first turn the timer played (its
view lists the log's marks, R9). Each side reads them in a fresh interpreter of its own tree
(``--before-rev``: that commit's whole tree, exported with git archive), alternating ``--rounds``
times; the figure is the median of each side's rounds. Writes bench/results/stream_read.md.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
from pathlib import Path
from typing import Any

import redis

from bench.bench_http import before_tree
from bench.loadkit import ROOT, command_line, load_average, run_json, start_redis, write_result
from service.tables import store as tables
from tests.support.gin_tables import timer_played_first_turn

RESULT = ROOT / "bench" / "results" / "stream_read.md"
NOW = 1_800_000_000_000
LIFETIMES = tables.Lifetimes(3600, 3600)
OPTIONS = {"hand_out_double": False, "strict_1000": False}
HUMAN: dict[str, Any] = {"kind": "human"}

# Run in a tree: CPU µs per message of each table, seats alternating, after the previous seq.
READS = """
import json, sys, time
import redis
from service.tables.reads import stream_read
client = redis.Redis.from_url(sys.argv[1], decode_responses=True)
reads = int(sys.argv[2])
out = {}
for spec in sys.argv[3:]:
    table_id, seq = spec.split(":")
    for n in range(50):  # warm: the imports' caches, the connection
        stream_read(client, table_id, n % 2, int(seq) - 1, 1_800_000_000_000)
    started = time.process_time()
    for n in range(reads):
        assert stream_read(client, table_id, n % 2, int(seq) - 1, 1_800_000_000_000)
    out[table_id] = (time.process_time() - started) * 1e6 / reads
print(json.dumps(out))
"""


def pikdame_table(client: redis.Redis[str], moves: int) -> tuple[str, int]:
    """Two humans, ``moves`` moves in (each seat draws, then discards a card at random)."""
    made, _ = tables.create(
        client, "pikdame", "Ada", "p-ada", [HUMAN, HUMAN], OPTIONS, 0, LIFETIMES, NOW
    )
    table = tables.start(client, made.id, 0, LIFETIMES, NOW).table
    rng = random.Random(7)
    for _ in range(moves):
        facts = table.kind.facts(table.loaded(), None)
        if facts["awaiting_cut"]:
            seat, move = facts["cutter"], "cut 40"
        else:
            seat = facts["turn"]
            view = table.kind.facts(table.loaded(), seat)["view"]
            move = "draw" if view["phase"] == "draw" else f"discard {rng.choice(view['hand'])}"
        table = tables.play(client, made.id, seat, table.seq, move, LIFETIMES, NOW).table
    return made.id, table.seq


def read_cpu(url: str, specs: list[str], reads: int, tree: Path) -> dict[str, float]:
    found: dict[str, float] = run_json(READS, [url, str(reads), *specs], tree, dict(os.environ))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--before-rev", default="6a9337a")
    parser.add_argument("--reads", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    command = command_line("bench.bench_stream_read", argv)
    load_start = load_average()
    tree = before_tree(args.before_rev, Path(tempfile.mkdtemp(prefix="pikdame-bench-")) / "b", True)
    server = start_redis()
    try:
        client: redis.Redis[str] = redis.Redis.from_url(server.url, decode_responses=True)
        made = {"Pik Dame, two humans, 30 moves in": pikdame_table(client, 30)}
        table_id, _, seq = timer_played_first_turn(client, LIFETIMES, NOW)
        made["Gin, turn timer (its view lists the log's marks)"] = (table_id, seq)
        specs = [f"{table_id}:{seq}" for table_id, seq in made.values()]
        sides: dict[str, list[dict[str, float]]] = {"before": [], "ours": []}
        for _ in range(args.rounds):
            sides["before"].append(read_cpu(server.url, specs, args.reads, tree))
            sides["ours"].append(read_cpu(server.url, specs, args.reads, ROOT))
    finally:
        server.stop()
    lines = [
        "## A live stream's message (bench/bench_stream_read.py)",
        "",
        f"Command: `{command.strip()}` · {args.rounds} alternating rounds of {args.reads} messages"
        f" a table, seats alternating · load average {load_start} → {load_average()}.",
        "",
        f"| table | before ({args.before_rev}): CPU µs a message | ours | ours / before |",
        "| --- | --- | --- | --- |",
    ]
    for name, (table_id, _) in made.items():
        before = statistics.median(r[table_id] for r in sides["before"])
        ours = statistics.median(r[table_id] for r in sides["ours"])
        lines.append(f"| {name} | {before:.0f} | **{ours:.0f}** | {ours / before:.2f} |")
    write_result(RESULT, lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
