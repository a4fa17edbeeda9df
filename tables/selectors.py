"""Reads for lobby and table pages (docs/style.md §5)."""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet

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
