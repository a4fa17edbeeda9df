"""Every write to tables, seats and matches (docs/style.md §5–7).

Each public function is one transaction, but the steps of a move that run in their caller's,
under its Match lock: ``action_apply``, ``move_save``, ``bots_queue`` and ``match_dismiss``.
Lobby writes lock the Table row; game writes lock the Match row (tables/matchstore.py), check seat,
turn, pause and version, apply the engine, save
``version + 1`` and append the MatchEvent (docs/design.md, "How a move flows"). Broadcasts
and bot tasks go out only after commit.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Max, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from accounts.bots import BOT_LEVELS, DEFAULT_BOT_LEVEL, bot_base_name, ensure_bot_accounts
from accounts.models import User
from config.i18n import lazy_format, refusal
from games import catalog, storage
from games.engines import IllegalAction, get_engine
from games.models import Match, MatchPlayer
from games.records.places import places_from_groups
from ops import metrics
from tables import botplay, clock, fairness, hooks, matchstore, turn_notices
from tables.errors import TableError
from tables.live.broadcast import table_changed_on_commit
from tables.models import Seat, Table
from tables.tasks import bots_move

MAX_STAKE = 1_000_000


# --- lobby ------------------------------------------------------------------------------


def table_create(
    *,
    host: User,
    game: str,
    seat_count: int,
    options: dict | None = None,
    stake: int = 0,
    clock_seconds: int | None = None,
    practice: bool = False,
) -> Table:
    """Open a table; the host takes the first seat. ``clock_seconds`` None: the game's default clock.
    ``practice`` (RULING P65): unrated, bots in every other seat, hints on request; never staked."""
    engine = _engine(game)
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
    turn_clock = _clock_choice(game=game, seconds=clock_seconds, stake=stake)
    with transaction.atomic():
        _require_lobby_room(host)
        table = Table.objects.create(
            practice=practice,
            game=game,
            options=full_options,
            seat_count=seat_count,
            stake=stake,
            host=host,
            last_activity_at=timezone.now(),
            clock=turn_clock,
        )
        Seat.objects.bulk_create(Seat(table=table, position=position) for position in range(seat_count))
        _seat_take(table=table, user=host, position=0)
        fairness.commitment_open(table=table, attempt=1)  # RULING P30: before anyone can be ready
    return table


def _require_lobby_room(host: User) -> None:
    """RULING P52: a host has at most ``MAX_OPEN_LOBBIES`` tables waiting for players. The host's row
    is locked first, so two tables opened at once by one account are counted one after the other."""
    User.objects.select_for_update().filter(pk=host.pk).values_list("pk", flat=True).first()
    most = settings.MAX_OPEN_LOBBIES
    if Table.objects.filter(host=host, status=Table.Status.LOBBY).count() >= most:
        raise TableError(
            lazy_format(
                ngettext_lazy(
                    "You already have %(count)s table waiting for players. "
                    "Start it or close it before opening another.",
                    "You already have %(count)s tables waiting for players. "
                    "Start or close one of them before opening another.",
                    most,
                ),
                count=most,
            )
        )


def seat_take(*, table_id: int, user: User, position: int) -> None:
    with transaction.atomic():
        table = _lock_lobby(table_id)
        _seat_take(table=table, user=user, position=position)
        _touch(table)


def _seat_take(*, table: Table, user: User, position: int) -> None:
    if user.is_bot:
        raise TableError(_("Bots are seated by the host."))
    if table.practice and user.pk != table.host_id:
        raise TableError(_("This is a practice table: its host plays alone against bots."))  # RULING P65
    seat = _seat_at(table, position)
    if seat.user_id is not None:
        raise TableError(_("That seat is taken."))
    if table.seats.filter(user=user).exists():
        raise TableError(_("You already have a seat at this table. Leave it first to move."))
    seat.user = user
    seat.is_ready = user == table.host
    try:
        with transaction.atomic():
            seat.save(update_fields=["user", "is_ready"])
    except IntegrityError:
        raise TableError(_("That seat is taken.")) from None
    hooks.seat_taken(table=table, user=user)


def seat_leave(*, table_id: int, user: User) -> None:
    with transaction.atomic():
        table = _lock_lobby(table_id)
        seat = table.seats.filter(user=user).first()
        if seat is None:
            raise TableError(_("You have no seat at this table."))
        if user == table.host:
            raise TableError(_("The host cannot leave; close the table instead."))
        hooks.seat_left(table=table, user=user)
        fairness.value_withdraw(table=table, user=user)
        _vacate(table.seats.filter(pk=seat.pk))
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


def bot_add(*, table_id: int, host: User, position: int, level: str = DEFAULT_BOT_LEVEL) -> None:
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


def bot_remove(*, table_id: int, host: User, position: int) -> None:
    with transaction.atomic():
        table = _lock_lobby(table_id)
        _require_host(table, host)
        seat = _seat_at(table, position)
        if seat.user is None or not seat.user.is_bot:
            raise TableError(_("There is no bot in that seat."))
        _vacate(table.seats.filter(pk=seat.pk))
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
        if not seat.user.is_bot:
            hooks.seat_left(table=table, user=seat.user, by=admin, memo=f"Table closed before the start: {reason}")
    _vacate(table.seats.all())
    table.status = Table.Status.CLOSED
    table.closed_reason = reason
    table.save(update_fields=["status", "closed_reason"])
    table_changed_on_commit(table.pk, lobby=True)


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
        waiting = [seat.user.name for seat in seats if not seat.is_ready and seat.user != table.host]
        if waiting:
            raise TableError(lazy_format(_("Waiting for %(names)s to be ready."), names=", ".join(waiting)))
        attempt = table.matches.count() + 1
        fairness.value_give(table=table, user=host, value=entropy)
        commitment, seed = fairness.seed_for_start(table=table, seats=seats)  # RULING P32
        engine = _engine(table.game)
        state = engine.new_game(table.seat_count, table.options, seed)
        match = Match.objects.create(
            table=table,
            attempt=attempt,
            game=table.game,
            options=table.options,
            players=table.seat_count,
            seed=seed,
            state=engine.dumps(state),
            version=0,
            started_at=now,
            turn_clock=table.clock,
        )
        MatchPlayer.objects.bulk_create(MatchPlayer(match=match, seat=seat.position, user=seat.user) for seat in seats)
        fairness.attach(commitment=commitment, match=match)
        table.status = Table.Status.PLAYING
        table.last_activity_at = now
        table.save(update_fields=["status", "last_activity_at"])
        hooks.match_started(table=table, match=match, users=[seat.user for seat in seats])
        move_save(match, state, engine, now=now)
    return match


# --- play -------------------------------------------------------------------------------


def match_act(*, match_id: int, user: User, action: object, version: int | None, now: datetime | None = None) -> Match:
    """Apply one player's action. Refuses (changing nothing) anything out of turn, stale or illegal."""
    now = now or timezone.now()
    with transaction.atomic():
        match = matchstore.lock_match(match_id)
        seat = _seat_of(match, user)
        # A move made on an older view is stale, except in a simultaneous choice (SITA): there
        # the others' locked choices change nothing this seat could see (RULING T2).
        if version is None or not match.turn_version <= version <= match.version:
            raise TableError(_("The game has moved on; your view is refreshed."))
        return _apply(match, seat=seat, user=user, action=action, now=now)


