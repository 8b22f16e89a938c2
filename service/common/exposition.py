"""Where a role's metrics are read: a listener of its own (Prometheus' text format at any path,
``/metrics`` by convention), on the address its setting names, never through the public site.

- The gunicorn groups (the API, deploy/gunicorn.conf.py; the streams,
  deploy/gunicorn_stream.conf.py): :func:`prepare_group` in the configuration gives the group a
  fresh multiprocess directory before any process imports prometheus_client; the master serves
  the sum of its workers' values (:func:`serve_group`, gunicorn's ``when_ready``) and forgets a
  dead worker's live gauges (:func:`worker_exited`, ``child_exit``).
- A single process (a verification worker, the publisher): :func:`serve` from the process.

prometheus_client is imported inside the functions: its multiprocess mode is chosen when it is
first imported, after :func:`prepare_group` has set the directory.
"""

from __future__ import annotations

import atexit
import glob
import logging
import os
import shutil
import tempfile
import threading
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from prometheus_client.registry import Collector, CollectorRegistry

log = logging.getLogger(__name__)

MULTIPROC_ENV: Final = "PROMETHEUS_MULTIPROC_DIR"


def split_bind(bind: str) -> tuple[str, int]:
    """``"127.0.0.1:9100"`` -> ("127.0.0.1", 9100); ``"[::1]:9100"`` -> ("::1", 9100).
    Raises ValueError for an address without a port."""
    host, sep, port = bind.strip().rpartition(":")
    if not sep or not port.isdigit() or not host:
        raise ValueError(f"{bind!r} is not host:port")
    return host.strip("[]"), int(port)


def prepare_group(bind: str) -> str | None:
    """A fresh multiprocess directory for a gunicorn group (removed when its master exits), named
    in the environment its workers inherit; None when the group serves no metrics. Under
    systemd the directory is in the unit's private /tmp (PrivateTmp=true)."""
    if not bind:
        return None
    directory = tempfile.mkdtemp(prefix="pikdame-metrics-")
    os.environ[MULTIPROC_ENV] = directory
    master = os.getpid()

    def remove() -> None:
        if os.getpid() == master:  # a forked worker's exit leaves it to the master
            shutil.rmtree(directory, ignore_errors=True)

    atexit.register(remove)
    return directory


#: Held while the master reads the group's files and while it folds a dead worker's into the
#: archive (:func:`fold`): a scrape never sees a dead worker's counts twice, or not at all.
_files = threading.Lock()


def group_registry(*extra: Collector) -> CollectorRegistry:
    """The registry a group's master serves: every worker's values, summed (multiprocess)."""
    from prometheus_client import CollectorRegistry, multiprocess

    summed: Any = multiprocess.MultiProcessCollector  # (untyped)

    class Locked(summed):  # type: ignore[misc]
        def collect(self) -> Any:
            with _files:
                return super().collect()

    registry = CollectorRegistry()
    Locked(registry)
    for collector in extra:
        registry.register(collector)
    return registry


def fold(pid: int, directory: str) -> None:
    """A dead worker's counters and histograms added into the group's archive files and its own
    files removed: the sums stay, and the files a scrape reads stay as few as the live workers
    (gunicorn replaces a worker every ``max_requests``; without this each left its files, and
    every scrape read them all). Its gauges leave (its open streams: prometheus_client's
    ``mark_process_dead``)."""
    from prometheus_client import mmap_dict, multiprocess

    files: Any = mmap_dict.MmapedDict  # (untyped)
    with _files:
        for kind in ("counter", "histogram"):
            dead = os.path.join(directory, f"{kind}_{pid}.db")
            if not os.path.exists(dead):
                continue
            archive = files(os.path.join(directory, f"{kind}_archive.db"))
            try:
                for key, value, timestamp, _ in files.read_all_values_from_file(dead):
                    held, _ = archive.read_value(key)
                    archive.write_value(key, held + value, timestamp)
            finally:
                archive.close()
            os.remove(dead)
        multiprocess.mark_process_dead(pid, directory)  # type: ignore[no-untyped-call]
        for gauge in glob.glob(os.path.join(directory, f"gauge_*_{pid}.db")):
            os.remove(gauge)  # the other gauges (the publisher's second, 0 here) go too


def serve(bind: str, registry: CollectorRegistry | None = None) -> Any:
    """Start the listener on ``bind`` (a daemon thread); the server, or None when ``bind`` is
    empty or taken (logged: Prometheus then sees the target down, which alerts)."""
    if not bind:
        return None
    from prometheus_client import REGISTRY, start_http_server

    host, port = split_bind(bind)
    try:
        server, _ = start_http_server(port, host, registry or REGISTRY)
    except OSError as e:
        log.error("metrics: cannot listen on %s: %s", bind, e)
        return None
    log.info("metrics: listening on %s", bind)
    return server


def serve_group(bind: str, *extra: Collector) -> Any:
    """The group master's listener (gunicorn's ``when_ready``), with ``extra`` collectors."""
    if not bind or MULTIPROC_ENV not in os.environ:
        return None
    return serve(bind, group_registry(*extra))


def worker_exited(pid: int) -> None:
    """gunicorn's ``child_exit``: the dead worker's values folded (:func:`fold`)."""
    directory = os.environ.get(MULTIPROC_ENV)
    if directory:
        fold(pid, directory)
