"""Rate limits (API.md), Redis-backed so every web process shares them.

Who is counted (issue 10.3: fair behind a school's or an office's one address): a request that
carries a player (the signed session cookie, issued only once that player created an attempt) is
counted per player; any other per client address. When accounts come, the account id takes the
player's place in :func:`client_key`. Starting attempts counts only what was created (201): a 409
retry or a double click costs nothing. Reads count in windows of ten seconds, so a crowd behind one
address that reads at once is served (the average rate stays API.md's per second).

Flask-Limiter counts the writes and most reads: one Redis round trip per request. Its
``X-RateLimit-*`` headers on every response cost two more (GET and TTL of the counter): under
load those round trips were the largest part of a read (py-spy, bench/results/profile.md), so the
headers, with ``Retry-After``, are sent only on a 429, where a client needs them. The hottest
reads count themselves inside their own round trip (:func:`read_pipeline`).
"""

from __future__ import annotations

import functools
import ipaddress
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar

import redis
from flask import Flask, Response, current_app, g, request, session
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits import RateLimitItem, parse

from service.data import connect
from service.errors import ApiError
from service.identity import ACCOUNT_KEY, session_player
from service.redisconn import settings, settings_of

P = ParamSpec("P")
R = TypeVar("R")


def address_of(address: str) -> str:
    """Who an address counts as: an IPv4 address itself, an IPv6 address by its /64 (one
    household or machine is handed a whole /64, so its addresses are one client, issue 13)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def client_address() -> str:
    """The request's address as limits count it (IPv6: its /64)."""
    return address_of(get_remote_address())


def address_key() -> str:
    return f"addr:{client_address()}"


def client_key() -> str:
    """The account of a signed-in session, else the player of a signed session, else the
    address. (A bearer token is not used: a made-up one would open a fresh count per request.)"""
    account = session.get(ACCOUNT_KEY)
    if isinstance(account, str):
        return f"account:{account}"
    player = session_player()
    return f"player:{player}" if player is not None else address_key()


limiter = Limiter(key_func=client_key)


def attempts_limit() -> str:
    return settings().limit_attempts


def moves_limit() -> str:
    return settings().limit_moves


def replay_limit() -> str:
    return settings().limit_replays


def tables_limit() -> str:
    return settings().limit_tables


def joins_limit() -> str:
    return settings().limit_joins


def table_moves_limit() -> str:
    return settings().limit_table_moves


def table_address_limit() -> str:
    return settings().limit_table_address


def _table_address_key() -> str:
    return f"tables:{address_key()}"


def limit_table_route(per_table: Callable[[], str]) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """A route of one table (moves, streams, level changes, start, resign, rematch): per table,
    every seat together, and per address (IPv6: its /64) over every table route and table
    together, so neither one seat nor one address spreading over many tables floods (issue 12).
    Every request counts, refused ones too."""

    def decorate(view: Callable[P, R]) -> Callable[P, R]:
        per_t = limiter.limit(per_table, key_func=per_table_key)
        return limit_table_address()(per_t(view))

    return decorate


def limit_table_address() -> Callable[[Callable[P, R]], Callable[P, R]]:
    """One count per address shared by every table route (a Flask-Limiter shared limit)."""
    return limiter.shared_limit(
        table_address_limit, scope="tables-address", key_func=_table_address_key
    )


def per_table_key() -> str:
    """A table's moves and streams are limited per table, every seat together (a flood by one
    seat is a flood for the table), besides the caller's own limits."""
    return f"table:{(request.view_args or {}).get('table_id', '')}"


def _made(response: Response) -> bool:
    return response.status_code in (200, 201)


def limit_table_entries(limit: Callable[[], str]) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Creating and joining tables: per address, counting only what took a seat."""
    return limiter.limit(limit, key_func=address_key, deduct_when=_made)


def per_attempt_key() -> str:
    """Moves are limited per client and attempt ..."""
    attempt_id = (request.view_args or {}).get("attempt_id", "")
    return f"{client_key()}:{attempt_id}"


def _created(response: Response) -> bool:
    return response.status_code == 201


def _not_found_or_not_yours(response: Response) -> bool:
    return response.status_code in (401, 403, 404)


def limit_creations() -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Starting attempts (and creating accounts): per address (IPv6: per /64) and per account
    or player, counting only the starts that created something."""

    def decorate(view: Callable[P, R]) -> Callable[P, R]:
        per_address = limiter.limit(attempts_limit, key_func=address_key, deduct_when=_created)
        per_client = limiter.limit(
            attempts_limit, key_func=_creation_client_key, deduct_when=_created
        )
        return per_address(per_client(view))

    return decorate


