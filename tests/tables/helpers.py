"""Helpers for table tests: open a table, fill it with bots, drive bots without Celery."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from accounts.models import User
from games.catalog import get_engine
from games.models import Match
from games.records import storage
from tables.models import Table
from tables.services import lobby, play
from tests.helpers import fair_value

DEFAULT_SEATS = {"sitaratas": 3, "estimation": 4, "sita": 3}


def open_table(host: User, game: str, *, seat_count: int | None = None, options: dict | None = None, stake: int = 0):
    return lobby.table_create(
        host=host, game=game, seat_count=seat_count or DEFAULT_SEATS[game], options=options or {}, stake=stake
    )


def idle_lobby(host: User) -> Table:
    """A lobby idle for longer than LOBBY_IDLE_HOURS: the ``close_idle_lobbies`` task closes it (RULING P8)."""
    table = open_table(host, "sita")
    idle_since = timezone.now() - timedelta(hours=settings.LOBBY_IDLE_HOURS + 1)
    Table.objects.filter(pk=table.pk).update(last_activity_at=idle_since)
    return table


def is_closed(table: Table) -> bool:
    return Table.objects.get(pk=table.pk).status == Table.Status.CLOSED


def fill_with_bots(table, host: User, count: int | None = None) -> None:
    """Bots in the first ``count`` empty seats (every empty seat if None)."""
    empty = table.seats.filter(user=None).order_by("position")
    for seat in empty if count is None else empty[:count]:
        lobby.bot_add(table_id=table.pk, host=host, position=seat.position)


def seat_guests(table, guests) -> None:
    """Each guest takes the next seat after the host's (1, 2, …) and is ready."""
    for position, guest in enumerate(guests, start=1):
        lobby.seat_take(table_id=table.pk, user=guest, position=position)
        lobby.seat_ready(table_id=table.pk, user=guest, ready=True, entropy=fair_value())


def start_table(
    host: User,
    game: str,
    *,
    guests=(),
    bots: int | None = None,
    seat_count: int | None = None,
    options: dict | None = None,
    stake: int = 0,
    entropy: str | None = None,
) -> tuple[Table, Match]:
    """The host's table with the guests seated and ready, ``bots`` bots (the empty seats if None),
    started: (table, match). Also the ``started_table`` fixture (tests/conftest.py)."""
    table = open_table(host, game, seat_count=seat_count, options=options, stake=stake)
    seat_guests(table, guests)
    fill_with_bots(table, host, bots)
    return table, lobby.table_start(table_id=table.pk, host=host, entropy=entropy or fair_value())


def start_sitaratas(host: User, guests, seat_count: int = 3) -> Match:
    """A started Sitaratas game of the host and ``guests``, bots in the seats left."""
    return start_table(host, "sitaratas", seat_count=seat_count, guests=guests)[1]


def start_sitaratas_with_a_bot(host: User, player: User) -> Match:
    """Host, player and one bot at a started Sitaratas table, played on to the first human turn."""
    _, match = start_table(host, "sitaratas", seat_count=3, guests=[player])
    return play_bots_until_human(match)


def play_bots_until_human(match: Match) -> Match:
    """Run bot turns synchronously (what the Celery task does) until a human is awaited or the game ends."""
    while True:
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING:
            return match
        if not play.bots_act(match_id=match.pk, version=match.version):
            return match


def state_of(match: Match):
    match.refresh_from_db()
    return get_engine(match.game), storage.full_state(match)
