"""Writes of the away channels (docs/style.md §5): a browser's subscription added, a device
removed; a push sent to one device and what its push service answered kept (a dropped
subscription goes, a delivered one is dated); a kind of e-mail unsubscribed from."""

from __future__ import annotations

import base64
import binascii
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from away import push
from away.models import Device
from away.push import allowed_endpoint
from notifications import current, kinds
from notifications.models import Notification
from notifications.services import preferences_set


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


def push_send(*, device_id: int, notification_id: int, now: datetime | None = None) -> int:
    """Send one notification to one device, if both are still there and the notice still true;
    the push service's status (0: nothing sent). ``push.Retry`` for 429, 5xx and timeouts.
    Twice is harmless: the push service keeps one message per topic, and the device shows one
    notice per tag."""
    device = Device.objects.filter(pk=device_id).first()
    notification = Notification.objects.filter(pk=notification_id).select_related("recipient", "actor").first()
    if device is None or notification is None or not current.is_current(notification):
        return 0
    now = now or timezone.now()
    ttl = push.ttl_of(notification, now=now)
    if ttl <= 0:
        return 0
    urgency = "high" if kinds.get(notification.kind).urgent else "normal"
    payload = push.payload_of(notification)
    status = push.send(device, payload, ttl=ttl, topic=push.topic_of(notification), urgency=urgency)
    if status in push.GONE:
        Device.objects.filter(pk=device_id).delete()  # the browser dropped the subscription
    elif status < 300:
        Device.objects.filter(pk=device_id).update(last_push_at=now)
    return status


def push_replace(*, device_id: int, table_id: int, body: str) -> int:
    """A notice shown for a table that is no longer true is replaced, quietly, by one saying so: the
    same Topic and tag (a push service keeps only the newest, a device shows only the newest).
    The push service's status; ``push.Retry`` as for ``push_send``."""
    device = Device.objects.filter(pk=device_id).first()
    if device is None:
        return 0
    url = reverse("table", args=[table_id])
    payload = {"title": settings.SITE_NAME, "body": body, "tag": f"table-{table_id}", "url": url, "silent": True}
    ttl = kinds.get(kinds.YOUR_TURN).ttl
    status = push.send(device, payload, ttl=ttl, topic=f"table-{table_id}", urgency="low")
    if status in push.GONE:
        Device.objects.filter(pk=device_id).delete()
    return status


def email_unsubscribe(*, user_id: int, kind: str) -> bool:
    """RULING P76: turn that kind's e-mail off for the player (the one-click link's POST); twice is
    once. False if the account is gone."""
    with transaction.atomic():
        user = User.objects.filter(pk=user_id).first()
        if user is None:
            return False
        preferences_set(user=user, choices={kind: {"email": False}})
    return True
