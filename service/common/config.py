"""Configuration from the environment (API.md): read here and nowhere else, shared by the web,
the worker and the CLI as one typed, frozen :class:`Settings`.

Each variable is declared once in :data:`VARIABLES` (its name, default and parser); README.md's
table lists them all (a test keeps the two together). Tests and the app factory pass overrides
under the same names, as text or already typed.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import ipaddress
import os
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit

ROOT: Final = Path(__file__).resolve().parents[2]
SECRET_FILE: Final = "pikdame_secret"
MAX_BODY_BYTES: Final = 16 * 1024

Clock = Callable[[], dt.datetime]


def per_core(cores: int | None) -> int:
    """A process per core, at least one and at most four: the API's gunicorn and the stream
    group each (bench/results/front_moves.md: more CPU-bound processes than cores made a move
    wait behind the others)."""
    return max(1, min(4, cores or 1))


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_networks(text: str) -> tuple[Network, ...]:
    """PIKDAME_PROXIES: ``"127.0.0.1, 10.0.0.0/8 ::1"`` -> networks (service.web.proxies trusts
    their forwarded headers); raises ValueError naming a bad entry."""
    networks = []
    for part in text.replace(",", " ").split():
        try:
            networks.append(ipaddress.ip_network(part, strict=False))
        except ValueError:
            raise ValueError(
                f"PIKDAME_PROXIES: {part!r} is not an address or network (e.g. 127.0.0.1, "
                "10.0.0.0/8); it lists the proxies whose forwarded headers are trusted"
            ) from None
    return tuple(networks)


def parse_hosts(text: str) -> tuple[tuple[str, int], ...]:
    """PIKDAME_REDIS_SENTINELS: ``"10.0.0.1:26379, 10.0.0.2:26379"`` -> ((host, port), …)."""
    hosts = []
    for part in text.replace(",", " ").split():
        host, _, port = part.rpartition(":")
        if not host or not port.isdigit():
            raise ValueError(f"{part!r} is not host:port")
        hosts.append((host, int(port)))
    return tuple(hosts)


def _flag(text: str) -> bool:
    return text.strip() == "1"


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.replace(",", " ").split())


def _date(text: str) -> str:
    return dt.date.fromisoformat(text.strip()).isoformat()


def _intervals(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split(",") if part.strip())


@dataclass(frozen=True)
class Variable:
    """One environment variable: the settings field it fills, its default (as text) and how the
    text is read."""

    name: str
    field: str
    default: str | None
    parse: Callable[[str], Any] = str


VARIABLES: Final = (
    Variable("REDIS_URL", "redis_url", None),
    # Redis by role, each defaulting to REDIS_URL: game state (attempts, tokens, days,
    # rate limits), the verification queue (RQ), the rankings (boards, all-time, player facts).
    # No operation needs two of them at once, so each can be its own server (or a Cluster).
    Variable("PIKDAME_REDIS_STATE_URL", "redis_state_url", None),
    Variable("PIKDAME_REDIS_QUEUE_URL", "redis_queue_url", None),
    Variable("PIKDAME_REDIS_RANKINGS_URL", "redis_rankings_url", None),
    # Game state on a Redis Cluster (PIKDAME_REDIS_STATE_URL names one of its nodes): the queue
    # and the rankings then need URLs of their own (their scripts span slots).
    Variable("PIKDAME_REDIS_STATE_CLUSTER", "redis_state_cluster", "0", _flag),
    # Failover (service/common/connect.py): Sentinels ("host:port, host:port") that name the primary
    # PIKDAME_REDIS_MASTER for every role on REDIS_URL; before acknowledging a move or a start,
    # wait for this many replicas to have it (0: do not wait; 1 with one replica: no loss).
    Variable("PIKDAME_REDIS_SENTINELS", "redis_sentinels", "", parse_hosts),
    Variable("PIKDAME_REDIS_MASTER", "redis_master", "pikdame"),
    Variable("PIKDAME_REDIS_WAIT_REPLICAS", "redis_wait_replicas", "0", int),
    Variable("PIKDAME_REDIS_PORT", "redis_port", "6390", int),  # make run's embedded Redis
    Variable("PIKDAME_VAR", "var_dir", str(ROOT / "var"), lambda t: Path(t).resolve()),
    Variable("PIKDAME_SECRET", "secret", None, str.encode),
    Variable("PIKDAME_GRACE_MINUTES", "grace_minutes", "120", int),
    Variable("PIKDAME_LIMITS_ENABLED", "limits_enabled", "1", lambda t: t.strip() != "0"),
    Variable("PIKDAME_LIMIT_ATTEMPTS", "limit_attempts", "10 per hour"),
    Variable("PIKDAME_LIMIT_MOVES", "limit_moves", "30 per second"),
    # API.md's 60 a second, counted over ten seconds so a crowd behind one address is served
    Variable("PIKDAME_LIMIT_DEFAULT", "limit_default", "600 per 10 seconds"),
    Variable("PIKDAME_LIMIT_REPLAYS", "limit_replays", "120 per minute"),
    # analyses queued per caller (a cached document, or a job that waits or runs, costs nothing)
    Variable("PIKDAME_LIMIT_ANALYSES", "limit_analyses", "30 per 10 minutes"),
    Variable("PIKDAME_PROXIES", "proxies", "", parse_networks),
    Variable("PIKDAME_SECURE_COOKIES", "secure_cookies", "0", _flag),
    Variable("PIKDAME_QUEUE", "queue", "verify"),
    # the analyses' own queue: the reset hour's verification never waits behind them
    Variable("PIKDAME_ANALYSIS_QUEUE", "analysis_queue", "analysis"),
    # an analysis job's CPU seconds (the engine's budget, at most 10 s in the view mode, with room)
    Variable("PIKDAME_ANALYSIS_CPU_S", "analysis_cpu_s", "30", int),
    Variable("PIKDAME_RETRY_INTERVALS", "retry_intervals", "5,30,120", _intervals),
    Variable("PIKDAME_ARCHIVE_DIR", "archive_dir", None, Path),
    Variable("PIKDAME_KEEP_DAYS", "keep_days", "7", int),
    # where the publisher writes the published reads (deploy/nginx/published.conf's root)
    Variable("PIKDAME_PUBLISH_DIR", "publish_dir", "/run/pikdame/published", Path),
    # requests per web process that may wait for a verdict (service/dailies/verdicts.py);
    # unset, half of PIKDAME_THREADS (at least one)
    Variable("PIKDAME_VERDICT_WAITERS", "verdict_waiters", None, int),
    # gunicorn (deploy/gunicorn.conf.py); make run prints the address
    Variable("PIKDAME_BIND", "bind", "127.0.0.1:8000"),
    Variable("WEB_CONCURRENCY", "web_processes", str(per_core(os.cpu_count())), int),
    Variable("PIKDAME_THREADS", "web_threads", "2", int),
    Variable("PIKDAME_LOGLEVEL", "log_level", "info"),
    # passkeys (WebAuthn): the relying party's id (the site's host) and the origins pages run on;
    # unset, the origin is http://localhost at PIKDAME_BIND's port (a relying party is a domain:
    # a browser refuses passkeys at http://127.0.0.1), the address `make run` prints
    Variable("PIKDAME_RP_ID", "rp_id", "localhost"),
    Variable("PIKDAME_ORIGINS", "origins", None, _words),
    # small private deployments: anonymous attempts ranked as before accounts
    Variable("PIKDAME_RANK_ANONYMOUS", "rank_anonymous", "0", _flag),
    # release modules to import (service.common.releases.load): previous bot versions kept so a
    # record replays with the bots that played it
    Variable("PIKDAME_RELEASES", "release_modules", "", _words),
    # game modules kept outside the house's packages (the toy game under tests/): the games'
    # registry (service.games.EXTRA_GAMES) reads it itself as it is imported, before any
    # settings exist, and imports each: it registers its game
    Variable("PIKDAME_EXTRA_GAMES", "extra_games", "", _words),
    # the first day of the archive: GET /api/days lists every closed day from it on
    Variable("PIKDAME_LAUNCH_DATE", "launch_date", "2026-01-01", _date),
    # tables (docs/TABLES.md)
    Variable("PIKDAME_TABLE_IDLE_HOURS", "table_idle_hours", "24", int),
    Variable("PIKDAME_TABLE_KEEP_DAYS", "table_keep_days", "30", int),
    # the week's tournament (docs/EVENTS.md, "Retention"): how long after an event's close its
    # deals (attempts, replays) and the per-entrant data are kept; the final standings stay
    Variable("PIKDAME_EVENT_KEEP_DAYS", "event_keep_days", "28", int),
    Variable("PIKDAME_TABLE_QUEUE", "table_queue", "tables"),
    # the bots that move off the request (the Meister), on a queue and worker of their own
    Variable("PIKDAME_BOT_QUEUE", "bot_queue", "bots"),
    Variable("PIKDAME_LIMIT_TABLES", "limit_tables", "20 per hour"),
    Variable("PIKDAME_LIMIT_JOINS", "limit_joins", "60 per hour"),
    Variable("PIKDAME_LIMIT_TABLE_MOVES", "limit_table_moves", "20 per second"),
    Variable("PIKDAME_LIMIT_TABLE_ADDRESS", "limit_table_address", "60 per second"),
    # the live streams' own gunicorn (deploy/gunicorn_stream.conf.py, gevent)
    Variable("PIKDAME_STREAM_BIND", "stream_bind", "127.0.0.1:8001"),
    Variable("PIKDAME_STREAM_CONNECTIONS", "stream_connections", "2000", int),
    # its processes, sized apart from the API's
    Variable("PIKDAME_STREAM_PROCESSES", "stream_processes", str(per_core(os.cpu_count())), int),
    Variable("PIKDAME_STREAM_SECONDS", "stream_seconds", "300", int),
    Variable("PIKDAME_HEARTBEAT_SECONDS", "heartbeat_seconds", "15", int),
    # live streams held at once (docs/TABLES.md): per seat, per address (IPv6: /64); 0: no cap
    Variable("PIKDAME_STREAMS_PER_SEAT", "streams_per_seat", "8", int),
    Variable("PIKDAME_STREAMS_PER_ADDRESS", "streams_per_address", "64", int),
    # Redis connections per web or stream process (a request waits up to 20 s for a free one)
    Variable("PIKDAME_REDIS_CONNECTIONS", "redis_connections", "100", int),
    # Prometheus metrics listeners, one per role (service/common/exposition.py; empty: none).
    # Loopback by default: the shipped nginx site never proxies them (deploy/README.md). A
    # worker (verification, analysis, bots) has none unless given one (deploy/systemd/'s units:
    # a port per instance).
    Variable("PIKDAME_METRICS_BIND", "metrics_bind", "127.0.0.1:9100"),
    Variable("PIKDAME_STREAM_METRICS_BIND", "stream_metrics_bind", "127.0.0.1:9101"),
    Variable("PIKDAME_PUBLISH_METRICS_BIND", "publish_metrics_bind", "127.0.0.1:9102"),
    Variable("PIKDAME_WORKER_METRICS_BIND", "worker_metrics_bind", ""),
    Variable("PIKDAME_ANALYSIS_METRICS_BIND", "analysis_metrics_bind", ""),
    Variable("PIKDAME_BOTS_METRICS_BIND", "bots_metrics_bind", ""),
)


@dataclass(frozen=True)
class Settings:
    """What the environment configures (README.md, Configuration)."""

    redis_url: str
    redis_url_given: bool  # REDIS_URL was set (else make run embeds a redis-server)
    redis_state_url: str
    redis_queue_url: str
    redis_rankings_url: str
    redis_state_cluster: bool
    redis_sentinels: tuple[tuple[str, int], ...]
    redis_master: str
    redis_wait_replicas: int
    redis_port: int
    var_dir: Path
    secret: bytes
    secret_generated: bool  # the development secret under var_dir
    grace_minutes: int
    limits_enabled: bool
    limit_attempts: str
    limit_moves: str
    limit_default: str
    limit_replays: str
    limit_analyses: str
    proxies: tuple[Network, ...]
    secure_cookies: bool
    queue: str
    retry_intervals: tuple[int, ...]
    archive_dir: Path
    publish_dir: Path
    keep_days: int
    verdict_waiters: int
    bind: str
    web_processes: int
    web_threads: int
    log_level: str
    rp_id: str
    origins: tuple[str, ...]
    rank_anonymous: bool
    release_modules: tuple[str, ...]
    extra_games: tuple[str, ...]
    launch_date: str
    table_idle_hours: int
    table_keep_days: int
    event_keep_days: int
    table_queue: str
    bot_queue: str
    analysis_queue: str
    analysis_cpu_s: int
    limit_tables: str
    limit_joins: str
    limit_table_moves: str
    limit_table_address: str
    stream_bind: str
    stream_connections: int
    stream_processes: int
    stream_seconds: int
    heartbeat_seconds: int
    streams_per_seat: int
    streams_per_address: int
    redis_connections: int
    metrics_bind: str
    stream_metrics_bind: str
    publish_metrics_bind: str
    worker_metrics_bind: str
    analysis_metrics_bind: str
    bots_metrics_bind: str
    now: Clock | None = None  # tests: a settable clock (service.common.clock)

    def site_address(self) -> str:
        """Where a person opens the site: the first origin on the passkeys' relying party
        (http://localhost:8000 by default; http://127.0.0.1 would refuse passkeys), else the
        first origin."""
        for origin in self.origins:
            if urlsplit(origin).hostname == self.rp_id:
                return origin
        return self.origins[0] if self.origins else f"http://{self.bind}"

    def flask_config(self) -> dict[str, Any]:
        """Flask's own settings, this object (:func:`service.settings`), and each value under
        its variable's name for code that reads ``app.config`` directly."""
        by_name = {v.name: getattr(self, v.field) for v in VARIABLES}
        return {
            **by_name,
            "PIKDAME_NOW": self.now,
            "SETTINGS": self,
            "SECRET_KEY": session_key(self.secret),
            "SESSION_COOKIE_SECURE": self.secure_cookies,
            "SESSION_COOKIE_HTTPONLY": True,
            "SESSION_COOKIE_SAMESITE": "Lax",
            "MAX_CONTENT_LENGTH": MAX_BODY_BYTES,
        }


def dev_secret(var_dir: Path) -> str:
    """The development default of PIKDAME_SECRET: generated once under ``var/`` and kept, so
    the commitments published today still match the seeds published tomorrow."""
    path = var_dir / SECRET_FILE
    if not path.exists():
        var_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, secrets.token_hex(32).encode())
        finally:
            os.close(fd)
    return path.read_text().strip()


