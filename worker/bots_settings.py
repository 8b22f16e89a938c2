"""Settings for the bots workers, ``rq worker -c worker.bots_settings``
(service.commands.bots_worker_args): the bots' queue alone (worker.bots).

Like worker.settings, importing it imports the engines, their bots (the Meister's play-outs
among them) and the jobs before the first job; the values come from service.common.config.
"""

from __future__ import annotations

from service import games
from service.common import exposition
from service.common.connect import rq_settings
from worker.jobs import context
from worker.steady import tune_collector

games.preload()  # every game's bots (they load lazily otherwise)

globals().update(rq_settings(context().settings))
# Only the bots that move off the request: the steady workers serve the turn timers and the
# verifications, so neither ever waits behind a bot's decision.
QUEUES = [context().settings.bot_queue]

# This worker's metrics listener (PIKDAME_BOTS_METRICS_BIND; docs/METRICS.md), if it has one.
exposition.serve(context().settings.bots_metrics_bind)

tune_collector()
