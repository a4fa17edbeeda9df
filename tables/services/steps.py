"""The steps of a write that run in their caller's transaction, under its Match lock.

Only the service modules of this package call them: a step is never a transaction of its own.
A move is ``action_apply`` for each action (or ``house_turn`` for the seats the house plays),
then ``move_save`` once (docs/design.md, "How a move flows"); a table's attempt begins with
``match_start``. Each step is handed the seats the
state awaits and hands back the new state's, so ``engine.to_act`` runs once per state. A game
that ends without a result goes through ``close_unfinished``, a dismissed one through
``match_dismiss``. What must happen after commit goes to the outbox (core/outbox.py, tables/events.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime

from django.conf import settings
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from accounts.bots import DEFAULT_BOT_LEVEL
from accounts.models import User
from core import metrics, outbox
from core.i18n import lazy_format, refusal
from games.catalog import get_engine
from games.models import Match, MatchPlayer
from games.records import storage
from games.records.places import places_from_groups
from tables import clock, matchstore, selectors
from tables.errors import TableError
from tables.events import BotsDue, ClockDue, RoundsStored, TableChanged, TurnNoticeDue
from tables.models import DealCommitment, Seat, Table
from tables.moves import MoveEvent
from tables.selectors.fairness import with_fairness
from tables.services import fairness, handoff


def engine_for(game: str):
    try:
        return get_engine(game)
    except ValueError as error:
        raise TableError(refusal(error)) from None


def table_lock(table_id: int) -> Table:
    """The table's row, locked: a table write's first step; refused when there is no such table."""
    table = Table.objects.select_for_update().filter(pk=table_id).first()
    if table is None:
        raise TableError(_("There is no such table."))
    return table


def lobby_room_require(host: User, *, rematch: bool = False) -> None:
    """RULING P52: a host has at most ``MAX_OPEN_LOBBIES`` tables waiting for players, a rematch
    counted as any table its host opens. The host's row is locked first, so two tables opened at
    once by one account are counted one after the other."""
    User.objects.select_for_update().filter(pk=host.pk).values_list("pk", flat=True).first()
    most = settings.MAX_OPEN_LOBBIES
    if Table.objects.filter(host=host, status=Table.Status.LOBBY).count() < most:
        return
    if rematch:
        message = ngettext_lazy(
            "You already have %(count)s table waiting for players: start it or close it to open the rematch.",
            "You already have %(count)s tables waiting for players: start or close one to open the rematch.",
            most,
        )
    else:
        message = ngettext_lazy(
            "You already have %(count)s table waiting for players. Start it or close it before opening another.",
            "You already have %(count)s tables waiting for players. Start or close one of them before opening another.",
            most,
        )
    raise TableError(lazy_format(message, count=most))


def seat_of(match: Match, user: User) -> int:
    seat = next((seat for seat, user_id, _level in matchstore.seating(match) if user_id == user.pk), None)
    if seat is None:
        raise TableError(_("You are not playing in this game."))
    return seat


def vacate(seats: QuerySet[Seat]) -> None:
    """Empty these seats: nobody in them, nobody ready (leaving, removing a bot, closing)."""
    seats.update(user=None, is_ready=False)


def bot_level(user_id: int) -> str:
    """The level a bot account plays at (RULING P45); one small query per bot move."""
    level = User.objects.filter(pk=user_id).values_list("bot_level", flat=True).first()
    return level or DEFAULT_BOT_LEVEL


def clock_armed(match: Match, timer: clock.Timer | None) -> None:
    """Queue the countdown a clock step armed, after commit (tables/clock.py)."""
    if timer is not None:
        outbox.send(ClockDue(match_id=match.pk, version=timer.version, at=timer.at))


def action_apply(
    *,
    match: Match,
    engine,
    state,
    to_act: list[int],
    seat: int,
    user_id: int,
    action: object,
    now: datetime,
    events: list[MoveEvent],
    by_clock: bool = False,
) -> tuple[object, list[int]]:
    """Apply one action, under the Match lock: the new state and the seats it awaits. ``to_act``:
    the seats the given state awaits. Its MatchEvent is written with the new state, by ``move_save``.
    ``by_clock``: the house chose it for an absent player (RULING P11)."""
    new_state = engine.apply(state, seat, action)
    awaited = engine.to_act(new_state)
    match.version += 1
    if not set(awaited) <= set(to_act):
        match.turn_version = match.version  # someone new is awaited: a new turn begins
    events.append(MoveEvent(match.version, seat, user_id, action, now, by_clock))
    return new_state, awaited


def _house_play(
    *,
    match: Match,
    engine,
    state,
    to_act: list[int],
    seats: Iterable[int],
    users: dict[int, int],
    choose: Callable[[int, dict], object],
    by_clock: Callable[[int], bool],
    now: datetime,
    events: list[MoveEvent],
) -> tuple[object, list[int]]:
    """The house plays for each of ``seats`` the game still awaits, in order: in SITA every one
    chooses at once; in the trick games exactly one seat is awaited, and after its action another
    may be. ``choose(seat, view)`` picks the action from that seat's view only (a bot's level, or
    the clock's choice); ``users``: each seat's account; ``by_clock(seat)``: RULING P11's mark."""
    for seat in seats:
        if seat not in to_act:
            continue
        action = choose(seat, engine.view(state, seat))
        state, to_act = action_apply(
            match=match,
            engine=engine,
            state=state,
            to_act=to_act,
            seat=seat,
            user_id=users[seat],
            action=action,
            now=now,
            events=events,
            by_clock=by_clock(seat),
        )
    return state, to_act


