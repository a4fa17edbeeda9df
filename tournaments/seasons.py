"""Monthly seasons (RULING P84): each game's ladder of a month from the OpenSkill ratings, frozen
into an archive when the month is over.

A player is on a month's ladder with at least ``SEASON_MIN_GAMES`` rated games of that game
finished in the month; their figure is the rating after their last game of the month
(``MatchPlayer.rating_after``, the cautious μ − 3σ). Bots are rated but not on the ladder. The
beat task runs hourly; a month already frozen is left as it is, so running it twice, or late,
changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count, Max

from games import catalog
from games.models import Match, MatchPlayer
from tournaments.models import Season, SeasonPlace

TOP_PLAYERS = 10


@dataclass(frozen=True)
class Standing:
    user_id: int
    rating: float
    games: int


def month_start(moment: datetime | date) -> date:
    return date(moment.year, moment.month, 1)


def previous_month(month: date) -> date:
    return date(month.year - 1, 12, 1) if month.month == 1 else date(month.year, month.month - 1, 1)


def next_month(month: date) -> date:
    return date(month.year + 1, 1, 1) if month.month == 12 else date(month.year, month.month + 1, 1)


def ladder(*, game: str, month: date) -> list[Standing]:
    """The month's ladder, best first (equal ratings: more games, then the earlier account)."""
    played = MatchPlayer.objects.filter(
        match__game=game,
        match__status=Match.Status.FINISHED,
        match__ended_at__date__gte=month,
        match__ended_at__date__lt=next_month(month),
        user__is_bot=False,
        rating_after__isnull=False,
    )
    counts = {
        row["user_id"]: (row["games"], row["last"])
        for row in played.values("user_id").annotate(games=Count("pk"), last=Max("match__ended_at"))
        if row["games"] >= settings.SEASON_MIN_GAMES
    }
    ratings: dict[int, float] = {}
    for user_id, rating, ended in played.filter(user_id__in=counts).values_list(
        "user_id", "rating_after", "match__ended_at"
    ):
        if ended == counts[user_id][1] and rating is not None:  # never None: filtered above
            ratings[user_id] = rating
    rows = [Standing(user_id, ratings[user_id], counts[user_id][0]) for user_id in ratings]
    rows.sort(key=lambda row: (-row.rating, -row.games, row.user_id))
    return rows


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
