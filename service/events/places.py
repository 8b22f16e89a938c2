"""The standings' place index (docs/EVENTS.md, "The API"): one Redis hash beside each standings
document (``:live``, ``:final``), written with it, so that a page of the standings and the
caller's own place are a few O(1) field reads instead of the whole document (at 100,000 entrants
9 MB to read and parse per request: deploy/SCALING.md). Flask-free.

Fields of the hash (its key in the event's hash tag, so on the document's server and slot):

- ``@``: the head, JSON ``{"at", "final", "total", "incomplete_total", "distributions"}``;
- ``eK``: the K-th entry of the standings (0-based), JSON without the player's id;
- ``iK``: the K-th incomplete player, JSON without the player's id;
- ``p:PLAYER``: where that player stands, ``eK`` or ``iK``.

No line names a player's id: a read answers lines, never ``p:`` fields' names.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import redis

from service.events import store

if TYPE_CHECKING:
    from redis.client import Pipeline

HEAD: Final = "@"
#: Fields per HSET: a whole field's index in one command would be one huge request.
CHUNK: Final = 10_000


def index_key(game: str, week: str, final: bool) -> str:
    """The place index of the final standings (``final``) or of the live ones."""
    return f"{store.tag(game, week)}:{'final' if final else 'live'}:places"


def _line(entry: Mapping[str, Any]) -> str:
    return json.dumps({k: v for k, v in entry.items() if k != "player"}, separators=(",", ":"))


def fields(doc: Mapping[str, Any]) -> dict[str, str]:
    """The index's fields of a standings document (``api_events._standings``'s, with ids)."""
    entries, incomplete = doc["entries"], doc["incomplete"]
    head = {
        "at": doc["at"],
        "final": doc["final"],
        "total": len(entries),
        "incomplete_total": len(incomplete),
        "distributions": doc["distributions"],
    }
    out = {HEAD: json.dumps(head, separators=(",", ":"))}
    for kind, lines in (("e", entries), ("i", incomplete)):
        for k, entry in enumerate(lines):
            out[f"{kind}{k}"] = _line(entry)
            out[f"p:{entry['player']}"] = f"{kind}{k}"
    return out


def write(pipe: Pipeline[str], key: str, doc: Mapping[str, Any], seconds: int) -> None:
    """Queue the index of ``doc`` under ``key`` (replacing the one before), living ``seconds``:
    in the transaction that writes the document itself, so the two always agree."""
    found = list(fields(doc).items())
    pipe.delete(key)
    for start in range(0, len(found), CHUNK):
        chunk: dict[str | bytes, bytes | float | int | str] = dict(found[start : start + CHUNK])
        pipe.hset(key, mapping=chunk)
    pipe.expire(key, seconds)


@dataclass(frozen=True)
class Head:
    """What the index says of its document as a whole."""

    at: int
    final: bool
    total: int
    incomplete_total: int
    distributions: list[dict[str, int]]


def head_of(raw: str) -> Head:
    doc = json.loads(raw)
    return Head(
        int(doc["at"]),
        bool(doc["final"]),
        int(doc["total"]),
        int(doc["incomplete_total"]),
        list(doc["distributions"]),
    )


@dataclass(frozen=True)
class Found:
    """A read of the index: its head, the asked lines (``eK``/``iK`` -> line) and where the asked
    players stand (player -> ``eK``/``iK``)."""

    head: Head
    lines: dict[str, dict[str, Any]]
    places: dict[str, str]


def page_fields(offset: int, limit: int, head: Head | None = None) -> list[str]:
    """The fields of a window: entries and incomplete players ``offset`` … ``offset+limit-1``
    (within the totals when the head is known)."""
    entries = range(offset, offset + limit)
    incomplete = range(offset, offset + limit)
    if head is not None:
        entries = range(offset, min(offset + limit, head.total))
        incomplete = range(offset, min(offset + limit, head.incomplete_total))
    return [*(f"e{k}" for k in entries), *(f"i{k}" for k in incomplete)]


def read(
    client: redis.Redis[str], key: str, lines: Sequence[str], players: Iterable[str]
) -> Found | None:
    """The head, ``lines`` and the ``players``' places in one HMGET, then the places' own lines
    in a second (only when a player stands in the index and their line was not asked): O(fields
    asked). None without an index. The second read carries the head too: an index rewritten in
    between (a new document) is read again, so a place is never another document's line."""
    ids = list(dict.fromkeys(players))
    asked = [HEAD, *lines, *(f"p:{p}" for p in ids)]
    for _ in range(3):
        raw = client.hmget(key, asked)
        if raw[0] is None:
            return None
        got = {f: json.loads(v) for f, v in zip(lines, raw[1 : 1 + len(lines)], strict=True) if v}
        where = {p: v for p, v in zip(ids, raw[1 + len(lines) :], strict=True) if v is not None}
        more = sorted({v for v in where.values() if v not in got})
        if not more:
            return Found(head_of(raw[0]), got, where)
        again = client.hmget(key, [HEAD, *more])
        if again[0] != raw[0]:
            continue  # rewritten meanwhile
        got |= {f: json.loads(v) for f, v in zip(more, again[1:], strict=True) if v is not None}
        return Found(head_of(raw[0]), got, where)
    return None


def rename(client: redis.Redis[str], key: str, players: Iterable[str], name: str) -> None:
    """The ``players``' lines show ``name`` (a deleted account's placeholder): the index kept
    beside a rewritten final document (service.events.deals.erase_names)."""
    ids = list(dict.fromkeys(players))
    if not ids:
        return
    where = [w for w in client.hmget(key, [f"p:{p}" for p in ids]) if w is not None]
    if not where:
        return
    lines = client.hmget(key, where)
    changed: dict[str | bytes, bytes | float | int | str] = {}
    for field, value in zip(where, lines, strict=True):
        if value is not None:
            line = json.loads(value)
            line["name"] = name
            changed[field] = json.dumps(line, separators=(",", ":"))
    if changed:
        client.hset(key, mapping=changed)
