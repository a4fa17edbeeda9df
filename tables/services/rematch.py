"""Rematch (RULING P70): the same game, options and seats again, at a new table.

At a finished table every seated human may press "Rematch". The first press opens the new
table in the same transaction: the same game, options, seat count, stake, clock and practice
flag, the bots back in their seats, a new fair-deal commitment (RULING P30), and an answer
row for every human of the game, which keeps their old seat for them until they answer.
Each human who accepts takes their seat through the lobby's own service, so their stake is
held and their pass reserved again (RULINGS P5, P6), and refused the same way. Declining
frees the seat for the host to fill. Once nobody is left to answer, every seat is filled and
every human who accepted (the host too) has said "I'm ready" with their own value (RULING
P31), the table starts by itself. Every answer is pushed live to the finished table's sockets.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.models import Match, MatchPlayer
from tables.errors import TableError
from tables.models import DealCommitment, QuickTable, Rematch, RematchAnswer, Seat, Table, TableInvite
from tables.services import invites, lobby, steps

Answer = RematchAnswer.Answer


def rematch_accept(*, table_id: int, user: User) -> Table:
    """Accept (or open) the rematch of the finished table ``table_id``; returns the new table."""
    opened = False
    with transaction.atomic():
        source = _lock_finished(table_id)
        players = _last_players(source)
        if user.is_bot or user.pk not in {player.user_id for player in players}:
            raise TableError(_("Only the players of this game can play the rematch."))
        rematch = Rematch.objects.filter(source=source).first()
        if rematch is None:
            rematch, opened = _open(source=source, players=players, host=user), True
        answer = RematchAnswer.objects.select_for_update().get(rematch=rematch, user=user)
        if answer.answer == Answer.ACCEPTED:
            return rematch.table
        if answer.answer == Answer.DECLINED:
            raise TableError(_("You declined this rematch."))
        # RULINGS P5, P6: the seat is taken as any seat is: the stake held, the pass reserved, or refused.
        lobby.seat_take(table_id=rematch.table_id, user=user, position=answer.position)
        # Everyone, the host too, says "I'm ready" with their own value (RULING P31) before it starts.
        Seat.objects.filter(table_id=rematch.table_id, user=user).update(is_ready=False)
        _answer(answer, Answer.ACCEPTED)
        steps.table_changed(source.pk)
        if opened:
            _offer(rematch, by=user)
        return rematch.table


def rematch_decline(*, table_id: int, user: User) -> None:
    """Decline the rematch of ``table_id``: the seat is freed (an accepted one is left, its hold given back)."""
    with transaction.atomic():
        source = _lock_finished(table_id)
        rematch = Rematch.objects.filter(source=source).select_related("table").first()
        answer = rematch and RematchAnswer.objects.select_for_update().filter(rematch=rematch, user=user).first()
        if rematch is None or not answer:
            raise TableError(_("There is no rematch for you to decline."))
        if answer.answer == Answer.DECLINED:
            return
        if answer.answer == Answer.ACCEPTED:
            if rematch.table.status != Table.Status.LOBBY:
                raise TableError(_("The rematch has already started."))
            lobby.seat_leave(table_id=rematch.table_id, user=user)  # the host is refused there
        _answer(answer, Answer.DECLINED)
        steps.table_changed(source.pk)
        steps.table_changed(rematch.table_id)
    rematch_start_when_ready(table_id=rematch.table_id)


def rematch_start_when_ready(*, table_id: int) -> Match | None:
    """Start a rematch table (RULING P70) or a quick-play one (RULING P73) once nobody is left to
    answer, every seat is filled and every human is ready; anything else (another table, already
    started) does nothing, so it is safe to call twice."""
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id, status=Table.Status.LOBBY).first()
        if table is None or not starts_by_itself(table):
            return None
        if RematchAnswer.objects.filter(rematch__table=table, answer=Answer.PENDING).exists():
            return None
        seats = list(table.seats.select_related("user"))
        if any(seat.user is None or not seat.is_ready for seat in seats):
            return None
        host_seat = next((seat for seat in seats if seat.user_id == table.host_id), None)
        value = _given_value(table, host_seat)
        if value is None:
            return None
        # The host's own value, given with their "ready": the site draws nothing for anyone (RULING P31).
        return lobby.table_start(table_id=table.pk, host=table.host, entropy=value)


def starts_by_itself(table: Table) -> bool:
    """A rematch (RULING P70) and a table "Play now" opened (RULING P73) start when the last one is ready."""
    return Rematch.objects.filter(table=table).exists() or QuickTable.objects.filter(table=table).exists()


# RULINGS P70, P73: the last one ready starts it. A seat taken, a "ready" or a bot added at a lobby is
# the lobby's own write; once it has committed, a rematch table it leaves with every seat filled
# and ready starts in a transaction of its own, so a start that is refused (a value missing)
# leaves the seat taken or the player ready. At any other table the start does nothing. The
# quick-play bots' coming (tables/services/quickplay.py ``bots_fill``) ends the same way.


def rematch_seat_take(*, table_id: int, user: User, position: int | None, address: str = "") -> None:
    lobby.seat_take(table_id=table_id, user=user, position=position, address=address)
    rematch_start_when_ready(table_id=table_id)


def rematch_seat_ready(*, table_id: int, user: User, ready: bool, entropy: str | None = None) -> None:
    lobby.seat_ready(table_id=table_id, user=user, ready=ready, entropy=entropy)
    if ready:
        rematch_start_when_ready(table_id=table_id)


def rematch_bot_add(*, table_id: int, host: User, position: int | None, level: str) -> None:
    lobby.bot_add(table_id=table_id, host=host, position=position, level=level)
    rematch_start_when_ready(table_id=table_id)


def _open(*, source: Table, players: list[MatchPlayer], host: User) -> Rematch:
    steps.lobby_room_require(host, rematch=True)
    by_seat = {player.seat: player.user for player in players}
    table = lobby.table_open(
        host=host,
        game=source.game,
        options=source.options,
        # RULING P1: the bots come back to their seats, ready; the humans' seats wait for their answers.
        seats=[by_seat[position] if by_seat[position].is_bot else None for position in range(source.seat_count)],
        turn_clock=source.clock,
        now=timezone.now(),
        stake=source.stake,
        practice=source.practice,
        # RULING P66: a private table's rematch is private too, and its players are invited to it.
        private=source.private,
        spectators=source.spectators,
    )
    rematch = Rematch.objects.create(source=source, table=table)
    if table.private:
        now = timezone.now()
        TableInvite.objects.bulk_create(
            TableInvite(table=table, user=player.user, invited_by=host, created_at=now)
            for player in players
            if not player.user.is_bot
        )
    RematchAnswer.objects.bulk_create(
        RematchAnswer(rematch=rematch, user=player.user, position=player.seat)
        for player in players
        if not player.user.is_bot
    )
    return rematch


def _offer(rematch: Rematch, *, by: User) -> None:
    """Tell every other human of the game that a rematch waits for their answer."""
    for answer in rematch.answers.exclude(user=by).select_related("user"):
        invites.rematch_offer_send(user=answer.user, table=rematch.table, source=rematch.source, actor=by)


def _lock_finished(table_id: int) -> Table:
    table = steps.table_lock(table_id)
    if table.status != Table.Status.FINISHED:
        raise TableError(_("A rematch is offered once the game is over."))
    return table


def _last_players(table: Table) -> list[MatchPlayer]:
    match = table.matches.filter(status=Match.Status.FINISHED).order_by("-attempt").first()
    if match is None:
        raise TableError(_("A rematch is offered once the game is over."))
    return list(match.match_players.select_related("user").order_by("seat"))


def _answer(answer: RematchAnswer, value: str) -> None:
    answer.answer, answer.answered_at = value, timezone.now()
    answer.save(update_fields=["answer", "answered_at"])


def _given_value(table: Table, seat: Seat | None) -> str | None:
    if seat is None:
        return None
    commitment = DealCommitment.objects.filter(table=table, match=None).order_by("-attempt").first()
    entry = (commitment.entropy if commitment else {}).get(str(seat.position)) or {}
    return entry.get("value") if entry.get("user") == seat.user_id else None
