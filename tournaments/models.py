"""Tournaments, their entries, rounds and round tables; monthly seasons (RULINGS P77–P84).

A tournament sits above tables: each round's tables are ordinary ``tables.Table`` rows played by
the ordinary services, and a ``RoundTable`` ties one to its round. Points are kept in half-points
(``half_points``) so that tied places share exactly (RULING P77).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import GAME_CHOICES


class Tournament(models.Model):
    class State(models.TextChoices):
        SIGNUP = "signup", _("Sign-up open")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    name = models.CharField(_("name"), max_length=80)
    game = models.CharField(_("game"), max_length=20, choices=GAME_CHOICES)
    options = models.JSONField(_("options"), help_text=_("The engine's full, validated options."))
    starts_at = models.DateTimeField(_("starts at"), db_index=True, help_text=_("Stored in UTC."))
    rounds = models.PositiveSmallIntegerField(_("rounds"))
    table_size = models.PositiveSmallIntegerField(_("table size"))
    min_players = models.PositiveSmallIntegerField(_("minimum players"))
    max_players = models.PositiveSmallIntegerField(_("maximum players"))
    entry_fee = models.PositiveIntegerField(_("entry fee"), default=0, help_text=_("Coins; 0 is free."))
    prize_split = models.JSONField(_("prize split"), default=list, help_text=_("Percent per place, best first."))
    clock = models.PositiveSmallIntegerField(_("turn clock"), help_text=_("Seconds per decision (never off)."))
    official = models.BooleanField(_("the site's own"), default=False)
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="tournaments_created",
        verbose_name=_("creator"),
    )
    state = models.CharField(_("state"), max_length=10, choices=State.choices, default=State.SIGNUP, db_index=True)
    current_round = models.PositiveSmallIntegerField(_("current round"), default=0)
    pot = models.PositiveIntegerField(_("pot"), default=0, help_text=_("Coins collected at the start."))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    ended_at = models.DateTimeField(_("ended at"), null=True, blank=True)
    # RULING P85: when its players were told it starts soon (once).
    reminded_at = models.DateTimeField(_("players reminded at"), null=True, blank=True)
    end_reason = models.CharField(_("how it ended"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["starts_at", "pk"]
        permissions = [("create_coin_tournament", _("Can create coin tournaments and the site's own"))]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    class State(models.TextChoices):
        ACTIVE = "active", _("Playing")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        DISQUALIFIED = "disqualified", _("Disqualified")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="entries", verbose_name=_("tournament")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournament_entries", verbose_name=_("player")
    )
    state = models.CharField(_("state"), max_length=12, choices=State.choices, default=State.ACTIVE)
    rating = models.FloatField(_("rating at sign-up"), default=0)
    half_points = models.PositiveIntegerField(_("half-points"), default=0)
    absences = models.PositiveSmallIntegerField(_("absent rounds"), default=0)
    rank = models.PositiveIntegerField(_("rank"), null=True, blank=True)
    prize = models.PositiveIntegerField(_("prize"), null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    signed_up_at = models.DateTimeField(_("signed up at"))

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        ordering = ["tournament", "signed_up_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="one_entry_per_player")]

    def __str__(self) -> str:
        return f"{self.user} @ {self.tournament}"

    @property
    def points(self) -> float:
        return self.half_points / 2


class Round(models.Model):
    class State(models.TextChoices):
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="round_set", verbose_name=_("tournament")
    )
    number = models.PositiveSmallIntegerField(_("round"))
    state = models.CharField(_("state"), max_length=10, choices=State.choices, default=State.PLAYING)
    started_at = models.DateTimeField(_("started at"))
    # RULING P80: until then the players may press "I'm ready" at their table; then it starts.
    tables_start_at = models.DateTimeField(_("tables start at"))
    ended_at = models.DateTimeField(_("ended at"), null=True, blank=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="one_round_per_number")]

    def __str__(self) -> str:
        return f"{self.tournament} · {self.number}"


class RoundTable(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables", verbose_name=_("round"))
    number = models.PositiveSmallIntegerField(_("table"))
    table = models.OneToOneField(
        "tables.Table", on_delete=models.PROTECT, related_name="tournament_table", verbose_name=_("table")
    )
    scored = models.BooleanField(_("scored"), default=False)

    class Meta:
        verbose_name = _("round table")
        verbose_name_plural = _("round tables")
        ordering = ["round", "number"]

    def __str__(self) -> str:
        return f"{self.round} · {self.number}"


class Sitting(models.Model):
    """One human's seat in one round: whether they were present at the start and what they scored."""

    round_table = models.ForeignKey(
        RoundTable, on_delete=models.CASCADE, related_name="sittings", verbose_name=_("round table")
    )
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="sittings", verbose_name=_("entry"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    absent = models.BooleanField(_("absent at the start"), default=False)
    place = models.PositiveSmallIntegerField(_("place"), null=True, blank=True)
    half_points = models.PositiveIntegerField(_("half-points"), null=True, blank=True)

    class Meta:
        verbose_name = _("sitting")
        verbose_name_plural = _("sittings")
        ordering = ["round_table", "seat"]
        constraints = [models.UniqueConstraint(fields=["round_table", "entry"], name="one_sitting_per_table")]

    def __str__(self) -> str:
        return f"{self.round_table} · {self.seat + 1}"


class Season(models.Model):
    """RULING P84: one game's monthly ladder, frozen at the month's end."""

    game = models.CharField(_("game"), max_length=20, choices=GAME_CHOICES)
    month = models.DateField(_("month"), help_text=_("The first day of the month."))
    frozen_at = models.DateTimeField(_("frozen at"))

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["-month", "game"]
        constraints = [models.UniqueConstraint(fields=["game", "month"], name="one_season_per_game_and_month")]

    def __str__(self) -> str:
        return f"{self.get_game_display()} {self.month:%Y-%m}"


class SeasonPlace(models.Model):
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="places", verbose_name=_("season"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="season_places", verbose_name=_("player")
    )
    rank = models.PositiveSmallIntegerField(_("rank"))
    rating = models.FloatField(_("rating"))
    games = models.PositiveIntegerField(_("games"))

    class Meta:
        verbose_name = _("season place")
        verbose_name_plural = _("season places")
        ordering = ["season", "rank"]
        constraints = [models.UniqueConstraint(fields=["season", "user"], name="one_place_per_season")]

    def __str__(self) -> str:
        return f"{self.season} #{self.rank}"
