"""The interface's strings per language (templates/static/i18n/<lang>.json), shared by the
pages, the JavaScript and the API answers that carry a text to share. A game kept outside the
house (service.games.FOLDERS) brings its own in ``i18n/<lang>.json`` of its folder."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Final

from service import games

#: The interface's languages, German first.
LANGS: Final = ("de", "en", "nl")
#: Each language's name in itself, for the language switch.
LANG_NAMES: Final = {"de": "Deutsch", "en": "English", "nl": "Nederlands"}
I18N: Final = Path(__file__).resolve().parents[2] / "templates" / "static" / "i18n"


@cache
def strings(lang: str) -> dict[str, str]:
    """The UI strings of one language (shared with the JavaScript)."""
    with (I18N / f"{lang}.json").open(encoding="utf-8") as f:
        data: dict[str, str] = json.load(f)
    for folder in games.FOLDERS.values():  # the house's own strings win a key both name
        with (folder / "i18n" / f"{lang}.json").open(encoding="utf-8") as f:
            data = {**json.load(f), **data}
    return data
