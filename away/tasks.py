"""Celery tasks of the away channels, and the two channels that queue them (registered with
``notifications.delivery`` from ``AwayConfig.ready``). Each task takes ids, reads again and is
harmless twice or late; a push service or a mail server that is away is tried again with
exponential backoff (2, 4, 8, … s)."""

from __future__ import annotations

import logging

from celery import shared_task

from away import email, push, services
from notifications.models import Notification

logger = logging.getLogger(__name__)


def push_channel(notification: Notification) -> None:
    """Web Push: one ``push_send`` per device of a player who wants this kind pushed (RULING P75)."""
    for device_id in push.devices_to_tell(notification):
        push_send.delay(device_id, notification.pk)


def email_channel(notification: Notification) -> None:
    """E-mail: one ``email_send`` for a player who wants this kind by mail (RULING P76)."""
    if email.to_send(notification):
        email_send.delay(notification.pk)


def pushes_replace(*, user_id: int, table_id: int, body: str) -> None:
    """RULING P74: on each of the player's devices, the table's stale notice replaced by ``body``."""
    for device_id in push.devices_to_replace(user_id=user_id):
        push_replace.delay(device_id, table_id, body)


# The names the tasks had before they moved here: a task queued or retrying across a deploy still runs.
@shared_task(name="away.push.push_send", bind=True, max_retries=push.RETRIES, acks_late=True)
def push_send(self, device_id: int, notification_id: int) -> int:
    """Send one notification to one device (``away.services.push_send``), again later on 429,
    5xx and timeouts."""
    try:
        return services.push_send(device_id=device_id, notification_id=notification_id)
    except push.Retry as error:
        logger.info("push to device %s: %s; trying again", device_id, error)
        raise self.retry(countdown=2 ** (self.request.retries + 1)) from None


@shared_task(name="away.push.push_replace", bind=True, max_retries=push.RETRIES, acks_late=True)
def push_replace(self, device_id: int, table_id: int, body: str) -> int:
    try:
        return services.push_replace(device_id=device_id, table_id=table_id, body=body)
    except push.Retry:
        raise self.retry(countdown=2 ** (self.request.retries + 1)) from None


@shared_task(name="notifications.email.email_send", bind=True, max_retries=email.RETRIES, acks_late=True)
def email_send(self, notification_id: int) -> bool:
    """Write and send the mail (``away.email.mail_send``), again later while the server is away."""
    try:
        return email.mail_send(notification_id=notification_id)
    except email.TryLater as later:
        raise self.retry(exc=later.__cause__, countdown=2 ** (self.request.retries + 1)) from None
