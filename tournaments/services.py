"""Every write of tournaments: creation, sign-up and withdrawal, the start, rounds, scoring, the
payout, cancellation, disqualification and re-seating (docs/style.md §5–8; RULINGS P77–P83); the
monthly seasons' freeze (RULING P84).

Each public function is one transaction that locks the Tournament row first (then tables, then
ledger accounts, as the table services do), so the beat sweep, a task run twice and an admin
cannot interleave. Every step checks the tournament's state and round first: a late or repeated
task finds nothing left to do. Tasks, broadcasts and notifications go out after commit.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts import names
from accounts.bots import DEFAULT_BOT_LEVEL
from accounts.models import User
from accounts.services import ensure_bot_accounts
from core import outbox
from core.i18n import lazy_format, refusal
from games import catalog
from games.catalog import get_engine
from games.models import Match, Rating
from payouts import services as payouts
from payouts.services import PayoutError
from tables import clock as table_clock
from tables.models import Table
from tables.services.endings import match_abort
from tables.services.lobby import table_close, table_open
from tables.services.scheduled import table_start_scheduled
from tournaments import events, pairing, pot
from tournaments.models import Entry, Round, RoundTable, Season, SeasonPlace, Sitting, Tournament
from tournaments.selectors import ladder, month_start, previous_month, standings_lines

State = Tournament.State
MAX_ROUNDS = 10
MAX_PLAYERS = 10_000
ABSENT_ROUNDS_TO_WITHDRAW = 2  # RULING P80
REMINDER = timedelta(minutes=5)  # RULING P85: how long before the start its players are told
PERMISSION = "tournaments.create_coin_tournament"


class TournamentError(Exception):
    """A refused tournament write; the message is shown to the player as it is."""


# --- creation ----------------------------------------------------------------------------


def tournament_create(
    *,
    creator: User,
    name: str,
    game: str,
    starts_at: datetime,
    rounds: int,
    table_size: int,
    min_players: int,
    max_players: int,
    options: dict | None = None,
    entry_fee: int = 0,
    prize_split: str = "100",
    clock_seconds: int | None = None,
    official: bool = False,
    now: datetime | None = None,
) -> Tournament:
    """Any player may create a free tournament; a coin one, or the site's own, needs the permission."""
    now = now or timezone.now()
    if (entry_fee or official) and not creator.has_perm(PERMISSION):
        raise TournamentError(_("Only the site's staff can create tournaments with an entry fee, or the site's own."))
    if not catalog.known(game):
        raise TournamentError(_("Choose one of the site's games."))
    facts = catalog.get(game)
    name = (name or "").strip()
    if not 3 <= len(name) <= 80:
        raise TournamentError(_("A tournament's name is 3 to 80 characters."))
    if title_problem := names.title_refusal(name):  # RULING P54: a title may not flip the page around it
        raise TournamentError(title_problem)
    if not facts.min_players <= table_size <= facts.max_players:
        raise TournamentError(
            lazy_format(
                _("A %(game)s table seats %(least)s to %(most)s players."),
                game=facts.title,
                least=facts.min_players,
                most=facts.max_players,
            )
        )
    if not 1 <= rounds <= MAX_ROUNDS:
        raise TournamentError(lazy_format(_("A tournament has 1 to %(most)s rounds."), most=MAX_ROUNDS))
    if not 2 <= min_players <= max_players <= MAX_PLAYERS:
        raise TournamentError(
            lazy_format(
                _("The players must be at least 2, and the minimum no more than the maximum (at most %(most)s)."),
                most=f"{MAX_PLAYERS:,}",
            )
        )
    if not 0 <= entry_fee <= payouts_max_fee():
        raise TournamentError(_("The entry fee must be a whole number of coins, 0 for free."))
    if starts_at <= now:
        raise TournamentError(_("The start must be in the future."))
    try:
        split = pairing.parse_split(prize_split) if entry_fee else (100,)
        full_options = get_engine(game).validate_options(table_size, options or {})
        # RULING P80: a tournament table always has a clock, so no absent player stalls a round.
        seconds = table_clock.validate(game=game, seconds=clock_seconds or facts.clock or 60, stake=1)
    except ValueError as error:
        raise TournamentError(refusal(error)) from None
    if len(split) > min_players:
        raise TournamentError(_("The prize split pays more places than the minimum number of players."))
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=name,
            game=game,
            options=full_options,
            starts_at=starts_at,
            rounds=rounds,
            table_size=table_size,
            min_players=min_players,
            max_players=max_players,
            entry_fee=entry_fee,
            prize_split=list(split),
            clock=seconds,
            official=official,
            creator=creator,
        )
        _schedule_start(tournament)
    return tournament


