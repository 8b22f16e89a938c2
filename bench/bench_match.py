"""The quick match (docs/LOBBY.md "The matcher"): a matching step's time with 1,000 players
waiting in one pool, beside the same step done in Python over WATCH/MULTI (the reference: what
the matcher would be without its Lua script), and the time to a match at a few arrival rates.
Writes bench/results/match.md.

    .venv/bin/python -m bench.bench_match [--waiting 1000] [--steps 300]

Real parts: a redis-server of its own; the steps run as the web processes and the stream group
run them (service.lobby.matcher). Time to a match is on the matcher's clock (simulated arrivals,
a step every second as a waiting player's stream runs it, and one at each arrival); the step's
time is the wall clock around one script. No figure here is asserted by any test.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import redis

from service.common import keys
from service.lobby import matcher
from service.lobby.matcher import Pool, Seeker
from tests.support.servers import start_redis

ROOT = Path(__file__).resolve().parent.parent
RESULT = ROOT / "bench" / "results" / "match.md"


def draw(label: str, n: int, low: int, high: int) -> int:
    """A deterministic number in [low, high] (SHA-256 of the label): the same run every time."""
    digest = hashlib.sha256(f"{label}/{n}".encode()).digest()
    return low + int.from_bytes(digest[:4], "big") % (high - low + 1)


def rating(n: int) -> int:
    """Ratings roughly normal around 1500 (the sum of four uniform draws)."""
    return sum(draw("rating", 4 * n + k, 1200, 1800) for k in range(4)) // 4 + (
        draw("spread", n, 0, 600) - 300
    )


def fill(client: redis.Redis[str], pool: Pool, players: range, now_ms: int) -> None:
    for n in players:
        seeker = Seeker(f"p{n}", f"P{n}", None, rating(n), False, None)
        matcher.join(client, seeker, pool, None, now_ms)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def python_step(client: redis.Redis[str], pool: str, seats: int, now_ms: int) -> int:
    """The reference: the same step (anchors oldest first, nearest mutual candidates) computed
    in Python from the pool read whole, written under WATCH/MULTI (retried on a conflict)."""
    rating_key = keys.match_pool(pool, "rating")
    since_key = keys.match_pool(pool, "since")
    while True:
        with client.pipeline(transaction=True) as pipe:
            try:
                pipe.watch(rating_key, since_key)
                watched: Any = pipe  # immediate mode until multi(): reads answer at once
                order = watched.zrange(since_key, 0, matcher.SCAN - 1, withscores=True)
                ratings = dict(watched.zrange(rating_key, 0, -1, withscores=True))
                sinces = dict(watched.zrange(since_key, 0, -1, withscores=True))
                batch = client.pipeline(transaction=False)  # one round trip for the tickets
                for t in sinces:
                    batch.hget(keys.match_ticket(t), "alive")
                alive = {t: int(a or 0) for t, a in zip(sinces, batch.execute(), strict=True)}
                taken: set[str] = set()
                groups: list[list[str]] = []
                by_rating = sorted(ratings.items(), key=lambda x: x[1])
                for t, since in order:
                    if len(groups) >= matcher.GROUPS_PER_STEP:
                        break
                    if t in taken or alive[t] < now_ms:
                        continue
                    r = ratings[t]
                    reach = matcher.range_after(int(now_ms - since))
                    near = sorted(
                        (abs(rc - r), sinces[c], c)
                        for c, rc in by_rating
                        if c != t
                        and c not in taken
                        and alive[c] >= now_ms
                        and abs(rc - r) <= reach
                        and abs(rc - r) <= matcher.range_after(int(now_ms - sinces[c]))
                    )
                    if len(near) >= seats - 1:
                        group = [t, *(c for _, _, c in near[: seats - 1])]
                        taken.update(group)
                        groups.append(group)
                pipe.multi()
                for group in groups:
                    pipe.zrem(rating_key, *group)
                    pipe.zrem(since_key, *group)
                    for t in group:
                        pipe.hset(keys.match_ticket(t), "status", "matched")
                pipe.execute()
                return len(groups)
            except redis.WatchError:
                continue


def step_times(
    client: redis.Redis[str], waiting: int, steps: int, lua: bool
) -> tuple[list[float], int]:
    """Steps of one pool kept at ``waiting`` tickets (those matched are replaced by new ones,
    who joined just now): each step's wall time (ms), and the groups made."""
    client.flushdb()
    pool = Pool("pikdame", 4, 60, False)
    now = 1_000_000
    fill(client, pool, range(waiting), now)
    next_player = waiting
    times = []
    made = 0
    for k in range(steps):
        now += 100  # ten steps a second: the tickets age, their ranges widen
        started = time.perf_counter()
        if lua:
            count = len(matcher.step(client, pool.name, now))
        else:
            count = python_step(client, pool.name, pool.seats, now)
        times.append((time.perf_counter() - started) * 1000)
        made += count
        fresh = client.zcard(keys.match_pool(pool.name, "since"))
        fill(client, pool, range(next_player, next_player + waiting - fresh), now)
        next_player += waiting - fresh
        if k % 50 == 0:  # keep every ticket alive as its stream would
            for t in client.zrange(keys.match_pool(pool.name, "since"), 0, -1):
                client.hset(keys.match_ticket(t), "alive", now + matcher.ALIVE_MS)
    return times, made


