"""Backups that restore (deploy/README.md, "Backup and restore"): the drill after a lost machine.

A live service (real redis-servers for the three roles, gunicorn, an ``rq worker`` with the
scheduler, deploy/'s commands) holds accounts, verified and unverified attempts, a board, a
league, ratings, tables in play with pending turn timers and a quick-match ticket.
``pikdame backup`` writes its file; every Redis is then destroyed (SIGKILL, its directory
removed) together with PIKDAME_VAR. Fresh, empty servers and directory get ``pikdame
restore``, and every key comes back with its expiry, every document answers as before, the
secret is the same (the day's commitment), the unverified attempts get verified and the tables'
timers play their turns, those whose job was lost before the backup (a web process killed
between its write and its job) too.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pytest
import redis

from service.dailies import queue
from service.tables import ratings, timers
from tests.support.accounts import ORIGIN
from tests.support.authenticator import Authenticator
from tests.support.lobby import Browser
from tests.support.processes import (
    Process,
    WebServer,
    pikdame,
    service_env,
    start_web,
    start_worker,
    wait_for,
)
from tests.support.servers import RedisServer, start_redis
from tests.support.tables import timed_table

pytestmark = pytest.mark.integration

ROLES = {
    "state": "PIKDAME_REDIS_STATE_URL",
    "queue": "PIKDAME_REDIS_QUEUE_URL",
    "rankings": "PIKDAME_REDIS_RANKINGS_URL",
}
TIMER_S = 30  # R9's shortest turn timer


def env_for(servers: dict[str, RedisServer], var: Path) -> dict[str, str]:
    """The service's environment on these servers and PIKDAME_VAR, the secret generated there
    (deploy's ``make run`` shape: the secret is a file the backup must keep)."""
    env = service_env(
        servers["state"].url,
        "unused",
        PIKDAME_VAR=str(var),
        PIKDAME_ORIGINS=ORIGIN,
        PIKDAME_QUEUE="verify-drill",
        PIKDAME_TABLE_QUEUE="tables-drill",
        **{variable: servers[role].url for role, variable in ROLES.items()},
    )
    del env["PIKDAME_SECRET"]
    env.pop("PIKDAME_ARCHIVE_DIR", None)
    return env


#: What :func:`value` reads of a key that expired between the scan and the read.
GONE: Final = object()


def value(client: redis.Redis[bytes], key: bytes) -> Any:
    """A key's value as data (a DUMP's bytes follow the encoding, e.g. a hash's field order)."""
    kind = client.type(key)  # type: ignore[no-untyped-call]
    if kind == b"string":
        return client.get(key)
    if kind == b"hash":
        return client.hgetall(key)
    if kind == b"list":
        return client.lrange(key, 0, -1)
    if kind == b"set":
        return sorted(client.smembers(key))
    if kind == b"zset":
        return client.zrange(key, 0, -1, withscores=True)
    if kind == b"stream":
        return client.xrange(key)
    if kind == b"none":
        return GONE  # expired since the scan listed it (a lock's lease: a second)
    raise AssertionError(f"{key!r}: a {kind!r}")


def keyspace(servers: dict[str, RedisServer]) -> dict[str, dict[bytes, tuple[Any, int]]]:
    """Every key of every role: its value and its absolute expiry (ms, -1 for none)."""
    found = {}
    for role, server in servers.items():
        client: redis.Redis[bytes] = redis.Redis.from_url(server.url)
        found[role] = {
            key: (found_value, int(client.execute_command("PEXPIRETIME", key)))
            for key in client.scan_iter(count=1000)
            if (found_value := value(client, key)) is not GONE
        }
        client.close()
    return found


def lasting(space: dict[bytes, tuple[Any, int]], after_ms: int) -> dict[bytes, Any]:
    """The keys that do not expire before ``after_ms``."""
    return {k: v for k, v in space.items() if v[1] == -1 or v[1] > after_ms}


#: What a document says about the moment it was read (the ticket's wait widens its range).
MOMENTARY = frozenset({"now", "waited_ms", "range"})


def steady(answer: Any) -> Any:
    """An answer without what changes with the moment of reading."""
    if isinstance(answer, dict):
        return {k: steady(v) for k, v in answer.items() if k not in MOMENTARY}
    if isinstance(answer, list | tuple):
        return [steady(v) for v in answer]
    return answer


def server_ms(server: RedisServer) -> int:
    seconds, micros = redis.Redis.from_url(server.url).time()
    return int(seconds) * 1000 + int(micros) // 1000


def sign_up(web: WebServer, name: str) -> tuple[Browser, Authenticator]:
    browser, device = Browser(web.base), Authenticator(ORIGIN)
    status, step = browser.call("POST", "/api/account/signup/options", {"name": name})
    assert status == 200, step
    credential = device.create(step["options"])
    status, done = browser.call(
        "POST", "/api/account", {"handle": step["handle"], "credential": credential}
    )
    assert status == 201, done
    return browser, device


def sign_in(web: WebServer, device: Authenticator) -> dict[str, Any]:
    browser = Browser(web.base)
    status, step = browser.call("POST", "/api/account/signin/options", {})
    assert status == 200, step
    answer = device.get(step["options"])
    status, done = browser.call(
        "POST", "/api/account/signin", {"handle": step["handle"], "credential": answer}
    )
    assert status == 200, done
    account: dict[str, Any] = done["account"]
    return account


def finished_attempt(browser: Browser, date: str, name: str) -> tuple[str, str]:
    status, body = browser.call("POST", f"/api/daily/{date}/attempts", {"name": name})
    assert status == 201, body
    attempt, token = body["attempt"], body["token"]
    status, body = browser.call(
        "POST",
        f"/api/attempts/{attempt['id']}/moves",
        {"move": "resign", "seq": attempt["seq"]},
        token,
    )
    assert status == 200, body
    return str(attempt["id"]), str(token)


def verdict(browser: Browser, attempt_id: str, token: str) -> Any:
    status, body = browser.call("GET", f"/api/attempts/{attempt_id}", None, token)
    assert status == 200, body
    verification = body["attempt"]["verification"]
    return verification and verification.get("status")


@pytest.fixture
def drill_dirs(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path
    shutil.rmtree(tmp_path, ignore_errors=True)


def test_a_lost_machine_is_brought_back_from_its_backup(drill_dirs: Path) -> None:
    logs, var = drill_dirs / "logs", drill_dirs / "var"
    logs.mkdir()
    old = {role: start_redis() for role in ROLES}
    new: dict[str, RedisServer] = {}
    env = env_for(old, var)
    processes: list[Process] = []
    try:
        web = start_web(env, logs / "web.log")
        processes.append(web.process)
        worker = start_worker(env, logs / "worker.log")
        processes.append(worker)
        status, day = Browser(web.base).call("GET", "/api/daily")
        assert status == 200, day
        date = day["date"]

        # accounts; verified attempts and a board; a league
        ada, ada_device = sign_up(web, "Ada")
        bob, bob_device = sign_up(web, "Bob")
        verified = [finished_attempt(ada, date, "Ada"), finished_attempt(bob, date, "Bob")]
        for attempt_id, token in verified:
            wait_for(lambda a=attempt_id, t=token: verdict(ada, a, t) == "verified", timeout=120)
        status, league = ada.call("POST", "/api/leagues", {"name": "Drill"})
        assert status == 201, league
        # a rated game's outcome, as the table's last move settles it (service.tables.store)
        ids = [b.call("GET", "/api/account")[1]["account"]["id"] for b in (ada, bob)]
        rated = [ratings.Rated(0, ids[0], "Ada", None, 1), ratings.Rated(1, ids[1], "Bob", None, 2)]
        state_db: redis.Redis[str] = redis.Redis.from_url(old["state"].url, decode_responses=True)
        assert ratings.settle(state_db, "gin", "drilltable", rated, server_ms(old["state"]))
        state_db.close()

        # with no worker: an unverified attempt, tables whose timers are pending, a ticket
        worker.stop()
        cid, cid_device = sign_up(web, "Cid")
        unverified = finished_attempt(cid, date, "Cid")
        tables = [timed_table(Browser(web.base)) for _ in range(3)]
        # what a web process killed between its write and its job leaves: no job at all, which
        # the reconciler must find after the restore (service/reconcile.py)
        dan, dan_device = sign_up(web, "Dan")
        lost = finished_attempt(dan, date, "Dan")
        queue_db = redis.Redis.from_url(old["queue"].url)
        job = queue.fetch(queue.queue_on(queue_db, "verify-drill"), lost[0])
        assert job is not None
        job.delete()
        timer_q = timers.queue_on(queue_db, "tables-drill")
        timer_job = timer_q.fetch_job(timers.job_id(tables[0][0], 0))
        assert timer_job is not None
        timer_job.delete()
        queue_db.zrem(timers.due_key("tables-drill"), timers.job_id(tables[0][0], 0))
        queue_db.close()
        status, ticket = bob.call(
            "POST",
            "/api/match",
            {"game": "gin", "seats": 2, "turn_timer": 60, "bots_after": None, "name": "Bob"},
        )
        assert status == 201 and ticket["match"]["status"] == "waiting", ticket

        (var / "archive").mkdir(parents=True, exist_ok=True)
        (var / "archive" / "kept.json").write_text('{"a closed day": true}')
        reads = {
            "account": ada.call("GET", "/api/account"),
            "board": ada.call("GET", f"/api/leaderboard/{date}"),
            "leagues": ada.call("GET", "/api/leagues"),
            "ratings": ada.call("GET", "/api/ratings/gin?provisional=true"),
            "match": bob.call("GET", "/api/match"),
            "tables": [
                Browser(web.base).call("GET", f"/api/tables/{t}", None, k) for t, k in tables
            ],
            "unverified": [verdict(cid, *unverified), verdict(dan, *lost)],
        }
        assert "verified" not in reads["unverified"]
        assert "Ada" in json.dumps(reads["ratings"]) and "Drill" in json.dumps(reads["leagues"])
        commitment = json.loads(pikdame(env, "seed-info", date).stdout)["commitment"]

        backup_file = drill_dirs / "pikdame.backup"
        done = pikdame(env, "backup", str(backup_file))
        assert done.returncode == 0, done.stderr
        before = keyspace(old)

        # the machine is lost: every Redis and PIKDAME_VAR
        web.process.stop()
        for server in old.values():
            server.stop(kill=True)
            server.close()
        shutil.rmtree(var)

        new.update({role: start_redis() for role in ROLES})
        env = env_for(new, var)
        done = pikdame(env, "restore", str(backup_file))
        assert done.returncode == 0, done.stderr
        again = pikdame(env, "restore", str(backup_file))
        assert again.returncode != 0 and "not empty" in again.stderr  # refused, nothing changed

        after = keyspace(new)
        moment = max(server_ms(s) for s in new.values())
        for role in ROLES:
            assert lasting(after[role], moment) == lasting(before[role], moment), role
            assert len(lasting(before[role], moment)) > 0, role
        assert (var / "archive" / "kept.json").read_text() == '{"a closed day": true}'
        assert json.loads(pikdame(env, "seed-info", date).stdout)["commitment"] == commitment

        # the service on the restored machine answers as before
        web = start_web(env, logs / "web2.log")
        processes.append(web.process)
        for browser in (ada, bob, cid, dan):
            browser.base = web.base  # the same browsers, their session cookies
        assert ada.call("GET", "/api/account") == reads["account"]
        assert ada.call("GET", f"/api/leaderboard/{date}") == reads["board"]
        assert ada.call("GET", "/api/leagues") == reads["leagues"]
        assert ada.call("GET", "/api/ratings/gin?provisional=true") == reads["ratings"]
        assert steady(bob.call("GET", "/api/match")) == steady(reads["match"])
        tables_now = [Browser(web.base).call("GET", f"/api/tables/{t}", None, k) for t, k in tables]
        assert steady(tables_now) == steady(reads["tables"])
        for device, name in (
            (ada_device, "Ada"),
            (bob_device, "Bob"),
            (cid_device, "Cid"),
            (dan_device, "Dan"),
        ):
            assert sign_in(web, device)["name"] == name  # the passkeys survived
        for attempt_id, token in verified:
            assert verdict(ada, attempt_id, token) == "verified"

        # the workers take up what was in flight: the verification, the turn timers
        processes.append(start_worker(env, logs / "worker2.log"))
        wait_for(lambda: verdict(cid, *unverified) == "verified", timeout=180)
        wait_for(lambda: verdict(dan, *lost) == "verified", timeout=180)  # requeued
        for (table_id, token), (_, seen) in zip(tables, reads["tables"], strict=True):
            wait_for(
                lambda t=table_id, k=token, s=seen["table"]["seq"]: (
                    Browser(web.base).call("GET", f"/api/tables/{t}", None, k)[1]["table"]["seq"]
                    > s
                ),
                timeout=TIMER_S + 120,
            )
    finally:
        for process in processes:
            process.stop()
        for server in [*old.values(), *new.values()]:
            server.close()