def payouts_max_fee() -> int:
    return 1_000_000


def _schedule_start(tournament: Tournament) -> None:
    # robust: if the broker is down the beat sweep starts it (tournaments_sweep).
    outbox.send(events.StartDue(tournament_id=tournament.pk, at=tournament.starts_at), robust=True)


# --- sign-up -----------------------------------------------------------------------------


def entry_signup(*, tournament_id: int, user: User, now: datetime | None = None) -> Entry:
    """RULING P83: the fee is held and every round's pass reserved, or the sign-up is refused."""
    now = now or timezone.now()
    if user.is_bot:
        raise TournamentError(_("Bots are not entered in tournaments; they only fill tables."))
    with transaction.atomic():
        tournament = _lock(tournament_id)
        if tournament.state != State.SIGNUP or now >= tournament.starts_at:
            raise TournamentError(_("Sign-up for this tournament has closed."))
        entry = tournament.entries.filter(user=user).first()
        if entry is not None and entry.state == Entry.State.ACTIVE:
            raise TournamentError(_("You are already signed up."))
        if entry is not None and entry.state == Entry.State.DISQUALIFIED:
            raise TournamentError(_("You were disqualified from this tournament."))
        if tournament.entries.filter(state=Entry.State.ACTIVE).count() >= tournament.max_players:
            raise TournamentError(_("This tournament is full."))
        rating = Rating.objects.filter(user=user, game=tournament.game).values_list("ordinal", flat=True).first()
        if entry is None:
            entry = Entry(tournament=tournament, user=user)
        entry.state = Entry.State.ACTIVE
        entry.rating = rating or 0.0
        entry.signed_up_at = now
        entry.reason = ""
        entry.save()
        try:
            pot.entry_hold(user=user, tournament=tournament)
        except PayoutError as error:
            raise TournamentError(str(error)) from None
        outbox.send(events.TournamentChanged(tournament_id=tournament.pk), robust=True)
    return entry


def entry_withdraw(*, tournament_id: int, user: User, now: datetime | None = None) -> None:
    """Before the start the fee comes back; later the fee stays in the pot and only the passes of
    the rounds not yet played are freed. A withdrawn player is not seated again."""
    with transaction.atomic():
        tournament = _lock(tournament_id)
        entry = tournament.entries.filter(user=user, state=Entry.State.ACTIVE).first()
        if entry is None:
            raise TournamentError(_("You are not signed up."))
        if tournament.state not in (State.SIGNUP, State.RUNNING):
            raise TournamentError(_("This tournament is over."))
        memo = "Withdrew from the tournament before the start."
        entry.state = Entry.State.WITHDRAWN
        entry.reason = "Withdrew."
        entry.save(update_fields=["state", "reason"])
        if tournament.state == State.SIGNUP:
            pot.entry_release(user=user, tournament=tournament, memo=memo)
        else:
            pot.passes_release(user=user, tournament=tournament, memo=WITHDREW_PASSES)
        outbox.send(events.TournamentChanged(tournament_id=tournament.pk), robust=True)


WITHDREW_PASSES = "Withdrew from the tournament: passes for the rounds not played freed."