def bots_act(*, match_id: int, version: int, now: datetime | None = None) -> int:
    """Let every bot that is awaited move. A task for an older version does nothing.

    Returns how many bot moves were applied. Bot choices are seeded from the attempt's
    secret, the version and the seat (never the deal's seed), so a retried task makes the
    same move.
    """
    now = now or timezone.now()
    with transaction.atomic():
        match = matchstore.lock_match(match_id)
        if match.version != version or match.status != Match.Status.PLAYING or hooks.is_paused(match):
            return 0
        engine = _engine(match.game)
        state = matchstore.loaded(match.game, match.pk, match.version, match.state)
        # RULING P12: the house plays for an away seat as for a bot, after the same pause.
        away = clock.away_seats(match)
        bots = {seat: user_id for seat, user_id, is_bot in matchstore.seating(match) if is_bot or seat in away}
        events: list[tuple] = []
        # In SITA every bot chooses at once; in the trick games exactly one seat is awaited.
        for seat in [seat for seat in engine.to_act(state) if seat in bots]:
            if seat not in engine.to_act(state):
                continue
            view = engine.view(state, seat)
            action = botplay.bot_action(match=match, seat=seat, level=_bot_level(bots[seat]), view=view)
            state = action_apply(
                match,
                engine,
                state,
                seat=seat,
                user_id=bots[seat],
                action=action,
                now=now,
                events=events,
                by_clock=seat in away,
            )
        if events:
            move_save(match, state, engine, events, now=now)
        return len(events)


