"""Admin for games: matches with their record and event log, ratings.

Events are append-only and the record is written once by the services, so
everything here is read-only. "Abort game" on the games list belongs to the tables'
admin (tables/admin.py), which extends this one: it writes through the table services.
"""

from __future__ import annotations

import json

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from accounts.admin_tools import ServiceWrittenAdmin, ViewOnlyAdmin, ViewOnlyInline, ask_reason
from games.models import Match, MatchEvent, MatchPlayer, Rating, Signature
from games.services import signatures_clear


class MatchPlayerInline(ViewOnlyInline):
    model = MatchPlayer
    fields = ["seat", "user", "place", "total", "payout", "rating_before", "rating_after"]
    readonly_fields = fields


class MatchEventInline(ViewOnlyInline):
    model = MatchEvent
    fields = ["version", "seat", "user", "action", "created_at", "by_clock"]
    readonly_fields = fields


@admin.register(Match)
class MatchAdmin(ServiceWrittenAdmin):
    list_display = ["id", "game", "table", "attempt", "status", "version", "started_at", "ended_at"]
    list_filter = ["game", "status", "started_at"]
    search_fields = ["=id", "=table__id", "match_players__user__username", "end_reason"]
    date_hierarchy = "started_at"
    # The state holds every hidden card; it is left out on purpose (RULING P2), the record
    # is shown once the game has ended.
    fields = [
        "game",
        "table",
        "attempt",
        "status",
        "end_reason",
        "options",
        "players",
        "version",
        "started_at",
        "ended_at",
        "turn_clock",
        "record_pretty",
    ]
    readonly_fields = fields
    inlines = [MatchPlayerInline, MatchEventInline]

    @admin.display(description=gettext_lazy("record"))
    def record_pretty(self, match: Match) -> str:
        if match.record is None:
            return "—"
        return format_html('<pre style="max-height:30rem;overflow:auto">{}</pre>', json.dumps(match.record, indent=1))


@admin.register(MatchEvent)
class MatchEventAdmin(ViewOnlyAdmin):
    """The action log: append-only, so nothing here can be added, changed or deleted."""

    list_display = ["match", "version", "seat", "user", "action", "created_at"]
    list_filter = ["match__game", "created_at"]
    search_fields = ["=match__id", "user__username"]
    list_select_related = ["match", "user"]


@admin.register(Rating)
class RatingAdmin(ViewOnlyAdmin):
    """Ratings are written only by finished games (games.ratings)."""

    list_display = ["user", "game", "ordinal", "mu", "sigma", "games", "updated_at"]
    list_filter = ["game", "user__is_bot"]
    search_fields = ["user__username", "user__display_name"]


@admin.register(Signature)
class SignatureAdmin(ViewOnlyAdmin):
    """RULING S15: signatures are written only by their Sitaratas; an admin may only read them or
    clear one's text (moderation). The row stays, so a cleared signature is not offered again."""

    list_display = ["match", "user", "text", "created_at"]
    search_fields = ["=match__id", "user__username", "text"]
    list_select_related = ["match", "user"]
    fields = ["match", "user", "text", "created_at"]
    readonly_fields = fields

    actions = ["clear_text"]

    @admin.action(description=gettext_lazy("Clear the text (moderation; not offered again)"))
    def clear_text(self, request: HttpRequest, queryset: QuerySet[Signature]):
        # RULINGS S15, P19: moderation says why, and each cleared signature is in the admin log.
        answers, page = ask_reason(self, request, queryset, _("Clear the selected signatures"))
        if page is not None:
            return page
        reason = answers["reason"]
        signatures = list(queryset)
        cleared = signatures_clear(ids=[signature.pk for signature in signatures])
        for signature in signatures:
            self.log_change(request, signature, f"Cleared the signature's text: {reason}")
        self.message_user(
            request,
            ngettext("%(count)d signature cleared.", "%(count)d signatures cleared.", cleared) % {"count": cleared},
        )
        return None
