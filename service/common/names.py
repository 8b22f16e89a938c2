"""Player names: normalised, visible, and not a look-alike of another name of the day.

Flask-free. :func:`normalise` is the form a name is stored and shown in; :func:`skeleton` is the
form two names are compared in, so "Ada", "ADA", "Аda" (Cyrillic A) and "A da" count as one.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

from service.errors import BadName

MAX_LENGTH: Final = 24
MAX_MARKS: Final = 2  # combining marks on one base character (Vietnamese needs two)
# Characters that print as nothing though Unicode calls them letters or symbols: the Hangul
# fillers, the braille blank, Khmer inherent vowels, the Mongolian vowel separator.
INVISIBLE: Final = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u180e")
# Look-alikes the skeleton folds together (after casefolding and dropping marks): Cyrillic and
# Greek letters that are drawn like Latin ones, and digits and signs drawn like letters.
CONFUSABLE: Final = str.maketrans(
    {
        **dict(zip("авсԁеһіјкӏмноԛрѕтսԝхуъ", "abcdehijklmhoqpstuwxyb", strict=True)),
        **dict(zip("αβεηικμνορτυχωϲ", "abenikmvoptuxwc", strict=True)),
        **dict(zip("01|5i", "ollsl", strict=True)),  # capital I (folded to i) looks like l
    }
)
SPACES: Final = re.compile(" +")
SEPARATORS: Final = re.compile(r"[\s._\-'’`]+")


def _is_mark(char: str) -> bool:
    return unicodedata.category(char).startswith("M")


def normalise(text: str, max_length: int = MAX_LENGTH, what: str = "name") -> str:
    """The stored form of a name: NFKC, outer spaces stripped, inner runs of spaces as one.
    (Only the space is printable among Unicode's spaces, so tabs and wide spaces are refused.)
    Raises :class:`BadName` for an empty, too long, unprintable or invisible name, one with
    invisible filler characters, or more than MAX_MARKS combining marks on one character."""
    name = unicodedata.normalize("NFKC", text)
    if not name.isprintable():
        raise BadName("name: only printable characters (no control or zero-width characters)")
    name = SPACES.sub(" ", name).strip(" ")
    if not 1 <= len(name) <= max_length:
        raise BadName(f"{what}: 1 to {max_length} characters")
    if any(char in INVISIBLE for char in name):
        raise BadName("name: contains a character that does not show (a blank or filler)")
    if all(char.isspace() or _is_mark(char) for char in name):
        raise BadName("name: needs at least one visible letter, digit or sign")
    marks = 0
    for char in unicodedata.normalize("NFD", name):  # á counts as a and one accent
        marks = marks + 1 if _is_mark(char) else 0
        if marks > MAX_MARKS:
            raise BadName(f"name: at most {MAX_MARKS} accents on one character")
    return name


def skeleton(name: str) -> str:
    """The form in which look-alike names are equal: marks dropped, case folded, confusable
    letters and digits mapped to the Latin letter they look like, separators removed."""
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(char for char in decomposed if not _is_mark(char))
    folded = bare.casefold().translate(CONFUSABLE)
    return SEPARATORS.sub("", folded).replace("rn", "m")
