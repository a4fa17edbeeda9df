"""Tables (lobbies that become games) and their seats."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.models import GAME_CHOICES


class Spectators(models.TextChoices):
    """RULING P66: who may watch a private table (a public one anyone may)."""

    ANYONE = "anyone", _("Anyone")
    FRIENDS = "friends", _("Friends of the seated players")
    NOBODY = "nobody", _("Nobody")


class Table(models.Model):
    Spectators = Spectators

    class Status(models.TextChoices):
        LOBBY = "lobby", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        CLOSED = "closed", _("Closed")

    game = models.CharField(_("game"), max_length=20, choices=GAME_CHOICES, db_index=True)
    options = models.JSONField(_("options"), help_text=_("The engine's full, validated options."))
    seat_count = models.PositiveSmallIntegerField(_("seats"))
    stake = models.PositiveIntegerField(
        _("stake"), default=0, help_text=_("Coins each human stakes (Estimation only; 0 = unstaked).")
    )
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="hosted_tables", verbose_name=_("host")
    )
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.LOBBY, db_index=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    last_activity_at = models.DateTimeField(
        _("last activity"), db_index=True, help_text=_("Lobbies idle for too long close (RULING P8).")
    )
    # Stored in English as the services write it; shown translated by games.display.endings.
    closed_reason = models.CharField(_("why it closed"), max_length=200, blank=True)
    # Issue 42, RULING P65: unrated, the host alone among bots, hints on request.
    practice = models.BooleanField(
        _("practice"), default=False, help_text=_("Unrated; every seat but the host's is a bot; hints on request.")
    )
    clock = models.PositiveSmallIntegerField(
        _("turn clock"), default=0, help_text=_("Turn clock: seconds per decision, 0 = off (RULING P9).")
    )
    # RULING P66 (tables/selectors/privacy.py): friends and invited only, not in the public lobby.
    private = models.BooleanField(
        _("friends and invited only"),
        default=False,
        help_text=_("Not in the public lobby; only the host's friends and invited players may sit."),
    )
    spectators = models.CharField(
        _("who may watch"), max_length=10, choices=Spectators.choices, default=Spectators.ANYONE
    )
    invite_nonce = models.CharField(
        _("invitation key"), max_length=32, blank=True, help_text=_("Renewed to revoke the table's invitation link.")
    )
    # Raised with every change of who may see the table (RULING P66, tables/services/privacy.py): an open
    # socket that decided under an older one decides again at its next push.
    access_version = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")

    def __str__(self) -> str:
        return gettext("%(game)s table #%(table)s") % {"game": self.get_game_display(), "table": self.pk}


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats", verbose_name=_("table"))
    position = models.PositiveSmallIntegerField(_("position"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="seats",
        verbose_name=_("player"),
    )
    is_ready = models.BooleanField(_("ready"), default=False)

    class Meta:
        ordering = ["table", "position"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="one_seat_per_position"),
            models.UniqueConstraint(
                fields=["table", "user"], condition=models.Q(user__isnull=False), name="one_seat_per_user"
            ),
        ]

    def __str__(self) -> str:
        return gettext("seat %(seat)s at table %(table)s") % {"seat": self.position + 1, "table": self.table_id}

    @property
    def is_bot(self) -> bool:
        return self.user is not None and self.user.is_bot


class TableInvite(models.Model):
    """RULING P66: a player invited to a private table, by a friend's invitation or its link."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="invites", verbose_name=_("table"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="table_invites", verbose_name=_("player")
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("invited by"),
        help_text=_("Empty: came by the table's link."),
    )
    created_at = models.DateTimeField(_("invited at"))

    class Meta:
        verbose_name = _("table invitation")
        verbose_name_plural = _("table invitations")
        constraints = [models.UniqueConstraint(fields=["table", "user"], name="one_invite_per_table_and_user")]

    def __str__(self) -> str:
        return gettext("%(user)s invited to table %(table)s") % {"user": self.user_id, "table": self.table_id}


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

    match = models.OneToOneField(
        "games.Match", on_delete=models.CASCADE, related_name="dismissal_vote", verbose_name=_("game")
    )
    proposer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("proposer")
    )
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True)
    eligible = models.PositiveSmallIntegerField(
        _("eligible"), help_text=_("Every player of the attempt, bots included (RULING S12).")
    )
    needed = models.PositiveSmallIntegerField(
        _("needed"), help_text=_("A strict majority of the eligible: floor(N/2)+1. Bots never vote.")
    )
    yes_voters = models.JSONField(_("voted yes"), default=list)
    no_voters = models.JSONField(_("voted no"), default=list)
    created_at = models.DateTimeField(_("proposed at"))
    deadline = models.DateTimeField(_("deadline"))
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)

    class Meta:
        verbose_name = _("dismissal vote")
        verbose_name_plural = _("dismissal votes")

    def __str__(self) -> str:
        return gettext("dismissal vote on match %(match)s (%(status)s)") % {
            "match": self.match_id,
            "status": self.get_status_display(),
        }


