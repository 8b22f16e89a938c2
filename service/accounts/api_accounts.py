"""Accounts with passkeys: sign up in two steps (name, then passkey), sign in with a
discoverable passkey on any device, the account's devices, sign out everywhere, delete.

Each ceremony is two requests: ``…/options`` answers WebAuthn options and a single-use handle;
the second sends the browser's credential with that handle. Nothing is stored until the answer
checks out (service/accounts/passkeys.py).
"""

from __future__ import annotations

import datetime as dt
import json
import secrets
from typing import Any

from flask import Response, jsonify, session

from service.accounts import models, owners, passkeys
from service.accounts import store as accounts
from service.accounts.models import CeremonyBody, DevicePath, SettingsBody, SignOutBody, SignUpBody
from service.common import clock, ownership
from service.dailies import archive, seen
from service.errors import ApiError
from service.events import deals as event_deals
from service.events import weeks
from service.games import TABLE_GAMES
from service.tables import ratings
from service.web import identity, outputs
from service.web.apidoc import api_blueprint
from service.web.inputs import EmptyBody
from service.web.limits import client_address, limit_creations
from service.web.redisconn import get_rankings, get_redis, settings

bp = api_blueprint("accounts", __name__, "/api/account", authorised=True)
CEREMONY = outputs.answers(models.Ceremony, 400, 401, 413, 415, 422)


def _time(ms: int) -> str:
    return dt.datetime.fromtimestamp(ms / 1000, dt.UTC).isoformat().replace("+00:00", "Z")


def _now_ms() -> int:
    return int(clock.now(settings()).timestamp() * 1000)


def _doc(account: ownership.Account) -> dict[str, Any]:
    devices = [
        {"id": c.id, "label": c.label, "created_at": _time(c.created_ms)}
        for c in accounts.credentials(get_redis(), account.id)
    ]
    return {
        "account": {
            "id": account.id,
            "name": account.name,
            "created_at": _time(account.created_ms),
            "devices": devices,
        }
    }


def _context(handle_context: str, kind: str) -> list[Any]:
    data = json.loads(handle_context)
    if not isinstance(data, list) or not data or data[0] != kind:
        raise ApiError(400, "bad_credential", "this challenge was issued for something else")
    return data


@bp.post("/signup/options", responses=CEREMONY)
def signup_options(body: SignUpBody) -> Response:
    """Step 1 of signing up: the name; answers options creating a passkey."""
    account_id = secrets.token_hex(8)
    context = json.dumps(["signup", account_id, body.name, body.attach])
    return jsonify(passkeys.registration_options(account_id, body.name, context))


@bp.post("", responses=outputs.answers(models.AccountDoc, 400, 413, 415, 422, status=201))
@limit_creations()
def signup(body: CeremonyBody) -> tuple[Response, int]:
    """Step 2 of signing up: the new passkey; creates the account and signs this device in
    (attaching its anonymous attempts when step 1 asked for it)."""
    challenge, context = passkeys.take(body.handle)
    _, account_id, name, attach = _context(context, "signup")
    cred_id, public_key, sign_count = passkeys.verify_registration(challenge, body.credential)
    client = get_redis()
    if accounts.credential(client, cred_id) is not None:
        raise ApiError(409, "credential_exists", "this passkey already belongs to an account")
    now_ms = _now_ms()
    label = body.label or "Gerät 1"  # unnamed: the account page says it in its language
    credential = accounts.Credential(cred_id, account_id, public_key, sign_count, now_ms, label)
    anonymous = identity.session_player() if attach else None
    account = accounts.create(client, name, credential, now_ms, account_id)
    accounts.note_account(client, account.id, client_address())
    free = anonymous is not None and ownership.account_of(client, anonymous) is None
    if free and anonymous is not None and accounts.attach(client, account.id, anonymous):
        _take_over(anonymous, account)
    _carry_seen_deals(account)
    identity.sign_in(account)
    return jsonify(_doc(account)), 201


def _carry_seen_deals(account: ownership.Account) -> None:
    """The deals this device has seen today (its anonymous player's starts, attached or not)
    are the account's too: a rehearsal "ohne Wertung" never earns a ranked attempt after
    signing up or in (service.dailies.seen). Before the session becomes the account's; a session
    already an account's is that account's own."""
    if session.get(identity.ACCOUNT_KEY) is not None:
        return
    device = identity.session_player()
    if device is None or device == account.player:
        return
    today = clock.today(settings())
    seen.carry_over(get_redis(), today, device, account.player, seen.keep_s(today, settings()))
    # and the week's event deals it started (docs/EVENTS.md, "No rehearsal")
    event_deals.carry_over(get_redis(), weeks.current_week(settings()), device, account.player)


def _take_over(anonymous: str, account: ownership.Account) -> None:
    """The device's history becomes the account's: its streaks, statistics and leagues (kept
    per owner), its all-time board entry, and today's ranked attempt (so the account's first
    attempt of the day stays its only ranked one, per daily game: README.md "Operating")."""
    client = get_redis()
    today = clock.today(settings())
    owner = ownership.owner_of(client, account.player)
    owners.take_over(client, get_rankings(), today, anonymous, account.player, owner)


@bp.post("/signin/options", responses=CEREMONY)
def signin_options(body: EmptyBody) -> Response:
    """Step 1 of signing in: options for any passkey of this site (discoverable)."""
    return jsonify(passkeys.authentication_options(json.dumps(["signin"])))