def time_to_match(
    client: redis.Redis[str], per_second: float, seats: int, seconds: int, bots_after: int | None
) -> dict[str, Any]:
    """Arrivals at ``per_second`` for ``seconds`` (matcher's clock): each arrival runs a step,
    and a step runs every second; the waits of those matched."""
    client.flushdb()
    pool = Pool("pikdame", seats, 60, False)
    arrived: dict[str, int] = {}
    waits: list[int] = []
    bots = 0
    n = 0
    now = 0
    gap = int(1000 / per_second)
    end = seconds * 1000
    next_tick = 1000
    while now < end:
        seeker = Seeker(f"p{n}", f"P{n}", None, rating(n), False, None)
        _, ticket = matcher.join(client, seeker, pool, bots_after, now)
        arrived[ticket] = now
        n += 1
        groups = matcher.step(client, pool.name, now)
        while next_tick <= now + gap:
            for t in client.zrange(keys.match_pool(pool.name, "since"), 0, -1):
                client.hset(keys.match_ticket(t), "alive", next_tick + matcher.ALIVE_MS)
            groups += matcher.step(client, pool.name, next_tick)
            next_tick += 1000
        for group in groups:
            bots += group.bots
            made_at = int(client.hget(keys.match_group(group.id), "made") or now)
            waits += [made_at - arrived[t] for t in group.tickets]
        now += gap
    return {
        "arrivals": n,
        "matched": len(waits),
        "median_s": statistics.median(waits) / 1000 if waits else None,
        "p90_s": percentile([float(w) for w in waits], 0.9) / 1000 if waits else None,
        "p99_s": percentile([float(w) for w in waits], 0.99) / 1000 if waits else None,
        "bot_seats": bots,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--waiting", type=int, default=1000)
    parser.add_argument("--steps", type=int, default=300)
    args = parser.parse_args(argv)
    server = start_redis()
    client: redis.Redis[str] = redis.Redis.from_url(server.url, decode_responses=True)
    try:
        load = os.getloadavg()[0]
        lua: list[float] = []
        ref: list[float] = []
        lua_made = ref_made = 0
        rounds = 3  # alternated, so both see the same noise of a shared machine
        for _ in range(rounds):
            times, made = step_times(client, args.waiting, args.steps // rounds, lua=True)
            lua, lua_made = lua + times, lua_made + made
            times, made = step_times(client, args.waiting, args.steps // rounds, lua=False)
            ref, ref_made = ref + times, ref_made + made
        arrivals = [
            (1.0, 2, 20, "gin-like duel, 1 player/s"),
            (1.0, 4, 20, "4 seats, 1 player/s"),
            (10.0, 4, 20, "4 seats, 10 players/s"),
            (0.2, 3, 20, "3 seats, 1 player / 5 s (bots fill)"),
        ]
        rows = [
            (label, time_to_match(client, rate, seats, 300, bots))
            for rate, seats, bots, label in arrivals
        ]
    finally:
        client.close()
        server.close()
    command = " ".join(["python -m bench.bench_match", *(argv or sys.argv[1:])])
    lines = [
        "## Quick match: a matching step with 1,000 waiting, and the time to a match",
        "",
        f"`{command}` — redis-server 7 on the 2-core machine, one client process (load "
        f"average {load:.1f} at the start: the machine is shared). Lua and Python alternate in"
        " three rounds.",
        "",
        f"One pool kept at {args.waiting} waiting tickets (4 seats, ratings spread around 1500;"
        " matched tickets replaced by new arrivals), a step every 100 ms of the matcher's clock,"
        f" {args.steps} steps. Lua: the matcher's script (service/lobby/scripts.py `STEP`, "
        f"{matcher.SCAN} anchors a step); Python: the same step computed in the client from the"
        " pool read whole, written under WATCH/MULTI (the reference).",
        "",
        "| step | median ms | p99 ms | max ms | groups made |",
        "| --- | --- | --- | --- | --- |",
        f"| Lua (ours) | {statistics.median(lua):.2f} | {percentile(lua, 0.99):.2f} | "
        f"{max(lua):.2f} | {lua_made} |",
        f"| Python + WATCH (reference) | {statistics.median(ref):.2f} | "
        f"{percentile(ref, 0.99):.2f} | {max(ref):.2f} | {ref_made} |",
        f"| ratio (reference / ours) | {statistics.median(ref) / statistics.median(lua):.1f}x | "
        f"{percentile(ref, 0.99) / percentile(lua, 0.99):.1f}x | | |",
        "",
        "Time to a match (matcher's clock; five minutes of arrivals, bots after 20 s; ratings as "
        "above; a step at each arrival and every second):",
        "",
        "| arrivals | players | matched | median s | p90 s | p99 s | bot seats |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for label, row in rows:
        lines.append(
            f"| {label} | {row['arrivals']} | {row['matched']} | {row['median_s']} | "
            f"{row['p90_s']} | {row['p99_s']} | {row['bot_seats']} |"
        )
    RESULT.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
