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


def table_model():
    """The tables app's ``Table``, looked up in the app registry."""
    return apps.get_model("tables", "Table")


class Channel(models.TextChoices):
    # RULING P25: players and spectators talk in separate rooms, as on Lichess.
    PLAYERS = "players", "Players"
    SPECTATORS = "spectators", "Spectators"


class ChatRoom(models.Model):
    """A table's chat settings; a table without a row has the defaults."""

    table = models.OneToOneField("tables.Table", on_delete=models.CASCADE, related_name="chat_room")
    spectator_chat = models.BooleanField(default=True, help_text="The host can turn spectators' chat off (RULING P26).")

    def __str__(self) -> str:
        return f"chat of table {self.table_id}"


class ChatMessage(models.Model):
    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="chat_messages")
    match = models.ForeignKey("games.Match", null=True, blank=True, on_delete=models.PROTECT,
                              related_name="chat_messages", help_text="The game it was said in or after, if any.")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="chat_messages")
    channel = models.CharField(max_length=12, choices=Channel.choices)
    text = models.CharField(max_length=300)
    created_at = models.DateTimeField(db_index=True)
    hidden = models.BooleanField(default=False)
    hidden_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                  related_name="+")
    hidden_reason = models.CharField(max_length=200, blank=True)
    hidden_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["table", "id"], name="chat_message_table_id"),
            models.Index(fields=["author", "created_at"], name="chat_message_author_time"),  # the rate limit
        ]

    def __str__(self) -> str:
        return f"{self.author} at table {self.table_id}: {self.text[:40]}"


class ChatReport(models.Model):
    message = models.ForeignKey(ChatMessage, on_delete=models.PROTECT, related_name="reports")
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    reason = models.CharField(max_length=200)
    created_at = models.DateTimeField()
    resolved_at = models.DateTimeField(null=True, blank=True, help_text="Set when the message is hidden or the "
                                       "report is dismissed.")

    class Meta:
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["message", "reporter"], name="one_report_per_reporter")]

    def __str__(self) -> str:
        return f"report by {self.reporter} on message {self.message_id}"


class ChatMute(models.Model):
    """A site-wide mute set by a moderator: the user cannot chat anywhere until ``until``."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="chat_mutes")
    reason = models.CharField(max_length=200)
    until = models.DateTimeField(db_index=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.user} muted until {self.until:%Y-%m-%d %H:%M}"


class PersonalMute(models.Model):
    """One user no longer sees another's messages (RULING P28); nobody else is affected."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["owner", "muted"], name="one_personal_mute"),
            models.CheckConstraint(condition=~models.Q(owner=models.F("muted")), name="no_muting_oneself"),
        ]

    def __str__(self) -> str:
        return f"{self.owner} mutes {self.muted}"
