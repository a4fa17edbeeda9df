"""Admin for tables, their seats and dismissal votes.

"Close lobby" goes through ``tables.services.table_close`` so holds and passes
are released exactly as when the host closes the table.
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from tables.errors import TableError
from tables.models import DismissalVote, Seat, Table
from tables.services import table_close


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
class TableAdmin(admin.ModelAdmin):
    list_display = ["id", "game", "seat_count", "stake", "host", "status", "created_at", "last_activity_at"]
    list_filter = ["game", "status", "created_at"]
    search_fields = ["=id", "host__username", "seats__user__username", "closed_reason"]
    list_select_related = ["host"]
    readonly_fields = ["game", "options", "seat_count", "stake", "host", "status", "created_at", "last_activity_at",
                       "closed_reason"]
    inlines = [SeatInline]
    actions = ["close_lobbies"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    @admin.action(description="Close lobby (releases holds and passes)")
    def close_lobbies(self, request: HttpRequest, queryset: QuerySet[Table]) -> None:
        for table in queryset:
            try:
                table_close(table_id=table.pk, by=request.user, reason="Closed by an admin.")
            except TableError as error:
                self.message_user(request, f"{table}: {error}", messages.ERROR)
            else:
                self.message_user(request, f"{table}: closed.", messages.SUCCESS)


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["table", "position", "user", "is_ready"]
    list_filter = ["table__game", "table__status", "is_ready"]
    search_fields = ["=table__id", "user__username"]
    readonly_fields = ["table", "position", "user", "is_ready"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(DismissalVote)
class DismissalVoteAdmin(admin.ModelAdmin):
    list_display = ["match", "proposer", "status", "eligible", "needed", "created_at", "deadline", "closed_at"]
    list_filter = ["status", "created_at"]
    search_fields = ["=match__id", "proposer__username"]
    readonly_fields = ["match", "proposer", "status", "eligible", "needed", "yes_voters", "no_voters", "created_at",
                       "deadline", "closed_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False
