"""A bounded schemathesis run against the real service ("done means"): gunicorn as
deployed, a real redis-server and a stock ``rq worker``; every operation of the generated
``/api/openapi.json`` gets positive and negative examples. No answer may be a 5xx, and every
answer's status, content type and body must be what the document says.

Bounded for CI (``EXAMPLES`` per operation and mode): about a minute on two cores."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from service.app import create_app
from tests.support.processes import Process, WebServer, service_env, start_web, start_worker
from tests.support.servers import start_redis
from tests.support.service_app import SECRET

pytestmark = pytest.mark.integration

EXAMPLES = 60
#: Operations whose answer is a live stream anyone may open: each case lasts the stream's
#: lifetime, so they get a few cases (their query's every field still checked both ways).
STREAMS: dict[str, int] = {"/api/lobby/events": 8}
REQUEST_LINE = 4000  # gunicorn's limit_request_line is 4094 bytes with method and version
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


@dataclass
class Live:
    """The running service and one attempt of today that the run may act on."""

    web: WebServer
    attempt_id: str
    token: str
    today: str


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    logs = tmp_path_factory.mktemp("schemathesis")
    server = start_redis()
    # a live stream open to anyone (the lobby's) answers until PIKDAME_STREAM_SECONDS: one
    # second here, so each of its cases reads a whole stream, every event checked
    env = service_env(server.url, SECRET.decode(), PIKDAME_STREAM_SECONDS="1")
    processes: list[Process] = []
    try:
        web = start_web(env, logs / "web.log")
        processes.append(web.process)
        processes.append(start_worker(env, logs / "worker.log"))
        status, day = web.call("GET", "/api/daily", None)
        assert status == 200
        status, created = web.call("POST", f"/api/daily/{day['date']}/attempts", {"name": "Ada"})
        assert status == 201, created
        yield Live(web, created["attempt"]["id"], created["token"], day["date"])
    finally:
        for process in processes:
            process.stop()
        server.close()
        _no_tracebacks(logs)


def _no_tracebacks(logs: Path) -> None:
    text = (logs / "web.log").read_text(errors="replace")
    assert "Traceback" not in text, text[-3000:]


@pytest.fixture(scope="module")
def api_schema(live: Live) -> schemathesis.BaseSchema:
    """The document as the running service serves it."""
    return schemathesis.openapi.from_url(f"{live.web.base}/api/openapi.json")


# The operations, from the same declarations the service documents itself with; an operation
# without parameters or body has no negative cases.
DOCUMENT = create_app({"REDIS_URL": "redis://127.0.0.1:1/0", "PIKDAME_SECRET": SECRET}).api_doc
OPERATIONS = sorted(
    (path, method, mode)
    for path, item in DOCUMENT["paths"].items()
    for method, operation in item.items()
    for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
    if mode.is_positive or "parameters" in operation or "requestBody" in operation
)


@pytest.mark.parametrize(("path", "method", "mode"), OPERATIONS)
def test_the_service_keeps_its_document(
    api_schema: schemathesis.BaseSchema, live: Live, path: str, method: str, mode: GenerationMode
) -> None:
    operation = api_schema[path][method]
    names = {p.name for p in operation.path_parameters}
    # Half the cases act on the live attempt and today, so the run reaches past the 404s into
    # the answers that carry documents; the other half generate every part of the URL.
    real = {"attempt_id": live.attempt_id, "date": live.today}
    fixed = {name: real[name] for name in names if name in real}
    strategies = [operation.as_strategy(mode)]
    if fixed:
        auth = {"Authorization": f"Bearer {live.token}"}
        strategies.append(operation.as_strategy(mode, path_parameters=fixed, headers=auth))

    @given(case=st.one_of(strategies))
    @settings(
        max_examples=STREAMS.get(path, EXAMPLES),
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=True,
        database=None,
    )
    def run(case: schemathesis.Case[Any]) -> None:
        # gunicorn itself refuses a request line over 4 KB (limit_request_line) before the app
        # sees it, as any front proxy would: a case that long tests the HTTP server, not the API.
        sent = case.as_transport_kwargs(base_url=live.web.base)
        url = requests.Request(sent["method"], sent["url"], params=sent.get("params")).prepare()
        assume(len(url.path_url) < REQUEST_LINE)
        case.call_and_validate(base_url=live.web.base, checks=CHECKS, timeout=60)

    run()
