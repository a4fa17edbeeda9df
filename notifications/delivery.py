"""The away channels: how a notification reaches a player who may not be looking at the site.

Each channel is a function ``deliver(notification) -> None`` that decides for itself whether the
player wants it (their ``Preference``) and can receive it. The delivery task
(``notifications.tasks.notification_deliver``) calls every registered channel once per
notification; a channel that fails is logged and does not stop the others. The channels (e-mail
and Web Push) are the away app's, registered from its ``ready()``: away sits above this app.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from notifications.models import Notification

logger = logging.getLogger(__name__)

Channel = Callable[["Notification"], None]
_CHANNELS: list[Channel] = []


def channel_add(channel: Channel) -> None:
    """Register ``channel``; a second ``ready()`` adds nothing twice."""
    if channel not in _CHANNELS:
        _CHANNELS.append(channel)


def channels() -> list[Channel]:
    return list(_CHANNELS)


def deliver_away(notification: Notification) -> int:
    """Hand ``notification`` to every channel; the number that did not fail."""
    done = 0
    for channel in channels():
        try:
            channel(notification)
        except Exception:  # noqa: BLE001 (one channel down must not keep the others from the player)
            logger.warning("notification %s: channel %s failed", notification.pk, channel, exc_info=True)
        else:
            done += 1
    return done
