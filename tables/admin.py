"""Admin for tables, their seats and dismissal votes.

"Close lobby" goes through ``tables.services.table_close`` so holds and passes
are released exactly as when the host closes the table. Like every admin action
(RULING P19), it asks why first, and writes the reason to Django's admin log.
"""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.contrib import admin, messages
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tables.errors import TableError
from tables.models import DismissalVote, Seat, Table
from tables.services import table_close


class ReasonForm(forms.Form):
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=150,
                             help_text=gettext_lazy("Why (kept with the record and in the admin log)."))


def ask_reason(model_admin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet,
               title: str) -> tuple[str | None, TemplateResponse | None]:
    """RULING P19: an admin action first asks why. Returns the reason, or the page asking for it."""
    form = ReasonForm(request.POST if "apply" in request.POST else None)
    if form.is_valid():
        return form.cleaned_data["reason"], None
    context = {"form": form, "users": [], "queryset": queryset, "action": request.POST["action"], "title": title,
               "opts": model_admin.model._meta, **admin.site.each_context(request)}
    return None, TemplateResponse(request, "payouts/admin_grant.html", context)


def each_through_service(model_admin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet,
                         service: Callable[[Model], object], logged: str, done: str, reason: str) -> None:
    """Run an admin action row by row through a service; a refusal is reported, not raised.
    Each row done is written to the admin log with the reason (RULING P19): ``logged`` in English,
    the log being the record whoever reads it; ``done`` (``%(row)s``) is the admin's message."""
    for row in queryset:
        try:
            service(row)
        except TableError as error:
            model_admin.message_user(request, _("%(row)s: %(error)s") % {"row": row, "error": error}, messages.ERROR)
        else:
            model_admin.log_change(request, row, f"{logged}: {reason}")
            model_admin.message_user(request, done % {"row": row}, messages.SUCCESS)


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

    @admin.action(description=gettext_lazy("Close lobby (releases holds and passes)"))
    def close_lobbies(self, request: HttpRequest, queryset: QuerySet[Table]) -> TemplateResponse | None:
        reason, page = ask_reason(self, request, queryset, _("Close the selected lobbies"))
        if page is not None:
            return page
        each_through_service(self, request, queryset, lambda table: table_close(
            table_id=table.pk, by=request.user, reason=reason), "Closed", _("%(row)s: closed."), reason)
        return None


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
