"""What a shared cache (nginx's micro-cache, deploy/nginx/http.conf) may keep, and for how long.

Every API response is ``no-store`` unless marked here (service.security). A public read (today's
challenge, leaderboards, the archive's days, a closed day's record) is marked ``public`` with a
short lifetime when the request carried no credentials: a 200 answered to a request without a
bearer token or the session cookie cannot depend on who asked, so it is the same for everyone.
Anything asked with credentials, and every other route (an attempt's view, a table's view, moves,
hints), stays private and is never stored by a proxy.
"""

from __future__ import annotations

from typing import Final

from flask import Flask, Response, request

# endpoint -> seconds a shared cache may serve its answer. One second absorbs the reset-hour
# crowd (one upstream request per URL per second) while a player's rank still moves promptly.
PUBLIC_READS: Final = {
    "daily.today": 1,
    "daily.day": 1,
    "daily.days": 1,
    "leaderboard.all_time": 1,
    "leaderboard.day_board": 1,
    "leaderboard.around": 1,
    # only a finished attempt of a closed day answers 200 without credentials: it never changes
    "attempts.get_log": 60,
}


# how long past its lifetime a shared cache may answer from an entry while one request renews it
# (RFC 5861; deploy/nginx/proxy.conf allows no more): a crowd never waits for the renewal, and
# after a quiet spell the first read is answered anew, not with an answer of minutes ago
STALE: Final = "stale-while-revalidate=1"


def anonymous() -> bool:
    """No bearer token and no session cookie: the answer cannot be anyone's own."""
    return "Authorization" not in request.headers and not request.cookies.get("session")


def register(app: Flask) -> None:
    @app.after_request
    def _public(response: Response) -> Response:
        seconds = PUBLIC_READS.get(request.endpoint or "")
        if seconds is not None and response.status_code == 200 and anonymous():
            response.headers["Cache-Control"] = f"public, max-age={seconds}, {STALE}"
        return response
