"""Admin for games: matches with their record and event log, ratings.

Events are append-only and the record is written once by the services, so
everything here is read-only. "Abort game" on the games list belongs to the tables'
admin (tables/admin.py), which extends this one: it writes through the table services.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from core.admin_tools import ServiceWrittenAdmin, ViewOnlyAdmin, ViewOnlyInline, ask_reason, each_with_reason
from games.catalog import get_engine
from games.models import Match, MatchEvent, MatchPlayer, Rating, Review, ReviewDecision, Signature
from games.records import storage
from games.services import signatures_clear
from games.services.reviews import ReviewError, review_rerun

if TYPE_CHECKING:
    from accounts.requests import AuthenticatedRequest


class MatchPlayerInline(ViewOnlyInline):
    model = MatchPlayer
    fields = (
        "seat",
        "user",
        "place",
        "total",
        "payout",
        "rating_before",
        "rating_after",
    )
    readonly_fields = fields


def is_public(match: Match) -> bool:
    """RULING P57 (issue 34): whether everything about ``match`` may be read here. While it is
    played the staff see no more than a spectator would (RULING P2 holds for them too: a staff
    member may be seated at the table): no hands, no SITA choice before its reveal, no record.
    Once it has ended, the full record and every action."""
    return match.status != Match.Status.PLAYING


HIDDEN_WHILE_PLAYED = gettext_lazy("hidden until the game ends")


def action_shown(event: MatchEvent) -> str:
    if not is_public(event.match):
        return str(HIDDEN_WHILE_PLAYED)
    return json.dumps(event.action)


class MatchEventInline(ViewOnlyInline):
    model = MatchEvent
    fields = (
        "version",
        "seat",
        "user",
        "action_public",
        "created_at",
        "by_clock",
    )
    readonly_fields = fields

    @admin.display(description=gettext_lazy("action"))
    def action_public(self, event: MatchEvent) -> str:
        return action_shown(event)


@admin.register(Match)
class MatchAdmin(ServiceWrittenAdmin):
    list_display = ["id", "game", "table", "attempt", "status", "version", "started_at", "ended_at"]
    list_filter = ["game", "status", "started_at"]
    search_fields = ["=id", "=table__id", "match_players__user__username", "end_reason"]
    date_hierarchy = "started_at"
    # The state holds every hidden card; it is left out on purpose (RULING P2). While the game
    # is played the page shows the spectator's view and the actions without their content; the
    # record and every action once it has ended (is_public).
    fields = (
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
        "spectator_view",
        "record_pretty",
    )
    readonly_fields = fields
    inlines = [MatchPlayerInline, MatchEventInline]

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False  # a game is read, never edited; its actions (abort) go through the services

    @admin.display(description=gettext_lazy("what a spectator sees"))
    def spectator_view(self, match: Match) -> str:
        if is_public(match):
            return "—"
        view = get_engine(match.game).view(storage.full_state(match), None)
        return _pretty(view)

    @admin.display(description=gettext_lazy("record"))
    def record_pretty(self, match: Match) -> str:
        if match.record is None or not is_public(match):
            return "—"
        return _pretty(match.record)


def _pretty(document: object) -> str:
    return format_html('<pre style="max-height:30rem;overflow:auto">{}</pre>', json.dumps(document, indent=1))


@admin.register(MatchEvent)
class MatchEventAdmin(ViewOnlyAdmin):
    """The action log: append-only, so nothing here can be added, changed or deleted."""

    list_display = ["match", "version", "seat", "user", "action_public", "created_at"]
    list_filter = ["match__game", "created_at"]
    search_fields = ["=match__id", "user__username"]
    list_select_related = ["match", "user"]
    fields = (
        "match",
        "version",
        "seat",
        "user",
        "action_public",
        "created_at",
        "by_clock",
    )
    readonly_fields = fields

    @admin.display(description=gettext_lazy("action"))
    def action_public(self, event: MatchEvent) -> str:
        return action_shown(event)


@admin.register(Rating)
class RatingAdmin(ViewOnlyAdmin):
    """Ratings are written only by finished games (games.services.ratings)."""

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
    fields = (
        "match",
        "user",
        "text",
        "created_at",
    )
    readonly_fields = fields

    actions = ["clear_text"]

    @admin.action(description=gettext_lazy("Clear the text (moderation; not offered again)"))
    def clear_text(self, request: HttpRequest, queryset: QuerySet[Signature]):
        # RULINGS S15, P19: moderation says why, and each cleared signature is in the admin log.
        answers, page = ask_reason(self, request, queryset, _("Clear the selected signatures"))
        if answers is None:  # the page asking why
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


class ReviewDecisionInline(ViewOnlyInline):
    model = ReviewDecision
    fields = (
        "index",
        "version",
        "action",
        "value",
        "best_action",
        "best_value",
        "loss",
        "mistake",
        "blunder",
    )
    readonly_fields = fields


@admin.register(Review)
class ReviewAdmin(ServiceWrittenAdmin):
    """Issue 42: written by the review worker only; an admin may re-run one, saying why (P19)."""

    list_display = ["match", "user", "seat", "status", "accuracy", "mistakes", "blunders", "cpu_seconds", "runs"]
    list_filter = ["status", "match__game"]
    search_fields = ["=match__id", "user__username"]
    list_select_related = ["match", "user"]
    readonly_fields = [field.name for field in Review._meta.fields]
    inlines = [ReviewDecisionInline]
    actions = ["rerun"]

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    @admin.action(description=gettext_lazy("Run the review again"))
    def rerun(self, request: AuthenticatedRequest, queryset: QuerySet[Review]) -> TemplateResponse | None:
        return each_with_reason(
            self,
            request,
            queryset,
            title=_("Run the selected reviews again"),
            service=lambda review, answers: review_rerun(
                review_id=review.pk, by=request.user, reason=answers["reason"]
            ),
            done=_("%(row)s: queued again."),
            refused=ReviewError,
            logged="Review run again",
        )
