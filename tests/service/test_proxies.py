"""Forwarded headers are trusted only from the configured proxies, under a real
gunicorn: a client's own ``X-Forwarded-For`` neither escapes the per-address limits nor lands in
the logs."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import redis

from service.common.config import parse_networks
from tests.support.processes import WebServer, service_env, start_web
from tests.support.service_app import SECRET

pytestmark = pytest.mark.integration


def start_as(web: WebServer, forwarded_for: str, name: str) -> int:
    """Start today's attempt as a new player, claiming to be ``forwarded_for``."""
    date = web.call("GET", "/api/daily", None)[1]["date"]
    request = urllib.request.Request(
        f"{web.base}/api/daily/{date}/attempts",
        data=json.dumps({"name": name}).encode(),
        method="POST",
        headers={"Content-Type": "application/json", "X-Forwarded-For": forwarded_for},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return int(response.status)
    except urllib.error.HTTPError as e:
        return int(e.code)


def serve(redis_url: str, proxies: str, log: Path) -> WebServer:
    env = service_env(
        redis_url,
        SECRET.decode(),
        PIKDAME_LIMITS_ENABLED="1",
        PIKDAME_LIMIT_ATTEMPTS="1 per hour",
        PIKDAME_PROXIES=proxies,
    )
    return start_web(env, log)


def remotes(log: Path) -> set[str]:
    """The client addresses the access log gave the starts (the POSTs)."""
    found = set()
    for line in log.read_text().splitlines():
        if line.startswith("{") and '"method":"POST"' in line:
            found.add(json.loads(line)["remote"])
    return found


def test_a_spoofed_forwarded_for_from_an_untrusted_peer_is_ignored(
    redis_url: str, rdb: redis.Redis[str], tmp_path: Path
) -> None:
    log = tmp_path / "web.log"
    web = serve(redis_url, "192.0.2.1", log)  # a proxy that is not us
    try:
        statuses = [start_as(web, f"203.0.113.{i}", f"P{i}") for i in (1, 2)]
    finally:
        web.process.stop()
    assert statuses[1] == 429  # both came from 127.0.0.1, whatever they claimed
    assert remotes(log) == {"127.0.0.1"}
    assert "203.0.113" not in log.read_text()


def test_a_trusted_proxy_names_the_client_and_a_prepended_entry_is_not_believed(
    redis_url: str, rdb: redis.Redis[str], tmp_path: Path
) -> None:
    log = tmp_path / "web.log"
    web = serve(redis_url, "127.0.0.1/32, 10.0.0.0/8", log)
    try:
        first = start_as(web, "203.0.113.1", "P1")
        other = start_as(web, "203.0.113.2", "P2")
        again = start_as(web, "203.0.113.1", "P3")
        # a client that prepends a made-up address, through two trusted proxies
        spoofed = start_as(web, "198.51.100.7, 203.0.113.1, 10.1.2.3", "P4")
    finally:
        web.process.stop()
    assert [first, other, again, spoofed] == [201, 201, 429, 429]
    assert remotes(log) == {"203.0.113.1", "203.0.113.2"}
    assert "198.51.100.7" not in log.read_text()


def test_proxies_are_addresses_or_networks_not_a_hop_count() -> None:
    assert [str(n) for n in parse_networks("127.0.0.1, ::1 10.0.0.0/8")] == [
        "127.0.0.1/32",
        "::1/128",
        "10.0.0.0/8",
    ]
    with pytest.raises(ValueError, match="PIKDAME_PROXIES"):
        parse_networks("1")