def house_turn(
    *,
    match: Match,
    users: dict[int, int],
    choose: Callable[[int, dict], object],
    by_clock: Callable[[int], bool],
    now: datetime,
    seats: Iterable[int] | None = None,
    expired: bool = False,
) -> int:
    """The house plays from the stored state and the move is saved: the bots' and away seats' turn
    (``seats`` None: each seat of ``users`` the state awaits, in its order) or the clock's
    (``expired``, RULING P11: ``seats`` are those whose time is up; each one played is marked
    expired, and the clock's step is saved even when none of them was awaited). Returns the
    actions played; none played, and not the clock's, saves nothing."""
    engine = engine_for(match.game)
    state = matchstore.loaded(match.game, match.pk, match.version, match.state)
    to_act = engine.to_act(state)
    events: list[MoveEvent] = []
    state, to_act = _house_play(
        match=match,
        engine=engine,
        state=state,
        to_act=to_act,
        seats=[seat for seat in to_act if seat in users] if seats is None else seats,
        users=users,
        choose=choose,
        by_clock=by_clock,
        now=now,
        events=events,
    )
    if expired:
        for event in events:
            clock.expired(match, event.seat, now=now)
    if events or expired:
        move_save(match=match, state=state, engine=engine, to_act=to_act, events=events, now=now)
    return len(events)


