"""Settings for ``rq worker -c worker.settings`` (service.commands.worker_args).

Importing this module in the worker's parent process also imports the engine, its bots (they load
lazily otherwise) and the job, so each forked work horse starts with them loaded instead of paying
for the imports per job. The values come from service.data.config, like everyone else's.
"""

from __future__ import annotations

import engine.pikdame.bots.advanced
import engine.pikdame.bots.beginner
import engine.pikdame.bots.zen  # noqa: F401  (preloaded: the daily challenge's bots)
from worker.jobs import context

REDIS_URL = context().settings.redis_queue_url  # rq's own connection: the queue's server
QUEUES = [context().settings.queue]
