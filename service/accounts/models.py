"""The accounts' requests and answers (API.md: Accounts): sign-up and passkey ceremonies, the
account document and its devices, the account's page settings.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal, TypeAlias

from pydantic import Field

from service.web.inputs import MAX_ID, Lang, PlayerName
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


Deck: TypeAlias = Literal["two", "four"]
CardSize: TypeAlias = Literal["normal", "large", "larger"]


class PageSettings(Document):
    """How the pages look and sound for the account, on every device it signs in on: the deck's
    colours (``four``: ♠ black, ♥ red, ♦ blue, ♣ green), the cards' size, high contrast, the tone
    on the player's turn and the language. A setting never chosen is null (the device's own
    applies)."""

    deck: Deck | None = None
    size: CardSize | None = None
    contrast: bool | None = None
    sound: bool | None = None
    lang: Lang | None = None


class SettingsDoc(Document):
    settings: PageSettings


class SettingsBody(ApiModel):
    """The settings to change: a field left out stays as it is, null forgets it; a value outside
    its choices is 422 ``bad_value``."""

    deck: Deck | None = Field(default=None, description="two or four colours")
    size: CardSize | None = Field(default=None, description="the cards' size")
    contrast: bool | None = Field(default=None, description="high contrast")
    sound: bool | None = Field(default=None, description="a tone on the player's turn")
    lang: Lang | None = Field(default=None, description="the pages' language")
