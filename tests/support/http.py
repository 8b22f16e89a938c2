"""One HTTP request from a chosen loopback source address (tests behind the real front)."""

from __future__ import annotations

import http.client
import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit


@dataclass
class Answer:
    status: int
    headers: http.client.HTTPMessage
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


def fetch(
    base: str,
    path: str,
    method: str = "GET",
    body: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
    source: str = "127.0.0.1",
) -> Answer:
    """``method path`` against ``base``, connecting from ``source`` (any 127.x address is the
    machine's own: a test can play several clients)."""
    url = urlsplit(base)
    connection = http.client.HTTPConnection(
        url.hostname or "127.0.0.1", url.port, timeout=30, source_address=(source, 0)
    )
    sent = dict(headers or {})
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        sent["Content-Type"] = "application/json"
    try:
        connection.request(method, path, body=data, headers=sent)
        response = connection.getresponse()
        return Answer(response.status, response.headers, response.read())
    finally:
        connection.close()
