"""Client addresses behind trusted proxies only.

``X-Forwarded-For`` / ``-Proto`` / ``-Host`` are anyone's to write: they are read only when the
connection comes from a proxy listed in PIKDAME_PROXIES (addresses or networks). The client is
then the nearest address in ``X-Forwarded-For`` that is not itself a trusted proxy (nginx's
``real_ip_recursive``), so a spoofed entry a client prepends is never taken for its address.

The shipped front (deploy/nginx/proxy.conf) adds the fixed security headers and the request id
to every answer itself, a cached one included, and says so with ``X-Pikdame-Front: headers``.
From a trusted proxy that header makes the app leave them out (service.web.security,
service.web.logs, service.dailies.early_views): a micro-cache hit then does not reread seven
headers from its cache file,
and none is sent twice. From anyone else it is dropped.
"""

from __future__ import annotations

import functools
import ipaddress
from typing import TYPE_CHECKING, Any, Final

from service.common.config import Network

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment


FRONT: Final = "HTTP_X_PIKDAME_FRONT"
FRONT_ADDS_HEADERS: Final = "pikdame.front_adds_headers"  # the environ key the app reads


def front_adds_headers(environ: WSGIEnvironment) -> bool:
    """The trusted front adds the security headers and the request id to this answer."""
    return FRONT_ADDS_HEADERS in environ


@functools.lru_cache(maxsize=4096)
def trusted(address: str, networks: tuple[Network, ...]) -> bool:
    """Whether ``address`` lies in one of ``networks``. Memoised: every request asks it of its
    peer (the front's few addresses) and of its forwarded chain, and parsing an address is a
    measurable part of a cheap read."""
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return False
    return any(ip in network for network in networks)


class TrustedProxies:
    """WSGI middleware: rewrite REMOTE_ADDR, the scheme and the host from a trusted proxy's
    forwarded headers; drop the headers otherwise, so nothing downstream can read them."""

    def __init__(self, app: WSGIApplication, networks: tuple[Network, ...]) -> None:
        self.app = app
        self.networks = networks

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Any:
        peer = str(environ.get("REMOTE_ADDR", ""))
        if self.networks and trusted(peer, self.networks):
            self.apply(environ)
            if environ.pop(FRONT, "") == "headers":
                environ[FRONT_ADDS_HEADERS] = True
        else:
            for header in (
                FRONT,
                "HTTP_X_FORWARDED_FOR",
                "HTTP_X_FORWARDED_PROTO",
                "HTTP_X_FORWARDED_HOST",
            ):
                environ.pop(header, None)
        return self.app(environ, start_response)

    def apply(self, environ: WSGIEnvironment) -> None:
        chain = [a.strip() for a in str(environ.get("HTTP_X_FORWARDED_FOR", "")).split(",")]
        for address in reversed([a for a in chain if a]):
            environ["REMOTE_ADDR"] = address
            if not trusted(address, self.networks):
                break
        proto = str(environ.get("HTTP_X_FORWARDED_PROTO", "")).split(",")[-1].strip().lower()
        if proto in ("http", "https"):
            environ["wsgi.url_scheme"] = proto
        host = str(environ.get("HTTP_X_FORWARDED_HOST", "")).split(",")[-1].strip()
        if host:
            environ["HTTP_HOST"] = host
