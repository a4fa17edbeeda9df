"""Notifications' Celery tasks: away delivery and the expiry sweep. Each runs twice or late harmlessly."""

from __future__ import annotations

from celery import shared_task


@shared_task
def notification_deliver(notification_id: int) -> int:
    """Hand a notification to the away channels (e-mail; RULING P69), once: a second run finds it claimed."""
    from notifications.delivery import deliver_away
    from notifications.services import delivery_claim

    notification = delivery_claim(notification_id=notification_id)
    if notification is None:
        return 0
    return deliver_away(notification)


@shared_task
def notifications_expire() -> int:
    from notifications.services import notifications_expire as expire

    return expire()