def entries_erase(user: User) -> None:
    """RULINGS P23, P82: a deleted account leaves every tournament still going as a player who
    withdraws does. Before the start the fee comes back and the entry goes (it was no result);
    after it the fee stays in the pot, the passes of the rounds not played are freed and the entry
    stays in the standings under the anonymous name, as do the entries of tournaments that ended.
    A disqualification stays: it is an admin's decision, with its reason."""
    going = Entry.objects.filter(user=user, tournament__state__in=(State.SIGNUP, State.RUNNING))
    for tournament_id in list(going.filter(state=Entry.State.ACTIVE).values_list("tournament_id", flat=True)):
        entry_withdraw(tournament_id=tournament_id, user=user)
    going.filter(tournament__state=State.SIGNUP, state=Entry.State.WITHDRAWN).delete()


# --- the start ---------------------------------------------------------------------------


def tournament_remind(*, tournament_id: int, now: datetime | None = None) -> bool:
    """RULING P85: a few minutes before the start, every player signed up is told, once. False when
    nothing was due (told already, started, cancelled, or not yet within ``REMINDER``)."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = _lock(tournament_id)
        due = tournament.state == State.SIGNUP and tournament.reminded_at is None
        if not due or not (now < tournament.starts_at <= now + REMINDER):
            return False
        tournament.reminded_at = now
        tournament.save(update_fields=["reminded_at"])
        minutes = math.ceil((tournament.starts_at - now).total_seconds() / 60)
        user_ids = list(_active(tournament).values_list("user_id", flat=True))
        events.notify_players(tournament.pk, kind="tournament_starting", user_ids=user_ids, minutes=minutes)
    return True


def tournament_start(*, tournament_id: int, now: datetime | None = None) -> bool:
    """At the start time: cancelled with every fee and pass back when too few signed up (RULING
    P82), else the fees go into the pot and round 1 is seated. False when nothing was due."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = _lock(tournament_id)
        if tournament.state != State.SIGNUP or now < tournament.starts_at:
            return False
        entries = list(_active(tournament).select_related("user"))
        if len(entries) < tournament.min_players:
            _cancel(tournament, memo="Tournament cancelled: too few players at the start.", now=now)
            return True
        tournament.pot = pot.entry_collect(tournament=tournament, users=[e.user for e in entries])
        tournament.state = State.RUNNING
        tournament.save(update_fields=["pot", "state"])
        # No "starting" notice now: RULING P85 told them five minutes ago, and each is told where
        # their table is as round 1 is seated.
        _round_seat(tournament, number=1, now=now)
    return True


# --- rounds ------------------------------------------------------------------------------


def _round_seat(tournament: Tournament, *, number: int, now: datetime) -> Round | None:
    """RULING P79: seat round ``number`` and open its tables. The players have
    ``TOURNAMENT_READY_SECONDS`` to press "I'm ready" at their table (RULING P80)."""
    entries = {e.user_id: e for e in _active(tournament).select_related("user")}
    if not entries:
        _finish(tournament, now=now)
        return None
    facts = catalog.get(tournament.game)
    shape = pairing.layout(len(entries), tournament.table_size, facts.min_players, facts.max_players)
    order = {user_id: index for index, user_id in enumerate(sorted(entries, key=lambda u: entries[u].signed_up_at))}
    if number == 1:
        groups = pairing.seat_by_rating({u: e.rating for u, e in entries.items()}, order, shape)
    else:
        lines = standings_lines(tournament)
        ranked = [line.player for line in pairing.standings(lines.values()) if line.player in entries]
        groups = pairing.regroup(ranked, _met(tournament), shape)
    ready_by = now + timedelta(seconds=settings.TOURNAMENT_READY_SECONDS)
    round_ = Round.objects.create(tournament=tournament, number=number, started_at=now, tables_start_at=ready_by)
    bots = ensure_bot_accounts(DEFAULT_BOT_LEVEL)
    for index, (members, bot_count) in enumerate(zip(groups, shape.bots, strict=True), start=1):
        users = [entries[user_id].user for user_id in members] + bots[:bot_count]
        table = _table_open(tournament, users=users, host=bots[-1], now=now)
        round_table = RoundTable.objects.create(round=round_, number=index, table=table)
        Sitting.objects.bulk_create(
            Sitting(round_table=round_table, entry=entries[user.pk], seat=position)
            for position, user in enumerate(users)
            if not user.is_bot
        )
    tournament.current_round = number
    tournament.save(update_fields=["current_round"])
    _schedule_tables_start(round_)
    events.notify_players(tournament.pk, kind="round_ready", user_ids=list(entries))
    outbox.send(events.TournamentChanged(tournament_id=tournament.pk), robust=True)
    return round_


