"""The week's tournament through the API, as the service tests play it (docs/EVENTS.md): start
one's next deal of an event, resign a deal."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient


def start_deal(client: FlaskClient, base: str, name: str) -> dict[str, Any]:
    """``POST {base}/deals`` (``base``: ``/api/events/<game>/<week>``): the started deal's answer
    (``n``, ``attempt``, ``token``); it must be created."""
    response = client.post(f"{base}/deals", json={"name": name})
    assert response.status_code == 201, response.get_json()
    created: dict[str, Any] = response.get_json()
    return created


def resign_deal(client: FlaskClient, attempt: dict[str, Any]) -> dict[str, Any]:
    """The deal's attempt resigned (a daily attempt's move route): the finished attempt."""
    move = {"move": "resign", "seq": attempt["seq"]}
    response = client.post(f"/api/attempts/{attempt['id']}/moves", json=move)
    assert response.status_code == 200, response.get_json()
    done: dict[str, Any] = response.get_json()["attempt"]
    return done
