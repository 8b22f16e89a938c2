"""Start a real ``redis-server`` on a free port in a temporary directory (tests only)."""

from __future__ import annotations

import atexit
import os
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import redis


def end(process: subprocess.Popen[bytes], timeout: float = 10) -> None:
    """Stop a child: SIGTERM (its clean shutdown), then SIGKILL if it is not gone in
    ``timeout`` seconds; returns once it has been reaped."""
    if process.poll() is None:
        process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


def free_port() -> int:
    """A TCP port that was free a moment ago (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class RedisServer:
    """A running redis-server child process; ``stop()`` ends it, ``start()`` restarts it on the
    same port and directory (so an AOF written before is read back)."""

    port: int
    directory: Path
    appendonly: bool
    process: subprocess.Popen[bytes] | None = None
    _owns_dir: bool = field(default=True)
    extra: tuple[str, ...] = ()  # more redis-server arguments (--replicaof …)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        args = [
            shutil.which("redis-server") or "redis-server",
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--dir",
            str(self.directory),
            "--save",
            "",
            "--appendonly",
            "yes" if self.appendonly else "no",
            "--appendfsync",
            "always",
            "--daemonize",
            "no",
            "--logfile",
            str(self.directory / "redis.log"),
            *self.extra,
        ]
        self.process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = redis.Redis.from_url(self.url)
        deadline = time.monotonic() + 10
        while True:
            try:
                if client.ping():
                    break
            except redis.exceptions.RedisError:
                # "Loading" while the AOF is read back, or not listening yet.
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"redis-server did not start on port {self.port}")
            time.sleep(0.02)
        client.close()

    def stop(self, kill: bool = False) -> None:
        """Stop the server: SIGTERM (clean) or SIGKILL (a crash)."""
        if self.process is None:
            return
        if kill:
            self.process.kill()
        # a primary waits up to shutdown-timeout (10 s) for lagging replicas to catch up
        end(self.process, timeout=15)
        self.process = None

    def close(self) -> None:
        """Stop the server and remove its directory."""
        self.stop()
        if self._owns_dir:
            shutil.rmtree(self.directory, ignore_errors=True)


def command_calls(client: redis.Redis[str] | redis.Redis[bytes], command: str) -> int:
    """How many times the server ran ``command`` (lower case) since its last CONFIG RESETSTAT:
    INFO commandstats, the server's own count (a pipeline's or a script's commands included)."""
    stats = client.info("commandstats").get(f"cmdstat_{command}", {})
    return int(stats.get("calls", 0))


def start_redis(
    appendonly: bool = False, directory: Path | None = None, extra: tuple[str, ...] = ()
) -> RedisServer:
    """Start redis-server on a free port: the server with ``.url``, ``.stop()``, ``.close()``."""
    owns = directory is None
    path = Path(tempfile.mkdtemp(prefix="pikdame-redis-")) if directory is None else directory
    last: Exception | None = None
    for _ in range(5):  # the free port may be taken between probing and binding
        server = RedisServer(free_port(), path, appendonly, _owns_dir=owns, extra=extra)
        try:
            server.start()
            return server
        except RuntimeError as e:
            last = e
            server.stop()
    raise RuntimeError(f"could not start redis-server: {last}")


# Redis by role: with PIKDAME_TEST_REDIS_ROLES=1 (``make test-roles``) the queue and
# the rankings each get a redis-server of their own, beside the tests' state server, so the suite
# shows that no operation needs two of them at once.
ROLES_ENV = "PIKDAME_TEST_REDIS_ROLES"
_roles: dict[str, RedisServer] = {}


def roles_enabled() -> bool:
    return os.environ.get(ROLES_ENV, "") == "1"


def role_servers() -> dict[str, RedisServer]:
    """The queue's and the rankings' own servers (started once per test process), or none."""
    if roles_enabled() and not _roles:
        _roles["PIKDAME_REDIS_QUEUE_URL"] = start_redis()
        _roles["PIKDAME_REDIS_RANKINGS_URL"] = start_redis()
        atexit.register(close_roles)
    return _roles


