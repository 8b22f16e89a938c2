"""API edges found by fault and abuse testing (items 6 and 11): each case answered with
API.md's error envelope and a stable code, never a 500 or a traceback."""

from __future__ import annotations

import logging

import pytest
from flask import Flask, Response
from flask.testing import FlaskClient

from service.dailies.models import MoveBody
from service.errors import AttemptExists, Stale
from service.web.inputs import PageQuery
from tests.support.api import start
from tests.support.service_app import Clock

DEEP = "[" * 1000 + "]" * 1000


def error(response: object) -> tuple[int, str]:
    status = response.status_code  # type: ignore[attr-defined]
    return status, response.get_json()["error"]["code"]  # type: ignore[attr-defined]


def test_deeply_nested_json_is_400_without_a_traceback(
    client: FlaskClient, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    """JSON nested ~1,000 levels deep is a malformed request (400), not a 500."""
    attempt, _ = start(client, clock.today)
    caplog.set_level(logging.DEBUG)
    for path in (f"/api/daily/{clock.today}/attempts", f"/api/attempts/{attempt['id']}/moves"):
        for body in (DEEP, '{"name": ' + DEEP + "}", '{"move": "draw", "seq": ' + DEEP + "}"):
            response = client.post(path, data=body, content_type="application/json")
            assert error(response) == (400, "bad_request"), (path, body[:20])
    assert "Traceback" not in caplog.text and "RecursionError" not in caplog.text


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-32", "latin-1"])
def test_bodies_that_are_not_utf8_are_400(client: FlaskClient, clock: Clock, encoding: str) -> None:
    """API.md "UTF-8": a body in another encoding is malformed (400) and starts
    nothing, even when it decodes to a valid request in that encoding."""
    body = '{"name": "Zoë"}'.encode(encoding)
    response = client.post(
        f"/api/daily/{clock.today}/attempts", data=body, content_type="application/json"
    )
    assert error(response) == (400, "bad_json")
    assert client.get("/api/daily").get_json()["attempts"] == 0


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("DELETE", "/api/daily"),
        ("PUT", "/api/attempts/0123456789abcdef/moves"),
        ("PATCH", "/api/daily/2026-11-30/attempts"),
        ("POST", "/api/leaderboard/all-time"),
        ("DELETE", "/api/attempts/0123456789abcdef"),
    ],
)
def test_a_wrong_method_is_405_with_allow(client: FlaskClient, method: str, path: str) -> None:
    """API.md "a wrong method is 405": not 415, even without a JSON body."""
    response = client.open(path, method=method)
    assert error(response) == (405, "method_not_allowed")
    allowed = {m.strip() for m in response.headers["Allow"].split(",")}
    assert allowed & {"GET", "POST"}
    assert method not in allowed


def test_an_unknown_url_is_404_whatever_the_method(client: FlaskClient) -> None:
    response = client.post("/api/nothing-here", data="x", content_type="text/plain")
    assert error(response) == (404, "not_found")


@pytest.mark.parametrize("date", ["0999-12-31", "0001-01-01", "0500-06-15"])
def test_years_before_1000_are_unknown_days(client: FlaskClient, date: str) -> None:
    """Such a date gave malformed timestamps ("999-12-31T…"); it is 404 unknown_day
    like any other day without a challenge, on every route that takes a day."""
    assert error(client.get(f"/api/daily/{date}")) == (404, "unknown_day")
    assert error(client.get(f"/api/leaderboard/{date}")) == (404, "unknown_day")
    assert error(client.get(f"/api/leaderboard/{date}/around/0123456789abcdef")) == (
        404,
        "unknown_day",
    )
    assert error(client.post(f"/api/daily/{date}/practice", json={"name": "Ada"})) == (
        404,
        "unknown_day",
    )


def test_days_before_an_ancient_date_is_a_bad_value(client: FlaskClient) -> None:
    assert error(client.get("/api/days?before=0999-01-01")) == (422, "bad_value")


def test_long_ids_are_unknown_everywhere(client: FlaskClient, clock: Clock) -> None:
    """One id converter for every route: an id longer than any stored one is simply unknown,
    with the route's own code and at its place in API.md's order (a bad body still wins)."""
    long = "a" * 65
    assert error(client.get(f"/api/attempts/{long}")) == (404, "unknown_attempt")
    assert error(client.get(f"/api/attempts/{long}/log")) == (404, "unknown_attempt")
    assert error(client.get(f"/api/attempts/{long}/hint")) == (404, "unknown_attempt")
    assert error(client.post(f"/api/attempts/{long}/moves", json={"move": "draw", "seq": 0})) == (
        404,
        "unknown_attempt",
    )
    assert error(client.post(f"/api/attempts/{long}/moves", json={"move": 1, "seq": 0})) == (
        400,
        "bad_request",
    )
    assert error(client.get(f"/api/leaderboard/{clock.today}/around/{long}")) == (
        404,
        "not_ranked",
    )
    assert error(client.get(f"/replay/{long}/positions")) == (404, "unknown_attempt")


def test_openapi_documents_the_name_rules_and_the_bounds(app: Flask, client: FlaskClient) -> None:
    """The document says what the code checks (a schemathesis run found the
    name rules and the offset bound missing)."""
    document = client.get("/api/openapi.json").get_json()
    schemas = document["components"]["schemas"]
    body = document["paths"]["/api/daily/{date}/attempts"]["post"]["requestBody"]
    ref = body["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    name = schemas[ref]["properties"]["name"]
    assert name["type"] == "string" and name["minLength"] == 1 and name["maxLength"] == 24
    assert "pattern" in name and "printable" in name["description"]
    parameters = {
        p["name"]: p["schema"]
        for p in document["paths"]["/api/leaderboard/{date}"]["get"]["parameters"]
    }
    assert parameters["offset"]["minimum"] == 0 and parameters["offset"]["maximum"] == 10**9
    assert parameters["limit"]["minimum"] == 1 and parameters["limit"]["maximum"] == 100


def test_store_conflicts_are_mapped_centrally(app: Flask) -> None:
    """``Stale`` and ``AttemptExists`` leave any route as API.md's 409s
    (the latter with the existing ``attempt_id`` inside ``error``), without a try/except there."""

    def stale() -> Response:
        raise Stale("0123456789abcdef")

    def exists() -> Response:
        raise AttemptExists("0123456789abcdef")

    app.add_url_rule("/api/test/stale", view_func=stale)
    app.add_url_rule("/api/test/exists", view_func=exists)
    client = app.test_client()
    assert error(client.get("/api/test/stale")) == (409, "stale")
    response = client.get("/api/test/exists")
    assert error(response) == (409, "attempt_exists")
    assert response.get_json()["error"]["attempt_id"] == "0123456789abcdef"


def test_a_malformed_body_wins_over_a_bad_query_value(app: Flask) -> None:
    """API.md's order (400 before 422) for a route with both a query and a body, though
    flask-openapi3 validates the query first: the case of routes to come (tables)."""

    @app.post("/api/test/both")
    def both(query: PageQuery, body: MoveBody) -> Response:
        return Response("{}", mimetype="application/json")

    client = app.test_client()
    bad_query = "/api/test/both?limit=1000"
    assert error(client.post(bad_query, json={"move": "draw", "seq": 0})) == (422, "bad_value")
    assert error(client.post(bad_query, json={"move": 7, "seq": 0})) == (400, "bad_request")
    assert error(client.post(bad_query, data="{", content_type="application/json")) == (
        400,
        "bad_json",
    )
    assert client.post("/api/test/both", json={"move": "draw", "seq": 0}).status_code == 200
