"""The lobby's writes: open a table, take and leave seats, bots, the clock, close, start.

Each public function is one transaction that locks the Table row first (a start then creates
the Match and saves its first state with the move steps, tables/services/steps.py), but
``table_open``, which makes the row: the one opener of every table, a host's, a rematch's
(tables/services/rematch.py) and a tournament round's (tournaments/services.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from accounts.bots import BOT_LEVELS, DEFAULT_BOT_LEVEL, bot_base_name
from accounts.models import User
from accounts.services import ensure_bot_accounts
from core.i18n import lazy_format, refusal
from games import catalog
from games.models import Match
from tables import clock, held_seats, selectors
from tables.errors import TableError
from tables.models import Seat, Spectators, Table
from tables.services import collusion, fairness, handoff
from tables.services.steps import engine_for, lobby_room_require, match_start, table_changed, table_lock, vacate

MAX_STAKE = 1_000_000


def table_create(
    *,
    host: User,
    game: str,
    seat_count: int,
    options: dict | None = None,
    stake: int = 0,
    clock_seconds: int | None = None,
    practice: bool = False,
    private: bool = False,
    spectators: str = Spectators.ANYONE,
    address: str = "",
) -> Table:
    """Open a table; the host takes the first seat. ``clock_seconds`` None: the game's default clock.
    ``practice`` (RULING P65): unrated, bots in every other seat, hints on request; never staked.
    ``private`` and ``spectators`` (RULING P66) are set as it opens, so a private table is never
    in the lobby, even for a moment; ``address``, the host's, is kept with their seat (RULING P72)."""
    engine = engine_for(game)
    try:
        full_options = engine.validate_options(seat_count, options or {})
    except ValueError as error:
        raise TableError(refusal(error)) from None
    if stake and not catalog.get(game).staked:
        staked = ", ".join(str(g.title) for g in catalog.GAMES if g.staked)
        raise TableError(lazy_format(_("Only %(games)s tables can be staked."), games=staked))
    if not 0 <= stake <= MAX_STAKE:
        raise TableError(lazy_format(_("The stake must be between 0 and %(most)s coins."), most=f"{MAX_STAKE:,}"))
    if practice and stake:
        raise TableError(_("A practice table has no stake."))
    if spectators not in Spectators.values:
        raise TableError(_("Choose who may watch: anyone, the seated players' friends, or nobody."))
    turn_clock = _clock_choice(game=game, seconds=clock_seconds, stake=stake)
    with transaction.atomic():
        lobby_room_require(host)
        table = table_open(
            host=host,
            game=game,
            options=full_options,
            seats=[None] * seat_count,
            turn_clock=turn_clock,
            now=timezone.now(),
            stake=stake,
            practice=practice,
            private=private,
            spectators=spectators,
        )
        _seat_take(table=table, user=host, position=0)
        collusion.seat_address_record(table_id=table.pk, user=host, address=address)
        if practice:
            # RULING P65: every other seat is a bot's, so they sit as the table opens.
            for position in range(1, seat_count):
                bot_add(table_id=table.pk, host=host, position=position)
    return table


def table_open(
    *,
    host: User,
    game: str,
    options: dict,
    seats: Sequence[User | None],
    turn_clock: int,
    now: datetime,
    stake: int = 0,
    practice: bool = False,
    private: bool = False,
    spectators: str = Spectators.ANYONE,
) -> Table:
    """The one way a table opens (a host's, a rematch, a tournament's round): the table, a seat for
    each of ``seats`` with its player in it (a bot is ready, RULING P1; a player is not until they
    say so, RULING P31; None leaves it empty) and the deal's first commitment (RULING P30: before
    anyone can be ready). What the opening door asks first (valid options, RULING P52's count, the
    seats' stakes and passes) is that door's."""
    with transaction.atomic():
        table = Table.objects.create(
            practice=practice,
            game=game,
            options=options,
            seat_count=len(seats),
            stake=stake,
            host=host,
            last_activity_at=now,
            clock=turn_clock,
            private=private,
            spectators=spectators,
        )
        Seat.objects.bulk_create(
            Seat(table=table, position=position, user=user, is_ready=user is not None and user.is_bot)
            for position, user in enumerate(seats)
        )
        fairness.commitment_open(table=table, attempt=1)
    return table


def _require_room_to_play(user: User) -> None:
    """RULING P87: a human sits at most at ``MAX_GAMES_IN_PLAY`` tables waiting or playing, every
    door to a seat included (this one, which every door but a tournament's seating passes). The
    user's row is locked first, after the table's (as every seat taking locks them), so two seats
    taken at once by one account are counted one after the other."""
    User.objects.select_for_update().filter(pk=user.pk).values_list("pk", flat=True).first()
    most = settings.MAX_GAMES_IN_PLAY
    if selectors.games_in_play(user.pk) >= most:
        raise TableError(
            lazy_format(
                ngettext_lazy(
                    "You already have %(count)s game in play. Finish it or leave it before sitting at another table.",
                    "You already have %(count)s games in play. "
                    "Finish or leave one of them before sitting at another table.",
                    most,
                ),
                count=most,
            )
        )


