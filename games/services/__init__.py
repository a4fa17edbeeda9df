"""Writes to games (docs/style.md §5): one transaction each, under the Match row lock.

``ratings`` (OpenSkill's Plackett-Luce model, one rating per player and game, written as a game
is settled), ``reviews`` (the strong bot's review of every human decision, docs/reviews.md).
This module holds the Sitaratas' signature on a finished game (RULINGS S13–S15): two tabs of the
same player, or a late retry, cannot both sign: the second finds the first signature and is
refused.
"""

from __future__ import annotations

import unicodedata
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from core.i18n import lazy_format
from games import catalog
from games.models import Match, Signature
from games.selectors.history import sitaratas_player

SIGNATURE_MAX = 80


class GameError(ValueError):
    """A refused write; the message is for the player."""


def signature_clean(text: object) -> str:
    """RULING S14: one line of plain text, 1 to 80 characters after trimming.

    Control characters (new lines, tabs, invisible formatting marks) become spaces and runs of
    spaces one, so a signature cannot break the result's layout or hide text; HTML is not
    stripped but escaped wherever the text is shown.
    """
    if not isinstance(text, str):
        raise GameError(_("A signature is a short text."))
    cleaned = "".join(" " if unicodedata.category(ch).startswith("C") else ch for ch in text)
    cleaned = " ".join(cleaned.split())
    if not cleaned:
        raise GameError(_("Write something to sign the result with."))
    if len(cleaned) > SIGNATURE_MAX:
        raise GameError(
            lazy_format(
                _("A signature is at most %(most)s characters (%(length)s given)."),
                most=SIGNATURE_MAX,
                length=len(cleaned),
            )
        )
    return cleaned


def signatures_clear(*, ids: list[int]) -> int:
    """RULING S15: moderation clears a signature's text; the row stays so it is not offered again."""
    with transaction.atomic():
        return Signature.objects.filter(pk__in=ids).exclude(text="").update(text="")


def signatures_erase(user: User) -> None:
    """RULINGS P23, S15: a deleted account's signatures lose their text; the rows stay with the games."""
    Signature.objects.filter(user=user).exclude(text="").update(text="")


def signature_add(*, match_id: int, user: User, text: object, now: datetime | None = None) -> Signature:
    """RULING S13: the Sitaratas signs the result of a finished game, once; nobody else ever."""
    now = now or timezone.now()
    cleaned = signature_clean(text)
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None:
            raise GameError(_("No such game."))
        if not catalog.get(match.game).signature:
            raise GameError(_("Only a Sitaratas game has a Sitaratas to sign it."))
        if match.status != Match.Status.FINISHED:
            raise GameError(_("The Sitaratas may sign only once the game is over."))
        chosen = sitaratas_player(match)
        if chosen is None or chosen.user_id != user.pk or user.is_bot:
            raise GameError(_("Only the Sitaratas of this game may sign its result."))
        if Signature.objects.filter(match=match).exists():
            raise GameError(_("This result is already signed: a signature is offered once."))
        try:
            with transaction.atomic():
                return Signature.objects.create(match=match, user=user, text=cleaned, created_at=now)
        except IntegrityError:
            raise GameError(_("This result is already signed: a signature is offered once.")) from None
