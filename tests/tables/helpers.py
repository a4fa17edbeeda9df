"""Helpers for table tests: open a table, fill it with bots, drive bots without Celery."""

from __future__ import annotations

from accounts.models import User
from games import storage
from games.engines import get_engine
from games.models import Match
from tables import services

DEFAULT_SEATS = {"sitaratas": 3, "estimation": 4, "sita": 3}


def open_table(host: User, game: str, *, seat_count: int | None = None, options: dict | None = None, stake: int = 0):
    return services.table_create(host=host, game=game, seat_count=seat_count or DEFAULT_SEATS[game],
                                 options=options or {}, stake=stake)


def fill_with_bots(table, host: User) -> None:
    for seat in table.seats.filter(user=None).order_by("position"):
        services.bot_add(table_id=table.pk, host=host, position=seat.position)


def seat_player_and_bots(table, host: User, player: User) -> None:
    """The player takes seat 1 and is ready; bots fill the other empty seats."""
    services.seat_take(table_id=table.pk, user=player, position=1)
    services.seat_ready(table_id=table.pk, user=player, ready=True)
    fill_with_bots(table, host)


def start_sitaratas_with_a_bot(host: User, player: User) -> Match:
    """Host, player and one bot at a started Sitaratas table, played on to the first human turn."""
    table = open_table(host, "sitaratas", seat_count=3)
    seat_player_and_bots(table, host, player)
    return play_bots_until_human(services.table_start(table_id=table.pk, host=host))


def play_bots_until_human(match: Match) -> Match:
    """Run bot turns synchronously (what the Celery task does) until a human is awaited or the game ends."""
    while True:
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING:
            return match
        if not services.bots_act(match_id=match.pk, version=match.version):
            return match


def state_of(match: Match):
    match.refresh_from_db()
    return get_engine(match.game), storage.full_state(match)
