"""A Match is one attempt at a table; MatchEvent is its append-only action log.

The state column is the engine's ``dumps`` text, its finished rounds kept once in the
rounds column (``games.records.storage``); it can always be rebuilt from the seed and the events
(tests/games/replay.py), which the tests prove.
"""

from __future__ import annotations

from typing import TypedDict

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import catalog

# The function, not its list: the migrations name it, so a game added to the catalogue changes no column.
GAME_CHOICES = catalog.choices


class ClockSeats(TypedDict, total=False):
    """``Match.clock_seats``: what the turn clock (tables/clock.py) keeps per seat. Seat keys are
    strings (JSON object keys)."""

    expiries: dict[str, int]  # the seat's clock expiries in a row
    away: dict[str, int]  # since when the seat is away, epoch ms
    paused: dict[str, int]  # during a dismissal vote: the ms the seat had left
    timer: list[int]  # the armed countdown task: [epoch ms, match version]


class Match(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        DISMISSED = "dismissed", _("Dismissed by vote")
        ABORTED = "aborted", _("Aborted by an admin")
        ABANDONED = "abandoned", _("Abandoned")  # RULING P14: an untimed game with no move for a day

    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="matches", verbose_name=_("table"))
    # Not a column: the table's access version, read with the row's lock by a move
    # (tables/matchstore.py, lock_match), so that the move's push carries it (RULING P66).
    table_access_version: int | None = None
    attempt = models.PositiveIntegerField(
        _("attempt"), help_text=_("1 for the table's first start, 2 after a dismissal, …")
    )
    game = models.CharField(_("game"), max_length=20, choices=GAME_CHOICES, db_index=True)
    options = models.JSONField(_("options"))
    players = models.PositiveSmallIntegerField(_("players"))
    seed = models.BigIntegerField(_("seed"))
    state = models.TextField(
        _("state"),
        help_text=_(
            "The engine's dumps(), finished rounds left to “rounds”; hidden cards included, never sent to a client."
        ),
    )
    rounds = models.TextField(
        _("finished rounds"),
        default="",
        blank=True,
        help_text=_("The finished rounds the state leaves out, a JSON array written once per round."),
    )
    version = models.PositiveIntegerField(_("version"), default=0, help_text=_("How many actions have been applied."))
    turn_version = models.PositiveIntegerField(
        _("turn version"),
        default=0,
        help_text=_(
            "The version at which the seats now awaited began to be awaited. In SITA's simultaneous "
            "choice a move made on any view since then is still current."
        ),
    )
    status = models.CharField(_("status"), max_length=12, choices=Status.choices, default=Status.PLAYING, db_index=True)
    # Stored in English as the services write it (searchable in the admin); shown translated by
    # games.display.endings, which also reads the rows written before the site had languages.
    end_reason = models.CharField(_("how it ended"), max_length=200, blank=True)
    record = models.JSONField(
        _("record"), null=True, blank=True, help_text=_("The full record, stored when the game ends.")
    )
    started_at = models.DateTimeField(_("started at"))
    ended_at = models.DateTimeField(_("ended at"), null=True, blank=True, db_index=True)
    # The turn clock (issue 19; written only by tables.clock through the move services).
    turn_clock = models.PositiveSmallIntegerField(
        _("turn clock"), default=0, help_text=_("Seconds per decision; 0 = no clock.")
    )
    deadlines = models.JSONField(
        _("deadlines"),
        default=dict,
        blank=True,
        help_text=_('Per awaited human seat: {"seat": [deadline in epoch ms, version that set it]}.'),
    )
    clock_due = models.DateTimeField(
        _("clock due"),
        null=True,
        blank=True,
        db_index=True,
        help_text=_("The earliest deadline: what the sweep looks for."),
    )
    clock_seats: models.JSONField[ClockSeats, ClockSeats] = models.JSONField(
        _("clock's seats"),
        default=dict,
        blank=True,
        help_text=_('{"expiries": {seat: n in a row}, "away": {seat: since, epoch ms}, "paused": {seat: ms left}}.'),
    )

    class Meta:
        ordering = ["-started_at"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [models.UniqueConstraint(fields=["table", "attempt"], name="one_match_per_attempt")]

    def __str__(self) -> str:
        return gettext("%(game)s #%(match)s (table %(table)s, attempt %(attempt)s)") % {
            "game": self.get_game_display(),
            "match": self.pk,
            "table": self.table_id,
            "attempt": self.attempt,
        }


class MatchPlayer(models.Model):
    """Who sat where in a match, and how it went for them once it ended."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="match_players", verbose_name=_("game"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="match_players", verbose_name=_("player")
    )
    place = models.PositiveSmallIntegerField(
        _("place"), null=True, blank=True, help_text=_("1 = best; tied players share it.")
    )
    total = models.IntegerField(_("total"), null=True, blank=True)
    payout = models.IntegerField(
        _("payout"), null=True, blank=True, help_text=_("Coins paid from the pot (staked tables).")
    )
    rating_before = models.FloatField(_("rating before"), null=True, blank=True)
    rating_after = models.FloatField(_("rating after"), null=True, blank=True)

    class Meta:
        verbose_name = _("game's player")
        verbose_name_plural = _("game's players")
        ordering = ["match", "seat"]
        constraints = [models.UniqueConstraint(fields=["match", "seat"], name="one_player_per_seat")]

    def __str__(self) -> str:
        return gettext("%(user)s in seat %(seat)s of match %(match)s") % {
            "user": self.user,
            "seat": self.seat + 1,
            "match": self.match_id,
        }


class MatchEvent(models.Model):
    """One applied action. Append-only: never updated or deleted."""

    # No index of its own: the unique (match, version) constraint's index serves every lookup by match.
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="events", db_index=False, verbose_name=_("game")
    )
    version = models.PositiveIntegerField(_("version"), help_text=_("The game's version this action produced."))
    seat = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("player")
    )
    action = models.JSONField(_("action"))
    created_at = models.DateTimeField(_("played at"))
    by_clock = models.BooleanField(
        _("by the clock"), default=False, help_text=_("Chosen by the house for an absent player (RULING P11).")
    )

    class Meta:
        verbose_name = _("game event")
        verbose_name_plural = _("game events")
        ordering = ["match", "version"]
        constraints = [models.UniqueConstraint(fields=["match", "version"], name="one_event_per_version")]

    def __str__(self) -> str:
        return gettext("match %(match)s v%(version)s: seat %(seat)s %(action)s") % {
            "match": self.match_id,
            "version": self.version,
            "seat": self.seat + 1,
            "action": self.action,
        }


class Rating(models.Model):
    """A player's OpenSkill (Plackett-Luce) skill in one game. Bots are rated like anyone.

    ``mu`` and ``sigma`` are the model's belief; ``ordinal`` (mu − 3σ) is the cautious
    figure shown on profiles and the leaderboard. Written only by ``games.services.ratings``.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings", verbose_name=_("player")
    )
    game = models.CharField(_("game"), max_length=20, choices=GAME_CHOICES)
    mu = models.FloatField("μ")
    sigma = models.FloatField("σ")
    ordinal = models.FloatField(_("rating"), db_index=True)
    games = models.PositiveIntegerField(_("games"), default=0, help_text=_("Finished games that counted."))
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        ordering = ["game", "-ordinal"]
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="one_rating_per_game")]

    def __str__(self) -> str:
        return gettext("%(user)s in %(game)s: %(rating)s") % {
            "user": self.user,
            "game": self.get_game_display(),
            "rating": f"{self.ordinal:.1f}",
        }


