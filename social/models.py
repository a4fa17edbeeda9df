"""Friends, friend requests and blocks: three small tables of our own.

A friendship is two rows, one each way, written and deleted together, so "my friends" is one
indexed read. A request is one row from its sender to its recipient until it is answered or
withdrawn; one that a block or a mute dropped quietly (RULING P67) is kept with ``quiet`` set,
so its sender sees it waiting as any other, and its recipient never sees it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class Friendship(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="friendships", verbose_name=_("player")
    )
    friend = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("friend")
    )
    created_at = models.DateTimeField(_("friends since"))

    class Meta:
        verbose_name = _("friendship")
        verbose_name_plural = _("friendships")
        constraints = [
            models.UniqueConstraint(fields=["user", "friend"], name="one_friendship_per_pair"),
            models.CheckConstraint(condition=~models.Q(user=models.F("friend")), name="no_friendship_with_oneself"),
        ]

    def __str__(self) -> str:
        return gettext("%(user)s and %(friend)s") % {"user": self.user_id, "friend": self.friend_id}


class FriendRequest(models.Model):
    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="friend_requests_sent", verbose_name=_("from")
    )
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="friend_requests_received",
        verbose_name=_("to"),
    )
    created_at = models.DateTimeField(_("sent at"))
    quiet = models.BooleanField(
        _("dropped quietly"), default=False, help_text=_("Blocked or muted: never shown to its recipient (RULING P67).")
    )

    class Meta:
        verbose_name = _("friend request")
        verbose_name_plural = _("friend requests")
        constraints = [
            models.UniqueConstraint(fields=["sender", "recipient"], name="one_request_per_pair"),
            models.CheckConstraint(condition=~models.Q(sender=models.F("recipient")), name="no_request_to_oneself"),
        ]

    def __str__(self) -> str:
        return gettext("from %(sender)s to %(recipient)s") % {"sender": self.sender_id, "recipient": self.recipient_id}


class Block(models.Model):
    """RULING P67: the blocker and the blocked do not reach each other (requests, invites, seats, chat)."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks", verbose_name=_("blocker")
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("blocked")
    )
    created_at = models.DateTimeField(_("blocked at"))

    class Meta:
        verbose_name = _("block")
        verbose_name_plural = _("blocks")
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="one_block_per_pair"),
            models.CheckConstraint(condition=~models.Q(blocker=models.F("blocked")), name="no_block_of_oneself"),
        ]

    def __str__(self) -> str:
        return gettext("%(blocker)s blocks %(blocked)s") % {"blocker": self.blocker_id, "blocked": self.blocked_id}
