"""The browser suite runs through the shipped nginx site (tests/support/browser_stack.py): the
pages, their static files, the API and a table's live stream all pass deploy/nginx's locations,
so a location that answers a route itself (a 301 of a bare prefix, a 404) fails the suite."""

from __future__ import annotations

from playwright.sync_api import Page, Response, expect

from tests.support.browser_stack import Stack
from tests.support.table_flows import create_table


def test_a_table_made_on_spielen_passes_the_front(page: Page, stack: Stack) -> None:
    """Every answer the browser gets while it makes a table on "Spielen" comes through nginx
    (its Server header; the app's own server names werkzeug): the page, its files, ``POST
    /api/tables`` (201, no redirect) and the waiting room's stream."""
    seen: list[Response] = []
    page.on("response", lambda r: seen.append(r))
    with page.expect_response(lambda r: r.url.endswith("/api/tables")) as made:
        link = create_table(page, "Ada", ["human"])
    expect(page.locator("#waiting-seats")).to_contain_text("Ada")
    assert made.value.request.method == "POST" and made.value.status == 201
    assert "/t/" in link
    mine = [r for r in seen if r.url.startswith(stack.base_url)]
    assert any(r.url.endswith("/events") or "/events?" in r.url for r in mine), [
        r.url for r in mine
    ]
    assert not [r.url for r in mine if r.status in (301, 302, 307, 308)]
    servers = {r.url: r.headers.get("server", "") for r in mine}
    assert all(s.startswith("nginx") for s in servers.values()), servers
