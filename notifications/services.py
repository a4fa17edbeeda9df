"""Writes of notifications and preferences (docs/style.md §5–7).

``notify`` is the one way any app tells a player something: it records the notification in the
caller's transaction and, only after that commits, pushes it to the player's open sockets and
queues its away delivery (e-mail, and whatever other channel is registered), so a notification
about something that rolled back is never seen. Both go through the outbox (core/outbox.py,
notifications/events.py).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Model
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from core import outbox
from notifications import gates, kinds
from notifications.events import BellChanged, DeliveryDue
from notifications.models import Notification, Preference, Sent
from notifications.selectors import preference_of

_SCALARS = (str, int, float, bool, type(None))


class NotificationError(Exception):
    """A refusal a player can read."""


def _clean_data(data: dict | None) -> dict:
    """Flat and small: names, ids and numbers. A nested value or a long text is a mistake of the
    caller, refused loudly, so nothing a game hides can ride along unnoticed."""
    data = dict(data or {})
    for key, value in data.items():
        if not isinstance(key, str) or not isinstance(value, _SCALARS) or (isinstance(value, str) and len(value) > 300):
            raise ValueError(f"notification data must be flat and small: {key!r}")
    return data


def notify(
    *,
    user: User,
    kind: str,
    table: Model | None = None,  # a table (notifications sits below tables: its FK is by name)
    actor: User | None = None,
    data: dict | None = None,
    now: datetime | None = None,
) -> Notification | None:
    """Record a notification for ``user`` inside the caller's transaction; None when it is dropped
    quietly: a bot, the kind turned off, or an actor the player blocked or muted (RULING P67)."""
    if not kinds.known(kind):
        raise ValueError(f"unknown notification kind {kind!r}")
    cleaned = _clean_data(data)
    if user.is_bot or not user.is_active:
        return None
    if gates.refused(recipient_id=user.pk, actor_id=actor.pk if actor is not None else None):
        return None
    if not preference_of(user_id=user.pk, kind=kind).site:
        return None
    now = now or timezone.now()
    notification = Notification.objects.create(
        recipient=user,
        kind=kind,
        actor=actor,
        table_id=table.pk if table is not None else None,
        data=cleaned,
        created_at=now,
        expires_at=now + timedelta(days=settings.NOTIFICATION_DAYS),  # RULING P69
    )
    outbox.send(BellChanged(user_id=user.pk, notification_id=notification.pk))
    outbox.send(DeliveryDue(notification_id=notification.pk))
    return notification


def notification_read(*, user: User, notification_id: int, now: datetime | None = None) -> None:
    """Mark one of the player's own notifications read; someone else's is not found."""
    with transaction.atomic():
        mine = Notification.objects.filter(pk=notification_id, recipient=user)
        if not mine.exists():
            raise NotificationError(_("That notification is not there any more."))
        mine.filter(read_at=None).update(read_at=now or timezone.now())
        outbox.send(BellChanged(user_id=user.pk))


def notifications_read_all(*, user: User, now: datetime | None = None) -> int:
    with transaction.atomic():
        count = Notification.objects.filter(recipient=user, read_at=None).update(read_at=now or timezone.now())
        outbox.send(BellChanged(user_id=user.pk))
    return count


def preferences_set(*, user: User, choices: dict[str, dict[str, bool]]) -> None:
    """``choices``: kind → {"site": bool, "email": bool, …}; a way left out keeps its value."""
    with transaction.atomic():
        for kind, wanted in choices.items():
            if not kinds.known(kind):
                raise NotificationError(_("That kind of notification does not exist."))
            values = {way: bool(wanted[way]) for way in Preference.WAYS if way in wanted}
            if values:
                Preference.objects.update_or_create(user=user, kind=kind, defaults=values)


def notifications_expire(*, now: datetime | None = None) -> int:
    """RULING P69: delete what has passed its time, read or not. Twice is once."""
    deleted, _per_model = Notification.objects.filter(expires_at__lte=now or timezone.now()).delete()
    return deleted


def delivery_claim(*, notification_id: int, now: datetime | None = None) -> Notification | None:
    """The away delivery's claim: the notification, once; None if gone, already delivered or read
    meanwhile (the player saw it in the site). A task run twice delivers once."""
    claimed = Notification.objects.filter(pk=notification_id, delivered_at=None, read_at=None).update(
        delivered_at=now or timezone.now()
    )
    if not claimed:
        return None
    return Notification.objects.select_related("recipient", "actor").get(pk=notification_id)


def notifications_erase(user: User) -> None:
    """RULING P23: a deleted account's notifications go, those it received and those it caused
    (they name it to others), with its preferences and the log of notices sent to it."""
    Notification.objects.filter(recipient=user).delete()
    told = set(Notification.objects.filter(actor=user).values_list("recipient_id", flat=True))
    Notification.objects.filter(actor=user).delete()
    Preference.objects.filter(user=user).delete()
    Sent.objects.filter(user=user).delete()
    for recipient_id in told:  # their bells drop what is gone
        outbox.send(BellChanged(user_id=recipient_id))


HOUR = timedelta(hours=1)


def sent_claim(
    notification: Notification,
    *,
    channel: str,
    per_hour: int,
    per_table: int | None = None,
    now: datetime | None = None,
) -> bool:
    """The away channels' hourly limits (RULINGS P75, P76), counted in ``Sent`` rows: decided and
    recorded in one transaction, under a lock on the player's row, so two workers sending to the
    same player at once cannot both take the last place.

    Take one of the player's places this hour on ``channel`` for ``notification``; False if none is left
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
