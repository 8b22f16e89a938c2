"""What every answer of the API shares: the documents' base model, the error envelope
(``{"error": {"code", "message"}}``) with the statuses it may carry, and ``answers``, which
declares a route's documents for ``/api/openapi.json``.

Each domain's ``models.py`` holds the documents its routes answer: the contract the presenters'
JSON keeps, checked against real answers by the schemathesis run
(tests/service/test_schemathesis.py), not at run time.
"""

from __future__ import annotations

from typing import Final, Literal

from flask_openapi3.types import ResponseDict
from pydantic import BaseModel, ConfigDict, Field


class Document(BaseModel):
    model_config = ConfigDict(extra="allow")


class ErrorDetail(Document):
    code: str = Field(examples=["unknown_attempt"])
    message: str
    attempt_id: str | None = Field(None, description="409 attempt_exists: the existing attempt")
    seq: int | None = Field(None, description="409 stale: the current seq")


class Error(Document):
    """API.md: every failure is ``{"error": {"code", "message"}}``."""

    error: ErrorDetail


class Health(Document):
    redis: Literal["ok", "unreachable"]
    queue: int | None


class OpenApi(Document):
    """This document."""


ERRORS: dict[int, str] = {
    400: "malformed request: not JSON (UTF-8), not an object, wrong types",
    401: "no credentials for an attempt that needs them",
    403: "someone else's attempt",
    404: "unknown day, attempt, table or invite (a future day is unknown)",
    409: "conflict: stale, attempt_exists, day_closed, day_open, not_finished, table_full, "
    "already_started, idempotency_key_in_use …",
    413: "body too large",
    415: "state-changing requests must be application/json",
    422: "an illegal move (FORMATS.md F7 code) or a bad value (bad_value)",
    429: "rate limited",
    503: "storage unavailable, try again shortly",
}


def errors(*statuses: int) -> ResponseDict:
    """Error responses, each in API.md's envelope."""
    ref = {"$ref": "#/components/schemas/Error"}
    return {
        status: {
            "description": ERRORS[status],
            "content": {"application/json": {"schema": ref}},
        }
        for status in statuses
    }


def answers(ok: type[BaseModel], *statuses: int, status: int = 200) -> ResponseDict:
    """A route's documented answers: ``ok`` (as ``status``) and its errors. Every API route may
    also be rate limited or find Redis away: :data:`COMMON`, given to each API blueprint."""
    return {status: ok, **errors(*statuses)}


COMMON: Final = errors(429, 503)