def _creation_client_key() -> str:
    return f"create:{client_key()}"


def limit_moves() -> Callable[[Callable[P, R]], Callable[P, R]]:
    """... and per address for moves that found no attempt of the caller's (issue 10.7: made-up
    attempt ids would otherwise each open a fresh count)."""

    def decorate(view: Callable[P, R]) -> Callable[P, R]:
        per_attempt = limiter.limit(moves_limit, key_func=per_attempt_key)
        misses = limiter.limit(
            moves_limit, key_func=address_key, deduct_when=_not_found_or_not_yours
        )
        return misses(per_attempt(view))

    return decorate


def _limit_headers(response: Response) -> Response:
    """On a 429: the breached limit, what remains of it and when it resets (RFC 6585)."""
    if response.status_code != 429:
        return response
    read = g.get("read_limit")
    if isinstance(read, ReadCount):
        response.headers["X-RateLimit-Limit"] = str(read.amount)
        response.headers["X-RateLimit-Remaining"] = "0"
        response.headers["X-RateLimit-Reset"] = str(read.reset_at)
        response.headers["Retry-After"] = str(max(1, read.reset_at - int(time.time())))
        return response
    current = limiter.current_limit
    if current is None:
        return response
    try:
        reset_at = current.reset_at
        response.headers["X-RateLimit-Limit"] = str(current.limit.amount)
        response.headers["X-RateLimit-Remaining"] = str(current.remaining)
        response.headers["X-RateLimit-Reset"] = str(reset_at)
        response.headers["Retry-After"] = str(max(1, int(reset_at - time.time())))
    except Exception:  # Redis gone between the hit and now: the 429 stands without headers
        current_app.logger.warning("rate limit headers unavailable")
    return response


def init_app(app: Flask) -> None:
    config = settings_of(app)
    app.config.setdefault(
        "RATELIMIT_STORAGE_URI", connect.storage_uri(config, config.redis_state_url)
    )
    app.config.setdefault("RATELIMIT_DEFAULT", config.limit_default)
    app.config.setdefault("RATELIMIT_ENABLED", config.limits_enabled)
    app.config.setdefault("RATELIMIT_KEY_PREFIX", "pd:limits")
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", False)  # see _limit_headers
    app.config.setdefault("RATELIMIT_SWALLOW_ERRORS", True)  # Redis down: /healthz says 503
    limiter.init_app(app)
    app.after_request(_limit_headers)


# Reads count their own rate limit in the read's Redis round trip. Flask-Limiter spends a round
# trip of its own and about a quarter of a read's CPU (bench/results/service.md, "rate limits
# off"); a read changes nothing, so counting and reading together and answering 429 afterwards
# is as safe as refusing first. Same limit (PIKDAME_LIMIT_DEFAULT), per endpoint and client
# address, in fixed windows, as Flask-Limiter counts it for the other endpoints.
@functools.cache
def _parsed(text: str) -> RateLimitItem:
    return parse(text)


def counted_read(view: Callable[P, R]) -> Callable[P, R]:
    """Mark a read view that counts its limit through :func:`read_pipeline` (Flask-Limiter
    leaves it alone)."""
    return limiter.exempt(view)


@dataclass(frozen=True)
class ReadCount:
    """The request's counter in a pipeline: ``check`` strips its results and refuses (429)."""

    key: str | None
    amount: int
    reset_at: int
    text: str = ""

    def check(self, results: list[Any]) -> list[Any]:
        if self.key is None:
            return results
        if isinstance(results[0], Exception):  # a pipeline run with raise_on_error=False
            raise results[0]
        if int(results[0]) > self.amount:
            g.read_limit = self
            raise ApiError(429, "rate_limited", f"rate limit exceeded ({self.text})")
        return results[2:]


def read_pipeline(client: redis.Redis[str]) -> tuple[redis.client.Pipeline[str], ReadCount]:
    """A pipeline (no transaction) starting with this request's rate-limit count, if limits
    are on; the caller adds its reads, executes, and passes the results to ``check``."""
    pipe = client.pipeline(transaction=False)
    config = current_app.config
    if not config["RATELIMIT_ENABLED"]:
        return pipe, ReadCount(None, 0, 0)
    item = _parsed(settings().limit_default)
    window = item.get_expiry()
    now = int(time.time())
    start = now - now % window
    key = f"pd:limits:read:{request.endpoint}:{client_key()}:{start}"
    pipe.incr(key)
    pipe.expire(key, window + 1)
    return pipe, ReadCount(key, item.amount, start + window, str(item))