def _table_open(tournament: Tournament, *, users: list[User], host: User, now: datetime) -> Table:
    """An ordinary table with every seat filled for its players; the house's bot is its host, so no
    player can start it early or close it, and nobody is ready until they say so (RULING P31)."""
    table = table_open(
        host=host, game=tournament.game, options=tournament.options, seats=users, turn_clock=tournament.clock, now=now
    )
    if pot.passes_needed(tournament):
        for user in users:
            if not user.is_bot:
                pot.round_pass_move(user=user, tournament=tournament, table=table)  # RULING P6
    return table


def _schedule_tables_start(round_: Round) -> None:
    seconds = settings.TOURNAMENT_READY_SECONDS
    outbox.send(events.TablesStartDue(round_id=round_.pk, seconds=seconds), robust=True)


def round_tables_start(*, round_id: int, now: datetime | None = None, early: bool = False) -> int:
    """Start the round's tables that are still lobbies: at ``tables_start_at``, or ``early`` a table
    whose every player is ready. A human who did not press "I'm ready" is absent (RULING P80).
    Returns how many tables started."""
    now = now or timezone.now()
    started = 0
    with transaction.atomic():
        round_ = Round.objects.select_related("tournament").get(pk=round_id)
        tournament = _lock(round_.tournament_id)
        if tournament.state != State.RUNNING or round_.state != Round.State.PLAYING:
            return 0
        due = now >= round_.tables_start_at
        for round_table in round_.tables.select_related("table").order_by("number"):
            table = round_table.table
            if table.status != Table.Status.LOBBY:
                continue
            if not due and not (early and not table.seats.filter(is_ready=False).exists()):
                continue
            _refill(round_table)
            result = table_start_scheduled(table_id=table.pk, now=now)
            if result is None:
                continue
            _match, absent = result
            sittings = list(round_table.sittings.select_related("entry"))
            for sitting in sittings:
                if sitting.seat in absent:
                    sitting.absent = True
                    sitting.save(update_fields=["absent"])
            started += 1
    if started:
        outbox.send(events.TournamentChanged(tournament_id=tournament.pk), robust=True)
    return started


def _refill(round_table: RoundTable) -> None:
    """A player who left their round table's seat before the start is put back in it: the seat is
    theirs for the round, and they are absent (RULING P80) unless they press "I'm ready" again."""
    table = round_table.table
    for sitting in round_table.sittings.select_related("entry__user"):
        seat = table.seats.get(position=sitting.seat)
        if seat.user_id is None:
            seat.user = sitting.entry.user
            seat.is_ready = False
            seat.save(update_fields=["user", "is_ready"])
            if pot.passes_needed(round_table.round.tournament):
                payouts.pass_reserve(user=seat.user, table=table, memo="Seat taken at a Sitaratas table.")


