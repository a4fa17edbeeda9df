"""Notifications' Celery tasks: away delivery and the expiry sweep. Each runs twice or late harmlessly.

The services queue the delivery through the outbox (core/outbox.py), whose handler is here."""

from __future__ import annotations

from celery import shared_task

from notifications.events import DeliveryDue


@shared_task
def notification_deliver(notification_id: int) -> int:
    """Hand a notification to the away channels (e-mail; RULING P69), once: a second run finds it claimed."""
    from notifications.delivery import deliver_away
    from notifications.services import delivery_claim

    notification = delivery_claim(notification_id=notification_id)
    if notification is None:
        return 0
    return deliver_away(notification)


def delivery_due(event: DeliveryDue) -> None:
    """The outbox's handler (notifications/events.py): queued once the notification has committed."""
    notification_deliver.delay(event.notification_id)


@shared_task
def notifications_expire() -> int:
    from notifications.services import notifications_expire as expire

    return expire()
