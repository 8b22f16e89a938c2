"""Settings for the stock ``rq worker -c worker.settings`` command.

Importing this module in the worker's parent process also imports the engine and the job, so each
forked work horse starts with them loaded instead of paying for the import per job.
"""

from __future__ import annotations

import os

import engine  # noqa: F401  (preload before the fork)
import worker.jobs  # noqa: F401  (preload before the fork)

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
QUEUES = [os.environ.get("PIKDAME_QUEUE", "verify")]
