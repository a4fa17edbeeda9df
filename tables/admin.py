"""Admin for tables, their seats and dismissal votes, and the games list's abort.

"Close lobby" goes through ``tables.services.lobby.table_close`` so holds and passes
are released exactly as when the host closes the table; "Abort game" on the games list
through ``tables.services.endings.match_abort``, like any other abort (refunds and all). Like every
admin action (RULING P19), each asks why first, and writes the reason to Django's admin log.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.admin_tools import ReasonedAdmin, ServiceWrittenAdmin, ViewOnlyAdmin, ViewOnlyInline, each_with_reason
from games.admin import MatchAdmin as GamesMatchAdmin
from games.models import Match
from tables.errors import TableError
from tables.models import DismissalVote, Seat, Table
from tables.services.endings import match_abort
from tables.services.lobby import table_close

if TYPE_CHECKING:
    from accounts.requests import AuthenticatedRequest


class SeatInline(ViewOnlyInline):
    model = Seat
    fields = ("position", "user", "is_ready")
    # Seats change only through the services (holds and passes ride along).
    readonly_fields = fields


# Who may sit and who may watch (RULINGS P65, P66): the host's choices, set in the lobby.
PLAY_FIELDS = ["practice", "private", "spectators", "invite_nonce"]


@admin.register(Table)
class TableAdmin(ReasonedAdmin, ServiceWrittenAdmin):
    """RULING P19: a lobby's settings may be changed here, saying why; once its game has started
    (and after: a finished table may play its rematch) nothing that decides who may sit or watch is."""

    list_display = ["id", "game", "seat_count", "stake", "host", "status", "created_at", "last_activity_at"]
    list_filter = ["game", "status", "created_at"]
    search_fields = ["=id", "host__username", "seats__user__username", "closed_reason"]
    list_select_related = ["host"]
    readonly_fields = [
        "game",
        "options",
        "seat_count",
        "stake",
        "host",
        "status",
        "created_at",
        "last_activity_at",
        "closed_reason",
        "clock",
    ]
    inlines = [SeatInline]
    actions = ["close_lobbies"]

    def get_readonly_fields(self, request: HttpRequest, obj: Table | None = None) -> list[str]:
        fields = list(self.readonly_fields)
        if obj is not None and obj.status != Table.Status.LOBBY:
            fields += PLAY_FIELDS
        return fields

    @admin.action(description=gettext_lazy("Close lobby (releases holds and passes)"))
    def close_lobbies(self, request: AuthenticatedRequest, queryset: QuerySet[Table]) -> TemplateResponse | None:
        return each_with_reason(
            self,
            request,
            queryset,
            title=_("Close the selected lobbies"),
            done=_("%(row)s: closed."),
            logged="Closed",
            refused=TableError,
            service=lambda table, answers: table_close(table_id=table.pk, by=request.user, reason=answers["reason"]),
        )


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


# The games list is games' own admin, with the one action that writes through the table services.
admin.site.unregister(Match)


@admin.register(Match)
class MatchAdmin(GamesMatchAdmin):
    actions = [*(GamesMatchAdmin.actions or ()), "abort_games"]  # type: ignore[misc]  # the base class's own list

    @admin.action(description=gettext_lazy("Abort game (refunds stakes, releases passes)"))
    def abort_games(self, request: AuthenticatedRequest, queryset: QuerySet[Match]) -> TemplateResponse | None:
        """RULING P8, P19: asks why first; the reason is kept with the game and in the admin log."""
        return each_with_reason(
            self,
            request,
            queryset,
            title=_("Abort the selected games"),
            done=_("%(row)s: aborted."),
            logged="Aborted",
            refused=TableError,
            service=lambda match, answers: match_abort(match_id=match.pk, by=request.user, reason=answers["reason"]),
        )
