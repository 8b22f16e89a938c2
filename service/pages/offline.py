"""The site as an installable app: its web app manifest and its service worker's script.

The worker (templates/static/js/sw.js) keeps the static files of the release it belongs to:
the script served at ``/sw.js`` is that file led by this release's table of every static file's
version (``assets.version``, the ``?v=`` of its URL). A release that changes any file changes the
script, so the browser installs the new worker, which serves the new files and drops every cached
file of an older version. It keeps no API answer, no live game and no page but the offline one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

from service.pages import assets

#: What the offline page needs to look like the site (its scripts' imports included): cached
#: when the worker is installed.
SHELL: Final = (
    "css/site.css",
    "css/cards.css",
    "js/site.js",
    "js/lib/offline.js",
    "js/lib/settings.js",
    "js/lib/api.js",
    "js/lib/connection.js",
    "js/lib/i18n.js",
    "js/lib/store.js",
    "img/favicon.svg",
    "img/icon-192.png",
)
OFFLINE_PAGE: Final = "/offline"
#: The manifest's colours: the site's header green and its paper.
THEME: Final = "#0a3622"
BACKGROUND: Final = "#fbfaf6"


def versions(root: Path) -> dict[str, str]:
    """Every static file under ``root`` (its path with "/") and its version, in name order."""
    found = {}
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        name = path.relative_to(root).as_posix()
        version = assets.version(root, name)
        if version is not None:
            found[name] = version
    return found


def worker_script(root: Path) -> str:
    """The service worker's script: this release's versions, then templates/static/js/sw.js."""
    prelude = (
        "// This release's static files and their versions (service/pages/offline.py).\n"
        f"const ASSETS = {json.dumps(versions(root), sort_keys=True)};\n"
        f"const SHELL = {json.dumps(list(SHELL))};\n"
        f"const OFFLINE = {json.dumps(OFFLINE_PAGE)};\n"
    )
    return prelude + (root / "js" / "sw.js").read_text(encoding="utf-8")


def manifest(lang: str, strings: dict[str, str], icon: Any) -> dict[str, Any]:
    """The web app manifest in the page's language; ``icon(name)`` is a static file's URL."""
    return {
        "id": "/",
        "name": strings["site.title"],
        "short_name": strings["site.name"],
        "description": strings["app.description"],
        "lang": lang,
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": BACKGROUND,
        "theme_color": THEME,
        "icons": [
            {"src": icon("img/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": icon("img/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": icon("img/icon-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
            {"src": icon("img/favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
