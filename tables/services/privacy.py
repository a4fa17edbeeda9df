"""The writes of who may see a table (RULING P66; the rules themselves are tables/selectors/privacy.py):
the host's choice, and the version every change of who may see a table raises, so that its open
sockets decide again."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from core import outbox
from tables.errors import TableError
from tables.events import TableChanged
from tables.models import Spectators, Table
from tables.services.steps import table_lock


def privacy_set(*, table_id: int, host: User, private: bool, spectators: str) -> Table:
    """The host's choice, before the start (RULING P66)."""
    if spectators not in Spectators.values:
        raise TableError(_("Choose who may watch: anyone, the seated players' friends, or nobody."))
    with transaction.atomic():
        table = table_lock(table_id)
        if table.host_id != host.pk:
            raise TableError(_("Only the host can do that."))
        if table.status != Table.Status.LOBBY:
            raise TableError(_("That can only be changed before the start."))
        table.private, table.spectators = bool(private), spectators
        table.save(update_fields=["private", "spectators"])
        access_recheck(table_ids=[table.pk])
    return table


def access_recheck(*, table_ids: Iterable[int], users: Iterable[int] | None = None) -> None:
    """In (or as) the transaction that changed who may see the tables: their open sockets decide
    again at commit (only those of ``users``, if given), and any socket that missed the message
    does so at its next push, seeing the new version."""
    ids = sorted(set(table_ids))
    if not ids:
        return
    named = tuple(sorted(set(users))) if users is not None else None
    with transaction.atomic():
        Table.objects.filter(pk__in=ids).update(access_version=F("access_version") + 1)
        for table_id in ids:
            outbox.send(TableChanged(table_id=table_id, lobby=True, access_users=named))


def relation_access_recheck(*, user_ids: Iterable[int]) -> None:
    """In the transaction of a block or an unfriending between these players: the private tables
    still open where one of them hosts or sits may no longer be for the other."""
    ids = list(user_ids)
    open_statuses = (Table.Status.LOBBY, Table.Status.PLAYING)
    with transaction.atomic():
        tables = Table.objects.filter(private=True, status__in=open_statuses).filter(
            Q(host_id__in=ids) | Q(seats__user_id__in=ids)
        )
        access_recheck(table_ids=tables.values_list("pk", flat=True), users=ids)
