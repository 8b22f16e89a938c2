"""The service tests' app: ``create_app`` on a real Redis with the tests' secret and clock."""

from __future__ import annotations

from typing import Any

from flask import Flask

from service.app import create_app
from tests.support.clock import Clock
from tests.support.servers import role_urls

SECRET = b"test-secret-not-for-production"


def make_app(redis_url: str, clock: Clock, **extra: Any) -> Flask:
    """Rate limits off unless a test turns them on (``PIKDAME_LIMITS_ENABLED=True``)."""
    return create_app(
        {
            "REDIS_URL": redis_url,
            **role_urls(redis_url),  # make test-roles: the queue and rankings on their own
            "PIKDAME_SECRET": SECRET,
            "PIKDAME_NOW": clock,
            "PIKDAME_LIMITS_ENABLED": False,
            "PIKDAME_LAUNCH_DATE": "2026-11-30",  # the clock's first day: the archive starts there
            "TESTING": True,
            **extra,
        }
    )


__all__ = ["SECRET", "Clock", "make_app"]