def _apply(match: Match, *, seat: int, user: User, action: object, now: datetime) -> Match:
    if match.status != Match.Status.PLAYING:
        raise TableError(_("This game is over."))
    if hooks.is_paused(match):
        raise TableError(_("Play is paused while the dismissal vote is open."))
    engine = _engine(match.game)
    state = matchstore.loaded(match.game, match.pk, match.version, match.state)
    if seat not in engine.to_act(state):
        raise TableError(_("It is not your turn."))
    events: list[tuple] = []
    try:
        state = action_apply(match, engine, state, seat=seat, user_id=user.pk, action=action, now=now, events=events)
    except IllegalAction as error:
        raise TableError(refusal(error)) from None
    move_save(match, state, engine, events, now=now)
    return match


def action_apply(
    match: Match,
    engine,
    state,
    *,
    seat: int,
    user_id: int,
    action: object,
    now: datetime,
    events: list[tuple],
    by_clock: bool = False,
):
    """Apply one action, under the Match lock; its MatchEvent is written with the new state, by ``move_save``.
    ``by_clock``: the house chose it for an absent player (RULING P11)."""
    new_state = engine.apply(state, seat, action)
    match.version += 1
    if not set(engine.to_act(new_state)) <= set(engine.to_act(state)):
        match.turn_version = match.version  # someone new is awaited: a new turn begins
    events.append((match.version, seat, user_id, action, now, by_clock))
    return new_state


def move_save(match: Match, state, engine, events: list[tuple] = (), *, now: datetime) -> None:
    """Save the state and the events, settle a finished game, and queue the broadcast and any bot turn."""
    # Issue 27: the finished rounds are written once, beside the state (games/storage.py).
    stored = storage.placeholders_in_text(match.game, match.state)
    match.state, rounds = storage.split(match.game, state)
    rounds_write = storage.rounds_write(stored, rounds)
    matchstore.remember(match.game, match.pk, match.version, match.state, state)
    if rounds_write != (None, None):
        seed = state.seed
        transaction.on_commit(lambda: matchstore.remember_rounds(match.pk, seed, rounds))
    humans = {seat for seat, _, is_bot in matchstore.seating(match) if not is_bot}
    clock.after_move(match, awaited=engine.to_act(state), humans=humans, events=events, now=now)
    if events:
        metrics.move_done(match.game, len(events))
    matchstore.write_move(match, events, rounds_write)
    if engine.is_over(state):
        _settle(match, state, engine, now=now)
        match.save(update_fields=matchstore.SETTLED_FIELDS)
    # A finished game changes more than the state (places, payouts): consumers re-read it all.
    finished = match.status != Match.Status.PLAYING
    table_changed_on_commit(
        match.table_id,
        match_id=match.pk,
        version=match.version,
        state=match.state,
        lobby=finished,
        clock=clock.public(match),
    )
    if match.status == Match.Status.PLAYING:
        bots_queue(match, state, engine)
    turn_notices.after_move(match, humans=humans, events=events)  # RULING P74


