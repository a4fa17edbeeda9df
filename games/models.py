"""A Match is one attempt at a table; MatchEvent is its append-only action log.

The state column is the engine's ``dumps`` text, its finished rounds kept once in the
rounds column (``games.storage``); it can always be rebuilt from the seed and the events
(``games.replay.rebuild_state``), which the tests prove.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games import catalog

GAME_CHOICES = catalog.choices()


class Match(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        DISMISSED = "dismissed", _("Dismissed by vote")
        ABORTED = "aborted", _("Aborted by an admin")
        ABANDONED = "abandoned", _("Abandoned")  # RULING P14: an untimed game with no move for a day

    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="matches")
    attempt = models.PositiveIntegerField(help_text="1 for the table's first start, 2 after a dismissal, …")
    game = models.CharField(max_length=20, choices=GAME_CHOICES, db_index=True)
    options = models.JSONField()
    players = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField()
    state = models.TextField(
        help_text="The engine's dumps(), finished rounds left to ``rounds`` (games.storage); hidden cards included, "
        "never sent to a client.")
    rounds = models.TextField(
        default="", blank=True,
        help_text="The finished rounds the state leaves out, a JSON array written once per round (games.storage).")
    version = models.PositiveIntegerField(default=0, help_text="How many actions have been applied.")
    turn_version = models.PositiveIntegerField(
        default=0,
        help_text="The version at which the seats now awaited began to be awaited. In SITA's simultaneous "
        "choice a move made on any view since then is still current.",
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PLAYING, db_index=True)
    end_reason = models.CharField(max_length=200, blank=True)
    record = models.JSONField(null=True, blank=True, help_text="The full record, stored when the game ends.")
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # The turn clock (issue 19; written only by tables.clock through the move services).
    turn_clock = models.PositiveSmallIntegerField(default=0, help_text="Seconds per decision; 0 = no clock.")
    deadlines = models.JSONField(
        default=dict, blank=True,
        help_text='Per awaited human seat: {"seat": [deadline in epoch ms, version that set it]}.',
    )
    clock_due = models.DateTimeField(null=True, blank=True, db_index=True,
                                     help_text="The earliest deadline: what the sweep looks for.")
    clock_seats = models.JSONField(
        default=dict, blank=True,
        help_text='{"expiries": {seat: n in a row}, "away": {seat: since, epoch ms}, "paused": {seat: ms left}}.',
    )

    class Meta:
        ordering = ["-started_at"]
        verbose_name_plural = "matches"
        constraints = [models.UniqueConstraint(fields=["table", "attempt"], name="one_match_per_attempt")]

    def __str__(self) -> str:
        return f"{self.get_game_display()} #{self.pk} (table {self.table_id}, attempt {self.attempt})"

    @property
    def is_live(self) -> bool:
        return self.status == self.Status.PLAYING


class MatchPlayer(models.Model):
    """Who sat where in a match, and how it went for them once it ended."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="match_players")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="match_players")
    place = models.PositiveSmallIntegerField(null=True, blank=True, help_text="1 = best; tied players share it.")
    total = models.IntegerField(null=True, blank=True)
    payout = models.IntegerField(null=True, blank=True, help_text="Coins paid from the pot (staked tables).")
    rating_before = models.FloatField(null=True, blank=True)
    rating_after = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["match", "seat"]
        constraints = [models.UniqueConstraint(fields=["match", "seat"], name="one_player_per_seat")]

    def __str__(self) -> str:
        return f"{self.user} in seat {self.seat + 1} of match {self.match_id}"


class MatchEvent(models.Model):
    """One applied action. Append-only: never updated or deleted."""

    # No index of its own: the unique (match, version) constraint's index serves every lookup by match.
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="events", db_index=False)
    version = models.PositiveIntegerField(help_text="The match version this action produced.")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    action = models.JSONField()
    created_at = models.DateTimeField()
    by_clock = models.BooleanField(default=False, help_text="Chosen by the house for an absent player (RULING P11).")

    class Meta:
        ordering = ["match", "version"]
        constraints = [models.UniqueConstraint(fields=["match", "version"], name="one_event_per_version")]

    def __str__(self) -> str:
        return f"match {self.match_id} v{self.version}: seat {self.seat + 1} {self.action}"


class Rating(models.Model):
    """A player's OpenSkill (Plackett-Luce) skill in one game. Bots are rated like anyone.

    ``mu`` and ``sigma`` are the model's belief; ``ordinal`` (mu − 3σ) is the cautious
    figure shown on profiles and the leaderboard. Written only by ``games.ratings``.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(max_length=20, choices=GAME_CHOICES)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(db_index=True)
    games = models.PositiveIntegerField(default=0, help_text="Finished games that counted.")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "-ordinal"]
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="one_rating_per_game")]

    def __str__(self) -> str:
        return f"{self.user} in {self.get_game_display()}: {self.ordinal:.1f}"


class Signature(models.Model):
    """RULING S13: the signature the Sitaratas of a finished Sitaratas game added to its result.

    One per game at most (``match`` is unique), written once by ``games.services.signature_add``
    and shown with the result from then on; the unique key refuses a second one even when two
    requests race past the service's checks.
    """

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="signature")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="signatures")
    text = models.CharField(max_length=80, blank=True, help_text="Plain text, escaped wherever it is shown.")
    created_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"signature on match {self.match_id}"
