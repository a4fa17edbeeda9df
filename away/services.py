"""Writes of push devices (docs/style.md §5): a browser's subscription added, a device removed."""

from __future__ import annotations

import base64
import binascii
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from away.models import Device
from away.push import allowed_endpoint


class DeviceError(Exception):
    """A refusal a player can read."""


def _key_bytes(text: str) -> bytes | None:
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return None


def device_add(
    *, user: User, endpoint: str, p256dh: str, auth: str, name: str = "", now: datetime | None = None
) -> Device:
    """Keep this browser's subscription for ``user``. The same browser signed in as another account
    before is now this one's: one subscription is one browser, and only its current player's."""
    if not isinstance(endpoint, str) or len(endpoint) > 1000 or not allowed_endpoint(endpoint):
        raise DeviceError(_("This browser's push service is not one the site sends to."))
    public, secret = _key_bytes(p256dh or ""), _key_bytes(auth or "")
    if public is None or len(public) != 65 or public[0] != 4 or secret is None or len(secret) != 16:
        raise DeviceError(_("This browser sent keys the site cannot use."))
    with transaction.atomic():
        existing = Device.objects.select_for_update().filter(endpoint=endpoint).first()
        if existing is None and Device.objects.filter(user=user).count() >= settings.PUSH_DEVICES_PER_USER:
            raise DeviceError(
                _("You already have %(count)s devices. Remove one to add this one.")
                % {"count": settings.PUSH_DEVICES_PER_USER}
            )
        device, _created = Device.objects.update_or_create(
            endpoint=endpoint,
            defaults={
                "user": user,
                "p256dh": p256dh,
                "auth": auth,
                "name": (name or "")[:80],
                "created_at": now or timezone.now(),
            },
        )
    return device


def device_remove(*, user: User, device_id: int | None = None, endpoint: str | None = None) -> int:
    """Remove one of the player's own devices, by id or by endpoint; someone else's is not touched."""
    devices = Device.objects.filter(user=user)
    if device_id is not None:
        devices = devices.filter(pk=device_id)
    elif endpoint:
        devices = devices.filter(endpoint=endpoint)
    else:
        return 0
    deleted, _per_model = devices.delete()
    return deleted


def devices_erase(user: User) -> None:
    """RULING P23: a deleted account's devices go, their keys with them; nothing is sent to them again."""
    Device.objects.filter(user=user).delete()
