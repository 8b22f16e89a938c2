"""The metrics every role counts (Prometheus, prometheus_client), declared once, here.

A metric's labels are bounded sets chosen by the code (a route's URL rule, a status code, a
game, a stream's kind, a queue's name): never a raw path, a player's name, a token, an id or a
card. In a gunicorn group (the API, the streams) each process writes its own values into the
group's multiprocess directory (PROMETHEUS_MULTIPROC_DIR, set by service.common.exposition
before this module is first imported) and the group's listener sums them; elsewhere (a
verification worker, the publisher) the values live in the process. Gauges read from Redis at
scrape time (queues, backlogs, tickets waiting) are service.backlog's. docs/METRICS.md lists
them all with the alerts that read them.
"""

from __future__ import annotations

from typing import Any, Final

from prometheus_client import Counter, Gauge, Histogram

#: Request latency buckets (seconds): a cached read is a millisecond, a move tens of them.
LATENCY_BUCKETS: Final = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
#: Waits counted in seconds to minutes: verification lag, time to a seat, timer lateness.
WAIT_BUCKETS: Final = (0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 900.0)
#: The methods named in a label; anything else is "other" (a client chooses the method).
METHODS: Final = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
#: A request that matched no route (404, 405 before routing): one label, whatever its path.
UNMATCHED: Final = "unmatched"

REQUESTS: Final = Counter(
    "pikdame_http_requests_total",
    "Requests answered, by route (the URL rule), method and status.",
    ["route", "method", "status"],
)
LATENCY: Final = Histogram(
    "pikdame_http_request_duration_seconds",
    "Time from a request's arrival to its status line (a stream: not its whole life).",
    ["route", "method", "status"],
    buckets=LATENCY_BUCKETS,
)
STREAMS_OPEN: Final = Gauge(
    "pikdame_streams_open",
    "Live streams open in this group, by kind (table, lobby, match).",
    ["kind"],
    multiprocess_mode="livesum",
)
STREAMS_OPENED: Final = Counter(
    "pikdame_streams_opened_total", "Live streams opened, by kind.", ["kind"]
)
VERIFICATION_LAG: Final = Histogram(
    "pikdame_verification_lag_seconds",
    "From a daily game's finish to its rank written (verified attempts, on the app's clock).",
    buckets=WAIT_BUCKETS,
)
VERIFICATIONS: Final = Counter(
    "pikdame_verifications_total",
    "Verdicts recorded by the workers, by status (verified, rejected).",
    ["status"],
)
TIMER_LATENESS: Final = Histogram(
    "pikdame_turn_timer_lateness_seconds",
    "How long after its deadline a turn timer played the absent player's turn (R9).",
    buckets=WAIT_BUCKETS,
)
TIME_TO_SEAT: Final = Histogram(
    "pikdame_match_time_to_seat_seconds",
    "From a quick-match ticket's join to its seat at a built table, by game.",
    ["game"],
    buckets=WAIT_BUCKETS,
)
RATING_UPDATES: Final = Counter(
    "pikdame_rating_updates_total",
    "Rated tables settled (every rated seat's rating changed once), by game.",
    ["game"],
)
REDIS_ERRORS: Final = Counter(
    "pikdame_redis_errors_total",
    "Redis errors met, by where (request, stream, job, worker, publisher).",
    ["where"],
)
REDIS_RETRIES: Final = Counter(
    "pikdame_redis_retries_total",
    "Tries to reach Redis again after an error (a worker's back-off, the publisher's turns).",
    ["where"],
)
PUBLISHED_SECOND: Final = Gauge(
    "pikdame_publisher_last_published_second",
    "The last second (Unix time) whose reads the publisher wrote for nginx.",
    multiprocess_mode="max",
)
PUBLISHER_TURNS: Final = Counter(
    "pikdame_publisher_turns_total",
    "The publisher's turns, by outcome (published, or why a second was skipped, or failed).",
    ["outcome"],
)
KEPT_AGE: Final = Gauge(
    "pikdame_publisher_kept_age_seconds",
    "How long ago the refresher last wrote the kept reads (the week's standings), or the "
    "publisher started if it never did: past its cadence when the refresher fails or lags.",
    multiprocess_mode="max",
)
ANALYSES: Final = Counter(
    "pikdame_analyses_total",
    "Analysis jobs ended in an analysis worker, by status (finished, failed: its CPU budget, "
    "an error, a killed work horse).",
    ["status"],
)
ANALYSIS_DURATION: Final = Histogram(
    "pikdame_analysis_duration_seconds",
    "An analysis job's run in its work horse, from its start to its end (RQ's times).",
    buckets=WAIT_BUCKETS,
)
BOT_STEPS: Final = Counter(
    "pikdame_bot_steps_total",
    "Steps of the bots that move off the request (the Meister), by outcome (played; stale: "
    "the table had moved on).",
    ["outcome"],
)
BOT_WAIT: Final = Histogram(
    "pikdame_bot_wait_seconds",
    "From a bot's turn falling due to its step played (what the table waits; the app's clock).",
    buckets=WAIT_BUCKETS,
)


def method_label(method: str) -> str:
    return method if method in METHODS else "other"


#: The (counter, histogram) children per (route, method, status): ``labels()`` takes a lock and
#: builds a key each time, about two thirds of a request's metrics cost (docs/METRICS.md).
_per_request: dict[tuple[str, str, str], tuple[Any, Any]] = {}


def observe_request(route: str | None, method: str, status: int, seconds: float) -> None:
    """One answered request (service.web.measure)."""
    key = (route or UNMATCHED, method_label(method), str(status))
    children = _per_request.get(key)
    if children is None:
        children = _per_request[key] = (REQUESTS.labels(*key), LATENCY.labels(*key))
    children[0].inc()
    children[1].observe(seconds)


def stream_opened(kind: str) -> None:
    STREAMS_OPENED.labels(kind).inc()
    STREAMS_OPEN.labels(kind).inc()


def stream_closed(kind: str) -> None:
    STREAMS_OPEN.labels(kind).dec()


def redis_error(where: str) -> None:
    REDIS_ERRORS.labels(where).inc()


def redis_retry(where: str) -> None:
    REDIS_RETRIES.labels(where).inc()


#: Every metric declared here (tests/service/test_metrics.py reads their names).
ALL: Final = (
    REQUESTS,
    LATENCY,
    STREAMS_OPEN,
    STREAMS_OPENED,
    VERIFICATION_LAG,
    VERIFICATIONS,
    TIMER_LATENESS,
    TIME_TO_SEAT,
    RATING_UPDATES,
    REDIS_ERRORS,
    REDIS_RETRIES,
    PUBLISHED_SECOND,
    PUBLISHER_TURNS,
    KEPT_AGE,
    ANALYSES,
    ANALYSIS_DURATION,
    BOT_STEPS,
    BOT_WAIT,
)