def seat_take(*, table_id: int, user: User, position: int | None, address: str = "") -> None:
    """``address``: the client's, kept as a digest with the seat (RULING P72): the seat and where
    it was taken from are one change, heard as one."""
    with transaction.atomic():
        table = _lock_lobby(table_id)
        _seat_take(table=table, user=user, position=position)
        _touch(table)
        collusion.seat_address_record(table_id=table_id, user=user, address=address)


def _seat_take(*, table: Table, user: User, position: int | None) -> None:
    if user.is_bot:
        raise TableError(_("Bots are seated by the host."))
    if table.practice and user.pk != table.host_id:
        raise TableError(_("This is a practice table: its host plays alone against bots."))  # RULING P65
    seat = _seat_at(table, position)
    if seat.user_id is not None:
        raise TableError(_("That seat is taken."))
    held_seats.require_free(table=table, position=position, user=user)  # RULING P70
    if table.seats.filter(user=user).exists():
        raise TableError(_("You already have a seat at this table. Leave it first to move."))
    _require_room_to_play(user)
    seat.user = user
    seat.is_ready = user == table.host
    try:
        with transaction.atomic():
            seat.save(update_fields=["user", "is_ready"])
    except IntegrityError:
        raise TableError(_("That seat is taken.")) from None
    handoff.seat_taken(table=table, user=user)


def seat_leave(*, table_id: int, user: User) -> None:
    with transaction.atomic():
        table = _lock_lobby(table_id)
        seat = table.seats.filter(user=user).first()
        if seat is None:
            raise TableError(_("You have no seat at this table."))
        if user == table.host:
            raise TableError(_("The host cannot leave; close the table instead."))
        handoff.seat_left(table=table, user=user)
        fairness.value_withdraw(table=table, user=user)
        vacate(table.seats.filter(pk=seat.pk))
        _touch(table)


def seat_ready(*, table_id: int, user: User, ready: bool, entropy: str | None = None) -> None:
    """``entropy``: the player's random value for the deal (RULING P31); "ready" without one is
    refused, from a browser or any other caller (the site never draws it for them)."""
    with transaction.atomic():
        table = _lock_lobby(table_id)
        updated = table.seats.filter(user=user).update(is_ready=ready)
        if not updated:
            raise TableError(_("You have no seat at this table."))
        if ready:
            fairness.value_give(table=table, user=user, value=entropy)
        else:
            fairness.value_withdraw(table=table, user=user)
        _touch(table)


def bot_add(*, table_id: int, host: User, position: int | None, level: str = DEFAULT_BOT_LEVEL) -> None:
    """RULING P1: before the start the host may fill any empty seat with a bot, of the level
    the host chooses (RULING P45)."""
    if level not in BOT_LEVELS:
        raise TableError(_("Choose a bot level: easy, normal or strong."))
    with transaction.atomic():
        table = _lock_lobby(table_id)
        _require_host(table, host)
        seat = _seat_at(table, position)
        if seat.user_id is not None:
            raise TableError(_("That seat is taken."))
        held_seats.require_free(table=table, position=position, user=None)  # RULING P70
        seated = list(table.seats.exclude(user=None).values_list("user_id", "user__username", "user__is_bot"))
        # Issue 37: one Ada at a table, whatever the levels: three "Ada"s read as one player.
        taken = {bot_base_name(username) for _user, username, is_bot in seated if is_bot}
        ids = {row[0] for row in seated}
        free = [bot for bot in ensure_bot_accounts(level) if bot.pk not in ids]
        bot = next((bot for bot in free if bot_base_name(bot.username) not in taken), free[0] if free else None)
        if bot is None:
            raise TableError(_("No bot is free for this table."))
        seat.user = bot
        seat.is_ready = True  # RULING P1: bots are always ready.
        seat.save(update_fields=["user", "is_ready"])
        _touch(table)


def bot_remove(*, table_id: int, host: User, position: int | None) -> None:
    with transaction.atomic():
        table = _lock_lobby(table_id)
        _require_host(table, host)
        seat = _seat_at(table, position)
        if seat.user is None or not seat.user.is_bot:
            raise TableError(_("There is no bot in that seat."))
        vacate(table.seats.filter(pk=seat.pk))
        _touch(table)