def close_roles() -> None:
    for server in _roles.values():
        server.close()


def role_urls(state_url: str) -> dict[str, str]:
    """The role variables for an app or a process whose game state is on ``state_url``: empty
    (everything on REDIS_URL) unless the roles are split."""
    servers = role_servers()
    if not servers:
        return {}
    return {"PIKDAME_REDIS_STATE_URL": state_url, **{k: s.url for k, s in servers.items()}}


def role_url(state_url: str, variable: str) -> str:
    """The URL of one role (``PIKDAME_REDIS_QUEUE_URL`` or ``…_RANKINGS_URL``) when game state is
    on ``state_url``: its own server when the roles are split, else the same."""
    servers = role_servers()
    return servers[variable].url if variable in servers else state_url


def one_server(url: str) -> dict[str, str]:
    """Every role on ``url``: for tests whose subject is one server (its outage, its failover),
    in ``make test-roles`` too."""
    return {f"PIKDAME_REDIS_{role}_URL": url for role in ("STATE", "QUEUE", "RANKINGS")}


def flush_roles() -> None:
    """Empty the role servers (between tests, with the state server)."""
    for server in role_servers().values():
        client = redis.Redis.from_url(server.url)
        client.flushdb()
        client.close()


@dataclass
class SentinelServer:
    """A running redis-sentinel watching one primary under ``master`` (quorum 1: one Sentinel
    on loopback decides alone; production runs three on separate hosts)."""

    port: int
    directory: Path
    master: str
    process: subprocess.Popen[bytes]

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def primary_port(self) -> int:
        client = redis.Redis(port=self.port, decode_responses=True)
        host_port = client.execute_command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", self.master)
        client.close()
        return int(host_port[1])

    def replicas(self) -> int:
        client = redis.Redis(port=self.port, decode_responses=True)
        found = client.execute_command("SENTINEL", "REPLICAS", self.master)
        client.close()
        return len(found)

    def replica_priority(self, port: int) -> int | None:
        """The replica-priority Sentinel last read from the replica on ``port`` (None: unknown)."""
        client = redis.Redis(port=self.port, decode_responses=True)
        found = client.execute_command("SENTINEL", "REPLICAS", self.master)
        client.close()
        for entry in found:
            fields = (
                entry
                if isinstance(entry, dict)
                else dict(zip(entry[::2], entry[1::2], strict=True))
            )
            if int(fields["port"]) == port:
                return int(fields["slave-priority"])
        return None

    def events(self, name: str) -> int:
        """How many times Sentinel logged the event ``name`` (``+switch-master``, …)."""
        log = self.directory / "sentinel.log"
        text = log.read_text(errors="replace") if log.exists() else ""
        return sum(1 for line in text.splitlines() if f" {name} " in f"{line} ")

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)
        shutil.rmtree(self.directory, ignore_errors=True)


def start_sentinel(primary_port: int, master: str = "pikdame") -> SentinelServer:
    """Debian's redis-sentinel on a free port, watching the primary on ``primary_port``: down
    after 1 s of silence, so a test's failover takes seconds."""
    directory = Path(tempfile.mkdtemp(prefix="pikdame-sentinel-"))
    port = free_port()
    conf = directory / "sentinel.conf"  # Sentinel rewrites it: its own writable copy
    conf.write_text(
        f"port {port}\nbind 127.0.0.1\ndaemonize no\ndir {directory}\n"
        f"logfile {directory / 'sentinel.log'}\n"
        f"sentinel monitor {master} 127.0.0.1 {primary_port} 1\n"
        f"sentinel down-after-milliseconds {master} 1000\n"
        f"sentinel failover-timeout {master} 10000\n"
    )
    binary = shutil.which("redis-sentinel") or "redis-sentinel"
    process = subprocess.Popen(
        [binary, str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    sentinel = SentinelServer(port, directory, master, process)
    deadline = time.monotonic() + 10
    while True:
        try:
            sentinel.primary_port()
            return sentinel
        except redis.exceptions.RedisError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("redis-sentinel did not start") from None
            time.sleep(0.05)
