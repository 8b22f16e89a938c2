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

``--slow FILE`` keeps every Meister decision that took more than ``--over`` seconds of CPU (the
deal and the moves before it); ``--retime FILE`` plays each of the ``--top`` slowest again,
alone, from its deal and moves, and times the decision once more (a run under load finds them,
a quiet machine times them):

    python bench/bench_meister.py --game pikdame --max-deals 500 --slow slow.json
    python bench/bench_meister.py --game pikdame --retime slow.json --top 20
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
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


@dataclass
class Decisions:
    """The Meister's decisions of a run: every one's CPU seconds, and those slower than ``over``
    with their deal and the moves before them (``--slow``)."""

    over: float = 1.0
    times: list[float] = field(default_factory=list)
    slow: list[dict[str, Any]] = field(default_factory=list)

    def timed(self, k: int, moves: list[list[Any]], choose: Callable[[], Any]) -> Any:
        t0 = time.process_time()
        move = choose()
        spent = time.process_time() - t0
        self.times.append(spent)
        if spent > self.over:
            self.slow.append({"deal": k, "moves": list(moves), "cpu_s": round(spent, 3)})
        return move


def pikdame_start(k: int) -> State:
    rules = Rules(players=4)
    dealer = k % 4
    return State.from_deal(deal_for(seed(f"pd/{k}"), rules, dealer), rules, dealer)


def gin_start(k: int) -> HandState:
    return HandState.new(seed(f"gin/{k}"), 1, k % 2)


def play_pikdame(k: int, first: str, decisions: Decisions) -> int:
    state = pikdame_start(k)
    levels = [first, "zen", "zen", "zen"]
    moves: list[list[Any]] = []
    while state.outcome is None:
        s = state.turn
        v = pd_view(state, s)
        if levels[s] == "meister":
            move = decisions.timed(k, moves, functools.partial(pd_move, "meister", v))
        else:
            move = pd_move(levels[s], v)
        moves.append([s, str(move)])
        state.push(move, s)
    return int(state.outcome.round_scores[0])


def play_gin(k: int, first: str, decisions: Decisions) -> int:
    state = gin_start(k)
    levels = [first, "strong"]
    moves: list[list[Any]] = []
    while state.outcome is None:
        s = state.turn
        v = gin_view(state, s)
        if levels[s] == "meister":
            move = decisions.timed(k, moves, functools.partial(gin_move, "meister", v))
        else:
            move = gin_move(levels[s], v)
        moves.append([s, str(move)])
        state.push(move, s)
    scores = state.outcome.scores
    return int(scores[0] - scores[1])


#: Per game: its deal's start, a seat's view, a level's move (what ``--retime`` replays).
GAMES: dict[
    str, tuple[Callable[[int], Any], Callable[[Any, int], Any], Callable[[str, Any], Any]]
] = {
    "pikdame": (pikdame_start, pd_view, pd_move),
    "gin": (gin_start, gin_view, gin_move),
}


def retime(game: str, path: Path, top: int) -> None:
    """The ``top`` slowest decisions kept in ``path``, each timed again alone."""
    start, see, choose = GAMES[game]
    kept = sorted(json.loads(path.read_text()), key=lambda d: -d["cpu_s"])[:top]
    rows = []
    for d in kept:
        state = start(d["deal"])
        for seat, text in d["moves"]:
            state.push(text, seat)
        v = see(state, state.turn)
        t0 = time.process_time()
        choose("meister", v)
        rows.append(
            {
                "deal": d["deal"],
                "ply": len(d["moves"]),
                "cpu_s_then": d["cpu_s"],
                "cpu_s_alone": round(time.process_time() - t0, 3),
            }
        )
    for row in rows:
        print(json.dumps(row))
    print(
        json.dumps(
            {
                "game": game,
                "retimed": len(rows),
                "max_alone_s": max((r["cpu_s_alone"] for r in rows), default=0.0),
            }
        )
    )


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
    parser.add_argument("--slow", type=Path, default=None, help="keep the slow decisions")
    parser.add_argument("--over", type=float, default=1.0, help="slow: over this CPU (s)")
    parser.add_argument("--retime", type=Path, default=None, help="time kept decisions again")
    parser.add_argument("--top", type=int, default=20, help="retime: this many, slowest first")
    args = parser.parse_args()
    if args.retime:
        retime(args.game, args.retime, args.top)
        return
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
    play: Callable[[int, str, Decisions], int]
    play, strongest = (play_gin, "strong") if args.game == "gin" else (play_pikdame, "zen")
    diffs: list[int] = []
    decisions = Decisions(args.over)
    start, began = time.process_time(), time.monotonic()
    k = args.first
    while (
        k < args.first + args.max_deals
        and time.process_time() - start < args.cpu
        and (args.wall is None or time.monotonic() - began < args.wall)
    ):
        diffs.append(play(k, "meister", decisions) - play(k, strongest, Decisions()))
        k += 1
    if args.slow is not None:
        args.slow.write_text(json.dumps(decisions.slow))
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
        "decisions": len(decisions.times),
        "decision_ms": {
            "p50": round(1000 * pct(decisions.times, 0.5)),
            "p99": round(1000 * pct(decisions.times, 0.99)),
            "max": round(1000 * max(decisions.times, default=0.0)),
        },
        "cpu_s": round(time.process_time() - start, 1),
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
