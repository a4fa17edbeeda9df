"""Whether a notification is still true when an away channel is about to send it (RULING P74).

An away channel sends later than the notification was made: after the commit, after a queue,
after retries. By then the turn may have been taken, the invitation withdrawn, the notification
read in the site. A channel asks ``is_current`` right before it sends, and sends nothing if not.
The app that knows a kind's truth registers its test from its ``ready()`` (tables: the turn), so
this app needs to import none of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from django.utils import timezone

if TYPE_CHECKING:
    from notifications.models import Notification

Check = Callable[["Notification"], bool]
_CHECKS: dict[str, Check] = {}


def check_add(kind: str, check: Check) -> None:
    _CHECKS[kind] = check


def is_current(notification: Notification) -> bool:
    if notification.read_at is not None or notification.expires_at <= timezone.now():
        return False  # seen in the site already, or past its time
    check = _CHECKS.get(notification.kind)
    return check is None or check(notification)
