"""The Meister against the strongest bot (issue 40 item 8): a duplicate comparison on the same
deals. Each deal is played twice, seat 0 once by ``meister`` and once by the strongest bot
(Pik Dame ``zen``, Gin ``strong``), every other seat by the strongest bot; the difference of
seat 0's result (Pik Dame: its round score, R7; Gin: its hand score minus the other's, G6) is
one sample, its mean given with a 95% interval (engine.core.analysis.Estimate). Every Meister
decision's CPU time is measured too (p50, p99, max).

    .venv/bin/python bench/bench_meister.py --game gin --cpu 300
    .venv/bin/python bench/bench_meister.py --game pikdame --cpu 600

``--cpu``: no deal starts once the process has used that many seconds of CPU (``--wall``: nor
once that many seconds passed, on a shared machine). ``--first K`` starts at deal K and
``--diffs FILE`` writes every deal's difference (one JSON object: deal -> difference), so runs over
disjoint deals (one per core) are summed by ``--combine FILE ...`` into one estimate:

    python bench/bench_meister.py --game pikdame --first 0 --max-deals 400 --diffs a.json
    python bench/bench_meister.py --game pikdame --first 400 --max-deals 400 --diffs b.json
    python bench/bench_meister.py --game pikdame --combine a.json b.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.core.analysis import Estimate
from engine.gin.bots import choose_move as gin_move
from engine.gin.state import HandState
from engine.gin.view import view as gin_view
from engine.pikdame.bots import choose_move as pd_move
from engine.pikdame.rules import Rules
from engine.pikdame.state import State, deal_for
from engine.pikdame.view import view as pd_view


def seed(label: str) -> bytes:
    return hashlib.sha256(f"bench-meister/{label}".encode()).digest()


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def play_pikdame(k: int, first: str, times: list[float]) -> int:
    rules = Rules(players=4)
    dealer = k % 4
    state = State.from_deal(deal_for(seed(f"pd/{k}"), rules, dealer), rules, dealer)
    levels = [first, "zen", "zen", "zen"]
    while state.outcome is None:
        s = state.turn
        t0 = time.process_time()
        move = pd_move(levels[s], pd_view(state, s))
        if levels[s] == "meister":
            times.append(time.process_time() - t0)
        state.push(move, s)
    return int(state.outcome.round_scores[0])


def play_gin(k: int, first: str, times: list[float]) -> int:
    state = HandState.new(seed(f"gin/{k}"), 1, k % 2)
    levels = [first, "strong"]
    while state.outcome is None:
        s = state.turn
        t0 = time.process_time()
        move = gin_move(levels[s], gin_view(state, s))
        if levels[s] == "meister":
            times.append(time.process_time() - t0)
        state.push(move, s)
    scores = state.outcome.scores
    return int(scores[0] - scores[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=("pikdame", "gin"), required=True)
    parser.add_argument("--cpu", type=float, default=300.0)
    parser.add_argument("--max-deals", type=int, default=100000)
    parser.add_argument(
        "--wall", type=float, default=None, help="nor once this many seconds passed"
    )
    parser.add_argument("--first", type=int, default=0, help="the first deal")
    parser.add_argument("--diffs", type=Path, default=None, help="write each deal's difference")
    parser.add_argument("--combine", type=Path, nargs="+", default=None, help="sum runs' diffs")
    args = parser.parse_args()
    if args.combine:
        combined: dict[str, int] = {}
        for path in args.combine:
            combined |= json.loads(path.read_text())
        est = Estimate.of([combined[k] for k in sorted(combined, key=int)])
        num, den = est.mean
        print(
            json.dumps(
                {
                    "game": args.game,
                    "deals": len(combined),
                    "mean_difference": f"{num / den:.2f}",
                    "interval": est.interval_json(),
                    "clear_of_zero": est.above_zero(),
                    "differed": sum(1 for d in combined.values() if d),
                }
            )
        )
        return
    play: Callable[[int, str, list[float]], int]
    play, strongest = (play_gin, "strong") if args.game == "gin" else (play_pikdame, "zen")
    diffs: list[int] = []
    times: list[float] = []
    start, began = time.process_time(), time.monotonic()
    k = args.first
    while (
        k < args.first + args.max_deals
        and time.process_time() - start < args.cpu
        and (args.wall is None or time.monotonic() - began < args.wall)
    ):
        diffs.append(play(k, "meister", times) - play(k, strongest, []))
        k += 1
    if args.diffs is not None:
        args.diffs.write_text(json.dumps({str(args.first + i): d for i, d in enumerate(diffs)}))
    est = Estimate.of(diffs)
    num, den = est.mean
    out: dict[str, Any] = {
        "game": args.game,
        "deals": len(diffs),
        "against": strongest,
        "mean_difference": f"{num / den:.2f}",
        "interval": est.interval_json(),
        "clear_of_zero": est.above_zero(),
        "differed": sum(1 for d in diffs if d),
        "decisions": len(times),
        "decision_ms": {
            "p50": round(1000 * pct(times, 0.5)),
            "p99": round(1000 * pct(times, 0.99)),
            "max": round(1000 * max(times, default=0.0)),
        },
        "cpu_s": round(time.process_time() - start, 1),
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
