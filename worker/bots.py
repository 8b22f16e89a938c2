"""The bots worker: ``rq worker -w worker.bots.BotWorker`` on the bots' queue alone
(worker.bots_settings, ``PIKDAME_BOT_QUEUE``): the table bots that move off the request (the
Meister, docs/TABLES.md "Bots off the request"), one step per job (service.tables.bots).

The steady workers (worker.steady, worker.settings) never listen to the bots' queue, and this one
to nothing else, so a turn timer or a verification never waits behind a bot's decision (as the
analyses were set apart in issue 38). A step is at most about 1.5 s of CPU, so, like the steady
worker's, it runs in the worker's own warm process (no work horse per job; RQ's job timeout by
alarm signal). It rides out Redis outages like the steady worker, starts no scheduler (nothing of
its is scheduled) and runs none of the steady worker's sweeps; its own sweep, every
``steady.SWEEP_S`` (one bots worker per tick), queues again the due bot turns whose job was lost
(service.reconcile.reconcile_bots): a worker killed mid-step, a web process killed before it
queued the job.
"""

from __future__ import annotations

import time
from typing import Any

from rq import Worker

from service.common import clock, keys, metrics
from service.reconcile import reconcile_bots
from worker import jobs
from worker.steady import REDIS_ERRORS, SWEEP_S, SteadyWorker


class BotWorker(SteadyWorker):
    """See the module docstring."""

    def start_scheduler(self, *args: Any, **kwargs: Any) -> None:
        """No scheduler, even with ``--with-scheduler``: a bot's step is never scheduled."""

    def run_maintenance_tasks(self) -> None:
        """RQ's own (its registries of the bots' queue) and the bots' sweep, nothing of the
        steady worker's (the timers, the lobby, the verifications' reconciler)."""
        try:
            if Worker.should_run_maintenance_tasks.fget(self):  # type: ignore[attr-defined]
                Worker.run_maintenance_tasks(self)  # type: ignore[no-untyped-call]
            self.next_sweep = time.monotonic() + SWEEP_S
            self.sweep_bots()
        except REDIS_ERRORS:
            metrics.redis_error("worker")
            self.wait_for_redis()

    def sweep_bots(self) -> None:
        """Queue again every due bot turn whose job was lost (one bots worker per SWEEP_S), on
        the app's clock like the tables' marks."""
        ctx = jobs.context()
        if not ctx.client.set(keys.BOTS_LOCK, self.name, nx=True, px=SWEEP_S * 1000 - 100):
            return  # another bots worker swept just now
        now_ms = int(clock.now(ctx.settings).timestamp() * 1000)
        lost = reconcile_bots(ctx.client, ctx.bot_queue, now_ms, retry_failed=False)
        if lost:
            self.log.warning("Worker %s: queued lost bot turns %s", self.name, lost)