def bots_queue(match: Match, state, engine) -> None:
    """Queue the bots' turn after commit if a bot (or the house, for an away seat) is awaited.
    Called under the Match lock, by a move and by a dismissal vote that did not pass."""
    away = clock.away_seats(match)
    bot_seats = {seat for seat, _, is_bot in matchstore.seating(match) if is_bot or seat in away}
    if bot_seats & set(engine.to_act(state)):
        match_id, version = match.pk, match.version
        # robust: the move has committed; if the broker is down the task is lost, not the move, and
        # beat's sweep queues it again (RULING P35, tables/recovery.py).
        transaction.on_commit(
            lambda: bots_move.apply_async((match_id, version), countdown=settings.BOT_DELAY_SECONDS), robust=True
        )


def _settle(match: Match, state, engine, *, now: datetime) -> None:
    """The last move: record the result, places and totals in the same transaction (docs/design.md)."""
    record = engine.record(state)
    match.status = Match.Status.FINISHED
    match.record = fairness.with_fairness(match, record)  # RULING P33: the secret, now the game is over
    match.ended_at = now
    match.end_reason = "Finished."
    places = places_from_groups(record["placements"])
    players = list(match.match_players.all())
    for player in players:
        player.place = places[player.seat]
        player.total = record["totals"][player.seat]
    MatchPlayer.objects.bulk_update(players, ["place", "total"])
    Table.objects.filter(pk=match.table_id).update(status=Table.Status.FINISHED, last_activity_at=match.ended_at)
    hooks.match_finished(match=match, players=players)


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
        _close_unfinished(
            match, status=Match.Status.ABORTED, reason=f"Aborted by {by.name}: {reason.strip()}", now=now, by=by
        )
    return match


def _close_unfinished(match: Match, *, status: str, reason: str, now: datetime, by: User | None = None) -> None:
    """End a game in play without a result: stakes refunded, passes released, no ratings (RULING P8).
    ``by``: the admin who aborted, named on every refund row (RULING P19); None when the site did."""
    table = Table.objects.select_for_update().get(pk=match.table_id)  # Match, then Table: as votes do.
    _end_attempt(match, status=status, reason=reason, now=now)
    hooks.match_aborted(table=table, match=match, by=by)
    _vacate(table.seats.all())
    table.status, table.closed_reason = Table.Status.CLOSED, match.end_reason
    table.save(update_fields=["status", "closed_reason"])


def match_dismiss(*, match: Match, now: datetime) -> None:
    """RULING S12: an approved vote ends the attempt as dismissed (kept in history); the same seats
    return to the same lobby with ready flags cleared. Called by tables.votes under the Match lock."""
    table = Table.objects.select_for_update().get(pk=match.table_id)
    _end_attempt(match, status=Match.Status.DISMISSED, reason="Dismissed by vote.", now=now)
    hooks.match_dismissed(table=table, match=match)
    table.seats.filter(user__is_bot=False).update(is_ready=False)  # RULING P1: bots stay ready.
    fairness.commitment_open(table=table, attempt=match.attempt + 1)  # RULING P30: a new attempt, a new secret
    table.status, table.last_activity_at = Table.Status.LOBBY, now
    table.save(update_fields=["status", "last_activity_at"])


def _end_attempt(match: Match, *, status: str, reason: str, now: datetime) -> None:
    engine = _engine(match.game)
    match.status, match.end_reason, match.ended_at = status, reason[:200], now
    state = matchstore.loaded(match.game, match.pk, match.version, match.state)
    match.record = fairness.with_fairness(match, engine.record(state))  # RULING P33
    match.save(update_fields=["status", "end_reason", "ended_at", "record"])
    table_changed_on_commit(match.table_id, lobby=True)