def session_key(secret: bytes) -> bytes:
    """Flask's cookie-signing key, derived from the daily secret under its own label so that
    signing cookies can never reveal anything about the daily seeds."""
    return hmac.new(secret, b"pikdame/session/v1", hashlib.sha256).digest()


def load(overrides: Mapping[str, Any] | None = None) -> Settings:
    """The settings: each variable from ``overrides`` (tests, the app factory), else the
    environment, else its default. Raises ValueError naming a variable that does not parse."""
    given = {**os.environ, **(overrides or {})}
    values: dict[str, Any] = {}
    for variable in VARIABLES:
        raw = given.get(variable.name)
        if raw is None or raw == "":
            raw = variable.default
        if isinstance(raw, str):
            try:
                values[variable.field] = variable.parse(raw)
            except ValueError as e:
                raise ValueError(f"{variable.name}={raw!r}: {e}") from None
        else:
            values[variable.field] = raw
    values["redis_url_given"] = values["redis_url"] is not None
    values["redis_url"] = values["redis_url"] or "redis://127.0.0.1:6379/0"
    for role in ("redis_state_url", "redis_queue_url", "redis_rankings_url"):
        values[role] = values[role] or values["redis_url"]
    if values["redis_state_cluster"] and values["redis_state_url"] in (
        values["redis_queue_url"],
        values["redis_rankings_url"],
    ):
        raise ValueError(
            "PIKDAME_REDIS_STATE_CLUSTER=1: PIKDAME_REDIS_QUEUE_URL and PIKDAME_REDIS_RANKINGS_URL"
            " must name servers other than the state cluster"
        )
    values["secret_generated"] = values["secret"] is None
    if values["secret"] is None:
        values["secret"] = dev_secret(values["var_dir"]).encode()
    if values["archive_dir"] is None:
        values["archive_dir"] = values["var_dir"] / "archive"
    if values["origins"] is None:
        values["origins"] = (f"http://localhost:{bind_port(values['bind'])}",)
    if values["verdict_waiters"] is None:
        values["verdict_waiters"] = max(1, values["web_threads"] // 2)
    values["now"] = given.get("PIKDAME_NOW")
    return Settings(**values)


def bind_port(bind: str) -> int:
    """The port of a gunicorn bind address ("127.0.0.1:8000", "[::1]:8000", "0.0.0.0"): 8000,
    gunicorn's own default, when it names none."""
    host, sep, port = bind.rpartition(":")
    return int(port) if sep and port.isdigit() and not host.endswith(":") else 8000
