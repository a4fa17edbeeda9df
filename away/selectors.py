"""Reads of push devices (docs/style.md §5)."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.db.models import QuerySet

from accounts.models import User
from away.models import Device


def devices_of(*, user: User) -> QuerySet[Device]:
    return Device.objects.filter(user=user)


def devices_export(user: User) -> list[dict]:
    """RULING P55: the player's devices, without their keys or the endpoint's secret path: the
    file may be kept or passed on, and those would let anyone who reads it send to the device."""
    return [
        {
            "name": device.name,
            "push_service": urlsplit(device.endpoint).hostname,
            "added_at": device.created_at.isoformat(),
            "last_notice_at": device.last_push_at.isoformat() if device.last_push_at else None,
        }
        for device in devices_of(user=user).order_by("pk")
    ]
