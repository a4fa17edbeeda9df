"""Table chat: messages (append-only), reports, site-wide mutes and personal mutes.

A message is never edited or deleted: moderation only hides it, once, recording
who hid it and why (a database trigger enforces this, migration 0001). Chat sits below
tables (docs/design.md): the table's socket carries it (tables/live/chat.py), and chat reaches
a table through its foreign keys and the app registry (``table_model``), never by importing tables.
"""

from __future__ import annotations

from django.apps import apps
from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


def table_model():
    """The tables app's ``Table``, looked up in the app registry."""
    return apps.get_model("tables", "Table")


class Channel(models.TextChoices):
    # RULING P25: players and spectators talk in separate rooms, as on Lichess.
    PLAYERS = "players", _("Players")
    SPECTATORS = "spectators", _("Spectators")


class ChatRoom(models.Model):
    """A table's chat settings; a table without a row has the defaults."""

    table = models.OneToOneField(
        "tables.Table", on_delete=models.CASCADE, related_name="chat_room", verbose_name=_("table")
    )
    spectator_chat = models.BooleanField(
        _("spectators' chat"), default=True, help_text=_("The host can turn spectators' chat off (RULING P26).")
    )

    class Meta:
        verbose_name = _("chat room")
        verbose_name_plural = _("chat rooms")

    def __str__(self) -> str:
        return gettext("chat of table %(table)s") % {"table": self.table_id}


class ChatMessage(models.Model):
    table = models.ForeignKey(
        "tables.Table", on_delete=models.PROTECT, related_name="chat_messages", verbose_name=_("table")
    )
    match = models.ForeignKey(
        "games.Match",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="chat_messages",
        verbose_name=_("game"),
        help_text=_("The game it was said in or after, if any."),
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="chat_messages", verbose_name=_("author")
    )
    channel = models.CharField(_("channel"), max_length=12, choices=Channel.choices)
    text = models.CharField(_("text"), max_length=300)
    created_at = models.DateTimeField(_("written at"), db_index=True)
    hidden = models.BooleanField(_("hidden"), default=False)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("hidden by"),
    )
    hidden_reason = models.CharField(_("reason for hiding"), max_length=200, blank=True)
    hidden_at = models.DateTimeField(_("hidden at"), null=True, blank=True)

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["table", "id"], name="chat_message_table_id"),
            models.Index(fields=["author", "created_at"], name="chat_message_author_time"),  # the rate limit
        ]

    def __str__(self) -> str:
        return gettext("%(author)s at table %(table)s: %(text)s") % {
            "author": self.author,
            "table": self.table_id,
            "text": self.text[:40],
        }


class ChatReport(models.Model):
    message = models.ForeignKey(
        ChatMessage, on_delete=models.PROTECT, related_name="reports", verbose_name=_("message")
    )
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("reporter")
    )
    reason = models.CharField(_("reason"), max_length=200)
    created_at = models.DateTimeField(_("reported at"))
    resolved_at = models.DateTimeField(
        _("resolved at"),
        null=True,
        blank=True,
        help_text=_("Set when the message is hidden or the report is dismissed."),
    )

    class Meta:
        verbose_name = _("chat report")
        verbose_name_plural = _("chat reports")
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["message", "reporter"], name="one_report_per_reporter")]

    def __str__(self) -> str:
        return gettext("report by %(reporter)s on message %(message)s") % {
            "reporter": self.reporter,
            "message": self.message_id,
        }


class ChatMute(models.Model):
    """A site-wide mute set by a moderator: the user cannot chat anywhere until ``until``."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="chat_mutes", verbose_name=_("player")
    )
    reason = models.CharField(_("reason"), max_length=200)
    until = models.DateTimeField(_("until"), db_index=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("muted by")
    )
    created_at = models.DateTimeField(_("muted at"))

    class Meta:
        verbose_name = _("chat mute")
        verbose_name_plural = _("chat mutes")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return gettext("%(user)s muted until %(until)s") % {"user": self.user, "until": f"{self.until:%Y-%m-%d %H:%M}"}


class PersonalMute(models.Model):
    """One user no longer sees another's messages (RULING P28); nobody else is affected."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    muted = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("muted player")
    )
    created_at = models.DateTimeField(_("muted at"), auto_now_add=True)

    class Meta:
        verbose_name = _("personal mute")
        verbose_name_plural = _("personal mutes")
        constraints = [
            models.UniqueConstraint(fields=["owner", "muted"], name="one_personal_mute"),
            models.CheckConstraint(condition=~models.Q(owner=models.F("muted")), name="no_muting_oneself"),
        ]

    def __str__(self) -> str:
        return gettext("%(owner)s mutes %(muted)s") % {"owner": self.owner, "muted": self.muted}
