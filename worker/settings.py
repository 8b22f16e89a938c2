"""Settings for ``rq worker -c worker.settings`` (service.commands.worker_args).

Importing this module in the worker's process also imports the engine, its bots (they load
lazily otherwise) and the job, so the first job does not pay for the imports. The values come from
service.common.config, like everyone else's.
"""

from __future__ import annotations

from service import games
from service.common.connect import rq_settings
from worker.jobs import context
from worker.steady import tune_collector

games.preload()  # every game's bots (they load lazily otherwise)

# rq's own connection: the queue's server, directly (REDIS_URL) or through Sentinel (SENTINEL)
globals().update(rq_settings(context().settings))
# The turn timers first: a timer is due at a second; a verification may wait a moment; an
# analysis waits behind both (the reset hour's verifications never wait behind analyses).
QUEUES = [
    context().settings.table_queue,
    context().settings.queue,
    context().settings.analysis_queue,
]

# After every import: what start-up built stays out of the collector's way (worker.steady).
tune_collector()
