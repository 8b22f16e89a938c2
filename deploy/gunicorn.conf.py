"""gunicorn settings for the web service (stateless: run as many processes as cores allow).

The values that vary come from service.common.config, the one reader of the environment.
"""

import gc
from typing import Any as _Any

from service.common import config as _config  # (gunicorn reads every public name here)
from service.common import exposition as _exposition

_settings = _config.load()
# The group's metrics: a multiprocess directory made before the app imports prometheus_client,
# served by the master on PIKDAME_METRICS_BIND (when_ready; docs/METRICS.md).
_exposition.prepare_group(_settings.metrics_bind)
bind = _settings.bind
# A process per core, two threads each: a move is CPU-bound Python, and more processes or
# threads than the cores can run made a move wait behind the others (moves at saturation through
# nginx: p99 35-50 ms under 2 x 2 on the 2-core box against 63-77 ms under 4 x 4; the reads the
# same; bench/results/front_moves.md, front_shapes.md).
workers = _settings.web_processes
worker_class = "gthread"
threads = _settings.web_threads
preload_app = True  # import the engine once, before forking
timeout = 30
graceful_timeout = 20
keepalive = 5
# A worker is replaced after this many requests, a guard against slow leaks. Each replacement
# costs its first requests (connections, pages copied from the master): at 5,000 a worker of
# the reset hour was replaced every few seconds, a noticeable part of a cheap read's CPU (issue
# 16, bench/results/front.md); at 100,000 it is about once a minute at that rate, hours otherwise.
max_requests = 100_000
max_requests_jitter = 10_000
accesslog = None  # the app writes structured JSON request logs itself
errorlog = "-"
loglevel = _settings.log_level
# gunicorn reads X-Forwarded-Proto from the same proxies the app trusts (PIKDAME_PROXIES), only
forwarded_allow_ips = ",".join(str(network) for network in _settings.proxies)
control_socket_disable = True  # several services may share a host; we do not use it


def pre_fork(server: object, worker: object) -> None:
    """Before each worker is forked: the preloaded app's objects move to the collector's
    permanent generation (``gc.freeze``), so a worker's collections never write to them and the
    memory pages it shares with the master stay shared instead of being copied, one by one, by
    every new worker (Python's gc docs; bench/results/front.md)."""
    gc.freeze()


def when_ready(server: object) -> None:
    """The master's metrics listener: every worker's values summed, and what waits in Redis
    (service.backlog), read at each scrape."""
    from service.backlog import Backlog

    _exposition.serve_group(_settings.metrics_bind, Backlog(_settings))


def child_exit(server: object, worker: _Any) -> None:
    """A worker that exited leaves the live gauges' sum (multiprocess mode)."""
    _exposition.worker_exited(worker.pid)
