"""Settings for the stock ``rq worker -c worker.settings`` command.

Importing this module in the worker's parent process also imports the engine, its bots (they load
lazily otherwise) and the job, so each forked work horse starts with them loaded instead of paying
for the imports per job.
"""

from __future__ import annotations

import os

import engine.pikdame.bots.advanced
import engine.pikdame.bots.beginner
import engine.pikdame.bots.zen  # noqa: F401  (preloaded: the daily challenge's bots)
import worker.jobs  # noqa: F401  (preloaded: the job)

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
QUEUES = [os.environ.get("PIKDAME_QUEUE", "verify")]