class DealCommitment(models.Model):
    """RULING P30: the commitment of one attempt at a table, drawn before anyone is ready.

    ``secret`` never leaves the server until the attempt's game is over (RULING P33). Until the
    start, ``entropy`` holds each ready human's value by seat position, with the user it came
    from; at the start the values are frozen in seat order into ``contributions`` and the
    attempt's Match is linked.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="deal_commitments", verbose_name=_("table"))
    attempt = models.PositiveIntegerField(_("attempt"))
    secret = models.CharField(_("secret"), max_length=64, help_text=_("Hex. Hidden until the game is over."))
    commitment = models.CharField(
        _("commitment"), max_length=64, help_text=_("SHA-256 of the secret, hex: public from the start.")
    )
    entropy = models.JSONField(
        _("players' values"), default=dict, blank=True, help_text=_("Lobby: position -> {user, value, by}.")
    )
    contributions = models.JSONField(
        _("contributions"), null=True, blank=True, help_text=_("Frozen at the start, in seat order.")
    )
    match = models.OneToOneField(
        "games.Match",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="deal_commitment",
        verbose_name=_("game"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("deal commitment")
        verbose_name_plural = _("deal commitments")
        constraints = [models.UniqueConstraint(fields=["table", "attempt"], name="one_commitment_per_attempt")]

    def __str__(self) -> str:
        return gettext("commitment %(hash)s… of table %(table)s, attempt %(attempt)s") % {
            "hash": self.commitment[:12],
            "table": self.table_id,
            "attempt": self.attempt,
        }


class Rematch(models.Model):
    """RULING P70: a finished table's "play again": the same game, options and seats at a new table.

    One per finished table (``source`` is unique), opened by the first human to accept; every
    other human of the game has an answer row, pending until they accept or decline.
    """

    source = models.OneToOneField(
        Table, on_delete=models.CASCADE, related_name="rematch", verbose_name=_("game over at")
    )
    table = models.OneToOneField(
        Table, on_delete=models.CASCADE, related_name="rematch_of", verbose_name=_("rematch table")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("rematch")
        verbose_name_plural = _("rematches")

    def __str__(self) -> str:
        return gettext("rematch of table %(source)s at table %(table)s") % {
            "source": self.source_id,
            "table": self.table_id,
        }


class RematchAnswer(models.Model):
    class Answer(models.TextChoices):
        PENDING = "pending", pgettext_lazy("rematch", "Not answered")
        ACCEPTED = "accepted", pgettext_lazy("rematch", "Accepted")
        DECLINED = "declined", pgettext_lazy("rematch", "Declined")

    rematch = models.ForeignKey(Rematch, on_delete=models.CASCADE, related_name="answers", verbose_name=_("rematch"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("player")
    )
    position = models.PositiveSmallIntegerField(_("position"))
    answer = models.CharField(_("answer"), max_length=10, choices=Answer.choices, default=Answer.PENDING)
    answered_at = models.DateTimeField(_("answered at"), null=True, blank=True)

    class Meta:
        ordering = ["rematch", "position"]
        verbose_name = _("rematch answer")
        verbose_name_plural = _("rematch answers")
        constraints = [
            models.UniqueConstraint(fields=["rematch", "user"], name="one_rematch_answer_per_user"),
            models.UniqueConstraint(fields=["rematch", "position"], name="one_rematch_answer_per_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.get_answer_display()}"


class QuickTable(models.Model):
    """RULING P73: a table that "Play now" opened; bots fill its empty seats at ``bots_at``."""

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="quick", verbose_name=_("table"))
    wait = models.PositiveSmallIntegerField(_("bot wait"), help_text=_("Seconds before bots fill the empty seats."))
    bots_at = models.DateTimeField(_("bots come at"))
    filled_at = models.DateTimeField(_("bots came at"), null=True, blank=True)

    class Meta:
        verbose_name = _("quick-play table")
        verbose_name_plural = _("quick-play tables")

    def __str__(self) -> str:
        return str(self.table)


class QuickPlayChoice(models.Model):
    """A player's defaults for "Play now" in one game: the table it opens and the bots' wait."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="quick_play_choices", verbose_name=_("player")
    )
    game = models.CharField(_("game"), max_length=20, choices=GAME_CHOICES)
    seat_count = models.PositiveSmallIntegerField(_("seats"), null=True, blank=True)
    options = models.JSONField(_("options"), default=dict, blank=True)
    wait = models.PositiveSmallIntegerField(_("bot wait"), default=30)

    class Meta:
        verbose_name = _("quick-play choice")
        verbose_name_plural = _("quick-play choices")
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="one_quick_play_choice_per_game")]

    def __str__(self) -> str:
        return f"{self.user} · {self.get_game_display()}"


class SeatAddress(models.Model):
    """RULING P72: where a seat was taken from, as a keyed digest of the client's address (its /64
    for IPv6): two seats can be told to share one, and the address itself is never stored or shown."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seat_addresses", verbose_name=_("table"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    digest = models.CharField(_("address digest"), max_length=64)
    created_at = models.DateTimeField(_("recorded at"), auto_now=True)

    class Meta:
        verbose_name = _("seat address")
        verbose_name_plural = _("seat addresses")
        constraints = [models.UniqueConstraint(fields=["table", "user"], name="one_seat_address_per_user")]

    def __str__(self) -> str:
        return f"{self.user} · {self.table_id}"
