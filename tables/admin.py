"""Admin for tables, their seats and dismissal votes.

"Close lobby" goes through ``tables.services.table_close`` so holds and passes
are released exactly as when the host closes the table.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import admin, messages
from django.db.models import Model, QuerySet
from django.http import HttpRequest

from tables.errors import TableError
from tables.models import DismissalVote, Seat, Table
from tables.services import table_close


def each_through_service(model_admin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet,
                         service: Callable[[Model], object], done: str) -> None:
    """Run an admin action row by row through a service; a refusal is reported, not raised."""
    for row in queryset:
        try:
            service(row)
        except TableError as error:
            model_admin.message_user(request, f"{row}: {error}", messages.ERROR)
        else:
            model_admin.message_user(request, f"{row}: {done}.", messages.SUCCESS)


class ServiceWrittenAdmin(admin.ModelAdmin):
    """Rows the services create and end: no adding or deleting from the admin (holds, passes, refunds)."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


class ViewOnlyAdmin(ServiceWrittenAdmin):
    """For rows the services write (or that are append-only): admins read them, never edit them here."""

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    fields = ["position", "user", "is_ready"]
    # Seats change only through the services (holds and passes ride along).
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(ServiceWrittenAdmin):
    list_display = ["id", "game", "seat_count", "stake", "host", "status", "created_at", "last_activity_at"]
    list_filter = ["game", "status", "created_at"]
    search_fields = ["=id", "host__username", "seats__user__username", "closed_reason"]
    list_select_related = ["host"]
    readonly_fields = ["game", "options", "seat_count", "stake", "host", "status", "created_at", "last_activity_at",
                       "closed_reason", "clock"]
    inlines = [SeatInline]
    actions = ["close_lobbies"]

    @admin.action(description="Close lobby (releases holds and passes)")
    def close_lobbies(self, request: HttpRequest, queryset: QuerySet[Table]) -> None:
        each_through_service(self, request, queryset, lambda table: table_close(
            table_id=table.pk, by=request.user, reason="Closed by an admin."), "closed")


@admin.register(Seat)
class SeatAdmin(ViewOnlyAdmin):
    list_display = ["table", "position", "user", "is_ready"]
    list_filter = ["table__game", "table__status", "is_ready"]
    search_fields = ["=table__id", "user__username"]


@admin.register(DismissalVote)
class DismissalVoteAdmin(ViewOnlyAdmin):
    list_display = ["match", "proposer", "status", "eligible", "needed", "created_at", "deadline", "closed_at"]
    list_filter = ["status", "created_at"]
    search_fields = ["=match__id", "proposer__username"]
