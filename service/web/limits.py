"""Rate limits (API.md), Redis-backed so every web process shares them.

Who is counted (fair behind a school's or an office's one address): a request that
carries a player (the signed session cookie, issued only once that player created an attempt) is
counted per player; any other per client address. When accounts come, the account id takes the
player's place in :func:`client_key`. Starting attempts counts only what was created (201): a 409
retry or a double click costs nothing. Reads count in windows of ten seconds, so a crowd behind one
address that reads at once is served (the average rate stays API.md's per second).

Flask-Limiter counts the writes and most reads: one Redis round trip per request. Its
``X-RateLimit-*`` headers on every response cost two more (GET and TTL of the counter): under
load those round trips were the largest part of a read (py-spy, bench/results/profile.md), so the
headers, with ``Retry-After``, are sent only on a 429, where a client needs them. The hottest
reads count themselves inside their own round trip (:func:`read_pipeline`), moves count their two
limits in one round trip of their own (:func:`limit_moves`), and for both Flask-Limiter's request
hooks are not run at all (:func:`init_app`; bench/results/profile_paths.md).
"""

from __future__ import annotations

import functools
import ipaddress
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, ParamSpec, TypeVar

import redis
from flask import Flask, Response, current_app, g, request, session
from flask_limiter import Limiter
from flask_limiter.util import get_qualified_name, get_remote_address
from limits import RateLimitItem, parse

from service.common import connect
from service.errors import ApiError
from service.web.identity import ACCOUNT_KEY, session_player
from service.web.redisconn import get_redis as connect_state
from service.web.redisconn import settings, settings_of


def now_s() -> float:
    """The clock the counting windows are aligned to: the wall clock, shared by every web
    process (a test freezes it to count inside one window whatever the time)."""
    return time.time()


P = ParamSpec("P")
R = TypeVar("R")


@functools.lru_cache(maxsize=4096)  # parsed on every counted request; clients repeat
def address_of(address: str) -> str:
    """Who an address counts as: an IPv4 address itself, an IPv6 address by its /64 (one
    household or machine is handed a whole /64, so its addresses are one client)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


# One IPv6 customer usually holds more than a /64: a /56 (homes) or a /48 (businesses), while a
# mobile network hands each device a /64 of its own. Creations are counted per /64 at the limit
# and, besides, per /56 and per /48 at these multiples of it: a customer using many /64s gets at
# most that many times one address's creations, and unrelated devices of one network share a
# generous budget (README, "Configuration").
NETWORKS: Final = ((56, 4), (48, 16))  # (IPv6 prefix length, multiple of the limit)


@functools.lru_cache(maxsize=4096)
def network_of(address: str, prefix: int) -> str | None:
    """The IPv6 network of ``address`` with ``prefix`` bits; None for IPv4 (and an IPv4-mapped
    IPv6 address), which is counted as itself."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return None
    if not isinstance(ip, ipaddress.IPv6Address) or ip.ipv4_mapped is not None:
        return None
    return str(ipaddress.IPv6Network((ip, prefix), strict=False))


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
    together, so neither one seat nor one address spreading over many tables floods.
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
    """Creating and joining tables: per address (IPv6: per /64, and per /56 and /48 at
    multiples, :data:`NETWORKS`), counting only what took a seat."""

    def decorate(view: Callable[P, R]) -> Callable[P, R]:
        per_address = limiter.limit(limit, key_func=address_key, deduct_when=_made)
        return _per_networks(limit, _made, per_address(view))

    return decorate


def per_attempt_key() -> str:
    """Moves are limited per client and attempt ..."""
    attempt_id = (request.view_args or {}).get("attempt_id", "")
    return f"{client_key()}:{attempt_id}"


def _created(response: Response) -> bool:
    return response.status_code == 201


