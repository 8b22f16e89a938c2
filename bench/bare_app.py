"""The reference for the HTTP benchmark: a bare Flask app returning a constant.

Served by gunicorn with the service's own ``deploy/gunicorn.conf.py``, so the service's figures
can be read as a fraction of what Flask and gunicorn alone manage on the same machine.
"""

from __future__ import annotations

from flask import Flask, Response

app = Flask(__name__)
BODY = b'{"ok":true}'


@app.get("/bare")
def bare() -> Response:
    return Response(BODY, mimetype="application/json")