class Signature(models.Model):
    """RULING S13: the signature the Sitaratas of a finished Sitaratas game added to its result.

    One per game at most (``match`` is unique), written once by ``games.services.signature_add``
    and shown with the result from then on; the unique key refuses a second one even when two
    requests race past the service's checks.
    """

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="signature", verbose_name=_("game"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="signatures", verbose_name=_("player")
    )
    text = models.CharField(
        _("text"), max_length=80, blank=True, help_text=_("Plain text, escaped wherever it is shown.")
    )
    created_at = models.DateTimeField(_("signed at"))

    class Meta:
        verbose_name = _("signature")
        verbose_name_plural = _("signatures")

    def __str__(self) -> str:
        return gettext("signature on match %(match)s") % {"match": self.match_id}


class Review(models.Model):
    """Issue 42: the strong bot's review of one human seat's decisions in a finished game.

    Written only by ``games.services.reviews``: a row is made ``pending`` when the game ends, ``queued``
    once its task is sent (within the per-user and site-wide limits), ``running`` while a worker
    holds it, ``done`` with its decisions stored. RULING P64: accuracy and the thresholds.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for its turn")
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="reviews", verbose_name=_("game"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reviews", verbose_name=_("player")
    )
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING)
    decisions = models.PositiveIntegerField(_("decisions"), default=0, help_text=_("Decisions with a choice, scored."))
    average_loss = models.FloatField(_("average loss"), null=True, blank=True)
    accuracy = models.FloatField(_("accuracy"), null=True, blank=True, help_text=_("0–100 (RULING P64)."))
    mistakes = models.PositiveIntegerField(_("mistakes"), default=0)
    blunders = models.PositiveIntegerField(_("blunders"), default=0)
    samples = models.PositiveIntegerField(_("samples"), default=0, help_text=_("Sampled deals, all decisions."))
    cpu_seconds = models.FloatField(_("CPU seconds"), default=0.0)
    runs = models.PositiveIntegerField(_("runs"), default=0)
    reason = models.CharField(_("reason"), max_length=150, blank=True, help_text=_("Why an admin re-ran it."))
    requested_at = models.DateTimeField(_("requested at"))
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("review")
        verbose_name_plural = _("reviews")
        ordering = ["-requested_at"]
        constraints = [models.UniqueConstraint(fields=["match", "seat"], name="one_review_per_seat")]
        indexes = [models.Index(fields=["status", "requested_at"], name="review_status_requested")]

    def __str__(self) -> str:
        return gettext("review of %(user)s in match %(match)s") % {"user": self.user, "match": self.match_id}


class ReviewDecision(models.Model):
    """One scored decision: what was played, what the bot preferred, and every action's value."""

    review = models.ForeignKey(Review, on_delete=models.CASCADE, related_name="items", verbose_name=_("review"))
    index = models.PositiveIntegerField(_("decision"), help_text=_("1 for the seat's first decision with a choice."))
    version = models.PositiveIntegerField(_("version"), help_text=_("The game's version this decision produced."))
    # Where the replay shows it: the round (SITA: the match), and its trick or turn (0: before
    # the first, as bids, the auction and estimates are).
    round = models.PositiveSmallIntegerField(_("round"))
    moment = models.PositiveSmallIntegerField(_("trick or turn"))
    action = models.JSONField(_("action"))
    value = models.FloatField(_("value"), null=True, blank=True, help_text=_("None: an action the bot cannot weigh."))
    best_action = models.JSONField(_("best action"))
    best_value = models.FloatField(_("best value"))
    loss = models.FloatField(_("loss"), default=0.0)
    mistake = models.BooleanField(_("mistake"), default=False)
    blunder = models.BooleanField(_("blunder"), default=False)
    values = models.JSONField(_("values"), help_text=_('[{"action", "points", "first"}] best first.'))
    samples = models.PositiveIntegerField(_("samples"))

    class Meta:
        verbose_name = _("reviewed decision")
        verbose_name_plural = _("reviewed decisions")
        ordering = ["review", "index"]
        constraints = [models.UniqueConstraint(fields=["review", "version"], name="one_item_per_decision")]

    def __str__(self) -> str:
        return gettext("decision %(index)s of %(review)s") % {"index": self.index, "review": self.review}
