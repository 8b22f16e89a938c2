"""gunicorn settings for the tables' live streams (GET /api/tables/{id}/events, docs/TABLES.md).

A stream is a long-lived connection that mostly waits on Redis pub/sub: gevent workers hold
thousands of them per process as greenlets (``worker_connections``), where gthread would need a
thread each. The same app (service.wsgi:app); nginx sends only the stream path here, unbuffered.
Not preloaded: gevent patches the standard library in each worker before the app is imported.
On SIGTERM every open stream ends at once (service.tables.stream.shutdown), so a worker stops
within ``graceful_timeout`` with its seats marked absent, instead of being killed mid-stream.
"""

import gc as _gc
import signal as _signal
from typing import Any as _Any

from service.common import config as _config  # (gunicorn reads every public name here)
from service.common import exposition as _exposition

_settings = _config.load()
# The group's metrics (open streams per kind, requests): a multiprocess directory, served by
# the master on PIKDAME_STREAM_METRICS_BIND (when_ready; docs/METRICS.md).
_exposition.prepare_group(_settings.stream_metrics_bind)
bind = _settings.stream_bind
workers = _settings.stream_processes  # PIKDAME_STREAM_PROCESSES: one per core
worker_class = "gevent"
worker_connections = _settings.stream_connections
preload_app = False
timeout = 30  # the gevent arbiter heartbeat, not a request's length
graceful_timeout = 5  # streams end; EventSource resumes with Last-Event-ID on another worker
# A short keep-alive: a connection here carries one stream (EventSource opens a new one after
# ``retry``), and an idle kept-alive connection holds a stopping worker; it must close well
# within ``graceful_timeout`` or the worker is killed instead of exiting. (0 was tried: gunicorn's
# gevent worker then missed a client's disconnect, and the seat stayed "connected".)
keepalive = 2
max_requests = 0  # a recycled worker would drop its streams for nothing
accesslog = None
errorlog = "-"
loglevel = _settings.log_level
forwarded_allow_ips = ",".join(str(network) for network in _settings.proxies)
control_socket_disable = True


def post_worker_init(worker: _Any) -> None:
    """The app is loaded (gunicorn calls this after importing it): its objects move to the
    collector's permanent generation, which no collection scans again. They were most of the
    worker's tracked objects (about 130,000 of 180,000 with 500 streams under load), and each
    full collection walked them all for nothing: 50-80 ms of CPU during which none of the
    worker's streams moves (stretched to 150-500 ms when the worker loses its core midway), every
    few seconds under load; without them 16-28 ms (bench/results/notes/tables.md).

    Then chain the worker's SIGTERM handler: end the streams (in a greenlet, not in the signal
    handler), then let gunicorn stop as usual."""
    import gevent

    _gc.collect()
    _gc.freeze()

    from service.tables import stream as table_stream

    previous = _signal.getsignal(_signal.SIGTERM)

    def on_term(signum: int, frame: _Any) -> None:
        gevent.spawn(table_stream.shutdown)
        if callable(previous):
            previous(signum, frame)

    _signal.signal(_signal.SIGTERM, on_term)


def when_ready(server: _Any) -> None:
    """The master's metrics listener: every worker's values summed."""
    _exposition.serve_group(_settings.stream_metrics_bind)


def child_exit(server: _Any, worker: _Any) -> None:
    """A worker that exited (its streams with it) leaves the open streams' sum."""
    _exposition.worker_exited(worker.pid)