def round_check(*, round_id: int, now: datetime | None = None) -> bool:
    """Score each table of the round whose game has ended; when all have, end the round and seat
    the next, or end the tournament. True when the round ended now."""
    now = now or timezone.now()
    with transaction.atomic():
        round_ = Round.objects.get(pk=round_id)
        tournament = _lock(round_.tournament_id)
        round_.refresh_from_db()
        if tournament.state != State.RUNNING or round_.state != Round.State.PLAYING:
            return False
        pending = False
        for round_table in round_.tables.filter(scored=False).select_related("table"):
            match = round_table.table.matches.order_by("-attempt").first()
            if match is None or match.status == Match.Status.PLAYING:
                pending = True
                continue
            _score(round_table, match)
        outbox.send(events.TournamentChanged(tournament_id=tournament.pk), robust=True)
        if pending:
            return False
        round_.state = Round.State.FINISHED
        round_.ended_at = now
        round_.save(update_fields=["state", "ended_at"])
        _withdraw_absent(tournament)
        if round_.number < tournament.rounds and _active(tournament).exists():
            _round_seat(tournament, number=round_.number + 1, now=now)
        else:
            _finish(tournament, now=now)
    return True


def _score(round_table: RoundTable, match: Match) -> None:
    """RULING P77: points by place at the table, bots' places included; RULING P80: an absent
    player scores nothing there. A game that ended otherwise (aborted) scores nothing for anyone."""
    players = list(match.match_players.all())
    places = {p.seat: p.place for p in players if p.place is not None}
    points = pairing.table_points(places, match.players) if len(places) == len(players) else {}
    for sitting in round_table.sittings.select_related("entry"):
        sitting.place = places.get(sitting.seat)
        sitting.half_points = 0 if sitting.absent else points.get(sitting.seat, 0)
        sitting.save(update_fields=["place", "half_points"])
        entry = sitting.entry
        entry.half_points += sitting.half_points
        entry.absences += int(sitting.absent)
        entry.save(update_fields=["half_points", "absences"])
    round_table.scored = True
    round_table.save(update_fields=["scored"])


def _withdraw_absent(tournament: Tournament) -> None:
    """RULING P80: a player absent at the start of two rounds is withdrawn."""
    for entry in _active(tournament).filter(absences__gte=ABSENT_ROUNDS_TO_WITHDRAW).select_related("user"):
        entry.state = Entry.State.WITHDRAWN
        entry.reason = "Absent from two rounds."
        entry.save(update_fields=["state", "reason"])
        pot.passes_release(
            user=entry.user, tournament=tournament, memo="Tournament over: passes for unplayed rounds freed."
        )


def _finish(tournament: Tournament, *, now: datetime) -> None:
    """RULINGS P78, P83: the final standings; the pot paid by the split among the players still in."""
    ranked_lines = pairing.standings(standings_lines(tournament).values())
    entries = {e.user_id: e for e in tournament.entries.select_related("user")}
    eligible = [(line.rank, line.player) for line in ranked_lines if entries[line.player].state == Entry.State.ACTIVE]
    # Ranks among the players still in: a withdrawn or disqualified player above them takes no place.
    renumbered, previous, position = [], None, 0
    for index, (rank, player) in enumerate(eligible, start=1):
        if rank != previous:
            position, previous = index, rank
        renumbered.append((position, player))
    prizes = pairing.split_prizes(tournament.pot, tournament.prize_split, renumbered) if tournament.pot else {}
    ranks = {player: rank for rank, player in renumbered}
    if prizes:
        pot.prizes_pay(tournament=tournament, prizes=prizes, ranks=ranks)
    for user_id, entry in entries.items():
        entry.rank = ranks.get(user_id)
        entry.prize = prizes.get(user_id, 0) if entry.rank is not None else None
        entry.save(update_fields=["rank", "prize"])
        pot.passes_release(
            user=entry.user, tournament=tournament, memo="Tournament over: passes for unplayed rounds freed."
        )
    tournament.state = State.FINISHED
    tournament.ended_at = now
    tournament.end_reason = "Finished."
    tournament.save(update_fields=["state", "ended_at", "end_reason"])
    # Issue 53: each player still in is told the final standings' place and prize.
    events.notify_players(tournament.pk, kind="tournament_finished", user_ids=sorted(ranks))
    outbox.send(events.TournamentChanged(tournament_id=tournament.pk), robust=True)


# --- admin -------------------------------------------------------------------------------


