"""Settings for the analysis workers, ``rq worker -c worker.analysis_settings``
(service.commands.analysis_worker_args): the analyses' queue alone (worker.analysis).

Like worker.settings, importing it imports the engines, their bots and the jobs before the first
fork, so a work horse starts warm; the values come from service.common.config.
"""

from __future__ import annotations

from service import games
from service.common import exposition
from service.common.connect import rq_settings
from worker.jobs import context
from worker.steady import tune_collector

games.preload()  # every game's bots (they load lazily otherwise)

globals().update(rq_settings(context().settings))
# Only the analyses: the steady workers serve the turn timers and the verifications (issue 38).
QUEUES = [context().settings.analysis_queue]

# This worker's metrics listener (PIKDAME_ANALYSIS_METRICS_BIND; docs/METRICS.md), if it has one.
exposition.serve(context().settings.analysis_metrics_bind)

tune_collector()
