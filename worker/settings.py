"""Settings for ``rq worker -c worker.settings`` (service.commands.worker_args).

Importing this module in the worker's process also imports the engine, its bots (they load
lazily otherwise) and the job, so the first job does not pay for the imports. The values come from
service.common.config, like everyone else's.
"""

from __future__ import annotations

from service import games
from service.common import exposition
from service.common.connect import rq_settings
from worker.jobs import context
from worker.steady import tune_collector

games.preload()  # every game's bots (they load lazily otherwise)

# rq's own connection: the queue's server, directly (REDIS_URL) or through Sentinel (SENTINEL)
globals().update(rq_settings(context().settings))
# The turn timers first: a timer is due at a second; a verification may wait a moment. Never
# the analyses' queue: its own workers serve it (worker.analysis_settings), so a timer or a
# verification never waits behind an analysis (issue 38).
QUEUES = [context().settings.table_queue, context().settings.queue]

# This worker's metrics listener (PIKDAME_WORKER_METRICS_BIND; docs/METRICS.md), if it has one.
exposition.serve(context().settings.worker_metrics_bind)

# After every import: what start-up built stays out of the collector's way (worker.steady).
tune_collector()
