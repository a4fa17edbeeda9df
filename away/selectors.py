"""Reads of push devices (docs/style.md §5)."""

from __future__ import annotations

from django.db.models import QuerySet

from accounts.models import User
from away.models import Device


def devices_of(*, user: User) -> QuerySet[Device]:
    return Device.objects.filter(user=user)
