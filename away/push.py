"""Web Push, the away channel to a player's devices (issue 40; RULINGS P74, P75).

The channel (``away.tasks.push_channel``) is called by the notifications' delivery task, after
the commit of whatever made the notification, and only queues: each device gets its own
``push_send`` task, so a push service that is slow or down delays nothing but that device's
notice, never a move or another player's mail. The task checks again, at each try, that the
notice is still true (``notifications.current``, in ``away.services.push_send``): a turn already
taken, an invitation withdrawn, a notification read in the site, and it is not sent.

Each notice carries a Topic and, in its payload, the same tag: one per table (or per sender for
notices about no table), so the push service keeps only the newest waiting message of a topic and
the phone shows one notice per table, the newest replacing the one shown. Its TTL is how long it
stays true at most, so a push service never hands over a stale "your turn" (RULING P74). The
text is the notification's own sentence in the player's language: names, game and table number,
never a card.
"""

from __future__ import annotations

import json
from datetime import datetime
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from pywebpush import WebPushException, webpush

from away import vapid
from away.models import Device
from core.i18n import supported
from notifications import kinds, texts
from notifications.models import Notification, Sent
from notifications.selectors import preference_of
from notifications.services import sent_claim

TIMEOUT_SECONDS = 5
RETRIES = 5
GONE = frozenset({404, 410})


def topic_of(notification: Notification) -> str:
    """At most 32 base64url characters (RFC 8030 §5.4): one per table, else one per kind and sender."""
    if notification.table_id:
        return f"table-{notification.table_id}"
    return f"{notification.kind.replace('_', '-')}-{notification.actor_id or 0}"[:32]


def ttl_of(notification: Notification, *, now: datetime) -> int:
    # RULING P74: how long the kind stays worth showing (kinds.Kind.ttl); a turn also ends at its deadline.
    ttl = kinds.get(notification.kind).ttl
    deadline = (notification.data or {}).get("deadline")
    if isinstance(deadline, int | float):
        ttl = min(ttl, int(deadline - now.timestamp()))
    return max(ttl, 0)


def payload_of(notification: Notification) -> dict:
    """What the device shows, in the player's language (their profile's, else the site's)."""
    language = supported(notification.recipient.language) or settings.LANGUAGE_CODE
    with translation.override(language):
        return {
            "title": settings.SITE_NAME,
            "body": texts.text(notification),
            "tag": topic_of(notification),
            "url": texts.link(notification),
            "lang": language,
        }


def devices_to_tell(notification: Notification) -> list[int]:
    """The channel's choice: the devices of a player who wants this kind pushed, if the hour's
    limit has room (a place is taken); none at all without VAPID keys."""
    if not vapid.enabled() or not preference_of(user_id=notification.recipient_id, kind=notification.kind).push:
        return []
    devices = list(Device.objects.filter(user_id=notification.recipient_id).values_list("pk", flat=True))
    # RULING P75: at most PUSHES_PER_HOUR notices a player's devices get in an hour.
    if not devices or not sent_claim(notification, channel=Sent.Channel.PUSH, per_hour=settings.PUSHES_PER_HOUR):
        return []
    return devices


def devices_to_replace(*, user_id: int) -> list[int]:
    """The devices a stale notice of ``user_id``'s may be shown on (none without VAPID keys)."""
    if not vapid.enabled():
        return []
    return list(Device.objects.filter(user_id=user_id).values_list("pk", flat=True))


def allowed_endpoint(endpoint: str) -> bool:
    """Only a push service's address: https to a known service's host (the site posts to it, so a
    player must not make it post anywhere else), or an origin the settings name (the tests' own)."""
    parts = urlsplit(endpoint)
    origin = f"{parts.scheme}://{parts.netloc}"
    if origin in settings.PUSH_EXTRA_ORIGINS:
        return True
    host = (parts.hostname or "").lower()
    return parts.scheme == "https" and any(host == s.lstrip(".") or host.endswith(s) for s in settings.PUSH_SERVICES)


class Retry(Exception):
    """The push service is down, busy or slow: try again later."""


def send(device: Device, payload: dict, *, ttl: int, topic: str, urgency: str) -> int:
    """One push to one device; the push service's status. Raises Retry for 429, 5xx and timeouts."""
    parts = urlsplit(device.endpoint)
    try:
        response = webpush(
            subscription_info={"endpoint": device.endpoint, "keys": {"p256dh": device.p256dh, "auth": device.auth}},
            data=json.dumps(payload, ensure_ascii=False),
            vapid_private_key=vapid.signer(),
            vapid_claims={"sub": settings.VAPID_SUBJECT, "aud": f"{parts.scheme}://{parts.netloc}"},
            ttl=ttl,
            headers={"Topic": topic, "Urgency": urgency},
            timeout=TIMEOUT_SECONDS,
        )
    except WebPushException as error:
        status = error.response.status_code if error.response is not None else 0
        if status == 429 or status >= 500 or status == 0:
            raise Retry(f"push service answered {status}") from None
        return status
    except (requests.Timeout, requests.ConnectionError) as error:
        raise Retry(str(error)) from None
    return response.status_code


def replacement_text(*, language: str | None, table_id: int) -> str:
    with translation.override(supported(language) or settings.LANGUAGE_CODE):
        return _("The game at table #%(table)s went on.") % {"table": table_id}


def friend_request_current(notification: Notification) -> bool:
    """Still true: the request was neither withdrawn nor answered (answering removes it)."""
    from social.models import FriendRequest

    return FriendRequest.objects.filter(
        sender_id=notification.actor_id, recipient_id=notification.recipient_id, quiet=False
    ).exists()
