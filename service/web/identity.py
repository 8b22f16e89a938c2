"""Who is asking: the anonymous player id in the signed session cookie, or a bearer token.

A token authorises exactly the attempt it was issued for; the session's player owns every attempt
it started. Before a day closes only the owner may read an attempt; afterwards finished attempts are
public (API.md).

The platform knows no domain: a bearer token's player is read by the reader the app registers
(:func:`init_app`: service.dailies.store's, whose attempts the tokens are issued for), and an
attempt is anything :class:`Owned`.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Protocol, TypeAlias

import redis
from flask import Flask, current_app, request, session

from service.common import clock, ownership
from service.errors import ApiError
from service.web.redisconn import get_redis, settings

SESSION_KEY = "player"
ACCOUNT_KEY = "account"
GENERATION_KEY = "generation"
TOKENS = "pikdame_token_player"

#: The player of the attempt a bearer token was issued for, None for an unknown token.
TokenReader: TypeAlias = "Callable[[redis.Redis[str], str], str | None]"


class Owned(Protocol):
    """An attempt as ownership sees it (service.dailies.store's Attempt and AttemptHead)."""

    @property
    def player(self) -> str: ...

    @property
    def status(self) -> str: ...

    @property
    def date(self) -> str: ...

    def owned_by_token(self, token: str) -> bool: ...


def init_app(app: Flask, token_player: TokenReader) -> None:
    app.extensions[TOKENS] = token_player


def token_player(token: str) -> str:
    """The bearer token's player; an unknown token is 401."""
    reader: TokenReader = current_app.extensions[TOKENS]
    player = reader(get_redis(), token)
    if player is None:
        raise ApiError(401, "unauthorized", "unknown bearer token")
    return player


def bearer_token() -> str | None:
    """The request's bearer token; a malformed Authorization header is 401."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip() or " " in token.strip():
        raise ApiError(401, "unauthorized", "use 'Authorization: Bearer <token>'")
    return token.strip()


def session_player() -> str | None:
    """The session's player id; None for a session of an account signed out everywhere (or
    deleted) since, so an old device no longer owns the account's attempts."""
    value = session.get(SESSION_KEY)
    if not isinstance(value, str):
        return None
    if session.get(ACCOUNT_KEY) is not None and signed_in() is None:
        return None
    return value


def signed_in() -> ownership.Account | None:
    """The session's account, if it is signed in and not signed out everywhere since (its
    generation is the account's current one) nor deleted."""
    account_id = session.get(ACCOUNT_KEY)
    if not isinstance(account_id, str):
        return None
    account = ownership.load(get_redis(), account_id)
    if account is None or session.get(GENERATION_KEY) != account.generation:
        return None
    return account


def require_account() -> ownership.Account:
    account = signed_in()
    if account is None:
        raise ApiError(401, "unauthorized", "sign in with a passkey first")
    return account


def sign_in(account: ownership.Account) -> None:
    """The session belongs to the account from now on: its player is the account's home id."""
    session[SESSION_KEY] = account.player
    session[ACCOUNT_KEY] = account.id
    session[GENERATION_KEY] = account.generation
    session.permanent = True


def sign_out() -> None:
    session.clear()


def player_for_new_attempt() -> str:
    """The player starting an attempt: a token's owner (API clients), else the session's player,
    so one player cannot start two ranked attempts a day either way. A new browser gets a fresh
    id, written into its session only once the attempt exists (:func:`remember`)."""
    token = bearer_token()
    if token is not None:
        return token_player(token)
    account = signed_in()
    if account is not None:
        return account.player
    if session.get(ACCOUNT_KEY) is not None:
        sign_out()  # signed out everywhere (or deleted): the device starts afresh, anonymously
    return session_player() or secrets.token_hex(8)


def remember(player: str) -> None:
    """Keep the player id in the signed session cookie (after a successful start)."""
    if session_player() != player and bearer_token() is None:
        session[SESSION_KEY] = player
        session.permanent = True


def is_owner(attempt: Owned) -> bool:
    token = bearer_token()
    if token is not None and attempt.owned_by_token(token):
        return True
    return session_player() == attempt.player


def owns(attempt: Owned) -> bool:
    """Whether the caller owns ``attempt``: by its token or session (:func:`is_owner`), or as the
    signed-in account its player (a device's id attached to the account) belongs to."""
    if is_owner(attempt):
        return True
    account = signed_in()
    return account is not None and ownership.account_of(get_redis(), attempt.player) == account.id


def players_of_caller() -> list[str]:
    """The player ids whose games are the caller's: a bearer token's player; a signed-in
    account's every attached id (its home id among them); else the session's player."""
    token = bearer_token()
    if token is not None:
        return [token_player(token)]
    account = signed_in()
    if account is not None:
        return sorted({account.player, *get_redis().smembers(ownership.players_key(account.id))})
    player = session_player()
    return [] if player is None else [player]


def require_owner(attempt: Owned) -> None:
    """401 without any credentials, 403 with someone else's."""
    if is_owner(attempt):
        return
    if bearer_token() is None and session_player() is None:
        raise ApiError(401, "unauthorized", "this attempt needs its bearer token or session")
    raise ApiError(403, "forbidden", "this attempt belongs to another player")


def require_reader(attempt: Owned) -> None:
    """Owner, or anyone once the attempt is finished and its day has closed."""
    if attempt.status == "finished" and clock.is_closed(attempt.date, settings()):
        return
    require_owner(attempt)


def caller_owner() -> str | None:
    """The owner of the caller's player (session, account or bearer token), or None for a
    browser that has never played."""
    token = bearer_token()
    if token is not None:
        return ownership.owner_of(get_redis(), token_player(token))
    account = signed_in()
    player = account.player if account is not None else session_player()
    return None if player is None else ownership.owner_of(get_redis(), player)
