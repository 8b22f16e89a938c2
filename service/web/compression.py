"""Public answers leave the app compressed when the client accepts gzip.

nginx's micro-cache keeps an answer exactly as the app sent it. Left to nginx, a plain answer
in the cache is compressed anew on every hit for every browser (they all ask for gzip), which
made a compressed hit cost nginx about three times a plain one. Compressed here, once per cache
fill, a hit is the stored bytes. The front keys its cache by whether gzip was asked
(deploy/nginx/http.conf, ``$pikdame_gzip``), so there is one compressed and one plain entry per
URL whatever a browser's Accept-Encoding spells.

Only what a shared cache may keep is compressed (``Cache-Control: public``: service.web.caching's
public reads and the versioned static files); private answers stay nginx's to compress per
request, as they are never stored.
"""

from __future__ import annotations

import gzip
from typing import Final

from flask import Flask, Response, request

MIN_LENGTH: Final = 256  # as gzip_min_length: smaller answers gain nothing
LEVEL: Final = 6
COMPRESSIBLE: Final = frozenset(
    {
        "application/json",
        "application/javascript",
        "text/javascript",
        "text/css",
        "text/html",
        "text/plain",
        "image/svg+xml",
    }
)


def shareable(response: Response) -> bool:
    """A shareable, whole, not yet encoded answer of a compressible type."""
    return (
        response.status_code == 200
        and response.headers.get("Cache-Control", "").startswith("public")
        and "Content-Encoding" not in response.headers
        and "Content-Range" not in response.headers
        and response.mimetype in COMPRESSIBLE
        and (response.direct_passthrough or not response.is_streamed)  # a file, or whole
    )


def compress(response: Response) -> Response:
    """The answer gzipped (when it is long enough to gain), its ETag made weak."""
    if response.direct_passthrough:  # a static file: read it (it is small, and stored after)
        response.direct_passthrough = False
    data = response.get_data()
    if len(data) < MIN_LENGTH:
        return response
    # mtime=0: the same answer compresses to the same bytes on every web worker
    response.set_data(gzip.compress(data, compresslevel=LEVEL, mtime=0))
    response.headers["Content-Encoding"] = "gzip"
    response.headers.pop("Accept-Ranges", None)  # byte ranges of the compressed form: none
    tag, weak = response.get_etag()
    if tag is not None and not weak:  # another representation: no longer byte-identical
        response.set_etag(tag, weak=True)
    return response


def register(app: Flask) -> None:
    """Registered before service.web.caching: Flask runs after-request hooks last-registered
    first, so this one sees the Cache-Control the caching hook set."""

    @app.after_request
    def _compress(response: Response) -> Response:
        if not shareable(response):
            return response
        response.vary.add("Accept-Encoding")  # a shared cache must tell the two apart
        if request.accept_encodings.quality("gzip") > 0:
            return compress(response)
        return response
