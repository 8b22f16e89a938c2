"""The RQ job functions, enqueued by dotted path (``worker.jobs.verify_attempt``)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import redis
from rq import Queue

from service import games
from service.common import clock, config, connect, keys, metrics, releases
from service.dailies import analyses, queue, store
from service.tables import analyses as table_analyses
from service.tables import bots, timers
from service.tables import store as tables
from worker import par as par_job
from worker.events import verified_event
from worker.verify import verified


@dataclass(frozen=True)
class Context:
    """What a worker process shares between its jobs: settings, a text-mode client of the game
    state's Redis and one of the rankings' (the same when they share a server), and the
    verification queue (for the reconciler), the turn timers' and the bots' queues."""

    settings: config.Settings
    client: redis.Redis[str]
    rankings: redis.Redis[str]
    queue: queue.VerifyQueue
    timer_queue: Queue
    bot_queue: Queue


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
        bots.queue_on(
            connect.client(settings, settings.redis_queue_url, text=False), settings.bot_queue
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
    # one read of the attempt tells a daily from an event deal and serves the verification
    stored = ctx.client.hgetall(keys.attempt(attempt_id))
    if "event" in stored:
        # an event deal's record: verified the same way, its score folded into the event's
        # standings (worker.events, docs/EVENTS.md)
        done = verified_event(
            ctx.client,
            attempt_id,
            settings.secret,
            ctx.rankings,
            settings.redis_wait_replicas,
            stored,
        )
        if done.result.get("new"):
            observe_verdict(settings, str(done.result["status"]), done.attempt)
        return done.result
    done = verified(
        ctx.client, attempt_id, settings.secret, ctx.rankings, settings.redis_wait_replicas, stored
    )
    attempt = done.attempt
    if done.result.get("new"):
        observe_verdict(settings, str(done.result["status"]), attempt)
    has_par = attempt is not None and games.offers(attempt.kind, games.PAR)
    if attempt is not None and has_par and attempt.date not in _days_par_asked:
        if not ctx.rankings.exists(keys.par(attempt.date)):
            queue.enqueue_par(ctx.queue, attempt.date)
        _days_par_asked.add(attempt.date)
    return done.result


def observe_verdict(settings: config.Settings, status: str, attempt: store.Attempt | None) -> None:
    """A verdict this job recorded: counted, and a verified one's lag (finished → ranked, both
    on the app's clock) observed (docs/METRICS.md)."""
    metrics.VERIFICATIONS.labels(status).inc()
    if status == "verified" and attempt is not None and attempt.finished_ms is not None:
        now_ms = clock.now(settings).timestamp() * 1000
        metrics.VERIFICATION_LAG.observe(max(0.0, now_ms - attempt.finished_ms) / 1000)


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
    now_ms = int(clock.now(settings).timestamp() * 1000)
    done = tables.autoplay(ctx.client, table_id, seq, lifetimes(settings), now_ms)
    if done is not None and done.deadline_before is not None:
        metrics.TIMER_LATENESS.observe(max(0.0, now_ms - done.deadline_before) / 1000)
    if done is None:
        table = tables.load(ctx.client, table_id)
        if table is not None and table.seq == seq and table.deadline_ms is not None:
            # Woken before the deadline (clocks apart): try again at the deadline.
            timers.schedule(ctx.timer_queue, table_id, seq, table.deadline_ms, now_ms)
        return {"played": 0}
    table = done.table
    if table.deadline_ms is not None:
        timers.schedule(ctx.timer_queue, table_id, table.seq, table.deadline_ms, now_ms)
    if table.bot_due_ms is not None:
        bots.enqueue(ctx.bot_queue, table_id, table.seq)  # a Meister answers, off this queue
    return {"played": len(done.events), "seq": table.seq}


def table_bots(table_id: str, seq: int) -> dict[str, Any]:
    """One step of the bots that move off the request (docs/TABLES.md "Bots off the request"):
    if the table is still at ``seq`` with a bot due, that bot's move and the other bots' answers
    as one committed change (its streams told); then, while a deferred bot is due again, the next
    step's job (at the back of the queue: the tables' bots take turns), else the human's turn
    timer. A job whose seq has moved on does nothing."""
    ctx = context()
    settings = ctx.settings
    now_ms = int(clock.now(settings).timestamp() * 1000)
    done = tables.play_bots(ctx.client, table_id, seq, lifetimes(settings), now_ms)
    if done is None:
        metrics.BOT_STEPS.labels("stale").inc()
        return {"played": 0}
    metrics.BOT_STEPS.labels("played").inc()
    if done.bot_due_before is not None:
        metrics.BOT_WAIT.observe(max(0.0, now_ms - done.bot_due_before) / 1000)
    table = done.table
    if table.bot_due_ms is not None:
        bots.enqueue(ctx.bot_queue, table_id, table.seq)
    elif table.deadline_ms is not None:
        timers.schedule(ctx.timer_queue, table_id, table.seq, table.deadline_ms, now_ms)
    return {"played": len(done.events), "seq": table.seq}
