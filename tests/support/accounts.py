"""Signing up and in through the API with a software authenticator (tests/support/authenticator)."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.support.authenticator import Authenticator

ORIGIN = "http://localhost:8000"  # config's default PIKDAME_ORIGINS


def sign_up(
    client: FlaskClient, device: Authenticator, name: str = "Ada", attach: bool = True
) -> dict[str, Any]:
    """Both steps of signing up; returns the account document."""
    step = client.post("/api/account/signup/options", json={"name": name, "attach": attach})
    assert step.status_code == 200, step.get_json()
    options = step.get_json()
    credential = device.create(options["options"])
    done = client.post("/api/account", json={"handle": options["handle"], "credential": credential})
    assert done.status_code == 201, done.get_json()
    account: dict[str, Any] = done.get_json()["account"]
    return account


def sign_in(client: FlaskClient, device: Authenticator) -> dict[str, Any]:
    step = client.post("/api/account/signin/options", json={})
    assert step.status_code == 200, step.get_json()
    options = step.get_json()
    answer = device.get(options["options"])
    done = client.post(
        "/api/account/signin", json={"handle": options["handle"], "credential": answer}
    )
    assert done.status_code == 200, done.get_json()
    account: dict[str, Any] = done.get_json()["account"]
    return account
