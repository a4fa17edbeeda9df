"""The away channels' hourly limits (RULINGS P75, P76), counted in ``Sent`` rows.

``claim`` decides and records in one transaction, under a lock on the player's row, so two
workers sending to the same player at once cannot both take the last place.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from notifications.models import Notification, Sent

HOUR = timedelta(hours=1)


def claim(
    notification: Notification,
    *,
    channel: str,
    per_hour: int,
    per_table: int | None = None,
    now: datetime | None = None,
) -> bool:
    """Take one of the player's places this hour on ``channel`` for ``notification``; False if none is left
    (``per_hour`` in all, ``per_table`` for the notification's table)."""
    now = now or timezone.now()
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=notification.recipient_id).first()
        recent = Sent.objects.filter(user_id=notification.recipient_id, channel=channel, sent_at__gt=now - HOUR)
        if recent.count() >= per_hour:
            return False
        table_id = notification.table_id
        if per_table is not None and table_id and recent.filter(table_id=table_id).count() >= per_table:
            return False
        Sent.objects.create(
            user_id=notification.recipient_id,
            channel=channel,
            table_id=notification.table_id,
            kind=notification.kind,
            sent_at=now,
        )
    return True
