"""Creations asked again (docs/TABLES.md, "Idempotency-Key"): a client whose answer was lost (a
503 after the write, a dropped connection) asks again with the same ``Idempotency-Key`` header and
gets the resource the first request made, not a second one.

The server remembers, per route and caller, the key's request fingerprint and what it made for
``TTL_S``; one key on the state server, one slot (hash tag). A secret of the answer (the creator's
bearer token) is stored sealed with the key itself, so only a holder of the key can read it back.
Without the header nothing changes.

The caller (:func:`_caller`) is the session's player (an account's home player when signed in):
a retry with the session cookie is bound to it. A caller without a session (its first request
ever) had none the first time either, so it is bound to what it has: its address and its
browser (User-Agent). Its remembered answer is handed back to a caller without a session only
once: that answer sets the creator's session cookie, so the client's next retry comes as the
creator (the answer is remembered under the creator's player too), while a later copy of the
request without the cookie (the same address and browser, the key seen) makes a resource of its
own instead of the creator's.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from flask import request
from pydantic import BaseModel

from service.common import keys
from service.errors import ApiError
from service.web import identity, limits
from service.web.redisconn import get_redis

HEADER: Final = "Idempotency-Key"
TTL_S: Final = 600  # a retry comes within seconds; ten minutes covers a slow one
PENDING_S: Final = 30  # a first request still running (or one that died): asked again, 409
PATTERN: Final = re.compile(r"[A-Za-z0-9_-]{8,128}")
ANONYMOUS: Final = "addr:"  # a caller without a session (:func:`_caller`)


@dataclass(frozen=True)
class Claim:
    """A first request's hold on its key: where it is remembered and with what fingerprint."""

    name: str
    fingerprint: str
    secret: bytes


def _stream(secret: bytes, size: int) -> bytes:
    out = b""
    n = 0
    while len(out) < size:
        out += hashlib.sha256(b"pikdame-idempotency/v1\0" + secret + n.to_bytes(4, "big")).digest()
        n += 1
    return out[:size]


def _xor(data: bytes, secret: bytes) -> bytes:
    """``data`` XOR the key's stream: sealing and unsealing are the same operation."""
    return bytes(a ^ b for a, b in zip(data, _stream(secret, len(data)), strict=True))


def seal(value: str, secret: bytes) -> str:
    return _xor(value.encode(), secret).hex()


def unseal(sealed: str, secret: bytes) -> str:
    return _xor(bytes.fromhex(sealed), secret).decode()


def given_key() -> str | None:
    """The request's ``Idempotency-Key``: None without one; 400 ``bad_idempotency_key`` when it
    is not 8 … 128 letters, digits, ``-`` or ``_``."""
    value = request.headers.get(HEADER)
    if value is None:
        return None
    if not PATTERN.fullmatch(value):
        raise ApiError(
            400, "bad_idempotency_key", "Idempotency-Key: 8 to 128 letters, digits, - or _"
        )
    return value


def _caller() -> str:
    """``p:<player>`` for a caller with a session; else ``addr:<address>|<browser>`` (the
    User-Agent's hash): a caller without a session of the same address and browser."""
    player = identity.session_player()
    if player is not None:
        return f"p:{player}"
    agent = hashlib.sha256(request.headers.get("User-Agent", "").encode()).hexdigest()[:32]
    return f"{ANONYMOUS}{limits.client_address()}|{agent}"


def _name(route: str, caller: str, key: str) -> str:
    return keys.idempotency(hashlib.sha256(f"{route}\0{caller}\0{key}".encode()).hexdigest())


def once(
    route: str,
    body: BaseModel,
    make: Callable[[], dict[str, str]],
    answer: Callable[[dict[str, str]], tuple[Any, int]],
    sealed: tuple[str, ...] = (),
) -> tuple[Any, int]:
    """``answer(make())``, or with a key seen before from this caller ``answer`` of what the
    first request made (its ``sealed`` fields stored sealed with the key; to a caller without a
    session only once). The same key with another body: 422 ``idempotency_key_reused``; while
    the first still runs: 409 ``idempotency_key_in_use``."""
    key = given_key()
    if key is None:
        return answer(make())
    caller = _caller()
    canonical = json.dumps(body.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
    claim = Claim(
        _name(route, caller, key),
        hashlib.sha256(f"{route}\0{canonical}".encode()).hexdigest(),
        key.encode(),
    )
    client = get_redis()
    pending = json.dumps({"fingerprint": claim.fingerprint})
    if not client.set(claim.name, pending, nx=True, ex=PENDING_S):
        seen = json.loads(client.get(claim.name) or pending)
        if seen["fingerprint"] != claim.fingerprint:
            raise ApiError(
                422,
                "idempotency_key_reused",
                "this Idempotency-Key was used with another request: use a fresh key",
            )
        if "made" not in seen:
            raise ApiError(
                409, "idempotency_key_in_use", "the first request with this key is still running"
            )
        if caller.startswith(ANONYMOUS) and not client.delete(claim.name):
            raise ApiError(  # a concurrent copy without a session took it first
                409, "idempotency_key_in_use", "the first request with this key is still running"
            )
        made = dict(seen["made"])
        for field in sealed:
            made[field] = unseal(made[field], claim.secret)
        return answer(made)
    try:
        made = make()
    except BaseException:
        client.delete(claim.name)  # nothing made: the key may be used again
        raise
    stored = {f: seal(v, claim.secret) if f in sealed else v for f, v in made.items()}
    done = {"fingerprint": claim.fingerprint, "made": stored}
    names = [claim.name]
    if caller.startswith(ANONYMOUS) and "player" in made:  # the answer's cookie names the player:
        names.append(_name(route, f"p:{made['player']}", key))  # a retry may come with it
    for name in names:  # each its own key and slot (a Redis Cluster): no transaction
        client.set(name, json.dumps(done, separators=(",", ":")), ex=TTL_S)
    return answer(made)