# --- turn clock (issue 19; the rules are in tables/clock.py) ------------------------------


def table_clock_set(*, table_id: int, host: User, seconds: object) -> None:
    """RULING P9: the host may change the turn clock until the start, never after."""
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        if table is None:
            raise TableError(_("There is no such table."))
        _require_host(table, host)
        if table.status != Table.Status.LOBBY:
            raise TableError(_("The turn clock cannot be changed once the game has started."))
        if seconds is None:
            raise TableError(_("Choose a turn clock of off, 30, 60 or 120 seconds."))
        table.clock = _clock_choice(game=table.game, seconds=seconds, stake=table.stake)
        table.save(update_fields=["clock"])
        _touch(table)


def clock_expire(*, match_id: int, version: int | None, at: int | None = None, now: datetime | None = None) -> int:
    """RULING P11: the house plays one legal action for each awaited seat whose time is up.

    ``version`` and ``at``: the countdown task's timer (tables/clock.py). Only the match's armed
    timer, once its time has come, acts: a task run twice, superseded or early does nothing,
    and one that runs after the player moved finds their deadline gone. The sweep passes
    ``version=None``: any deadline that has passed. Returns how many actions were played.
    """
    now = now or timezone.now()
    with transaction.atomic():
        match = matchstore.lock_match(match_id)
        if match.status != Match.Status.PLAYING:
            return 0
        if version is not None and not clock.take_timer(match, version=version, at=at, now=now):
            return 0
        if hooks.is_paused(match):
            # RULING P13: the vote's pause stops the clock; its end re-arms it.
            match.save(update_fields=["clock_seats"])
            return 0
        due = clock.due_seats(match, now=now)
        if not due:
            # The player moved in time: arm the task for the next deadline, if any.
            clock.arm(match, now=now)
            match.save(update_fields=["clock_seats"])
            return 0
        engine = _engine(match.game)
        state = matchstore.loaded(match.game, match.pk, match.version, match.state)
        users = {seat: user_id for seat, user_id, _level in matchstore.seating(match)}
        events: list[tuple] = []
        # SITA: every seat that has not chosen when time is up gets a bot choice at once.
        for seat in due:
            if seat not in engine.to_act(state):
                continue
            action = botplay.clock_action(match=match, seat=seat, view=engine.view(state, seat))
            state = action_apply(
                match,
                engine,
                state,
                seat=seat,
                user_id=users[seat],
                action=action,
                now=now,
                events=events,
                by_clock=True,
            )
            clock.expired(match, seat, now=now)
        move_save(match, state, engine, events, now=now)
        return len(events)


def seat_back(*, match_id: int, user: User, position: int | None = None, now: datetime | None = None) -> None:
    """RULING P12: "I'm back" ends the away mark of the player's own seat, and only theirs."""
    now = now or timezone.now()
    with transaction.atomic():
        match = matchstore.lock_match(match_id)
        seat = _seat_of(match, user)
        if position is not None and position != seat:
            raise TableError(_("You can only say you are back for your own seat."))
        if match.status != Match.Status.PLAYING:
            raise TableError(_("This game is over."))
        if not clock.is_away(match, seat):
            raise TableError(_("You are not marked away."))
        engine = _engine(match.game)
        state = matchstore.loaded(match.game, match.pk, match.version, match.state)
        clock.back(match, seat, awaited=engine.to_act(state), paused=hooks.is_paused(match), now=now)
        match.save(update_fields=["deadlines", "clock_due", "clock_seats"])
        table_changed_on_commit(match.table_id, lobby=True)