def limit_creations() -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Starting attempts (and creating accounts, leagues): per address (IPv6: per /64, and per
    /56 and /48 at multiples, :data:`NETWORKS`) and per account or player, counting only the
    starts that created something."""

    def decorate(view: Callable[P, R]) -> Callable[P, R]:
        per_address = limiter.limit(attempts_limit, key_func=address_key, deduct_when=_created)
        per_client = limiter.limit(
            attempts_limit, key_func=_creation_client_key, deduct_when=_created
        )
        return _per_networks(attempts_limit, _created, per_address(per_client(view)))

    return decorate


def _per_networks(
    limit: Callable[[], str], counted: Callable[[Response], bool], view: Callable[P, R]
) -> Callable[P, R]:
    """``view`` limited besides per IPv6 /56 and /48 of the caller at multiples of ``limit``
    (:data:`NETWORKS`), counting the answers ``counted`` accepts; IPv4 callers are exempt."""
    for prefix, times in NETWORKS:
        per_network = limiter.limit(
            _scaled(limit, times),
            key_func=_network_key(prefix),
            deduct_when=counted,
            exempt_when=_not_ipv6,
        )
        view = per_network(view)
    return view


def _scaled(limit: Callable[[], str], times: int) -> Callable[[], str]:
    """``limit`` (e.g. "10 per hour") with ``times`` its amount, in the same window."""

    def scaled() -> str:
        item = _parsed(limit())
        return f"{item.amount * times} per {item.multiples} {item.GRANULARITY.name}"

    return scaled


def _network_key(prefix: int) -> Callable[[], str]:
    def key() -> str:
        return f"net:{network_of(get_remote_address(), prefix)}"

    return key


def _not_ipv6() -> bool:
    return network_of(get_remote_address(), 64) is None


def _creation_client_key() -> str:
    return f"create:{client_key()}"


def limit_moves() -> Callable[[Callable[P, R]], Callable[P, R]]:
    """... and per address for moves that found no attempt of the caller's (made-up
    attempt ids would otherwise each open a fresh count).

    Counted here, not by Flask-Limiter: both counters in one pipelined round trip before the
    move (the caller's count for this attempt goes up; the address's misses are read), the
    misses counted after a 401, 403 or 404 (:func:`_count_miss`). Flask-Limiter spent two round
    trips and about a sixth of a move's CPU on the same two fixed windows (cProfile,
    bench/results/service_refactor.md)."""

    def decorate(view: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(view)
        def counted(*args: P.args, **kwargs: P.kwargs) -> R:
            _count_move()
            return view(*args, **kwargs)

        _COUNTED_READS.add(get_qualified_name(counted))
        return limiter.exempt(counted)

    return decorate


MISSES: Final = (401, 403, 404)  # a move that found no attempt of the caller's


def _fixed_window(limit: str) -> tuple[RateLimitItem, int, int]:
    """A limit's parsed item, its window in seconds and the current window's start (by the
    service's clock, so a test's clock moves it): the fixed-window counters' shared arithmetic."""
    item = _parsed(limit)
    window = item.get_expiry()
    now = int(now_s())
    return item, window, now - now % window


def _count(pipe: redis.client.Pipeline[str], key: str, window: int) -> None:
    """One more in a fixed window's counter, which expires a second after its window."""
    pipe.incr(key)
    pipe.expire(key, window + 1)


def _count_move() -> None:
    if not current_app.config["RATELIMIT_ENABLED"]:
        return
    item, window, start = _fixed_window(settings().limit_moves)
    mine = f"pd:limits:move:{per_attempt_key()}:{start}"
    misses = f"pd:limits:move-misses:{address_key()}:{start}"
    pipe = connect_state().pipeline(transaction=False)
    _count(pipe, mine, window)
    pipe.get(misses)
    count, _, missed = pipe.execute()
    g.move_misses = misses, window
    limit = ReadCount(mine, item.amount, start + window, str(item))
    if int(count) > item.amount or int(missed or 0) >= item.amount:
        g.read_limit = limit
        raise ApiError(429, "rate_limited", f"rate limit exceeded ({item})")


def admit_analysis() -> None:
    """Before an analysis is queued for the caller (service.common.analysis_queue.ask): one
    count per account or player (address without a session) in PIKDAME_LIMIT_ANALYSES's fixed
    window; over it, 429 and nothing is queued. A cached document or a job that already waits or
    runs is not counted: polling is free, computing is not (issue 38)."""
    if not current_app.config["RATELIMIT_ENABLED"]:
        return
    item, window, start = _fixed_window(settings().limit_analyses)
    key = f"pd:limits:analyses:{client_key()}:{start}"
    pipe = connect_state().pipeline(transaction=False)
    _count(pipe, key, window)
    count, _ = pipe.execute()
    if int(count) > item.amount:
        g.read_limit = ReadCount(key, item.amount, start + window, str(item))
        raise ApiError(429, "rate_limited", f"rate limit exceeded ({item})")


def _count_miss(response: Response) -> Response:
    """A move that found no attempt of the caller's counts against the address."""
    counted = g.get("move_misses")
    if counted is not None and response.status_code in MISSES:
        key, window = counted
        pipe = connect_state().pipeline(transaction=False)
        _count(pipe, key, window)
        pipe.execute()
    return response


def _limit_headers(response: Response) -> Response:
    """On a 429: the breached limit, what remains of it and when it resets (RFC 6585)."""
    if response.status_code != 429:
        return response
    read = g.get("read_limit")
    if isinstance(read, ReadCount):
        response.headers["X-RateLimit-Limit"] = str(read.amount)
        response.headers["X-RateLimit-Remaining"] = "0"
        response.headers["X-RateLimit-Reset"] = str(read.reset_at)
        response.headers["Retry-After"] = str(max(1, read.reset_at - int(now_s())))
        return response
    current = limiter.current_limit
    if current is None:
        return response
    try:
        reset_at = current.reset_at
        response.headers["X-RateLimit-Limit"] = str(current.limit.amount)
        response.headers["X-RateLimit-Remaining"] = str(current.remaining)
        response.headers["X-RateLimit-Reset"] = str(reset_at)
        response.headers["Retry-After"] = str(max(1, int(reset_at - now_s())))
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
    _skip_counted_reads(app)
    app.after_request(_limit_headers)
    app.after_request(_count_miss)


