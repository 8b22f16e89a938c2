"""Static assets never count against a client's rate limit (a page load fetches a dozen files;
behind the proxy many players may share one address)."""

from __future__ import annotations

import redis
from playwright.sync_api import Page

from tests.support.browser_stack import Stack


def test_static_files_are_not_rate_limited(page: Page, stack: Stack) -> None:
    """Each request a URL of its own (``?n=``): the front's micro-cache answers none of them,
    every one reaches the app."""
    statuses = [page.request.get(f"/static/js/lib/dom.js?n={n}").status for n in range(150)]
    assert statuses == [200] * 150
    # the API keeps its limit (API.md: 60 a second by default, counted as 600 per 10 seconds)
    api: list[int] = []
    try:
        while len(api) < 3000 and 429 not in api:  # 601 in one 10 s window, even when slow
            api.append(page.request.get(f"/api/daily?n={len(api)}").status)
    finally:
        # The stack is shared by the session's browser tests: the next page load of another test
        # (within the same 10 s window) must not inherit this test's spent read limit.
        client: redis.Redis[str] = redis.Redis.from_url(stack.redis_url, decode_responses=True)
        for key in client.scan_iter("pd:limits:read:*"):
            client.delete(key)
    assert 429 in api