def clocks_sweep(*, now: datetime | None = None) -> dict[str, int]:
    """The beat task's service: what no countdown task did. Each step is its own transaction,
    re-checked under the Match lock, so it is safe beside the workers and safe to run twice."""
    now = now or timezone.now()
    done = {"expired": 0, "played_on": 0, "abandoned": 0}
    playing = Match.objects.filter(status=Match.Status.PLAYING)
    # Deadlines that passed while no worker ran (or whose task was lost).
    for match_id in playing.filter(clock_due__lte=now).values_list("pk", flat=True):
        done["expired"] += clock_expire(match_id=match_id, version=None, now=now)
    # RULING P13: every human seat away for 30 minutes: the bots play the game to its end.
    for match in playing.filter(turn_clock__gt=0).only("pk", "clock_seats"):
        humans = set(match.match_players.filter(user__is_bot=False).values_list("seat", flat=True))
        since = clock.all_away_since(match, humans)
        if since is not None and since <= clock.all_away_cutoff(now):
            done["played_on"] += _play_on(match.pk, now=now)
    # RULING P14: an untimed game with no move for 24 hours is abandoned.
    cutoff = clock.idle_cutoff(now)
    idle = (
        playing.filter(turn_clock=0, started_at__lt=cutoff)
        .annotate(last=Max("events__created_at"))
        .filter(Q(last__lt=cutoff) | Q(last__isnull=True))
        .values_list("pk", flat=True)
    )
    for match_id in idle:
        done["abandoned"] += match_abandon_idle(match_id=match_id, now=now)
    return done


def _play_on(match_id: int, *, now: datetime) -> int:
    """Play the house's moves one transaction at a time until nobody it plays for is awaited."""
    played = 0
    while True:
        version = (
            Match.objects.filter(pk=match_id, status=Match.Status.PLAYING).values_list("version", flat=True).first()
        )
        moved = bots_act(match_id=match_id, version=version, now=now) if version is not None else 0
        if not moved:
            return played
        played += moved


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
        _close_unfinished(
            match,
            status=Match.Status.ABANDONED,
            reason=f"Abandoned: no move for {clock.UNTIMED_IDLE_HOURS} hours.",
            now=now,
        )
        return True


def _clock_choice(*, game: str, seconds: object, stake: int) -> int:
    try:
        return clock.validate(game=game, seconds=seconds, stake=stake)
    except ValueError as error:
        raise TableError(refusal(error)) from None


# --- helpers ----------------------------------------------------------------------------


def _engine(game: str):
    try:
        return get_engine(game)
    except ValueError as error:
        raise TableError(refusal(error)) from None


def _lock_lobby(table_id: int) -> Table:
    table = Table.objects.select_for_update().filter(pk=table_id).first()
    if table is None:
        raise TableError(_("There is no such table."))
    if table.status != Table.Status.LOBBY:
        raise TableError(_("The table is no longer open: the game has started or the table is closed."))
    return table


def _bot_level(user_id: int) -> str:
    """The level a bot account plays at (RULING P45); one small query per bot move."""
    level = User.objects.filter(pk=user_id).values_list("bot_level", flat=True).first()
    return level or DEFAULT_BOT_LEVEL


def _seat_of(match: Match, user: User) -> int:
    seat = next((seat for seat, user_id, _level in matchstore.seating(match) if user_id == user.pk), None)
    if seat is None:
        raise TableError(_("You are not playing in this game."))
    return seat


def _seat_at(table: Table, position: object) -> Seat:
    if not isinstance(position, int) or isinstance(position, bool):
        raise TableError(_("Choose a seat."))
    seat = table.seats.filter(position=position).first()
    if seat is None:
        raise TableError(_("There is no such seat."))
    return seat


def _vacate(seats: QuerySet[Seat]) -> None:
    """Empty these seats: nobody in them, nobody ready (leaving, removing a bot, closing)."""
    seats.update(user=None, is_ready=False)


def _require_host(table: Table, user: User) -> None:
    if user.pk != table.host_id:
        raise TableError(_("Only the host can do that."))


def _touch(table: Table) -> None:
    table.last_activity_at = timezone.now()
    table.save(update_fields=["last_activity_at"])
    table_changed_on_commit(table.pk, lobby=True)
