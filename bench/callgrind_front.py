"""What a published read and a micro-cache hit cost nginx beyond a static file, in instructions.

    .venv/bin/python -m bench.callgrind_front [--requests 2000] [--annotate DIR] [--site DIR]

bench_front's setup (redis, gunicorn with the app, nginx with deploy/nginx's site as shipped,
a small static file beside it) with the one nginx process (``master_process off``) run under
valgrind's callgrind, and the publisher as deployed where the site has published reads
(its own app, on the real one-second lifetimes). Each target is read first until it is answered
from its published file or is a cache hit, then callgrind's
counters are zeroed, ``--requests`` keep-alive requests are read on one connection, and the
counters are dumped: instructions per request, deterministic and unaffected by the machine's
load, unlike wrk's req/s (the brief forbids load runs on the 2-core machine anyway).

The app is served with its one-second lifetimes raised to nine seconds (same header length):
under callgrind nginx is some 50x slower, and an entry expiring mid-run would be counted as a
stale answer and a background update instead of hits. Every counted answer must be what the
target measures (PUBLISHED, or a HIT).
With ``--annotate DIR`` the dumps stay in DIR with a callgrind_annotate listing per target
(compare two with ``callgrind_annotate --inclusive=yes --tree=calling``); ``--site`` reads a
variant of deploy/nginx (a candidate change) instead. Writes bench/results/callgrind_front.md.
"""

from __future__ import annotations

import argparse
import http.client
import re
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from flask import Flask

from bench.bench_front import BROWSER, STATIC_BODY, start_backend, start_publisher
from bench.bench_http import DAY
from bench.loadkit import ROOT, command_line, start_gunicorn, write_result
from service.web.publishing import BOARD_PAGE
from tests.support.front import NGINX_DIR, answering, config, mend_earlier_site, nginx_binary
from tests.support.servers import end, free_port

RESULT = ROOT / "bench" / "results" / "callgrind_front.md"
HELD: Final = 9  # seconds an entry stays fresh under callgrind (the app says 1)


def held_app() -> Flask:
    """service.wsgi's app with its 1-second public lifetimes held for HELD seconds (a gunicorn
    factory: ``bench.callgrind_front:held_app()``)."""
    from service.web import caching
    from service.wsgi import app

    for endpoint, seconds in caching.PUBLIC_READS.items():
        if seconds == 1:
            caching.PUBLIC_READS[endpoint] = HELD
    return app


@dataclass
class Target:
    name: str
    path: str
    headers: dict[str, str] = field(default_factory=dict)
    hit: bool = True  # a micro-cache read: every counted answer must be a HIT
    published: bool = False  # a published read: every answer PUBLISHED (where the site has them)
    reference: Target | None = None  # the static file asked alike (None: this is one)
    instructions: int = 0
    body: int = 0


class Callgrind:
    """One nginx (no master, no daemon) under callgrind; zero and dump via callgrind_control."""

    def __init__(self, conf: Path, directory: Path) -> None:
        binary = nginx_binary()
        if binary is None or shutil.which("valgrind") is None:
            raise RuntimeError("needs nginx and valgrind (apt-get install nginx valgrind)")
        self.directory = directory
        args = [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={directory / 'callgrind.out'}",
            binary,
            "-p",
            str(directory),
            "-c",
            str(conf),
            "-e",
            str(directory / "error.log"),
        ]
        log = (directory / "valgrind.log").open("wb")
        self.process = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)

    def control(self, *flags: str) -> None:
        subprocess.run(
            ["callgrind_control", *flags, str(self.process.pid)],
            check=True,
            capture_output=True,
            timeout=120,
        )

    def zero(self) -> None:
        self.control("-z")

    def dump(self, name: str) -> Path:
        """Dumps the counters since the last zero; returns the dump's file."""
        before = set(self.directory.glob("callgrind.out.*"))
        self.control("-d", name)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            new = set(self.directory.glob("callgrind.out.*")) - before
            if new:
                return new.pop()
            time.sleep(0.1)
        raise RuntimeError("callgrind wrote no dump")

    def stop(self) -> None:
        end(self.process, timeout=60)  # valgrind writes its last dump first


