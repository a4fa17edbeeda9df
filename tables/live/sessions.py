"""Open table sockets hear at once when their login ends (RULING P18).

This is how a socket learns it: it does not read its session for every message (that cost
a pool thread and two queries per frame), only now and then as a safety net
(tables/live/guard.py). When a user logs out, or their account is saved (a new password, a
password reset, deactivation), each of their open table sockets, wherever it runs, is told
through the channel layer; the socket list is the one the caps of RULING P16 keep in Redis.
A socket whose session ended is closed, whether it is sending or only watching.
"""

from __future__ import annotations

import logging

from allauth.account.signals import password_changed
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth.signals import user_logged_out
from django.db.models.signals import post_save
from django.dispatch import receiver

from accounts.models import User
from core import groups, outbox
from core.groups import notify_group
from core.redis import sync_client
from tables.events import AccountSaved, SessionEnded
from tables.live import presence

logger = logging.getLogger(__name__)


def tell_sockets(user_id: int, event: dict) -> int:
    """Send ``event`` to each open table socket of the user. Returns how many were told."""
    members = sync_client().zrange(presence.sockets_key(user_id), 0, -1)
    if not members:
        return 0
    layer = get_channel_layer()
    for member in members:
        channel_name = member.decode().split(" ", 1)[1]
        async_to_sync(layer.send)(channel_name, event)
    return len(members)


def _tell_safely(user_id: int, event: dict) -> None:
    try:
        tell_sockets(user_id, event)
        # The bell's page sockets (notifications/live.py) hear it on the player's group.
        groups.send(notify_group(user_id), event)
    except Exception:  # noqa: BLE001 (the sockets' timed re-check still stops them)
        logger.warning("could not tell the table sockets of user %s", user_id, exc_info=True)


@receiver(user_logged_out)
def _logged_out(sender, request, user, **kwargs) -> None:
    if user is not None and request is not None and request.session.session_key:
        outbox.send(SessionEnded(user_id=user.pk, session_key=request.session.session_key))


@receiver(password_changed)
def _password_changed(sender, request, user, **kwargs) -> None:
    # Issue 34: the changing browser's session has its new key now (accounts/sessions.py); its
    # sockets, told of the save a moment before, follow it to that key.
    outbox.send(AccountSaved(user_id=user.pk))


@receiver(post_save, sender=User)
def _account_saved(sender, instance: User, created: bool, **kwargs) -> None:
    if not created and not instance.is_bot:
        # After the commit: the sockets re-read the account and must see the new password hash.
        outbox.send(AccountSaved(user_id=instance.pk))


def session_ended(event: SessionEnded) -> None:
    """The outbox's handler (tables/delivery.py): the logout has committed."""
    _tell_safely(event.user_id, {"type": "session.ended", "session_key": event.session_key})


def account_saved(event: AccountSaved) -> None:
    """The outbox's handler (tables/delivery.py): the account's save has committed."""
    _tell_safely(event.user_id, {"type": "session.check"})