def tournament_cancel(*, tournament_id: int, by: User, reason: str, now: datetime | None = None) -> None:
    """An admin cancels, saying why (RULING P19): every fee back (held or in the pot), every pass
    not used freed, and the games of a round in play aborted (their passes back, RULING P8)."""
    now = now or timezone.now()
    if not by.is_staff:
        raise TournamentError(_("Only an admin can cancel a tournament."))
    if not reason.strip():
        raise TournamentError(_("Cancelling a tournament needs a reason."))
    with transaction.atomic():
        tournament = _lock(tournament_id)
        if tournament.state not in (State.SIGNUP, State.RUNNING):
            raise TournamentError(_("This tournament is already over."))
        memo = pot.cancel_memo(by=by, reason=reason)
        if tournament.state == State.RUNNING:
            for round_table in RoundTable.objects.filter(round__tournament=tournament).select_related("table"):
                table = round_table.table
                match = table.matches.filter(status=Match.Status.PLAYING).first()
                if match is not None:
                    match_abort(match_id=match.pk, by=by, reason=f"Tournament cancelled: {reason}", now=now)
                elif table.status == Table.Status.LOBBY:
                    table_close(table_id=table.pk, by=by, reason=f"Tournament cancelled: {reason}")
            pot.pot_refund(tournament=tournament, memo=memo, by=by)
            # Issue 53: the round that was going ends with the tournament; its page no longer says "playing".
            tournament.round_set.filter(state=Round.State.PLAYING).update(state=Round.State.FINISHED, ended_at=now)
        _cancel(tournament, memo="Tournament cancelled by an admin.", now=now, by=by, reason=reason, ledger=memo)


def _cancel(
    tournament: Tournament, *, memo: str, now: datetime, by: User | None = None, reason: str = "", ledger: str = ""
) -> None:
    """``memo`` is the tournament's end reason (with ``reason``); ``ledger`` the memo of its rows if not ``memo``."""
    for entry in tournament.entries.select_related("user"):
        pot.entry_release(user=entry.user, tournament=tournament, memo=ledger or memo, by=by)
    tournament.state = State.CANCELLED
    tournament.ended_at = now
    tournament.end_reason = (f"{memo} {reason}".strip())[:200]
    tournament.save(update_fields=["state", "ended_at", "end_reason"])
    outbox.send(events.TournamentChanged(tournament_id=tournament.pk), robust=True)


def entry_disqualify(*, entry_id: int, by: User, reason: str) -> Entry:
    """An admin disqualifies a player, saying why: not seated again, no prize; before the start the
    fee comes back, after it the fee stays in the pot. The admin's LogEntry is written by the admin."""
    if not by.is_staff:
        raise TournamentError(_("Only an admin can disqualify a player."))
    if not reason.strip():
        raise TournamentError(_("A disqualification needs a reason."))
    with transaction.atomic():
        entry = Entry.objects.select_related("user").get(pk=entry_id)
        tournament = _lock(entry.tournament_id)
        entry.refresh_from_db()
        if tournament.state not in (State.SIGNUP, State.RUNNING):
            raise TournamentError(_("This tournament is already over."))
        if entry.state == Entry.State.DISQUALIFIED:
            raise TournamentError(_("This player is already disqualified."))
        entry.state = Entry.State.DISQUALIFIED
        entry.reason = reason.strip()[:200]
        entry.save(update_fields=["state", "reason"])
        memo = f"Disqualified: {entry.reason}"
        if tournament.state == State.SIGNUP:
            pot.entry_release(user=entry.user, tournament=tournament, memo=memo, by=by)
        else:
            pot.passes_release(user=entry.user, tournament=tournament, memo=memo, by=by)
        outbox.send(events.TournamentChanged(tournament_id=tournament.pk), robust=True)
    return entry