def total_instructions(dump: Path) -> int:
    """The dump's summary (or totals) line: instructions executed between zero and dump."""
    for line in dump.read_text().splitlines():
        if line.startswith(("summary:", "totals:")):
            return int(line.split()[1])
    raise RuntimeError(f"no totals in {dump}")


def read(connection: http.client.HTTPConnection, target: Target) -> tuple[int, str, int]:
    # As wrk asks: Host and the target's headers only (http.client would add Accept-Encoding)
    connection.putrequest("GET", target.path, skip_accept_encoding=True)
    for name, value in target.headers.items():
        connection.putheader(name, value)
    connection.endheaders()
    response = connection.getresponse()
    body = response.read()
    return response.status, response.headers.get("X-Cache-Status", ""), len(body)


def site_at(rev: str, directory: Path) -> Path:
    """deploy/nginx's two site files as commit ``rev`` had them."""
    site = directory / f"site-{rev}"
    site.mkdir()
    for name in ("http.conf", "proxy.conf"):
        text = subprocess.run(
            ["git", "show", f"{rev}:deploy/nginx/{name}"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        (site / name).write_text(text)
    mend_earlier_site(site)  # under the same host settings as the current site
    return site


def targets() -> list[Target]:
    board = f"/api/leaderboard/{DAY}?limit=50"
    page = f"/api/leaderboard/{DAY}?offset=0&limit={BOARD_PAGE}"
    plain = Target("a small static file", "/bench-static.json", hit=False)
    browser = Target("a small static file, gzip asked", "/bench-static.json", BROWSER, hit=False)
    return [
        plain,
        browser,
        Target("GET /api/daily (published)", "/api/daily", reference=plain, published=True),
        Target(
            "GET /api/daily, gzip asked (published)",
            "/api/daily",
            BROWSER,
            reference=browser,
            published=True,
        ),
        Target("today's board, first page (published)", page, reference=plain, published=True),
        Target(
            "today's board, first page, gzip asked (published)",
            page,
            BROWSER,
            reference=browser,
            published=True,
        ),
        Target("top 50 (micro-cache)", board, reference=plain),
        Target("top 50, gzip asked (micro-cache)", board, BROWSER, reference=browser),
    ]


def measure(
    upstream: str,
    site: Path,
    requests: int,
    annotate: Path | None,
    label: str,
    env: dict[str, str],
) -> list[Target]:
    """Every target through one nginx under callgrind with ``site``'s files (and the publisher
    as deployed, where the site has published reads)."""
    directory = Path(tempfile.mkdtemp(prefix="pikdame-callgrind-"))
    publishing = (site / "published.conf").exists()
    static = directory / "static.json"
    static.write_bytes(STATIC_BODY)
    port = free_port()
    extra = f"        location = /bench-static.json {{ alias {static}; }}\n"
    conf = directory / "nginx.conf"
    conf.write_text("master_process off;\n" + config(directory, port, upstream, extra, site=site))
    chosen = targets()
    nginx = Callgrind(conf, directory)
    # the publisher's own app: the real one-second lifetimes
    publisher = start_publisher(env, directory / "published") if publishing else None
    try:
        if not answering(f"http://127.0.0.1:{port}", nginx.process, 120, 0.2, each=30):
            raise RuntimeError("nginx under callgrind did not start")
        for t in chosen:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            expected = (
                "200 PUBLISHED" if t.published and publishing else "200 HIT" if t.hit else "200 -"
            )
            for _ in range(50):  # fill the cache, then read until fresh from it
                status, cache, t.body = read(connection, t)
                if f"{status} {cache or '-'}" == expected:
                    break
                time.sleep(0.2)
            for _ in range(3):  # the open file cache and the connection's buffers settle
                read(connection, t)
            nginx.zero()
            seen: dict[str, int] = {}
            for _ in range(requests):
                status, cache, _size = read(connection, t)
                key = f"{status} {cache or '-'}"
                seen[key] = seen.get(key, 0) + 1
            slug = re.sub(r"\W+", "_", t.name).strip("_")
            name = f"{label}_{slug}"
            dump = nginx.dump(name)
            connection.close()
            t.instructions = total_instructions(dump)
            if seen != {expected: requests}:
                raise RuntimeError(f"{t.name}: answers {seen}, not all {expected}")
            print(f"  {label}: {t.name}: {t.instructions / requests:,.0f}", flush=True)
            if annotate:
                annotate.mkdir(parents=True, exist_ok=True)
                shutil.copy(dump, annotate / f"{name}.callgrind")
                listing = subprocess.run(
                    ["callgrind_annotate", "--inclusive=yes", "--threshold=99.9", str(dump)],
                    capture_output=True,
                    text=True,
                    check=True,
                )
                (annotate / f"{name}.txt").write_text(listing.stdout)
    finally:
        if publisher is not None:
            publisher.terminate()
            publisher.wait(timeout=30)
        nginx.stop()
        shutil.rmtree(directory, ignore_errors=True)
    return chosen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--requests", type=int, default=2000, help="counted per target")
    parser.add_argument("--annotate", type=Path, default=None, help="keep dumps + listings here")
    parser.add_argument(
        "--site",
        type=Path,
        default=NGINX_DIR,
        help="a deploy/nginx directory (default: this tree's)",
    )
    parser.add_argument("--before-rev", default=None, help="also measure this commit's site files")
    parser.add_argument("--out", type=Path, default=RESULT)
    args = parser.parse_args(argv)

    server, env = start_backend()
    web = start_gunicorn("bench.callgrind_front:held_app()", env, "/healthz")
    upstream = web.base.removeprefix("http://")
    scratch = Path(tempfile.mkdtemp(prefix="pikdame-callgrind-sites-"))
    try:
        now = measure(upstream, args.site, args.requests, args.annotate, "now", env)
        before = None
        if args.before_rev:
            old = site_at(args.before_rev, scratch)
            before = measure(upstream, old, args.requests, args.annotate, "before", env)
    finally:
        web.stop()
        server.stop()
        shutil.rmtree(scratch, ignore_errors=True)

    def cell(t: Target) -> str:
        of = t.instructions / (t.reference or t).instructions
        return f"{t.instructions / args.requests:,.0f} | {of:.0%}"

    head = "| target | body bytes | instructions/request | of the static file asked alike |"
    rule = "| --- | ---: | ---: | ---: |"
    rows = [f"| {t.name} | {t.body:,} | {cell(t)} |" for t in now]
    if before is not None:
        head += f" before ({args.before_rev}) | of its static file |"
        rule += " ---: | ---: |"
        rows = [
            f"| {t.name} | {t.body:,} | {cell(t)} | {cell(b)} |"
            for t, b in zip(now, before, strict=True)
        ]
    site = "deploy/nginx as shipped" if args.site == NGINX_DIR else str(args.site)
    lines = [
        "## A published read and a micro-cache hit in nginx's instructions "
        "(bench/callgrind_front.py)",
        "",
        f"`{command_line('bench.callgrind_front', argv)}` — nginx ({site}, one process, "
        f"tests/support/front.py's nginx.conf) under valgrind's callgrind, {args.requests:,} "
        "keep-alive requests per target on one connection as wrk sends them, every "
        "published read answered from its file (the publisher running as deployed; a site "
        "without published reads answers them from the micro-cache), every micro-cache read a "
        "HIT. Instructions in nginx's process only, the kernel's share (a published read "
        "makes the static file's syscalls; a hit one more: it preads its header, then its body) "
        "uncounted: deterministic, unlike req/s, but not the whole cost.",
        "",
        head,
        rule,
        *rows,
        "",
    ]
    write_result(args.out, lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
