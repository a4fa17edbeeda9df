"""A player's notifications and their choices of how each kind reaches them.

A notification says who did what, and at which table: never a card or anything else a game
hides (its ``data`` holds names, ids and numbers that are public). It lives until
``expires_at`` (RULING P69), read or not; beat's sweep deletes it then.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from notifications import kinds


class Notification(models.Model):
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications", verbose_name=_("recipient")
    )
    kind = models.CharField(_("kind"), max_length=kinds.CODE_LENGTH, choices=kinds.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("from"),
        help_text=_("Who it is from, if a person."),
    )
    table = models.ForeignKey(
        "tables.Table",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("table"),
    )
    data = models.JSONField(
        _("data"), default=dict, blank=True, help_text=_("Public details only: names, ids, numbers. Never a card.")
    )
    created_at = models.DateTimeField(_("created at"), db_index=True)
    read_at = models.DateTimeField(_("read at"), null=True, blank=True)
    expires_at = models.DateTimeField(_("expires at"), db_index=True)
    delivered_at = models.DateTimeField(
        _("handed to the away channels at"), null=True, blank=True, help_text=_("E-mail and the like; once.")
    )

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        indexes = [
            models.Index(
                fields=["recipient", "created_at"],
                name="unread_per_recipient",
                condition=models.Q(read_at__isnull=True),
            )
        ]

    def __str__(self) -> str:
        return gettext("%(kind)s for %(user)s") % {"kind": self.get_kind_display(), "user": self.recipient_id}


class Preference(models.Model):
    """How one kind reaches one player. No row: the defaults of notifications/kinds.py.

    One boolean per way a notification travels; a new way (web push) is one more field here,
    with its default in ``kinds`` and its channel in ``notifications.delivery``.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="notification_preferences",
        verbose_name=_("player"),
    )
    kind = models.CharField(_("kind"), max_length=kinds.CODE_LENGTH, choices=kinds.choices)
    site = models.BooleanField(_("in the site"), default=kinds.SITE_DEFAULT)
    email = models.BooleanField(_("by e-mail"), default=kinds.EMAIL_DEFAULT)
    push = models.BooleanField(_("on your devices"), default=kinds.PUSH_DEFAULT)

    # The ways a notification travels, each a boolean field above (the preferences form lists them).
    WAYS: tuple[str, ...] = ("site", "email", "push")

    class Meta:
        verbose_name = _("notification preference")
        verbose_name_plural = _("notification preferences")
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="one_preference_per_kind")]

    def __str__(self) -> str:
        return gettext("%(kind)s for %(user)s") % {"kind": self.get_kind_display(), "user": self.user_id}


class Sent(models.Model):
    """One notice that left the site by an away channel: what the hourly limits count (RULINGS P75, P76).

    Rows, not counters in the cache: counted under the player's row lock, they hold across workers,
    and the admin can answer "how often did the site write to me".
    """

    class Channel(models.TextChoices):
        EMAIL = "email", _("e-mail")
        PUSH = "push", _("device notice")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    channel = models.CharField(_("way"), max_length=8, choices=Channel.choices)
    table = models.ForeignKey(
        "tables.Table", null=True, blank=True, on_delete=models.CASCADE, related_name="+", verbose_name=_("table")
    )
    kind = models.CharField(_("kind"), max_length=kinds.CODE_LENGTH, choices=kinds.choices)
    sent_at = models.DateTimeField(_("sent at"))

    class Meta:
        ordering = ["-sent_at", "-pk"]
        verbose_name = _("notice sent")
        verbose_name_plural = _("notices sent")
        indexes = [models.Index(fields=["user", "channel", "sent_at"], name="sent_per_user_and_way")]

    def __str__(self) -> str:
        return gettext("%(kind)s for %(user)s") % {"kind": self.get_kind_display(), "user": self.user_id}
