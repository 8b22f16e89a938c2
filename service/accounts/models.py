"""The accounts' requests and answers (API.md: Accounts): sign-up and passkey ceremonies, the
account document and its devices.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import Field

from service.web.inputs import MAX_ID, PlayerName
from service.web.outputs import Document
from service.web.validation import ApiModel

MAX_HANDLE: Final = 64


MAX_LABEL: Final = 40


class SignUpBody(ApiModel):
    """Sign up: the account's name; ``attach`` attaches this device's anonymous attempts."""

    name: PlayerName
    attach: bool = Field(default=True, description="attach this device's anonymous history")


class CeremonyBody(ApiModel):
    """The browser's answer to a WebAuthn challenge: the handle the options came with and the
    credential (``PublicKeyCredential.toJSON()``); a forged or replayed one is 400."""

    handle: str = Field(min_length=1, max_length=MAX_HANDLE)
    credential: dict[str, Any]
    label: str = Field(default="", max_length=MAX_LABEL, description="a device's name")


class SignOutBody(ApiModel):
    everywhere: bool = Field(default=False, description="sign out every device of the account")


class DevicePath(ApiModel):
    credential_id: Annotated[str, Field(min_length=1, max_length=MAX_ID * 4)]


class Device(Document):
    """One passkey of an account."""

    id: str = Field(description="the credential id (base64url)")
    label: str
    created_at: str = Field(json_schema_extra={"format": "date-time"})


class Account(Document):
    """The signed-in account: its name and devices (passkeys)."""

    id: str
    name: str
    created_at: str = Field(json_schema_extra={"format": "date-time"})
    devices: list[Device]


class AccountDoc(Document):
    account: Account


class Ceremony(Document):
    """WebAuthn options for ``navigator.credentials.create/get`` (JSON, base64url fields) and
    the handle to send back with the answer (single use, expires in 5 minutes)."""

    handle: str
    options: dict[str, Any]


class Done(Document):
    ok: Literal[True]
