"""Monthly seasons (RULING P84): the ladder from the month's rated games, frozen once."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from games.models import Match, MatchPlayer
from tables.models import Table
from tests.tournaments.helpers import players
from tournaments import services
from tournaments.models import Season, SeasonPlace
from tournaments.selectors import season_badges

pytestmark = pytest.mark.django_db


def finished_game(users, ratings, ended: datetime) -> None:
    table = Table.objects.create(game="sita", options={}, seat_count=len(users), host=users[0], last_activity_at=ended)
    match = Match.objects.create(
        table=table,
        attempt=1,
        game="sita",
        options={},
        players=len(users),
        seed=1,
        state="",
        status="finished",
        started_at=ended,
        ended_at=ended,
    )
    for seat, (user, rating) in enumerate(zip(users, ratings, strict=True)):
        MatchPlayer.objects.create(match=match, seat=seat, user=user, place=seat + 1, rating_after=rating)


def test_the_months_ladder_is_frozen_once_with_its_top_players(settings) -> None:
    settings.SEASON_MIN_GAMES = 2
    ada, bo, cy = players(3)
    november = datetime(2026, 11, 10, tzinfo=UTC)
    finished_game([ada, bo, cy], [10.0, 5.0, 1.0], november)
    finished_game([ada, bo], [12.0, 15.0], november.replace(day=20))
    finished_game([ada, bo], [30.0, 30.0], datetime(2026, 12, 1, tzinfo=UTC))  # next month: not counted
    now = datetime(2026, 12, 1, 1, tzinfo=UTC)
    assert services.seasons_freeze(now=now) == 3  # one archive per game, empty for the unplayed ones
    season = Season.objects.get(game="sita")
    places = list(SeasonPlace.objects.filter(season=season).values_list("user", "rank", "rating", "games"))
    assert places == [(bo.pk, 1, 15.0, 2), (ada.pk, 2, 12.0, 2)]  # cy played once: not on the ladder
    assert services.seasons_freeze(now=now) == 0  # twice is once
    assert [p.rank for p in season_badges(bo)] == [1]
