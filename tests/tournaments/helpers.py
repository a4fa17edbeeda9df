"""Helpers for tournament tests: a staff creator, players, a tournament due to start, a round played."""

from __future__ import annotations

import itertools
from datetime import datetime, timedelta

from django.contrib.auth.models import Permission
from django.utils import timezone

from accounts.models import User
from games.models import Match
from tables.services import lobby
from tests.conftest import make_user
from tests.helpers import fair_value
from tests.payouts.helpers import play_to_end
from tournaments import services
from tournaments.models import Round, Tournament

names = itertools.count()


def staff() -> User:
    user = make_user(f"staff{next(names)}")
    user.is_staff = True
    user.save()
    user.user_permissions.add(Permission.objects.get(codename="create_coin_tournament"))
    return User.objects.get(pk=user.pk)  # a fresh instance: permissions are cached per instance


def players(count: int, prefix: str = "p") -> list[User]:
    return [make_user(f"{prefix}{next(names)}") for _ in range(count)]


def create(creator: User, *, now: datetime | None = None, **fields) -> Tournament:
    now = now or timezone.now()
    values = {
        "name": "Friday cup",
        "game": "estimation",
        "options": {"length": "micro"},
        "starts_at": now + timedelta(hours=1),
        "rounds": 3,
        "table_size": 4,
        "min_players": 4,
        "max_players": 40,
    }
    values.update(fields)
    return services.tournament_create(creator=creator, now=now, **values)


def sign_up(tournament: Tournament, users: list[User]) -> None:
    for user in users:
        services.entry_signup(tournament_id=tournament.pk, user=user, now=tournament.starts_at - timedelta(minutes=5))


def start(tournament: Tournament) -> None:
    services.tournament_start(tournament_id=tournament.pk, now=tournament.starts_at)
    tournament.refresh_from_db()


def current_round(tournament: Tournament) -> Round:
    tournament.refresh_from_db()
    return tournament.round_set.get(number=tournament.current_round)


def ready(round_: Round, users: list[User]) -> None:
    """These players press "I'm ready" at their round table (bringing their own value, RULING P31)."""
    for round_table in round_.tables.all():
        for seat in round_table.table.seats.filter(user__in=users):
            lobby.seat_ready(table_id=round_table.table_id, user=seat.user, ready=True, entropy=fair_value())


def play_round(round_: Round, *, present: list[User] | None = None) -> None:
    """Start the round's tables (``present`` pressed ready; everyone else is absent) and play every
    game to its end, humans taking their first legal action, bots and the house as their tasks would."""
    ready(round_, present or [])
    services.round_tables_start(round_id=round_.pk, now=round_.tables_start_at)
    for round_table in round_.tables.all():
        play_to_end(Match.objects.get(table_id=round_table.table_id))
    services.round_check(round_id=round_.pk, now=round_.tables_start_at + timedelta(hours=1))
