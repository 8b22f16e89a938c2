"""A software passkey authenticator (ES256, attestation "none") answering the service's WebAuthn
options as a browser would (``PublicKeyCredential.toJSON()``), for API tests without a browser.
The browser tests use Chromium's own virtual authenticator instead."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import struct
from dataclasses import dataclass, field
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

UP_UV = 0x01 | 0x04
ATTESTED = 0x40


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Passkey:
    credential_id: bytes
    key: ec.EllipticCurvePrivateKey
    rp_id: str
    user_handle: bytes
    count: int = 0


@dataclass
class Authenticator:
    """Holds discoverable passkeys; ``origin`` is what its client data claims."""

    origin: str
    passkeys: list[Passkey] = field(default_factory=list)

    def _client_data(self, kind: str, options: dict[str, Any]) -> bytes:
        data = {"type": kind, "challenge": options["challenge"], "origin": self.origin}
        return json.dumps(data, separators=(",", ":")).encode()

    def create(self, options: dict[str, Any]) -> dict[str, Any]:
        """navigator.credentials.create(options): a new passkey's registration."""
        rp_id = options["rp"]["id"]
        credential_id = secrets.token_bytes(16)
        key = ec.generate_private_key(ec.SECP256R1())
        numbers = key.public_key().public_numbers()
        cose = cbor2.dumps(
            {
                1: 2,
                3: -7,
                -1: 1,
                -2: numbers.x.to_bytes(32, "big"),
                -3: numbers.y.to_bytes(32, "big"),
            }
        )
        auth_data = (
            hashlib.sha256(rp_id.encode()).digest()
            + bytes([UP_UV | ATTESTED])
            + struct.pack(">I", 0)
            + bytes(16)
            + struct.pack(">H", len(credential_id))
            + credential_id
            + cose
        )
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        self.passkeys.append(Passkey(credential_id, key, rp_id, unb64(options["user"]["id"])))
        return {
            "id": b64(credential_id),
            "rawId": b64(credential_id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64(self._client_data("webauthn.create", options)),
                "attestationObject": b64(attestation),
                "transports": ["internal"],
            },
            "clientExtensionResults": {},
        }

    def get(self, options: dict[str, Any], passkey: Passkey | None = None) -> dict[str, Any]:
        """navigator.credentials.get(options) with a discoverable passkey (the newest)."""
        chosen = passkey or self.passkeys[-1]
        chosen.count += 1
        auth_data = (
            hashlib.sha256(chosen.rp_id.encode()).digest()
            + bytes([UP_UV])
            + struct.pack(">I", chosen.count)
        )
        client_data = self._client_data("webauthn.get", options)
        signature = chosen.key.sign(
            auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256())
        )
        return {
            "id": b64(chosen.credential_id),
            "rawId": b64(chosen.credential_id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64(client_data),
                "authenticatorData": b64(auth_data),
                "signature": b64(signature),
                "userHandle": b64(chosen.user_handle),
            },
            "clientExtensionResults": {},
        }
