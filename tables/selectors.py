"""Reads for lobby and table pages (docs/style.md §5)."""

from __future__ import annotations

from django.db.models import Count, Max, Q, QuerySet

from tables.models import Table

OPEN = (Table.Status.LOBBY, Table.Status.PLAYING)


def open_tables(*, game: str = "") -> QuerySet[Table]:
    tables = (
        Table.objects.filter(status__in=OPEN)
        .select_related("host")
        .annotate(taken=Count("seats", filter=Q(seats__user__isnull=False)))
        .order_by("status", "-created_at")
    )
    if game:
        tables = tables.filter(game=game)
    return tables


def open_tables_stamp(*, game: str = "") -> tuple:
    """What the lobby list shows changes only with this (one small query): every seat taken or
    left, ready, start and close moves a table's ``last_activity_at``, and a table that leaves or
    joins the list changes the count or the newest id."""
    tables = Table.objects.filter(status__in=OPEN)
    if game:
        tables = tables.filter(game=game)
    stamp = tables.aggregate(count=Count("id"), last=Max("last_activity_at"), newest=Max("id"))
    return stamp["count"], stamp["last"], stamp["newest"]
