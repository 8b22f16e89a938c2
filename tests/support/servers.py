"""Start a real ``redis-server`` on a free port in a temporary directory (tests only)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import redis


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
        else:
            self.process.terminate()
        self.process.wait(timeout=10)
        self.process = None

    def close(self) -> None:
        """Stop the server and remove its directory."""
        self.stop()
        if self._owns_dir:
            shutil.rmtree(self.directory, ignore_errors=True)


def start_redis(appendonly: bool = False, directory: Path | None = None) -> RedisServer:
    """Start redis-server on a free port: the server with ``.url``, ``.stop()``, ``.close()``."""
    owns = directory is None
    path = Path(tempfile.mkdtemp(prefix="pikdame-redis-")) if directory is None else directory
    last: Exception | None = None
    for _ in range(5):  # the free port may be taken between probing and binding
        server = RedisServer(free_port(), path, appendonly, _owns_dir=owns)
        try:
            server.start()
            return server
        except RuntimeError as e:
            last = e
            server.stop()
    raise RuntimeError(f"could not start redis-server: {last}")