def match_start(
    *, table: Table, seats: list[Seat], commitment: DealCommitment, seed: int, now: datetime, away: Iterable[int] = ()
) -> Match:
    """A table's attempt begins, under the Table lock, once every seat is filled and the deal's
    seed derived (RULING P32): the Match and its players, the commitment attached, the table
    playing, the stakes and passes taken, ``away`` marked away from the first move (RULING P12:
    the house plays those seats until their players are back), and the first state saved."""
    engine = engine_for(table.game)
    state = engine.new_game(table.seat_count, table.options, seed)
    match = Match.objects.create(
        table=table,
        attempt=commitment.attempt,
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
    handoff.match_started(table=table, match=match, users=[seat.user for seat in seats if seat.user])
    for position in sorted(away):
        clock.mark_away(match, position, now=now)
    move_save(match=match, state=state, engine=engine, to_act=engine.to_act(state), now=now)
    return match


def move_save(
    *, match: Match, state, engine, to_act: list[int], events: list[MoveEvent] | None = None, now: datetime
) -> None:
    """Save the state and the events, settle a finished game, and hand the broadcast and any bot
    turn to the outbox. ``to_act``: the seats the new state awaits."""
    events = events if events is not None else []
    # Issue 27: the finished rounds are written once, beside the state (games/records/storage.py).
    stored = storage.placeholders_in_text(match.game, match.state)
    match.state, rounds = storage.split(match.game, state)
    rounds_write = storage.rounds_write(stored, rounds)
    matchstore.remember(match.game, match.pk, match.version, match.state, state)
    if rounds_write != (None, None):
        outbox.send(RoundsStored(match_id=match.pk, seed=state.seed, rounds=rounds))
    humans = {seat for seat, _, is_bot in matchstore.seating(match) if not is_bot}
    clock_armed(match, clock.after_move(match, awaited=to_act, humans=humans, events=events, now=now))
    if events:
        metrics.move_done(match.game, len(events))
    matchstore.write_move(match, events, rounds_write)
    if engine.is_over(state):
        _settle(match, state, engine, now=now)
        match.save(update_fields=matchstore.SETTLED_FIELDS)
    # A finished game changes more than the state (places, payouts): consumers re-read it all.
    finished = match.status != Match.Status.PLAYING
    outbox.send(
        TableChanged(
            table_id=match.table_id,
            match_id=match.pk,
            version=match.version,
            state=match.state,
            lobby=finished,
            clock=selectors.clock_public(match),
            access=match.table_access_version,
        )
    )
    if match.status == Match.Status.PLAYING:
        bots_queue(match=match, to_act=to_act)
    turn_notice_queue(match, humans=humans, events=events)  # RULING P74


def turn_notice_queue(match: Match, *, humans: set[int], events: list[MoveEvent]) -> None:
    """Under the move's lock: the "your turn" check (RULING P74) is queued if a human acted, is
    awaited anew, or the game ended; at the game's first version the start notice's check too."""
    new_turn = match.turn_version == match.version
    human_acted = any(event.seat in humans for event in events)
    if human_acted or new_turn or match.status != Match.Status.PLAYING:
        # robust: a broker that is down loses a notice, never the move.
        outbox.send(TurnNoticeDue(match_id=match.pk, version=match.version), robust=True)


def bots_queue(*, match: Match, to_act: list[int]) -> None:
    """Queue the bots' turn after commit if a bot (or the house, for an away seat) is awaited.
    Called under the Match lock, by a move and by a dismissal vote that did not pass."""
    away = clock.away_seats(match)
    bot_seats = {seat for seat, _, is_bot in matchstore.seating(match) if is_bot or seat in away}
    if bot_seats & set(to_act):
        # robust: the move has committed; if the broker is down the task is lost, not the move, and
        # beat's sweep queues it again (RULING P35, tables/services/recovery.py).
        outbox.send(BotsDue(match_id=match.pk, version=match.version), robust=True)


def _settle(match: Match, state, engine, *, now: datetime) -> None:
    """The last move: record the result, places and totals in the same transaction (docs/design.md)."""
    record = engine.record(state)
    match.status = Match.Status.FINISHED
    match.record = with_fairness(match, record)  # RULING P33: the secret, now the game is over
    match.ended_at = now
    match.end_reason = "Finished."
    places = places_from_groups(record["placements"])
    players = list(match.match_players.all())
    for player in players:
        player.place = places[player.seat]
        player.total = record["totals"][player.seat]
    MatchPlayer.objects.bulk_update(players, ["place", "total"])
    Table.objects.filter(pk=match.table_id).update(status=Table.Status.FINISHED, last_activity_at=match.ended_at)
    handoff.match_finished(match=match, players=players)


def close_unfinished(*, match: Match, status: str, reason: str, now: datetime, by: User | None = None) -> None:
    """End a game in play without a result: stakes refunded, passes released, no ratings (RULING P8).
    ``by``: the admin who aborted, named on every refund row (RULING P19); None when the site did."""
    table = Table.objects.select_for_update().get(pk=match.table_id)  # Match, then Table: as votes do.
    _end_attempt(match, status=status, reason=reason, now=now)
    handoff.match_aborted(table=table, match=match, by=by)
    vacate(table.seats.all())
    table.status, table.closed_reason = Table.Status.CLOSED, match.end_reason
    table.save(update_fields=["status", "closed_reason"])


def match_dismiss(*, match: Match, now: datetime) -> None:
    """RULING S12: an approved vote ends the attempt as dismissed (kept in history); the same seats
    return to the same lobby with ready flags cleared. Called by the vote under the Match lock."""
    table = Table.objects.select_for_update().get(pk=match.table_id)
    _end_attempt(match, status=Match.Status.DISMISSED, reason="Dismissed by vote.", now=now)
    handoff.match_dismissed(table=table, match=match)
    table.seats.filter(user__is_bot=False).update(is_ready=False)  # RULING P1: bots stay ready.
    fairness.commitment_open(table=table, attempt=match.attempt + 1)  # RULING P30: a new attempt, a new secret
    table.status, table.last_activity_at = Table.Status.LOBBY, now
    table.save(update_fields=["status", "last_activity_at"])


def table_changed(table_id: int) -> None:
    """Every socket of the table reads it again after commit (seats, status, votes: not only a state)."""
    outbox.send(TableChanged(table_id=table_id, lobby=True))


def _end_attempt(match: Match, *, status: str, reason: str, now: datetime) -> None:
    engine = engine_for(match.game)
    match.status, match.end_reason, match.ended_at = status, reason[:200], now
    state = matchstore.loaded(match.game, match.pk, match.version, match.state)
    match.record = with_fairness(match, engine.record(state))  # RULING P33
    match.save(update_fields=["status", "end_reason", "ended_at", "record"])
    table_changed(match.table_id)
