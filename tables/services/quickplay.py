"""Quick play (RULING P71): "Play now" seats a player at the best open table of a game, or opens one.

The best table is a public lobby of that game with a seat free for this player, the most
players already seated, and the seated humans' ratings nearest the player's; a table whose
stake is more than the player's coins, or that costs a pass the player has not got, is never
chosen. With none, the player opens one with their own defaults (the game's, until they
choose), and bots fill its empty seats after the wait they chose unless people come first; once
every seat is filled and everyone is ready it starts by itself, as a rematch does (RULING P73).

Two players pressing at once must land at one table. A first look takes the best table it
can lock without waiting (``FOR UPDATE SKIP LOCKED``: a table another player is being seated
at is passed over, not queued behind). Finding none, the player takes the game's advisory
lock, which only quick play's openings take, and looks again, this time waiting for each
table's lock: a table that another quick player opened and committed meanwhile is then seen
and joined instead of a second one being opened.
"""

from __future__ import annotations

import zlib
from datetime import datetime, timedelta

from django.db import connection, transaction
from django.db.models import Count, F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from core import outbox
from games import catalog
from games.models import Rating
from payouts import selectors as payout_selectors
from tables import held_seats, selectors
from tables.errors import TableError
from tables.events import QuickFillDue
from tables.models import QuickPlayChoice, QuickTable, Seat, Table
from tables.services import collusion, lobby, rematch

WAITS = (15, 30, 60, 120)  # seconds before the bots come
DEFAULT_WAIT = 30
CANDIDATES = 50  # tables weighed per press, the fullest first
EARLY = timedelta(seconds=1)
LOCK_SPACE = 0x5149  # the advisory locks' first key: quick play's own ("QI")


def play_now(
    *, user: User, game: str, wait: int | None = None, address: str = "", now: datetime | None = None
) -> Table:
    """Seat ``user`` at the best open table of ``game`` or open one; returns the table. ``address``:
    the client's, kept as a digest with the seat (RULING P72)."""
    if user.is_bot:
        raise TableError(_("Bots are seated by the host."))
    if not catalog.known(game):
        raise TableError(_("There is no such game."))
    if wait is not None and wait not in WAITS:
        raise TableError(_("Choose a wait of 15, 30, 60 or 120 seconds for the bots."))
    now = now or timezone.now()
    with transaction.atomic():
        choice = _choice(user, game, wait)
        mine = _seated_lobby(user, game)
        if mine is not None:
            return mine  # a second press, or a second window: the same table
        table = _join_best(user, game, skip_locked=True)
        if table is None:
            _lock_game(game)
            table = _join_best(user, game, skip_locked=False) or _open(user, choice, now=now)
        collusion.seat_address_record(table_id=table.pk, user=user, address=address)
    return table


def bots_fill(*, table_id: int, now: datetime | None = None) -> int:
    """RULING P73: the wait is over: bots in every empty seat of a quick-play table still waiting for players.
    Early, late, twice, or after the table started or closed: nothing happens. Returns the bots seated."""
    now = now or timezone.now()
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id, status=Table.Status.LOBBY).first()
        quick = QuickTable.objects.select_for_update().filter(table_id=table_id).first()
        # A second of slack: a countdown may fire a little before the stored time on another clock.
        if table is None or quick is None or quick.filled_at is not None or now + EARLY < quick.bots_at:
            return 0
        held = held_seats.held_positions(table)
        empty = [
            position
            for position in table.seats.filter(user=None).order_by("position").values_list("position", flat=True)
            if position not in held
        ]
        for position in empty:
            lobby.bot_add(table_id=table.pk, host=table.host, position=position)
        quick.filled_at = now
        quick.save(update_fields=["filled_at"])
    # RULING P73: with every seat filled and everyone ready, it starts now, as a rematch does (P70).
    rematch.rematch_start_when_ready(table_id=table_id)
    return len(empty)


def wait_of(*, user: User, game: str) -> int:
    """The wait this player last chose for the game (the default until they choose)."""
    chosen = QuickPlayChoice.objects.filter(user=user, game=game).values_list("wait", flat=True).first()
    return chosen if chosen in WAITS else DEFAULT_WAIT


