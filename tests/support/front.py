"""Debian's nginx with the shipped site (deploy/nginx/http.conf + proxy.conf, and main.conf's
events block) in front of a gunicorn, on free ports, run as a non-daemon from a temporary prefix
(tests and benchmarks).

The generated nginx.conf holds only what a host gives: the http-level settings of the host's own
/etc/nginx/nginx.conf (Debian's: sendfile, tcp_nopush, gzip on, ...), one worker process (the
machine's cores are shared), the upstream's address, the listening port, and this run's paths
for the pid, the logs, the temporary files and the cache. The proxying itself is the deploy/
files, included as they ship, so a site that would not load beside Debian's own settings does
not load here either.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from flask import Flask
from werkzeug.serving import make_server

from tests.support.clock import Clock
from tests.support.servers import RedisServer, end, free_port, start_redis
from tests.support.service_app import make_app

NGINX_DIR = Path(__file__).resolve().parents[2] / "deploy" / "nginx"
SHIPPED_CACHE = "/var/cache/nginx/pikdame"
SHIPPED_PUBLISHED = "/run/pikdame/published"  # the published reads' roots: PIKDAME_PUBLISH_DIR
INSTALLED = "/etc/nginx/pikdame/"  # where the site's files include each other from
SITE_FILES = ("http.conf", "proxy.conf", "headers.conf", "published.conf")  # into INSTALLED
MIME_TYPES = Path("/etc/nginx/mime.types")
HOST_CONF = Path("/etc/nginx/nginx.conf")
# Debian 12's /etc/nginx/nginx.conf (comments dropped), for a machine without one
DEBIAN_CONF = """user www-data;
worker_processes auto;
pid /run/nginx.pid;
error_log /var/log/nginx/error.log;
include /etc/nginx/modules-enabled/*.conf;
events {
    worker_connections 768;
}
http {
    sendfile on;
    tcp_nopush on;
    types_hash_max_size 2048;
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    ssl_protocols TLSv1 TLSv1.1 TLSv1.2 TLSv1.3;
    ssl_prefer_server_ciphers on;
    access_log /var/log/nginx/access.log;
    gzip on;
    include /etc/nginx/conf.d/*.conf;
    include /etc/nginx/sites-enabled/*;
}
"""
# what the host's http block holds that a run replaces: its logs, sites and the mime types
REPLACED = ("include", "access_log", "error_log")
TEMP_KINDS = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")


def host_conf() -> str:
    """The host's nginx.conf, or Debian's where nginx is not installed the Debian way."""
    return HOST_CONF.read_text() if HOST_CONF.exists() else DEBIAN_CONF


def host_http_settings(conf: str) -> tuple[str, ...]:
    """The simple directives of an nginx.conf's http block (comments dropped, nested blocks
    skipped), but its includes and logs."""
    text = "\n".join(line.split("#", 1)[0] for line in conf.splitlines())
    start = text.find("http {")
    if start < 0:
        return ()
    found: list[str] = []
    depth, statement = 0, ""
    for char in text[start + len("http {") :]:
        if char == "{":
            depth, statement = depth + 1, ""
        elif char == "}":
            if depth == 0:
                break
            depth, statement = depth - 1, ""
        elif char == ";":
            words = statement.split()
            if depth == 0 and words and words[0] not in REPLACED:
                found.append(" ".join(words))
            statement = ""
        else:
            statement += char
    return tuple(found)


def nginx_binary() -> str | None:
    return shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None
    )


def mend_earlier_site(site: Path) -> None:
    """An earlier commit's deploy/nginx copy, mended in place so it loads under the host's http
    settings as the current one does (benchmarks set the two side by side): sites before
    c89ab77 said ``gzip on`` in http.conf, which Debian's nginx.conf says already."""
    http = site / "http.conf"
    http.write_text(re.sub(r"(?m)^gzip on;$", "", http.read_text()))


def install_site(site: Path, directory: Path) -> None:
    """The site's files (deploy/nginx's, or an earlier commit's) copied into ``directory`` as
    an installation would place them under /etc/nginx/pikdame/: their includes of each other,
    the cache and the published reads' directory moved under ``directory``."""
    for name in SITE_FILES:
        source = site / name
        if not source.exists():  # an earlier commit's site: fewer files
            continue
        text = source.read_text().replace(INSTALLED, f"{directory}/")
        text = text.replace(SHIPPED_CACHE, str(directory / "cache"))
        text = text.replace(SHIPPED_PUBLISHED, str(directory / "published"))
        (directory / source.name).write_text(text)
    (directory / "published").mkdir(exist_ok=True)


def config(
    directory: Path,
    port: int,
    upstream: str,
    extra: str = "",
    stream: str | None = None,
    site: Path = NGINX_DIR,
) -> str:
    """nginx.conf for one run: deploy/'s http.conf (its cache under ``directory``) and
    proxy.conf as the server, ``extra`` locations beside them. The tables' streams go to
    ``stream`` (the gevent group), or to ``upstream`` too when none is given. ``site`` is the
    deploy/nginx directory (a benchmark runs an earlier commit's beside this one)."""
    install_site(site, directory)
    temp = "\n".join(f"    {kind}_temp_path {directory / kind};" for kind in TEMP_KINDS)
    mime = f"    include {MIME_TYPES};" if MIME_TYPES.exists() else ""
    host = "\n".join(f"    {directive};" for directive in host_http_settings(host_conf()))
    user = "user root;" if os.geteuid() == 0 else ""  # workers keep access to the temp dir
    main = site / "main.conf"  # the shipped events block (an earlier commit's site may lack it)
    events = f"include {main};" if main.exists() else "events { worker_connections 1024; }"
    return f"""{user}
daemon off;
worker_processes 1;
pid {directory / "nginx.pid"};
error_log {directory / "error.log"} warn;
{events}
http {{
{host}
{mime}
    access_log {directory / "access.log"};
{temp}
    include {directory / "http.conf"};
    upstream pikdame_web {{
        server {upstream};
        keepalive 32;
    }}
    upstream pikdame_stream {{
        server {stream or upstream};
        keepalive 32;
    }}
    server {{
        listen 127.0.0.1:{port};
        server_name localhost;
        include {directory / "proxy.conf"};
{extra}
    }}
}}
"""


@dataclass
class Front:
    """A running nginx: ``base`` is its URL, ``directory`` its prefix (logs, cache, and the
    published reads' directory, ``published``)."""

    process: subprocess.Popen[bytes]
    base: str
    directory: Path

    @property
    def published(self) -> Path:
        return self.directory / "published"

    def stop(self) -> None:
        end(self.process)  # SIGTERM: nginx's fast shutdown
        shutil.rmtree(self.directory, ignore_errors=True)


def answering(
    base: str,
    process: subprocess.Popen[bytes],
    seconds: float,
    poll: float = 0.05,
    each: float = 5.0,
) -> bool:
    """Whether the nginx at ``base`` answers an HTTP request (any status: the upstream's 404
    or its own 502) within ``seconds``, trying every ``poll`` seconds with ``each`` seconds for
    an answer; False at once if ``process`` has died."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(base + "/nginx-alive", timeout=each).close()
            return True
        except urllib.error.HTTPError:
            return True
        except OSError:
            if process.poll() is not None:
                return False
            time.sleep(poll)
    return False


def start_front(
    upstream: str, extra: str = "", stream: str | None = None, site: Path = NGINX_DIR
) -> Front:
    """nginx proxying to ``upstream`` (host:port), the tables' streams to ``stream`` (default:
    ``upstream``), on a free port; waits until it answers."""
    binary = nginx_binary()
    if binary is None:
        raise RuntimeError("nginx is not installed (apt-get install nginx)")
    directory = Path(tempfile.mkdtemp(prefix="pikdame-nginx-"))
    port = free_port()
    conf = directory / "nginx.conf"
    conf.write_text(config(directory, port, upstream, extra, stream, site))
    args = [binary, "-p", str(directory), "-c", str(conf), "-e", str(directory / "error.log")]
    check = subprocess.run([*args, "-t"], capture_output=True, text=True, check=False)
    if check.returncode != 0:
        shutil.rmtree(directory, ignore_errors=True)
        raise RuntimeError(f"nginx -t failed: {check.stderr}")
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    front = Front(process, f"http://127.0.0.1:{port}", directory)
    if answering(front.base, process, seconds=15):
        return front
    log = (directory / "error.log").read_text() if (directory / "error.log").exists() else ""
    front.stop()
    raise RuntimeError(f"nginx did not start: {log}")


@dataclass
class ClockedSite:
    """nginx in front of the app on the tests' clock, served in this process (the clock is
    settable) by werkzeug, on a redis-server of its own; nginx counts seconds on the real
    clock. ``direct`` is the app without nginx."""

    front: Front
    app: Flask
    clock: Clock
    direct: str
    redis_url: str


@contextmanager
def clocked_site() -> Iterator[ClockedSite]:
    server: RedisServer = start_redis()
    clock = Clock()
    app = make_app(server.url, clock, PIKDAME_PROXIES="127.0.0.1")
    web = make_server("127.0.0.1", free_port(), app, threaded=True)
    threading.Thread(target=web.serve_forever, daemon=True).start()
    front = start_front(f"127.0.0.1:{web.server_port}")
    try:
        yield ClockedSite(front, app, clock, f"http://127.0.0.1:{web.server_port}", server.url)
    finally:
        front.stop()
        web.shutdown()
        server.close()