def round_reseat(*, round_id: int, by: User, reason: str, now: datetime | None = None) -> Round:
    """An admin seats the current round again (after a disqualification, say), while none of its
    tables has started: the lobbies close and the players still in are seated anew."""
    now = now or timezone.now()
    if not by.is_staff:
        raise TournamentError(_("Only an admin can re-seat a round."))
    if not reason.strip():
        raise TournamentError(_("Re-seating a round needs a reason."))
    with transaction.atomic():
        round_ = Round.objects.get(pk=round_id)
        tournament = _lock(round_.tournament_id)
        if tournament.state != State.RUNNING or round_.number != tournament.current_round:
            raise TournamentError(_("Only the current round of a running tournament can be re-seated."))
        tables = [rt.table for rt in round_.tables.select_related("table")]
        if any(table.status != Table.Status.LOBBY for table in tables):
            raise TournamentError(_("A table of this round has started; its round can no longer be re-seated."))
        for round_table in round_.tables.select_related("table"):
            for sitting in round_table.sittings.select_related("entry__user"):
                if pot.passes_needed(tournament):
                    pot.round_pass_return(user=sitting.entry.user, tournament=tournament, table=round_table.table)
            table_close(table_id=round_table.table_id, by=by, reason=f"Round re-seated: {reason}")
        number = round_.number
        round_.delete()
        new = _round_seat(tournament, number=number, now=now)
    if new is None:
        raise TournamentError(_("Nobody is left to seat."))
    return new


# --- helpers -----------------------------------------------------------------------------


def _lock(tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise TournamentError(_("There is no such tournament.")) from None


def _active(tournament: Tournament) -> QuerySet[Entry]:
    return tournament.entries.filter(state=Entry.State.ACTIVE)


def _met(tournament: Tournament) -> dict[int, set[int]]:
    """Who has sat with whom at this tournament's tables (humans only)."""
    met: dict[int, set[int]] = {}
    rows = Sitting.objects.filter(round_table__round__tournament=tournament).values_list(
        "round_table_id", "entry__user_id"
    )
    tables: dict[int, list[int]] = {}
    for table_id, user_id in rows:
        tables.setdefault(table_id, []).append(user_id)
    for members in tables.values():
        for user_id in members:
            met.setdefault(user_id, set()).update(other for other in members if other != user_id)
    return met


def tournaments_due(*, now: datetime) -> dict[str, int]:
    """Beat's sweep (RULING P35's idea for tournaments): start what is due, start the tables of a
    round whose window passed or whose players are all ready, and check rounds whose tables ended
    while no task told them. Each step is its own transaction and harmless when already done."""
    done = {"reminded": 0, "started": 0, "tables": 0, "rounds": 0}
    soon = Tournament.objects.filter(
        state=State.SIGNUP, reminded_at__isnull=True, starts_at__gt=now, starts_at__lte=now + REMINDER
    )
    for tournament_id in soon.values_list("pk", flat=True):
        done["reminded"] += int(tournament_remind(tournament_id=tournament_id, now=now))
    for tournament_id in Tournament.objects.filter(state=State.SIGNUP, starts_at__lte=now).values_list("pk", flat=True):
        done["started"] += int(tournament_start(tournament_id=tournament_id, now=now))
    rounds = Round.objects.filter(state=Round.State.PLAYING, tournament__state=State.RUNNING)
    for round_id in rounds.values_list("pk", flat=True):
        done["tables"] += round_tables_start(round_id=round_id, now=now, early=True)
        done["rounds"] += int(round_check(round_id=round_id, now=now))
    return done


# --- seasons ------------------------------------------------------------------------------

SEASON_PLACES = 10  # RULING P84: the places a frozen season keeps


def seasons_freeze(*, now: datetime) -> int:
    """RULING P84: freeze every game's ladder (``selectors.ladder``) of each month that has ended
    and is not frozen yet (the last one only: a site that was down for months freezes the month
    before this one). Returns how many. The beat task runs hourly; a month already frozen is left
    as it is, so running it twice, or late, changes nothing."""
    month = previous_month(month_start(now))
    frozen = 0
    for game in catalog.GAMES:
        if Season.objects.filter(game=game.name, month=month).exists():
            continue
        rows = ladder(game=game.name, month=month)[:SEASON_PLACES]
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
