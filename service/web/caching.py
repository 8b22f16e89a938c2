"""What a shared cache (nginx's micro-cache, deploy/nginx/http.conf) may keep, and for how long.

Every API response is ``no-store`` unless marked here (service.web.security). A public read (today's
challenge, leaderboards, the archive's days, a closed day's record) is marked ``public`` with a
short lifetime when the request carried no credentials: a 200 answered to a request without a
bearer token or the session cookie cannot depend on who asked, so it is the same for everyone.
Anything asked with credentials, and every other route (an attempt's view, a table's view, moves,
hints), stays private and is never stored by a proxy. A read whose answer changes at a day's end
or close is never kept past it (:func:`lifetime`, on the app's clock): neither fresh nor stale,
in the micro-cache nor in a browser that got it from there (NGINX_LATE_S), and nginx answers no
day's document stale when the app fails (deploy/nginx/proxy.conf).
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Final

from flask import Flask, Response, request

from service.common import clock
from service.web.redisconn import settings

# endpoint -> seconds a shared cache may serve its answer. One second absorbs the reset-hour
# crowd (one upstream request per URL per second) while a player's rank still moves promptly.
PUBLIC_READS: Final = {
    "daily.today": 1,
    "daily.day": 1,
    "daily.days": 1,
    "leaderboard.all_time": 1,
    "leaderboard.day_board": 1,
    "leaderboard.around": 1,
    # an event's standings without credentials (every "you" false): the same for everyone;
    # published as a file too (service.web.publishing's kept reads)
    "events.standings": 1,
    # only a finished attempt of a closed day answers 200 without credentials: it never changes
    "attempts.get_log": 60,
}


# The reads whose answer changes at a day's end (today's document becomes the next day's, the
# archive lists another day) or close (the seed is published, a board stops being provisional):
# their lifetime, stale-while-revalidate included, never reaches past the next such moment.
DAY_BOUND: Final = frozenset(
    {"daily.today", "daily.day", "daily.days", "leaderboard.day_board", "leaderboard.around"}
)
# How long after its lifetime a shared cache may still answer an entry while one request renews
# it (stale-while-revalidate, RFC 5861; nginx's proxy_cache_use_stale has no "updating", so the
# app says it per answer and can stop it at a day's change): a crowd never waits for the renewal,
# and after a quiet spell the first read is answered anew, not with an answer of minutes ago.
STALE_S: Final = 1
# nginx sends a stored answer with the app's Cache-Control as it was (no Age header), so a
# browser's hold begins where the micro-cache's ends; and nginx counts an entry's lifetime in
# whole seconds of its cached clock, so it may answer it up to a second past (and by the few
# milliseconds that clock lags). A day-bound answer's hold h is therefore over everywhere
# h + NGINX_LATE_S + h after the app gave it.
NGINX_LATE_S: Final = 1.25


def until_change() -> float:
    """Seconds from now (the app's clock) to the next day's end or close: midnight UTC, or a
    day whose grace has not closed yet closing before it."""
    config = settings()
    now = clock.now(config)
    today = now.date()
    moments = [clock.ends_at(today.isoformat())]
    back = 1
    while True:  # the days still in their grace (one, unless the grace is a day or longer)
        closes = clock.closes_at((today - dt.timedelta(days=back)).isoformat(), config)
        if closes <= now:
            break
        moments.append(closes)
        back += 1
    return min(m - now for m in moments).total_seconds()


def lifetime(endpoint: str, seconds: int) -> str | None:
    """The Cache-Control of a public answer of ``endpoint`` (``seconds``: its PUBLIC_READS
    lifetime); None when it must not be stored at all (its day changes before the micro-cache
    and then a browser could have held it a second each: NGINX_LATE_S)."""
    date = (request.view_args or {}).get("date")
    closed = isinstance(date, str) and clock.is_closed(date, settings())  # (a 200: a real date)
    if endpoint not in DAY_BOUND or closed:  # a closed day's answer no longer changes at one
        return f"public, max-age={seconds}, stale-while-revalidate={STALE_S}"
    # the micro-cache's hold, its late second and a browser's hold all end by the change
    left = math.floor((until_change() - NGINX_LATE_S) / 2)
    max_age = min(seconds, left)
    if max_age < 1:
        return None
    stale = min(STALE_S, left - max_age)
    return f"public, max-age={max_age}" + (f", stale-while-revalidate={stale}" if stale else "")


def anonymous() -> bool:
    """No bearer token and no session cookie: the answer cannot be anyone's own."""
    return "Authorization" not in request.headers and not request.cookies.get("session")


def register(app: Flask) -> None:
    @app.after_request
    def _public(response: Response) -> Response:
        endpoint = request.endpoint or ""
        seconds = PUBLIC_READS.get(endpoint)
        if seconds is not None and response.status_code == 200 and anonymous():
            control = lifetime(endpoint, seconds)
            if control is not None:
                response.headers["Cache-Control"] = control
        return response
