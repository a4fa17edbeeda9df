"""Tournaments in the admin: create, edit, cancel (refunds), disqualify and re-seat, each saying why
(RULING P19) and logged as a LogEntry; entries, rounds and seasons are read here, written by the
services."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy as _

from core.admin_tools import ReasonedAdmin, ViewOnlyAdmin, ViewOnlyInline, ask_reason
from core.time_zones import typed_time_note
from tournaments import services
from tournaments.models import Entry, Round, Season, SeasonPlace, Tournament
from tournaments.services import TournamentError

if TYPE_CHECKING:
    from accounts.requests import AuthenticatedRequest


def _run(
    model_admin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet, title: str, call, *, done: str
) -> HttpResponse | None:
    """``title`` asks ("Cancel"); ``done`` says what happened to each row, with %(name)s (issue 53:
    not "Friday cup: Cancel.")."""
    answers, page = ask_reason(model_admin, request, queryset, title)
    if answers is None:  # the page asking why
        return page
    reason = answers["reason"]
    for obj in queryset:
        try:
            call(obj, reason)
        except TournamentError as error:
            model_admin.message_user(request, f"{obj}: {error}", messages.ERROR)
        else:
            model_admin.log_change(request, obj, f"{title}: {reason}")
            model_admin.message_user(request, done % {"name": obj}, messages.SUCCESS)
    return None


ENTRY_FIELDS = ("user", "state", "rating", "half_points", "absences", "rank", "prize", "reason", "signed_up_at")


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    fields = ENTRY_FIELDS
    readonly_fields = ENTRY_FIELDS
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(ReasonedAdmin):
    list_display = ["name", "game", "starts_at", "state", "current_round", "rounds", "entry_fee", "pot", "official"]
    list_filter = ["state", "game", "official"]
    search_fields = ["name"]
    inlines = [EntryInline]
    actions = ["cancel"]
    readonly_fields = ["state", "current_round", "pot", "ended_at", "end_reason", "creator", "options", "clock"]

    def formfield_for_dbfield(self, db_field, request: HttpRequest, **kwargs):
        field = super().formfield_for_dbfield(db_field, request, **kwargs)
        if db_field.name == "starts_at" and field is not None:
            # Issue 53: typed in the admin's own zone (core/time_zones.py), stored in UTC; say which.
            field.help_text = typed_time_note()
        return field

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False  # its fees and entries are the players': cancelling gives every fee back

    def save_model(self, request: HttpRequest, obj: Tournament, form, change: bool) -> None:
        if change:
            super().save_model(request, obj, form, change)
            return
        # Created through the service, so the start is scheduled and every rule is checked.
        created = services.tournament_create(
            creator=cast("AuthenticatedRequest", request).user,
            name=obj.name,
            game=obj.game,
            options=obj.options or {},
            starts_at=obj.starts_at,
            rounds=obj.rounds,
            table_size=obj.table_size,
            min_players=obj.min_players,
            max_players=obj.max_players,
            entry_fee=obj.entry_fee,
            prize_split="/".join(str(p) for p in obj.prize_split) or "100",
            official=obj.official,
        )
        obj.pk = created.pk
        obj.refresh_from_db()

    @admin.action(description=_("Cancel (every fee back)"))
    def cancel(self, request: AuthenticatedRequest, queryset: QuerySet[Tournament]) -> HttpResponse | None:
        return _run(
            self,
            request,
            queryset,
            str(_("Cancel")),
            lambda t, reason: services.tournament_cancel(tournament_id=t.pk, by=request.user, reason=reason),
            done=str(_("%(name)s is cancelled: every entry fee was given back, with your reason.")),
        )


@admin.register(Entry)
class EntryAdmin(ViewOnlyAdmin):
    list_display = ["user", "tournament", "state", "half_points", "absences", "rank", "prize"]
    list_filter = ["state"]
    search_fields = ["user__username", "tournament__name"]
    readonly_fields = [f.name for f in Entry._meta.fields]
    actions = ["disqualify"]

    @admin.action(description=_("Disqualify"))
    def disqualify(self, request: AuthenticatedRequest, queryset: QuerySet[Entry]) -> HttpResponse | None:
        return _run(
            self,
            request,
            queryset,
            str(_("Disqualify")),
            lambda e, reason: services.entry_disqualify(entry_id=e.pk, by=request.user, reason=reason),
            done=str(_("%(name)s: disqualified.")),
        )


@admin.register(Round)
class RoundAdmin(ViewOnlyAdmin):
    list_display = ["tournament", "number", "state", "started_at", "tables_start_at", "ended_at"]
    readonly_fields = [f.name for f in Round._meta.fields]
    actions = ["reseat"]

    @admin.action(description=_("Re-seat (before its tables start)"))
    def reseat(self, request: AuthenticatedRequest, queryset: QuerySet[Round]) -> HttpResponse | None:
        return _run(
            self,
            request,
            queryset,
            str(_("Re-seat")),
            lambda r, reason: services.round_reseat(round_id=r.pk, by=request.user, reason=reason),
            done=str(_("%(name)s: seated again.")),
        )


class SeasonPlaceInline(ViewOnlyInline):
    model = SeasonPlace
    readonly_fields = ["rank", "user", "rating", "games"]


@admin.register(Season)
class SeasonAdmin(ViewOnlyAdmin):
    list_display = ["game", "month", "frozen_at"]
    readonly_fields = ["game", "month", "frozen_at"]
    inlines = [SeasonPlaceInline]
