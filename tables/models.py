"""Tables (lobbies that become games) and their seats."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import pgettext_lazy

from games.models import GAME_CHOICES


class Table(models.Model):
    class Status(models.TextChoices):
        LOBBY = "lobby", "Waiting for players"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"
        CLOSED = "closed", "Closed"

    game = models.CharField(max_length=20, choices=GAME_CHOICES, db_index=True)
    options = models.JSONField(help_text="The engine's full, validated options.")
    seat_count = models.PositiveSmallIntegerField()
    stake = models.PositiveIntegerField(default=0, help_text="Coins each human stakes (Estimation only; 0 = unstaked).")
    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="hosted_tables")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.LOBBY, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_activity_at = models.DateTimeField(db_index=True, help_text="Lobbies idle for too long close (RULING P8).")
    closed_reason = models.CharField(max_length=200, blank=True)
    clock = models.PositiveSmallIntegerField(default=0, help_text="Turn clock: seconds per decision, 0 = off (RULING P9).")

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.get_game_display()} table #{self.pk}"


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )
    is_ready = models.BooleanField(default=False)

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="one_seat_per_position"),
            models.UniqueConstraint(
                fields=["table", "user"], condition=models.Q(user__isnull=False), name="one_seat_per_user"
            ),
        ]

    def __str__(self) -> str:
        return f"seat {self.position + 1} at table {self.table_id}"

    @property
    def is_bot(self) -> bool:
        return self.user is not None and self.user.is_bot


class DismissalVote(models.Model):
    """RULING S12: the one dismissal vote an attempt may have (``match`` is unique).

    The deadline lives here, not in a process's memory: the expiry task re-reads it, so a
    late or repeated task is harmless. Ballots are user ids, written under the Match lock.
    """

    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("vote", "Open")
        APPROVED = "approved", pgettext_lazy("vote", "Approved")
        REJECTED = "rejected", pgettext_lazy("vote", "Rejected")
        EXPIRED = "expired", pgettext_lazy("vote", "Expired")

    match = models.OneToOneField("games.Match", on_delete=models.CASCADE, related_name="dismissal_vote")
    proposer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True)
    eligible = models.PositiveSmallIntegerField(help_text="Every player of the attempt, bots included (RULING S12).")
    needed = models.PositiveSmallIntegerField(help_text="A strict majority of the eligible: floor(N/2)+1. Bots never vote.")
    yes_voters = models.JSONField(default=list)
    no_voters = models.JSONField(default=list)
    created_at = models.DateTimeField()
    deadline = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"dismissal vote on match {self.match_id} ({self.status})"


class DealCommitment(models.Model):
    """RULING P30: the commitment of one attempt at a table, drawn before anyone is ready.

    ``secret`` never leaves the server until the attempt's game is over (RULING P33). Until the
    start, ``entropy`` holds each ready human's value by seat position, with the user it came
    from; at the start the values are frozen in seat order into ``contributions`` and the
    attempt's Match is linked.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="deal_commitments")
    attempt = models.PositiveIntegerField()
    secret = models.CharField(max_length=64, help_text="Hex. Hidden until the game is over.")
    commitment = models.CharField(max_length=64, help_text="SHA-256 of the secret, hex: public from the start.")
    entropy = models.JSONField(default=dict, blank=True, help_text="Lobby: position -> {user, value, by}.")
    contributions = models.JSONField(null=True, blank=True, help_text="Frozen at the start, in seat order.")
    match = models.OneToOneField("games.Match", null=True, blank=True, on_delete=models.CASCADE,
                                 related_name="deal_commitment")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "attempt"], name="one_commitment_per_attempt")]

    def __str__(self) -> str:
        return f"commitment {self.commitment[:12]}… of table {self.table_id}, attempt {self.attempt}"
