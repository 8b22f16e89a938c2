"""WebAuthn ceremonies (py_webauthn) against the settings' relying party: options out, answers
checked against a single-use challenge from Redis (service.accounts.store).

Every failure is a 400 ``bad_credential`` (a forged, mangled or replayed answer, a challenge that
expired) and changes nothing: the challenge is consumed before the answer is checked, so a second
try with the same answer finds none.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

import webauthn
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from service.accounts import store as accounts
from service.errors import ApiError
from service.web.redisconn import get_redis, settings

RP_NAME = "Pik Dame"


def _options(options: Any, context: str) -> dict[str, Any]:
    handle = accounts.new_challenge(get_redis(), options.challenge, context)
    return {"handle": handle, "options": json.loads(webauthn.options_to_json(options))}


def registration_options(
    user_id: str, name: str, context: str, exclude: tuple[str, ...] | list[str] = ()
) -> dict[str, Any]:
    """Options creating a discoverable passkey (so another device can sign in by it alone)."""
    config = settings()
    options = webauthn.generate_registration_options(
        rp_id=config.rp_id,
        rp_name=RP_NAME,
        user_id=user_id.encode(),
        user_name=name,
        user_display_name=name,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED,
        ),
        exclude_credentials=[
            PublicKeyCredentialDescriptor(id=base64url_to_bytes(c)) for c in exclude
        ],
    )
    return _options(options, context)


def authentication_options(context: str) -> dict[str, Any]:
    """Options for signing in with any passkey of this site (no user named: discoverable)."""
    options = webauthn.generate_authentication_options(
        rp_id=settings().rp_id, user_verification=UserVerificationRequirement.PREFERRED
    )
    return _options(options, context)


def take(handle: str) -> tuple[bytes, str]:
    """The challenge under ``handle`` and its context, consumed; 400 if unknown, used or
    expired."""
    found = accounts.take_challenge(get_redis(), handle)
    if found is None:
        raise ApiError(400, "bad_credential", "unknown, used or expired challenge; start again")
    return found


@contextlib.contextmanager
def _refused() -> Iterator[None]:
    """py_webauthn's refusals (and what a mangled credential makes it raise) as a 400."""
    try:
        yield
    except (WebAuthnException, ValueError, KeyError, TypeError) as e:
        raise ApiError(400, "bad_credential", f"passkey not accepted: {e}") from None


def verify_registration(challenge: bytes, credential: dict[str, Any]) -> tuple[str, bytes, int]:
    """The new passkey's (id, public key, sign count), or 400."""
    config = settings()
    with _refused():
        verified = webauthn.verify_registration_response(
            credential=credential,
            expected_challenge=challenge,
            expected_rp_id=config.rp_id,
            expected_origin=list(config.origins),
        )
    return (
        bytes_to_base64url(verified.credential_id),
        verified.credential_public_key,
        verified.sign_count,
    )


def verify_authentication(challenge: bytes, credential: dict[str, Any]) -> accounts.Credential:
    """The stored passkey that signed this challenge, its sign count updated; or 400."""
    credential_id = credential.get("id")
    client = get_redis()
    stored = accounts.credential(client, credential_id) if isinstance(credential_id, str) else None
    if stored is None:
        raise ApiError(400, "bad_credential", "unknown passkey (removed, or of another site)")
    config = settings()
    with _refused():
        verified = webauthn.verify_authentication_response(
            credential=credential,
            expected_challenge=challenge,
            expected_rp_id=config.rp_id,
            expected_origin=list(config.origins),
            credential_public_key=stored.public_key,
            credential_current_sign_count=stored.sign_count,
        )
    accounts.set_sign_count(client, stored.id, verified.new_sign_count)
    return stored