def table_close(*, table_id: int, by: User | None, reason: str = "Closed by the host.") -> None:
    """Close a lobby (the host, an admin, or the idle-lobby task with ``by=None``)."""
    with transaction.atomic():
        table = _lock_lobby(table_id)
        if by is not None and by != table.host and not by.is_staff:
            raise TableError(_("Only the host can close the table."))
        admin = by if by is not None and by != table.host else None
        if admin is not None:
            # RULING P19: an admin closing someone's lobby says why, and is named with it (P7).
            if not reason.strip() or reason == "Closed by the host.":
                raise TableError(_("Closing a lobby as an admin needs a reason."))
            reason = f"Closed by {admin.name}: {reason.strip()}"[:200]
        elif by is not None and reason == "Closed by the host.":
            reason = f"Closed by the host, {by.name}."  # RULING P7: say who closed it
        _close(table, reason, admin=admin)


def _close(table: Table, reason: str, admin: User | None = None) -> None:
    for seat in table.seats.exclude(user=None).select_related("user"):
        if seat.user is not None and not seat.user.is_bot:
            handoff.seat_left(table=table, user=seat.user, by=admin, memo=f"Table closed before the start: {reason}")
    vacate(table.seats.all())
    table.status = Table.Status.CLOSED
    table.closed_reason = reason
    table.save(update_fields=["status", "closed_reason"])
    table_changed(table.pk)


def lobbies_close_idle(*, now: datetime) -> int:
    """RULING P8: lobbies idle for LOBBY_IDLE_HOURS close, releasing every hold. Safe to run twice."""
    cutoff = now - timedelta(hours=settings.LOBBY_IDLE_HOURS)
    closed = 0
    for table_id in Table.objects.filter(status=Table.Status.LOBBY, last_activity_at__lt=cutoff).values_list(
        "pk", flat=True
    ):
        with transaction.atomic():
            table = Table.objects.select_for_update().get(pk=table_id)
            # Re-checked under the lock: someone may have joined since the query above.
            if table.status == Table.Status.LOBBY and table.last_activity_at < cutoff:
                _close(table, f"Closed after {settings.LOBBY_IDLE_HOURS} hours without activity.")
                closed += 1
    return closed


def table_start(*, table_id: int, host: User, now: datetime | None = None, entropy: str | None = None) -> Match:
    """RULING S10: every seat filled, every human but the host ready; the host starts.

    ``entropy`` is the host's random value for the deal, as with ``seat_ready`` (RULING P31).
    """
    now = now or timezone.now()
    with transaction.atomic():
        table = _lock_lobby(table_id)
        _require_host(table, host)
        seats = list(table.seats.select_related("user").order_by("position"))
        if any(seat.user is None for seat in seats):
            raise TableError(_("Every seat must be filled (by a player or a bot) before the start."))
        waiting = [seat.user.name for seat in seats if seat.user and not seat.is_ready and seat.user != table.host]
        if waiting:
            raise TableError(lazy_format(_("Waiting for %(names)s to be ready."), names=", ".join(waiting)))
        fairness.value_give(table=table, user=host, value=entropy)
        commitment, seed = fairness.seed_for_start(table=table, seats=seats)  # RULING P32
        return match_start(table=table, seats=seats, commitment=commitment, seed=seed, now=now)


def table_clock_set(*, table_id: int, host: User, seconds: object) -> None:
    """RULING P9: the host may change the turn clock until the start, never after."""
    with transaction.atomic():
        table = table_lock(table_id)
        _require_host(table, host)
        if table.status != Table.Status.LOBBY:
            raise TableError(_("The turn clock cannot be changed once the game has started."))
        if seconds is None:
            raise TableError(_("Choose a turn clock of off, 30, 60 or 120 seconds."))
        table.clock = _clock_choice(game=table.game, seconds=seconds, stake=table.stake)
        table.save(update_fields=["clock"])
        _touch(table)


def _clock_choice(*, game: str, seconds: object, stake: int) -> int:
    try:
        return clock.validate(game=game, seconds=seconds, stake=stake)
    except ValueError as error:
        raise TableError(refusal(error)) from None


def _lock_lobby(table_id: int) -> Table:
    table = table_lock(table_id)
    if table.status != Table.Status.LOBBY:
        raise TableError(_("The table is no longer open: the game has started or the table is closed."))
    return table


def _seat_at(table: Table, position: object) -> Seat:
    # Whatever a socket sent as the seat: a missing or malformed one is refused here.
    if not isinstance(position, int) or isinstance(position, bool):
        raise TableError(_("Choose a seat."))
    seat = table.seats.filter(position=position).first()
    if seat is None:
        raise TableError(_("There is no such seat."))
    return seat


def _require_host(table: Table, user: User) -> None:
    if user.pk != table.host_id:
        raise TableError(_("Only the host can do that."))


def _touch(table: Table) -> None:
    table.last_activity_at = timezone.now()
    table.save(update_fields=["last_activity_at"])
    table_changed(table.pk)
