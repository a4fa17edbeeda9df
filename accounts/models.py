from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts.bots import bot_base_name, bot_display_name, bot_label


class User(AbstractUser):
    """A player. Bots are users too (``is_bot``), so they sit, rank and get rated like anyone.

    A bot account has no usable password and can never log in.
    """

    display_name = models.CharField(
        _("display name"), max_length=40, blank=True, help_text=_("Shown at tables instead of the username.")
    )
    is_bot = models.BooleanField(_("bot"), default=False, db_index=True)
    four_colour_suits = models.BooleanField(
        _("four-colour suits"),
        default=False,
        help_text=_("Draw clubs green and diamonds blue, so every suit has its own colour."),
    )
    bot_level = models.CharField(
        _("bot level"),
        max_length=10,
        blank=True,
        default="",
        help_text=_("A bot's level: easy, normal or strong (each level is its own rated bot); empty for people."),
    )

    # Issue 26: the site's language for this player; empty follows the browser.
    language = models.CharField(
        _("language"),
        max_length=8,
        blank=True,
        default="",
        help_text=_("The site's language for this player; empty follows the browser."),
    )

    # Issue 41: the player's time zone (an IANA name), guessed by the browser at sign-up; start
    # times are stored in UTC and shown in it. Empty: the site's zone (UTC).
    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        blank=True,
        default="",
        help_text=_("Start times are shown in this zone, such as Europe/Tallinn."),
    )

    # Not stored: set by the admin's add form on the instance it saves, so the starting coins and
    # passes (payouts/signals.py) name the admin and their reason (RULING P19).
    opened_by: User | None = None
    opened_reason: str = ""

    class ReviewVisibility(models.TextChoices):
        PLAYERS = "players", _("The players of that game")
        EVERYONE = "everyone", _("Everyone")
        ME = "me", _("Only me")

    # Issue 42: who may read the strong bot's review of this player's games.
    review_visibility = models.CharField(
        _("who sees my game reviews"),
        max_length=10,
        choices=ReviewVisibility.choices,
        default=ReviewVisibility.PLAYERS,
    )

    class Meta:
        ordering = ["username"]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        if self.is_bot and self.display_name == bot_display_name(bot_base_name(self.username).title(), self.bot_level):
            # Issue 37: a bot's name in the reader's language, unless an admin renamed it.
            return bot_label(self.username, self.bot_level) or self.display_name
        return self.display_name or self.username
