"""Games that end without a result: an admin's abort and an untimed game left idle (RULINGS P8, P14).

Stakes are refunded and passes released in the same transaction (tables/services/steps.py).
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.models import Match
from tables import clock, matchstore
from tables.errors import TableError
from tables.services.steps import close_unfinished


def match_abort(*, match_id: int, by: User, reason: str, now: datetime | None = None) -> Match:
    """RULING P8: an admin ends a game in play, saying why; stakes are refunded and passes released."""
    now = now or timezone.now()
    if not by.is_staff:
        raise TableError(_("Only an admin can abort a game."))
    if not (reason or "").strip():
        raise TableError(_("Aborting a game needs a reason."))  # RULING P19
    with transaction.atomic():
        match = matchstore.lock_match(match_id)
        if match.status != Match.Status.PLAYING:
            raise TableError(_("Only a game in play can be aborted."))
        close_unfinished(
            match=match, status=Match.Status.ABORTED, reason=f"Aborted by {by.name}: {reason.strip()}", now=now, by=by
        )
    return match


def match_abandon_idle(*, match_id: int, now: datetime | None = None) -> bool:
    """RULING P14: an untimed game with no move for 24 hours ends as abandoned, as an admin abort would."""
    now = now or timezone.now()
    with transaction.atomic():
        match = matchstore.lock_match(match_id)
        if match.status != Match.Status.PLAYING or match.turn_clock:
            return False
        last = match.events.order_by("-version").values_list("created_at", flat=True).first() or match.started_at
        if last >= clock.idle_cutoff(now):
            return False  # a move came in since the sweep's query
        close_unfinished(
            match=match,
            status=Match.Status.ABANDONED,
            reason=f"Abandoned: no move for {clock.UNTIMED_IDLE_HOURS} hours.",
            now=now,
        )
        return True