def _skip_counted_reads(app: Flask) -> None:
    """Flask-Limiter's request hooks, minus the counted reads (:func:`counted_read`). For an
    exempt view its before-request check still resolved the limits, their exemption scopes and
    the meta limits, and its after-request and teardown hooks built and reset its request
    context: together about a sixth of a cheap read's CPU (cProfile; bench/results), for nothing.
    """
    counted: dict[str | None, bool] = {}

    def is_counted() -> bool:
        endpoint = request.endpoint
        known = counted.get(endpoint)
        if known is None:
            view = current_app.view_functions.get(endpoint or "")
            known = view is not None and get_qualified_name(view) in _COUNTED_READS
            counted[endpoint] = known
        return known

    before = app.before_request_funcs.setdefault(None, [])
    check = limiter._check_request_limit

    def check_unless_counted() -> None:
        if not is_counted():
            check()

    if check in before:  # (limits off: Flask-Limiter registered no hooks)
        before[before.index(check)] = check_unless_counted

    after = app.after_request_funcs.setdefault(None, [])
    for i, hook in enumerate(after):
        if isinstance(hook, functools.partial) and hook.args == (limiter,):
            after[i] = _unless(is_counted, hook)

    teardown = app.teardown_request_funcs.setdefault(None, [])
    release = getattr(limiter, "_Limiter__release_context", None)
    if release in teardown:

        def release_unless_counted(error: BaseException | None = None) -> None:
            if not is_counted():
                release(error)

        teardown[teardown.index(release)] = release_unless_counted


def _unless(
    skip: Callable[[], bool], hook: Callable[[Response], Response]
) -> Callable[[Response], Response]:
    def hook_unless(response: Response) -> Response:
        return response if skip() else hook(response)

    return hook_unless


# Reads count their own rate limit in the read's Redis round trip. Flask-Limiter spends a round
# trip of its own and about a quarter of a read's CPU (bench/results/service.md, "rate limits
# off"); a read changes nothing, so counting and reading together and answering 429 afterwards
# is as safe as refusing first. Same limit (PIKDAME_LIMIT_DEFAULT), per endpoint and client
# address, in fixed windows, as Flask-Limiter counts it for the other endpoints.
@functools.cache
def _parsed(text: str) -> RateLimitItem:
    return parse(text)


_COUNTED_READS: set[str] = set()  # the views' qualified names, as Flask-Limiter names them


def counted_read(view: Callable[P, R]) -> Callable[P, R]:
    """Mark a read view that counts its limit through :func:`read_pipeline` (Flask-Limiter
    leaves it alone, and its before-request check is not even run: :func:`init_app`)."""
    _COUNTED_READS.add(get_qualified_name(view))
    return limiter.exempt(view)


@dataclass(frozen=True)
class ReadCount:
    """The request's counter in a pipeline: ``check`` strips its results and refuses (429).
    ``given``: the count was already taken before Flask (service.dailies.early_views), not again."""

    key: str | None
    amount: int
    reset_at: int
    text: str = ""
    given: int | None = None

    def check(self, results: list[Any]) -> list[Any]:
        if self.key is None:
            return results
        if self.given is not None:
            count, rest = self.given, results
        else:
            if isinstance(results[0], Exception):  # a pipeline run with raise_on_error=False
                raise results[0]
            count, rest = int(results[0]), results[2:]
        if count > self.amount:
            g.read_limit = self
            raise ApiError(429, "rate_limited", f"rate limit exceeded ({self.text})")
        return rest


#: The WSGI environ key of a read's count taken before Flask (service.dailies.early_views).
PRECOUNTED: Final = "pikdame.read_count"


@dataclass(frozen=True)
class ReadWindow:
    """A read's rate-limit counter: its key in this fixed window, the limit, the window."""

    key: str
    item: RateLimitItem
    start: int

    @property
    def window(self) -> int:
        return int(self.item.get_expiry())

    def count(self, given: int | None = None) -> ReadCount:
        item = self.item
        return ReadCount(self.key, item.amount, self.start + self.window, str(item), given)


def read_window(limit: str, endpoint: str | None, client: str) -> ReadWindow:
    """The counter of ``client``'s reads of ``endpoint`` now (PIKDAME_LIMIT_DEFAULT)."""
    item = _parsed(limit)
    window = item.get_expiry()
    now = int(now_s())
    start = now - now % window
    return ReadWindow(f"pd:limits:read:{endpoint}:{client}:{start}", item, start)


def read_pipeline(client: redis.Redis[str]) -> tuple[redis.client.Pipeline[str], ReadCount]:
    """A pipeline (no transaction) starting with this request's rate-limit count, if limits
    are on; the caller adds its reads, executes, and passes the results to ``check``."""
    pipe = client.pipeline(transaction=False)
    config = current_app.config
    if not config["RATELIMIT_ENABLED"]:
        return pipe, ReadCount(None, 0, 0)
    counter = read_window(settings().limit_default, request.endpoint, client_key())
    given = request.environ.get(PRECOUNTED)
    if isinstance(given, int):
        return pipe, counter.count(given)
    pipe.incr(counter.key)
    pipe.expire(counter.key, counter.window + 1)
    return pipe, counter.count()