@bp.post("/signin", responses=outputs.answers(models.AccountDoc, 400, 413, 415, 422))
def signin(body: CeremonyBody) -> Response:
    """Step 2 of signing in: the passkey's signature; signs this device in."""
    challenge, context = passkeys.take(body.handle)
    _context(context, "signin")
    stored = passkeys.verify_authentication(challenge, body.credential)
    account = ownership.load(get_redis(), stored.account)
    if account is None:
        raise ApiError(400, "bad_credential", "this passkey's account was deleted")
    _carry_seen_deals(account)
    identity.sign_in(account)
    return jsonify(_doc(account))


@bp.get("", responses=outputs.answers(models.AccountDoc, 401))
def get_account() -> Response:
    """The signed-in account and its devices."""
    return jsonify(_doc(identity.require_account()))


def _settings_doc(account_id: str) -> dict[str, Any]:
    stored = accounts.settings_of(get_redis(), account_id)
    values: dict[str, Any] = {}
    for name, text in stored.items():
        values[name] = text == "1" if name in BOOLEAN_SETTINGS else text
    return {"settings": models.PageSettings(**values).model_dump()}


BOOLEAN_SETTINGS = ("contrast", "sound")


@bp.get("/settings", responses=outputs.answers(models.SettingsDoc, 401))
def get_settings() -> Response:
    """The signed-in account's page settings (deck colours, card size, contrast, sound,
    language): the pages apply them on every device the account signs in on."""
    return jsonify(_settings_doc(identity.require_account().id))


@bp.put("/settings", responses=outputs.answers(models.SettingsDoc, 400, 401, 413, 415, 422))
def put_settings(body: SettingsBody) -> Response:
    """Change some of the account's page settings (the fields sent; null forgets one)."""
    account = identity.require_account()
    changes: dict[str, str | None] = {}
    for name in body.model_fields_set:
        value = getattr(body, name)
        if isinstance(value, bool):
            changes[name] = "1" if value else "0"
        else:
            changes[name] = value
    accounts.save_settings(get_redis(), account.id, changes)
    return jsonify(_settings_doc(account.id))


@bp.post("/devices/options", responses=CEREMONY)
def device_options(body: EmptyBody) -> Response:
    """Adding a device, step 1: options for a new passkey of the signed-in account."""
    account = identity.require_account()
    have = [c.id for c in accounts.credentials(get_redis(), account.id)]
    context = json.dumps(["device", account.id])
    return jsonify(passkeys.registration_options(account.id, account.name, context, have))


@bp.post(
    "/devices",
    responses=outputs.answers(models.AccountDoc, 400, 401, 409, 413, 415, 422, status=201),
)
def add_device(body: CeremonyBody) -> tuple[Response, int]:
    """Adding a device, step 2: the new passkey."""
    account = identity.require_account()
    challenge, context = passkeys.take(body.handle)
    if _context(context, "device")[1:] != [account.id]:
        raise ApiError(400, "bad_credential", "this challenge was issued to another account")
    cred_id, public_key, sign_count = passkeys.verify_registration(challenge, body.credential)
    client = get_redis()
    if accounts.credential(client, cred_id) is not None:
        raise ApiError(409, "credential_exists", "this passkey already belongs to an account")
    count = len(accounts.credentials(client, account.id))
    label = body.label or f"Gerät {count + 1}"  # unnamed (templates/static/js/account.js)
    accounts.add_credential(
        client, accounts.Credential(cred_id, account.id, public_key, sign_count, _now_ms(), label)
    )
    return jsonify(_doc(account)), 201


@bp.delete(
    "/devices/<credential_id>",
    responses=outputs.answers(models.AccountDoc, 400, 401, 404, 409, 413, 415),
)
def remove_device(path: DevicePath) -> Response:
    """Remove a passkey of the account (not its last one: delete the account instead)."""
    account = identity.require_account()
    client = get_redis()
    have = [c.id for c in accounts.credentials(client, account.id)]
    if path.credential_id not in have:
        raise ApiError(404, "unknown_device", "no such device on this account")
    if len(have) == 1:
        raise ApiError(409, "last_device", "the last device can't be removed; delete the account")
    accounts.remove_credential(client, account.id, path.credential_id)
    return jsonify(_doc(account))


@bp.post("/signout", responses=outputs.answers(models.Done, 400, 413, 415, 422))
def signout(body: SignOutBody) -> Response:
    """Sign this device out; with ``everywhere``, every device of the account."""
    account = identity.signed_in()
    if body.everywhere and account is not None:
        accounts.bump_generation(get_redis(), account.id)
    identity.sign_out()
    return jsonify({"ok": True})


@bp.delete("", responses=outputs.answers(models.Done, 400, 401, 413, 415))
def delete_account() -> Response:
    """Delete the account: its passkeys go, its name shows as "gelöscht" on every daily board
    (its scores stay) and it leaves the ratings boards."""
    account = identity.require_account()
    client = get_redis()
    player_ids = accounts.delete(client, account.id)
    ratings.forget(client, TABLE_GAMES, account.id)
    files = archive.from_settings(settings())
    accounts.erase_names(client, get_rankings(), player_ids, files, account.id)
    # the week's tournaments it entered: "gelöscht" in their standings, results kept
    event_deals.erase_names(
        client, player_ids, accounts.DELETED_NAME, weeks.since_launch(settings())
    )
    identity.sign_out()
    return jsonify({"ok": True})
