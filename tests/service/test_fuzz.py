"""Fuzzing every operation of the OpenAPI document: no input makes the service answer 5xx, and
every error has API.md's shape."""

from __future__ import annotations

import json
import urllib.parse
from typing import Any

import redis
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.app import create_app
from tests.support.api import start
from tests.support.service_app import Clock

# The document generated from the routes' declarations (no Redis needed to build it).
DOCUMENT: dict[str, Any] = create_app(
    {"REDIS_URL": "redis://127.0.0.1:1/0", "PIKDAME_SECRET": b"doc"}
).api_doc
OPERATIONS = sorted(
    (path, method)
    for path, item in DOCUMENT["paths"].items()
    for method in item
    if method in ("get", "post", "delete")
)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=10,
)
MOVES = st.sampled_from(
    ["draw", "resign", "discard QS", "take 2S 3S 4S", "meld X X X", "lay X 1 low", "swap 1 QS"]
) | st.text(max_size=40)


def scalar(known: list[str]) -> st.SearchStrategy[str]:
    return (
        st.sampled_from(known)
        | st.text(max_size=30)
        | st.integers().map(str)
        | st.from_regex(r"[-+ ]{0,3}[0-9]{0,16}(\.[0-9])?", fullmatch=True)
        | st.dates().map(str)
    )


def test_every_route_is_documented(app: Flask) -> None:
    documented = {p for p, _ in OPERATIONS}
    routes = {
        rule.rule.replace("<id:", "<").replace("<", "{").replace(">", "}")
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/") or rule.rule == "/healthz"
    }
    assert routes <= documented, routes - documented


def test_fuzz_no_5xx(
    app: Flask,
    client: FlaskClient,
    clock: Clock,
    rdb: redis.Redis[str],
    rankings: redis.Redis[str],
) -> None:
    attempt, token = start(client, clock.today)
    dates = [clock.today, "2026-11-29", "2026-12-01", "1900-01-01", "9999-12-31"]
    ids = [attempt["id"], "0" * 16]
    tokens = [token, "bogus", ""]

    def snapshot() -> dict[str, Any]:
        """Every service key and its contents on the game state's and the rankings' servers
        (the rate limiter's counters aside)."""
        state: dict[str, Any] = {}
        for role, server in (("state", rdb), ("rankings", rankings)):
            for key in sorted(server.scan_iter("pd:*")):
                if key.startswith("pd:limits"):
                    continue
                kind = server.type(key)  # type: ignore[no-untyped-call]
                state[f"{role} {key}"] = server.hgetall(key) if kind == "hash" else server.dump(key)
        return state

    @settings(
        max_examples=400,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        path, method = data.draw(st.sampled_from(OPERATIONS))
        operation = DOCUMENT["paths"][path][method]
        url = path
        query: dict[str, str] = {}
        for param in operation.get("parameters", []):
            known = dates if "date" in param["name"] or param["name"] == "before" else ids
            if param["in"] == "path":
                value = data.draw(scalar(known))
                url = url.replace("{" + param["name"] + "}", urllib.parse.quote(value, safe=""))
            elif data.draw(st.booleans()):
                query[param["name"]] = data.draw(scalar(["0", "1", "50", "100", "-1", "1e3"]))
        headers = {}
        if data.draw(st.booleans()):
            headers["Authorization"] = data.draw(
                st.sampled_from([f"Bearer {t}" for t in tokens] + ["Basic x", "Bearer"])
            )
        kwargs: dict[str, Any] = {"headers": headers, "query_string": query}
        if method in ("post", "delete"):
            body = data.draw(
                st.fixed_dictionaries(
                    {},
                    optional={
                        "name": st.text(max_size=30) | JSON,
                        "move": MOVES | JSON,
                        "seq": st.integers(-2, 400) | JSON,
                    },
                )
                | JSON
            )
            raw = data.draw(st.sampled_from(["json", "text", "garbage"]))
            if raw == "json":
                kwargs["data"] = json.dumps(body)
                kwargs["content_type"] = "application/json"
            elif raw == "text":
                kwargs["data"] = json.dumps(body)
                kwargs["content_type"] = "text/plain"
            else:
                kwargs["data"] = data.draw(st.binary(max_size=60))
                kwargs["content_type"] = "application/json"
        before = snapshot()
        response = client.open(url, method=method.upper(), **kwargs)
        assert response.status_code < 500, (method, url, kwargs, response.get_data())
        if response.status_code >= 400:
            error = response.get_json()["error"]
            assert isinstance(error["code"], str) and isinstance(error["message"], str)
            assert snapshot() == before, (method, url, kwargs)  # a failed request changes nothing

    run()
