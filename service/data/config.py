"""Configuration from the environment (API.md): one place, shared by web, worker and CLI.

Flask-free so the RQ worker and the command line read exactly what the web processes read.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from service.proxies import parse_networks

VAR_DIR: Final = Path(os.environ.get("PIKDAME_VAR", "var"))
SECRET_FILE: Final = "pikdame_secret"
DEFAULT_GRACE_MINUTES: Final = 120


def dev_secret(var_dir: Path = VAR_DIR) -> str:
    """The development default of PIKDAME_SECRET: generated once under ``var/`` and kept, so
    the commitments published today still match the seeds published tomorrow."""
    path = var_dir / SECRET_FILE
    if not path.exists():
        var_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, secrets.token_hex(32).encode())
        finally:
            os.close(fd)
    return path.read_text().strip()


def secret_bytes(value: str | bytes) -> bytes:
    return value if isinstance(value, bytes) else value.encode()


def session_key(secret: bytes) -> bytes:
    """Flask's cookie-signing key, derived from the daily secret under its own label so that
    signing cookies can never reveal anything about the daily seeds."""
    return hmac.new(secret, b"pikdame/session/v1", hashlib.sha256).digest()


def load(overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The service's settings: the environment, then ``overrides`` (tests, the app factory)."""
    env = os.environ
    cfg: dict[str, Any] = {
        "REDIS_URL": env.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
        "PIKDAME_SECRET": env.get("PIKDAME_SECRET"),
        "PIKDAME_GRACE_MINUTES": int(env.get("PIKDAME_GRACE_MINUTES", DEFAULT_GRACE_MINUTES)),
        "PIKDAME_LIMIT_ATTEMPTS": env.get("PIKDAME_LIMIT_ATTEMPTS", "10 per hour"),
        "PIKDAME_LIMIT_MOVES": env.get("PIKDAME_LIMIT_MOVES", "30 per second"),
        # API.md's 60 a second, counted over ten seconds so a crowd behind one address is served
        "PIKDAME_LIMIT_DEFAULT": env.get("PIKDAME_LIMIT_DEFAULT", "600 per 10 seconds"),
        "PIKDAME_LIMIT_REPLAYS": env.get("PIKDAME_LIMIT_REPLAYS", "30 per minute"),
        "PIKDAME_LIMITS_ENABLED": env.get("PIKDAME_LIMITS_ENABLED", "1") != "0",
        # the proxies whose X-Forwarded-* headers are trusted (service.proxies)
        "PIKDAME_PROXIES": parse_networks(env.get("PIKDAME_PROXIES", "")),
        "SESSION_COOKIE_SECURE": env.get("PIKDAME_SECURE_COOKIES", "0") == "1",
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "PIKDAME_QUEUE": env.get("PIKDAME_QUEUE", "verify"),
        "PIKDAME_ARCHIVE_DIR": env.get("PIKDAME_ARCHIVE_DIR", str(VAR_DIR / "archive")),
        "PIKDAME_KEEP_DAYS": int(env.get("PIKDAME_KEEP_DAYS", "7")),
        "PIKDAME_NOW": None,  # tests: a callable returning an aware datetime (service.data.clock)
        "MAX_CONTENT_LENGTH": 16 * 1024,
    }
    if overrides:
        cfg.update(overrides)
    if not cfg["PIKDAME_SECRET"]:
        cfg["PIKDAME_SECRET"] = dev_secret()
    cfg["PIKDAME_SECRET"] = secret_bytes(cfg["PIKDAME_SECRET"])
    cfg.setdefault("SECRET_KEY", session_key(cfg["PIKDAME_SECRET"]))
    return cfg
