"""Who may sit at a table and who may watch it (RULING P66), asked by every door to a table:
the lobby's list, the table page, its socket and taking a seat.

A public table is open to everyone, as before. A private one ("friends and invited only") is
not listed in the public lobby; its seats are for its host, the host's friends and the players
invited to it (by a friend's invitation or by following its link); its spectators are whom the
host chose: anyone, the friends of its seated players, or nobody. A player blocked by the host,
or who blocked the host, neither sits nor watches there (RULING P67). Whoever holds a seat may
always see their own table.

Open sockets follow these rules too, not only their openings: every change of who may see a
table raises its ``access_version`` (``access_changed``), and a socket that decided under an older
version decides again, with ``open_refusal``, before its next push (tables/live/consumer.py).
Changes that concern two players alone (a block, an unfriending) name them, so the table's
other sockets need no read; who sits is in every socket's snapshot, so a seat taken or left at
a private table needs no version of its own.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from core import outbox
from social.models import Friendship
from social.selectors import are_friends, blocked_either_way
from tables.errors import TableError
from tables.events import TableChanged
from tables.models import Spectators, Table, TableInvite

NOT_INVITED = _("This table is for the host's friends and invited players.")
NOT_WATCHABLE = _("This table is private: you cannot watch it.")


def _seated(table: Table, user: User) -> bool:
    return table.seats.filter(user=user).exists()


def may_sit(*, table: Table, user: User) -> bool:
    if not table.private or user.pk == table.host_id:
        return True
    if blocked_either_way(table.host_id, user.pk):
        return False
    return are_friends(table.host_id, user.pk) or TableInvite.objects.filter(table=table, user=user).exists()


def may_watch(*, table: Table, user: User) -> bool:
    if not table.private or user.pk == table.host_id or _seated(table, user):
        return True
    if blocked_either_way(table.host_id, user.pk):
        return False
    if table.spectators == Spectators.ANYONE:
        return True
    if table.spectators == Spectators.FRIENDS:
        seated = table.seats.exclude(user=None).values("user_id")
        return Friendship.objects.filter(user_id__in=seated, friend=user).exists()
    return False


def may_open(*, table: Table, user: User) -> bool:
    """The table page and its socket: a watcher, or one who may still take a seat."""
    if may_watch(table=table, user=user):
        return True
    return table.status == Table.Status.LOBBY and may_sit(table=table, user=user)


def open_refusal(table_id: int, user: User) -> str | None:
    """Sync: why ``user`` may not open the table (page or socket), or None. One read for a public table."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None or not table.private or may_open(table=table, user=user):
        return None
    return str(NOT_WATCHABLE)


def require_seat(*, table: Table, user: User) -> None:
    """Inside the seat's transaction (tables.services.handoff.seat_taken)."""
    if not may_sit(table=table, user=user):
        raise TableError(NOT_INVITED)


def privacy_set(*, table_id: int, host: User, private: bool, spectators: str) -> Table:
    """The host's choice, before the start (RULING P66)."""
    if spectators not in Spectators.values:
        raise TableError(_("Choose who may watch: anyone, the seated players' friends, or nobody."))
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        if table is None:
            raise TableError(_("There is no such table."))
        if table.host_id != host.pk:
            raise TableError(_("Only the host can do that."))
        if table.status != Table.Status.LOBBY:
            raise TableError(_("That can only be changed before the start."))
        table.private, table.spectators = bool(private), spectators
        table.save(update_fields=["private", "spectators"])
        access_changed([table.pk])
    return table


def access_changed(table_ids: Iterable[int], *, users: Iterable[int] | None = None) -> None:
    """Inside the transaction that changed who may see the tables: their open sockets decide
    again at commit (only those of ``users``, if given), and any socket that missed the message
    does so at its next push, seeing the new version."""
    ids = sorted(set(table_ids))
    if not ids:
        return
    Table.objects.filter(pk__in=ids).update(access_version=F("access_version") + 1)
    named = tuple(sorted(set(users))) if users is not None else None
    for table_id in ids:
        outbox.send(TableChanged(table_id=table_id, lobby=True, access_users=named))


def relation_ended(user_ids: Iterable[int]) -> None:
    """Inside the transaction of a block or an unfriending between these players: the private
    tables still open where one of them hosts or sits may no longer be for the other."""
    ids = list(user_ids)
    open_statuses = (Table.Status.LOBBY, Table.Status.PLAYING)
    tables = Table.objects.filter(private=True, status__in=open_statuses).filter(
        Q(host_id__in=ids) | Q(seats__user_id__in=ids)
    )
    access_changed(tables.values_list("pk", flat=True), users=ids)
