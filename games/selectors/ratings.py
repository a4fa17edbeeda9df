"""Reads of the skill ratings (written only by ``games.services.ratings``): the leaderboard."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from accounts.selectors import users_named_publicly
from games.models import Rating


def leaderboard(*, game: str, limit: int = 100) -> QuerySet[Rating]:
    # RULING P54: the names as public lists show them (a muted player's withheld).
    ratings = Rating.objects.filter(game=game, games__gt=0).prefetch_related(
        Prefetch("user", queryset=users_named_publicly())
    )
    return ratings.order_by("-ordinal", "user_id")[:limit]
