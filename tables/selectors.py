"""Reads for lobby and table pages (docs/style.md §5)."""

from __future__ import annotations

from django.db.models import Count, Prefetch, Q, QuerySet

from accounts.selectors import users_named_publicly
from tables.models import Table

OPEN = (Table.Status.LOBBY, Table.Status.PLAYING)


def open_tables(*, game: str = "") -> QuerySet[Table]:
    tables = (
        Table.objects.filter(status__in=OPEN, private=False)  # RULING P66: private tables are not listed
        # RULING P54: a host muted site-wide is listed without their own words for a name.
        .prefetch_related(Prefetch("host", queryset=users_named_publicly()))
        .annotate(taken=Count("seats", filter=Q(seats__user__isnull=False)))
        .order_by("status", "-created_at")
    )
    if game:
        tables = tables.filter(game=game)
    return tables
