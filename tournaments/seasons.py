"""Monthly seasons (RULING P84): each game's ladder of a month (``tournaments.selectors.ladder``),
frozen into an archive when the month is over.

The beat task runs hourly; a month already frozen is left as it is, so running it twice, or late,
changes nothing.
"""

from __future__ import annotations

from datetime import datetime

from django.db import IntegrityError, transaction

from games import catalog
from tournaments.models import Season, SeasonPlace
from tournaments.selectors import ladder, month_start, previous_month

TOP_PLAYERS = 10


def seasons_freeze(*, now: datetime) -> int:
    """Freeze every game's ladder of each month that has ended and is not frozen yet (the last one
    only: a site that was down for months freezes the month before this one). Returns how many."""
    month = previous_month(month_start(now))
    frozen = 0
    for game in catalog.GAMES:
        if Season.objects.filter(game=game.name, month=month).exists():
            continue
        rows = ladder(game=game.name, month=month)[:TOP_PLAYERS]
        try:
            with transaction.atomic():
                season = Season.objects.create(game=game.name, month=month, frozen_at=now)
                SeasonPlace.objects.bulk_create(
                    SeasonPlace(season=season, user_id=row.user_id, rank=rank, rating=row.rating, games=row.games)
                    for rank, row in enumerate(rows, start=1)
                )
        except IntegrityError:
            continue  # frozen by a task running at the same moment
        frozen += 1
    return frozen
