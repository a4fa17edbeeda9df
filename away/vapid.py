"""The site's VAPID key pair (RFC 8292), from the environment: VAPID_PRIVATE_KEY, VAPID_PUBLIC_KEY.

Both are base64url, as browsers and ``manage.py vapid_keys`` write them: the private key is the raw
32-byte P-256 scalar, the public key the 65-byte uncompressed point that a browser's
``pushManager.subscribe`` takes as ``applicationServerKey``. Without them Web Push is off.
"""

from __future__ import annotations

import base64
from functools import lru_cache

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from py_vapid import Vapid


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def key_pair() -> tuple[str, str]:
    """A new pair: (private, public), base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return _b64(private), _b64(public)


def enabled() -> bool:
    return bool(settings.VAPID_PRIVATE_KEY and settings.VAPID_PUBLIC_KEY)


@lru_cache(maxsize=4)
def _signer(private_key: str) -> Vapid:
    return Vapid.from_string(private_key=private_key)


def signer() -> Vapid:
    return _signer(settings.VAPID_PRIVATE_KEY)
