"""The RQ job functions, enqueued by dotted path (``worker.jobs.verify_attempt``)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import redis
from rq import Queue

from service.common import clock, config, connect, keys, releases
from service.dailies import analyses, queue
from service.tables import analyses as table_analyses
from service.tables import store as tables
from service.tables import timers
from worker import par as par_job
from worker.verify import verified


@dataclass(frozen=True)
class Context:
    """What a worker process shares between its jobs: settings, a text-mode client of the game
    state's Redis and one of the rankings' (the same when they share a server), and the
    verification queue (for the reconciler)."""

    settings: config.Settings
    client: redis.Redis[str]
    rankings: redis.Redis[str]
    queue: queue.VerifyQueue
    timer_queue: Queue


@cache
def context() -> Context:
    """One per worker process, from the environment (service.common.config)."""
    settings = config.load()
    # every release this worker keeps, imported before its first job (and, through
    # worker.settings, in the parent before it forks work horses)
    releases.load(settings.release_modules)
    state, rankings = connect.role_clients(settings)
    return Context(
        settings,
        state,
        rankings,
        queue.queue_on(
            connect.client(settings, settings.redis_queue_url, text=False),
            settings.queue,
            settings.retry_intervals,
        ),
        timers.queue_on(
            connect.client(settings, settings.redis_queue_url, text=False), settings.table_queue
        ),
    )


# The days whose par this process has seen stored, or whose par job it has queued (or found
# queued): a par is never removed, and a par job lost or failed is queued again by the
# reconciler (service.reconcile.reconcile_par, at every maintenance tick), so the job of every
# later attempt of the day skips the look. At the reset hour the par job waits behind the
# verifications queued before it: without the memo each of them looked (three round trips).
_days_par_asked: set[str] = set()  # looked up, never iterated


def verify_attempt(attempt_id: str) -> dict[str, Any]:
    """Replay, judge and rank one finished attempt; idempotent; raises on anything unexpected.
    The day's bot par (for a game that has one) is queued lazily, on the day's first finished
    attempt this process verifies; the reconciler queues it again should that job be lost."""
    ctx = context()
    settings = ctx.settings
    done = verified(
        ctx.client, attempt_id, settings.secret, ctx.rankings, settings.redis_wait_replicas
    )
    attempt = done.attempt
    if attempt is not None and attempt.daily.has_par and attempt.date not in _days_par_asked:
        if not ctx.rankings.exists(keys.par(attempt.date)):
            queue.enqueue_par(ctx.queue, attempt.date)
        _days_par_asked.add(attempt.date)
    return done.result


def analyse_attempt(attempt_id: str, mode: str, part: int = 1) -> bool:
    """Analyse round (hand) ``part`` of one finished attempt in ``mode`` (``view`` or ``deal``)
    and cache the document (service.dailies.analyses); idempotent; False when the attempt is
    gone."""
    ctx = context()
    return analyses.compute(ctx.client, attempt_id, mode, ctx.settings, part)


def analyse_table(table_id: str, part: int, seat: int, mode: str) -> bool:
    """Analyse one seat's round (Gin: hand) ``part`` of a table's game in ``mode`` and cache the
    document (service.tables.analyses); idempotent; False when the table is gone."""
    ctx = context()
    return table_analyses.compute(ctx.client, table_id, part, seat, mode, ctx.settings)


def compute_par(date: str) -> dict[str, int]:
    """The day's bot par, computed once (idempotent: a second job reads the stored one)."""
    ctx = context()
    return par_job.compute(ctx.rankings, date, ctx.settings.secret)


def lifetimes(settings: config.Settings) -> tables.Lifetimes:
    """How long tables live (docs/TABLES.md "Storage and lifetimes")."""
    return tables.Lifetimes(settings.table_idle_hours * 3600, settings.table_keep_days * 86400)


def table_turn_timeout(table_id: str, seq: int) -> dict[str, Any]:
    """The turn timer (R9): play the absent human's turn if the table is still at ``seq``;
    then schedule the next human's deadline. A job whose seq has moved on does nothing."""
    ctx = context()
    settings = ctx.settings
    lifetimes = tables.Lifetimes(settings.table_idle_hours * 3600, settings.table_keep_days * 86400)
    now_ms = int(clock.now(settings).timestamp() * 1000)
    done = tables.autoplay(ctx.client, table_id, seq, lifetimes, now_ms)
    if done is None:
        table = tables.load(ctx.client, table_id)
        if table is not None and table.seq == seq and table.deadline_ms is not None:
            # Woken before the deadline (clocks apart): try again at the deadline.
            timers.schedule(ctx.timer_queue, table_id, seq, table.deadline_ms, now_ms)
        return {"played": 0}
    table = done.table
    if table.deadline_ms is not None:
        timers.schedule(ctx.timer_queue, table_id, table.seq, table.deadline_ms, now_ms)
    return {"played": len(done.events), "seq": table.seq}
