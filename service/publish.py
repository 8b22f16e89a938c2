"""The publisher's process (deploy/systemd/pikdame-publish.service, one on every nginx host):
``python -m service.publish`` builds the app, as gunicorn's would, and runs the published reads'
:class:`~service.web.publishing.Publisher` on it every second until SIGTERM or SIGINT (its kept
reads, the week's tournament's standings, refreshed by a child process it forks and stops).
Above the app factory, so the platform's publishing module never imports the app."""

from __future__ import annotations

import logging
import signal
import threading

from service.app import create_app
from service.common import exposition
from service.web import logs
from service.web.publishing import Publisher
from service.web.redisconn import settings_of


def main() -> None:
    """Publishes into PIKDAME_PUBLISH_DIR every second until SIGTERM or SIGINT."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    app = create_app()
    # its own asks are not requests to log: eight a second, all day (failures still are)
    logging.getLogger(logs.LOGGER).setLevel(logging.WARNING)
    exposition.serve(settings_of(app).publish_metrics_bind)  # docs/METRICS.md
    publisher = Publisher(app, settings_of(app).publish_dir)
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    publisher.run(stop)


if __name__ == "__main__":
    main()
