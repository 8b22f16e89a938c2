"""Shared pieces of the load benchmarks: gunicorn as deployed, wrk, its parsed output, load.

Everything listens on 127.0.0.1 only; every run is bounded in time.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.support.processes import Process
from tests.support.servers import free_port

ROOT = Path(__file__).resolve().parent.parent
UNITS = {"us": 1e-3, "ms": 1.0, "s": 1000.0}


def load_average() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


@dataclass
class Web:
    """A gunicorn started with deploy/gunicorn.conf.py (its workers, threads, preload)."""

    process: Process
    base: str
    log: Path

    @property
    def pid(self) -> int:
        return self.process.popen.pid

    def stop(self) -> None:
        self.process.stop()


def start_gunicorn(app: str, env: dict[str, str], ready_path: str, root: Path = ROOT) -> Web:
    """gunicorn -c deploy/gunicorn.conf.py ``app`` on a free port, from the checkout ``root``
    (another one serves the code before a change); waits for ``ready_path``."""
    port = free_port()
    env = {**env, "PIKDAME_BIND": f"127.0.0.1:{port}", "PYTHONPATH": str(root)}
    log = (
        Path(tempfile.mkdtemp(prefix="pikdame-bench-", dir=os.environ.get("BENCH_LOG_DIR")))
        / "web.log"
    )
    args = [sys.executable, "-m", "gunicorn", "-c", str(root / "deploy" / "gunicorn.conf.py"), app]
    with log.open("ab") as out:
        popen = subprocess.Popen(
            args, env=env, cwd=root, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    web = Web(Process(popen), f"http://127.0.0.1:{port}", log)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(web.base + ready_path, timeout=5) as response:
                if response.status == 200:
                    time.sleep(1.0)  # let every worker finish booting
                    return web
        except (OSError, urllib.error.HTTPError):
            pass
        if web.process.popen.poll() is not None:
            break
        time.sleep(0.1)
    web.stop()
    raise RuntimeError(f"gunicorn {app} did not start; see {log}")


@dataclass
class WrkResult:
    """One wrk run: requests/s, latency percentiles (ms), errors (non-2xx/3xx and socket)."""

    rate: float
    p50: float
    p90: float
    p99: float
    requests: int
    errors: int

    def row(self) -> str:
        return f"{self.rate:,.0f} | {self.p50:.2f} | {self.p90:.2f} | {self.p99:.2f}"


def _ms(text: str) -> float:
    m = re.fullmatch(r"([0-9.]+)(us|ms|s)", text)
    if m is None:
        raise ValueError(f"unknown latency {text!r}")
    return float(m.group(1)) * UNITS[m.group(2)]


def parse_wrk(out: str) -> WrkResult:
    def find(pattern: str) -> str:
        m = re.search(pattern, out)
        if m is None:
            raise ValueError(f"wrk output lacks {pattern!r}:\n{out}")
        return m.group(1)

    errors = 0
    m = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    if m:
        errors += int(m.group(1))
    m = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    if m:
        errors += sum(int(x) for x in m.groups())
    return WrkResult(
        rate=float(find(r"Requests/sec:\s+([0-9.]+)")),
        p50=_ms(find(r"\s50%\s+([0-9.]+\w+)")),
        p90=_ms(find(r"\s90%\s+([0-9.]+\w+)")),
        p99=_ms(find(r"\s99%\s+([0-9.]+\w+)")),
        requests=int(find(r"(\d+) requests in")),
        errors=errors,
    )


def wrk(
    url: str,
    *,
    threads: int,
    connections: int,
    seconds: int,
    headers: dict[str, str] | None = None,
    script: Path | None = None,
    script_args: list[str] | None = None,
) -> WrkResult:
    """One bounded wrk run (``--timeout`` 10 s) against ``url``."""
    exe = shutil.which("wrk")
    if exe is None:
        raise RuntimeError("wrk is not installed (apt-get install wrk)")
    args = [
        exe,
        f"-t{threads}",
        f"-c{connections}",
        f"-d{seconds}s",
        "--latency",
        "--timeout",
        "10s",
    ]
    for name, value in (headers or {}).items():
        args += ["-H", f"{name}: {value}"]
    if script is not None:
        args += ["-s", str(script)]
    args.append(url)
    if script_args:
        args += ["--", *script_args]
    out = subprocess.run(
        args, capture_output=True, text=True, check=True, timeout=seconds + 60
    ).stdout
    return parse_wrk(out)


@dataclass
class Redis:
    """A redis-server configured as deployed (AOF, fsync every second), for benchmarks."""

    process: subprocess.Popen[bytes]
    port: int
    directory: Path

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)
        shutil.rmtree(self.directory, ignore_errors=True)


def start_redis() -> Redis:
    import redis

    directory = Path(tempfile.mkdtemp(prefix="pikdame-bench-redis-"))
    port = free_port()
    args = [shutil.which("redis-server") or "redis-server", "--port", str(port)]
    args += ["--bind", "127.0.0.1", "--dir", str(directory), "--save", ""]
    args += ["--appendonly", "yes", "--appendfsync", "everysec", "--logfile", "redis.log"]
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    server = Redis(process, port, directory)
    client = redis.Redis(port=port)
    for _ in range(200):
        try:
            client.ping()
            return server
        except redis.RedisError:
            time.sleep(0.05)
    server.stop()
    raise RuntimeError("redis-server did not start")


def rss_kib(pid: int) -> tuple[int, int]:
    """(RSS, PSS) of a process in KiB, from /proc (PSS shares copy-on-write pages fairly)."""
    rss = pss = 0
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        name, _, rest = line.partition(":")
        if name == "Rss":
            rss = int(rest.split()[0])
        elif name == "Pss":
            pss = int(rest.split()[0])
    return rss, pss


def cpu_seconds(pid: int, tree: bool = False) -> float:
    """CPU time (user + system) of a process; with ``tree``, plus its live descendants and the
    children it has reaped (gunicorn replaces workers after ``max_requests``)."""
    from tests.support.processes import descendants

    def own(p: int, reaped: bool) -> float:
        fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        ticks = int(fields[11]) + int(fields[12])
        if reaped:
            ticks += int(fields[13]) + int(fields[14])
        return ticks / os.sysconf("SC_CLK_TCK")

    total = own(pid, tree)
    if tree:
        for child in descendants(pid):
            with contextlib.suppress(FileNotFoundError, ProcessLookupError):
                total += own(child, False)
    return total


def command_line(module: str, argv: list[str] | None) -> str:
    """The exact command a result file names (``python -m bench.X`` and its arguments)."""
    return f"python -m {module} " + " ".join(argv if argv is not None else sys.argv[1:])


def write_result(path: Path, lines: list[str]) -> None:
    """Write a benchmark's markdown to ``bench/results/`` (run_all assembles BENCHMARKS.md)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines))
    print("\n".join(lines))


def run_json(code: str, args: list[str], tree: Path, env: dict[str, str]) -> Any:
    """The JSON that ``code`` prints last, run in a fresh interpreter in ``tree``."""
    out = subprocess.run(
        [sys.executable, "-c", code, *args],
        env={**env, "PYTHONPATH": str(tree)},
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])
