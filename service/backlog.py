"""What waits, read from Redis when Prometheus scrapes (a collector of the API group's metrics
listener, deploy/gunicorn.conf.py): the queues' lengths and their oldest jobs' ages, the daily
attempts finished but not yet verified, the turn timers pending and how late the latest is,
the quick match's tickets waiting per game, and whether each Redis role answers.

Computed at scrape time, not counted as things happen: every web host shows the same values
(the alert rules take their max), and they hold after any restart. Names no player, token,
table or card: counts, ages and game names only.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Iterator
from functools import cached_property
from typing import Any

import redis
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from rq import Queue
from rq.job import Job
from rq.serializers import JSONSerializer

from service import games
from service.common import clock, connect, keys
from service.common.config import Settings
from service.lobby import matcher

#: What a scrape reads may fail (Redis away): the gauges it could not read are left out.
ERRORS = (redis.RedisError, OSError)


def oldest_age_s(client: redis.Redis[Any], key: str, now_ms: int) -> float:
    """How long ago (seconds) the lowest score of a sorted set of times (ms) was; 0 if empty."""
    first = client.zrange(key, 0, 0, withscores=True)
    return max(0.0, (now_ms - float(first[0][1])) / 1000) if first else 0.0


class Backlog(Collector):
    """The scrape-time gauges (module docstring), on ``settings``' Redis roles."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def describe(self) -> list[GaugeMetricFamily]:
        """Nothing read at registration (the registry would otherwise collect, in the master
        before it forks): the names are checked by tests/service/test_metrics.py instead."""
        return []

    @cached_property
    def clients(self) -> dict[str, Any]:
        """The roles' clients, made at the first scrape (in the master's listener thread)."""
        s = self.settings
        state, rankings = connect.role_clients(s)
        return {
            "state": state,
            "queue": connect.client(s, s.redis_queue_url, text=False),
            "rankings": rankings,
        }

    def collect(self) -> Iterator[GaugeMetricFamily]:
        up = GaugeMetricFamily(
            "pikdame_redis_up",
            "Whether each Redis role answered this scrape's PING.",
            labels=["role"],
        )
        answered: dict[str, bool] = {}
        for role, client in self.clients.items():
            try:
                answered[role] = bool(client.ping())
            except ERRORS:
                answered[role] = False
            up.add_metric([role], float(answered[role]))
        yield up
        if answered["queue"]:
            yield from self.queues(self.clients["queue"])
        if answered["state"]:
            yield from self.state(self.clients["state"])

    def queues(self, connection: redis.Redis[bytes]) -> Iterator[GaugeMetricFamily]:
        s = self.settings
        jobs = GaugeMetricFamily(
            "pikdame_queue_jobs", "Jobs waiting in each RQ queue.", labels=["queue"]
        )
        age = GaugeMetricFamily(
            "pikdame_queue_oldest_job_age_seconds",
            "How long the job at the head of each RQ queue has waited (0: none waits).",
            labels=["queue"],
        )
        try:
            for name in (s.queue, s.analysis_queue, s.table_queue, s.bot_queue):
                q = Queue(name, connection=connection, serializer=JSONSerializer)
                jobs.add_metric([name], float(q.count))
                age.add_metric([name], self.head_age_s(q))
        except ERRORS:
            return
        yield jobs
        yield age

    @staticmethod
    def head_age_s(q: Queue) -> float:
        head = q.get_job_ids(0, 1)
        if not head:
            return 0.0
        job = Job.fetch(head[0], connection=q.connection, serializer=q.serializer)
        if job.enqueued_at is None:
            return 0.0
        enqueued = job.enqueued_at.replace(tzinfo=dt.UTC)  # RQ's own clock: the system's, UTC
        return max(0.0, time.time() - enqueued.timestamp())

    def state(self, client: redis.Redis[str]) -> Iterator[GaugeMetricFamily]:
        now_ms = int(clock.now(self.settings).timestamp() * 1000)  # the app's clock: its scores'
        try:
            waiting = client.zcard(keys.FINISHED)
            oldest = oldest_age_s(client, keys.FINISHED, now_ms)
            timers = client.zcard(keys.TABLE_DEADLINES)
            overdue = oldest_age_s(client, keys.TABLE_DEADLINES, now_ms)
            tickets = matcher.waiting(client)
        except ERRORS:
            return
        yield GaugeMetricFamily(
            "pikdame_verification_waiting",
            "Daily attempts finished and not yet verified (the reconciler's list).",
            value=float(waiting),
        )
        yield GaugeMetricFamily(
            "pikdame_verification_oldest_waiting_seconds",
            "How long the oldest finished attempt without a verdict has waited (0: none).",
            value=oldest,
        )
        yield GaugeMetricFamily(
            "pikdame_turn_timers_pending", "Tables with a turn timer set (R9).", value=float(timers)
        )
        yield GaugeMetricFamily(
            "pikdame_turn_timers_overdue_seconds",
            "How far past its deadline the earliest pending turn timer is (0: none is due).",
            value=overdue,
        )
        family = GaugeMetricFamily(
            "pikdame_match_tickets_waiting",
            "Quick-match tickets waiting, by game.",
            labels=["game"],
        )
        for game in sorted(set(games.GAMES) | set(tickets)):
            family.add_metric([game], float(tickets.get(game, 0)))
        yield family


#: The names of the gauges :class:`Backlog` yields (the alert rules' test reads them).
NAMES = (
    "pikdame_redis_up",
    "pikdame_queue_jobs",
    "pikdame_queue_oldest_job_age_seconds",
    "pikdame_verification_waiting",
    "pikdame_verification_oldest_waiting_seconds",
    "pikdame_turn_timers_pending",
    "pikdame_turn_timers_overdue_seconds",
    "pikdame_match_tickets_waiting",
)
