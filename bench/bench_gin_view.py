"""What the Gin page's exact discard options cost the server (the knock dialog and the
selection show the exact deadwood after each discard, from ``View.to_json()["discards"]``).

    .venv/bin/python -m bench.bench_gin_view [--matches 40] [--repeats 5]

In one run, on every discard turn of seeded strong-vs-plain matches, alternated per position:
the view's JSON as the API sends it (with ``discards``), the same JSON without them (the
reference: ``to_json`` before the options were added, measured by leaving them out), and the
options alone (``discard_options``: ten or eleven exact arrangements). Wall clock and the
thread's CPU time, p50 / p99 / max. Writes ``bench/results/gin_view.md``; no test asserts a
timing.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from engine.gin import GinMatch, Seat, choose_move
from engine.gin.view import View, discard_options

# the module (engine.gin's name ``view`` is the function)
view_module = importlib.import_module("engine.gin.view")

RESULTS = Path(__file__).parent / "results" / "gin_view.md"
COMMAND = ".venv/bin/python -m bench.bench_gin_view"


def discard_views(matches: int) -> list[View]:
    """Every discard-turn view of ``matches`` seeded bot matches (seat 0 plain, seat 1 strong)."""
    seats = (Seat("human", name="A"), Seat("human", name="B"))
    found: list[View] = []
    for k in range(matches):
        match = GinMatch.start(hashlib.sha256(f"bench-gin-view/{k}".encode()).digest(), seats)
        while not match.finished:
            seat = match.state.turn
            v = match.view(seat)
            if v.phase == "discard":
                found.append(v)
            match.play(choose_move(("plain", "strong")[seat], v), seat)
    return found


def _no_options(hand: int, taken: int | None) -> dict[str, dict[str, Any]]:
    return {}


def without_options(v: View) -> dict[str, Any]:
    """The JSON as it was before ``discards``: the options computed as nothing."""
    saved = getattr(view_module, "discard_options")  # noqa: B009
    setattr(view_module, "discard_options", _no_options)  # noqa: B010
    try:
        return v.to_json()
    finally:
        setattr(view_module, "discard_options", saved)  # noqa: B010


def timed(fn: Callable[[], Any]) -> tuple[float, float]:
    w, c = time.perf_counter(), time.thread_time()
    fn()
    return (time.perf_counter() - w) * 1000, (time.thread_time() - c) * 1000


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    views = discard_views(args.matches)
    names = ("view JSON with discard options (as sent)", "view JSON without them (reference)",
             "discard options alone")  # fmt: skip
    runs: dict[str, tuple[list[float], list[float]]] = {n: ([], []) for n in names}
    for _ in range(args.repeats):
        for v in views:  # alternated per position: one preemption weighs on all three alike
            variants: list[Callable[[], Any]] = [
                v.to_json,
                partial(without_options, v),
                partial(discard_options, v.hand, v.taken),
            ]
            for name, fn in zip(names, variants, strict=True):
                wall, cpu = timed(fn)
                runs[name][0].append(wall)
                runs[name][1].append(cpu)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    lines = [
        "## Gin view with the exact discard options",
        "",
        f"Command: `{COMMAND} --matches {args.matches} --repeats {args.repeats}`",
        f"Machine: CPython {platform.python_version()}, {platform.machine()}; "
        f"{len(views):,} discard-turn views of {args.matches} seeded plain-vs-strong matches, "
        f"each timed {args.repeats} times, "
        f"the three variants alternated per view. Load average after the run: {load}.",
        "",
        "| figure | clock | p50 ms | p99 ms | max ms |",
        "| --- | --- | ---: | ---: | ---: |",
    ]
    for name in names:
        for clock, values in zip(("wall", "CPU"), runs[name], strict=True):
            p50, p99 = statistics.median(values), pct(values, 0.99)
            lines.append(f"| {name} | {clock} | {p50:.3f} | {p99:.3f} | {max(values):.3f} |")
    with_cpu = statistics.median(runs[names[0]][1])
    ref_cpu = statistics.median(runs[names[1]][1])
    lines += ["", f"Median CPU with / without the options: {with_cpu / ref_cpu:.2f}x."]
    RESULTS.write_text("\n".join(lines) + "\n")
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