def _choice(user: User, game: str, wait: int | None) -> QuickPlayChoice:
    choice, _created = QuickPlayChoice.objects.get_or_create(user=user, game=game)
    if wait is not None and wait != choice.wait:
        choice.wait = wait
        choice.save(update_fields=["wait"])
    return choice


def _seated_lobby(user: User, game: str) -> Table | None:
    return Table.objects.filter(status=Table.Status.LOBBY, game=game, seats__user=user).first()


def _lock_game(game: str) -> None:
    # Held to the end of the transaction: one quick-play opening of this game at a time.
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [LOCK_SPACE, zlib.crc32(game.encode()) & 0x7FFFFFFF])


def _join_best(user: User, game: str, *, skip_locked: bool) -> Table | None:
    for table_id in _ranked(user, game):
        locked = Table.objects.select_for_update(skip_locked=skip_locked).filter(pk=table_id, status=Table.Status.LOBBY)
        table = locked.first()
        if table is None:
            continue  # locked by a player being seated there (skipped), or started meanwhile
        position = _free_position(table, user)
        if position is None:
            continue
        lobby.seat_take(table_id=table.pk, user=user, position=position)
        return table
    return None


def _ranked(user: User, game: str) -> list[int]:
    """Candidate tables, best first: the most seated, then the nearest rating, then the oldest."""
    coins = payout_selectors.coin_balance(user=user)
    tables = open_to_quick_play(game).filter(stake__lte=coins).exclude(seats__user=user)
    if selectors.costs_pass(game) and payout_selectors.pass_counts(user=user)["free"] < 1:
        return []  # RULING P6: no free pass, no seat at any table of this game
    rows = list(
        tables.annotate(taken=Count("seats", filter=Q(seats__user__isnull=False)))
        .filter(taken__lt=F("seat_count"))
        .order_by("-taken", "created_at")
        .values_list("pk", "taken")[:CANDIDATES]
    )
    mine = _rating(user.pk, game)
    humans = _seated_ratings([pk for pk, _taken in rows], game)
    return [
        pk for pk, taken in sorted(rows, key=lambda row: (-row[1], abs(_mean(humans.get(row[0]), mine) - mine), row[0]))
    ]


def open_to_quick_play(game: str):
    """Lobbies of ``game`` that anyone may join: not practice tables."""
    # RULING P66: a private table is nobody's to be put at.
    return Table.objects.filter(status=Table.Status.LOBBY, game=game, practice=False, private=False)


def _rating(user_id: int, game: str) -> float:
    return Rating.objects.filter(user_id=user_id, game=game).values_list("ordinal", flat=True).first() or 0.0


def _seated_ratings(table_ids: list[int], game: str) -> dict[int, list[float]]:
    seated = Seat.objects.filter(table_id__in=table_ids, user__isnull=False, user__is_bot=False)
    ratings = dict(
        Rating.objects.filter(game=game, user__seats__table_id__in=table_ids).values_list("user_id", "ordinal")
    )
    by_table: dict[int, list[float]] = {}
    for table_id, user_id in seated.values_list("table_id", "user_id"):
        by_table.setdefault(table_id, []).append(ratings.get(user_id, 0.0))
    return by_table


def _mean(values: list[float] | None, otherwise: float) -> float:
    return sum(values) / len(values) if values else otherwise


def _free_position(table: Table, user: User) -> int | None:
    held = held_seats.held_positions(table)
    for position in table.seats.filter(user=None).order_by("position").values_list("position", flat=True):
        if held.get(position, user.pk) == user.pk:
            return position
    return None


def _open(user: User, choice: QuickPlayChoice, *, now: datetime) -> Table:
    game = catalog.get(choice.game)
    seat_count = choice.seat_count or max(game.min_players, min(4, game.max_players))
    table = lobby.table_create(host=user, game=game.name, seat_count=seat_count, options=choice.options or {})
    # RULING P73: the host says "I'm ready" with their own value (P31), as everyone does; the last one starts it.
    Seat.objects.filter(table=table, user=user).update(is_ready=False)
    QuickTable.objects.create(table=table, wait=choice.wait, bots_at=now + timedelta(seconds=choice.wait))
    # robust: the table is committed; a lost task leaves the host to add bots by hand.
    outbox.send(QuickFillDue(table_id=table.pk, seconds=choice.wait), robust=True)
    return table
