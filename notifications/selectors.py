"""Reads of notifications and preferences (docs/style.md §5)."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet
from django.utils import timezone

from accounts.models import User
from accounts.selectors import users_named_publicly
from notifications import kinds
from notifications.models import Notification, Preference, Sent

PAGE_SIZE = 50
BELL_SIZE = 8


def preference_of(*, user_id: int, kind: str) -> Preference:
    """The player's choice for ``kind``, or the defaults (an unsaved row) when they made none."""
    return Preference.objects.filter(user_id=user_id, kind=kind).first() or Preference(user_id=user_id, kind=kind)


def preferences_of(*, user: User) -> list[Preference]:
    """One per kind, in the order of notifications/kinds.py: saved choices and defaults alike."""
    saved = {row.kind: row for row in Preference.objects.filter(user=user)}
    return [saved.get(kind.code) or Preference(user=user, kind=kind.code) for kind in kinds.all_kinds()]


def live_notifications(user_id: int) -> QuerySet[Notification]:
    """The player's notifications that have not expired, newest first, with names as lists show them."""
    return (
        Notification.objects.filter(recipient_id=user_id, expires_at__gt=timezone.now())
        .select_related("table")
        .prefetch_related(Prefetch("actor", queryset=users_named_publicly()))
    )


def unread_count(user_id: int) -> int:
    return live_notifications(user_id).filter(read_at=None).count()


def notifications_page(*, user: User) -> list[Notification]:
    return list(live_notifications(user.pk)[:PAGE_SIZE])


def bell_list(user_id: int) -> list[Notification]:
    return list(live_notifications(user_id)[:BELL_SIZE])


def notifications_export(user: User) -> dict:
    """RULING P55: the player's notifications, their choices and the notices sent away to them."""
    return {
        "notifications": [
            {
                "kind": row.kind,
                "from": row.actor.username if row.actor is not None else None,
                "table": row.table_id,
                "data": row.data,
                "at": row.created_at.isoformat(),
                "read_at": row.read_at.isoformat() if row.read_at else None,
            }
            for row in Notification.objects.filter(recipient=user).select_related("actor").order_by("pk")
        ],
        "preferences": {
            row.kind: {way: getattr(row, way) for way in Preference.WAYS} for row in preferences_of(user=user)
        },
        "sent": [
            {"way": row.channel, "kind": row.kind, "table": row.table_id, "at": row.sent_at.isoformat()}
            for row in Sent.objects.filter(user=user).order_by("pk")
        ],
    }
