"""Chat moderation in the admin: reported messages first, hide (with a reason), mute site-wide.

Nothing here writes a row itself: every action goes through ``chat.services``, which writes
the admin ``LogEntry`` in the same transaction. Messages are append-only, so the admin
reads them and never edits or deletes them.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

from django import forms
from django.contrib import admin, messages
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from chat import services
from chat.models import ChatMessage, ChatMute, ChatReport, ChatRoom
from chat.services import ChatError
from core.admin_tools import ViewOnlyInline, ask_reason, each_with_reason

if TYPE_CHECKING:
    from accounts.requests import AuthenticatedRequest

MUTE_PERIODS = [
    ("1", gettext_lazy("1 hour")),
    ("24", gettext_lazy("24 hours")),
    ("168", gettext_lazy("7 days")),
    ("720", gettext_lazy("30 days")),
    ("8760", gettext_lazy("1 year")),
]


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Reason"),
        max_length=services.REASON_LENGTH,
        help_text=gettext_lazy("Required; kept with the action."),
    )


class MuteForm(ReasonForm):
    hours = forms.TypedChoiceField(
        choices=MUTE_PERIODS,
        coerce=int,
        label=gettext_lazy("For"),
        help_text=gettext_lazy("The muted player is shown the reason and when the mute ends."),
    )


class ReportInline(ViewOnlyInline):
    model = ChatReport
    fields = (
        "created_at",
        "reporter",
        "reason",
        "resolved_at",
    )
    readonly_fields = fields


class OpenReportsFilter(admin.SimpleListFilter):
    title = gettext_lazy("reports")
    parameter_name = "reported"

    def lookups(self, request, model_admin):
        return [("open", _("Open reports")), ("any", _("Ever reported"))]

    def queryset(self, request, queryset):
        if self.value() == "open":
            return queryset.filter(open_reports__gt=0)
        if self.value() == "any":
            return queryset.filter(reports__isnull=False).distinct()
        return queryset


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ["created_at", "table", "channel", "author", "text", "open_reports_count", "hidden"]
    list_filter = [OpenReportsFilter, "hidden", "channel"]
    search_fields = ["text", "author__username", "author__display_name"]
    list_select_related = ["author", "table"]
    readonly_fields = (
        "table",
        "match",
        "author",
        "channel",
        "text",
        "created_at",
        "hidden",
        "hidden_by",
        "hidden_reason",
        "hidden_at",
    )
    fields = readonly_fields
    inlines = [ReportInline]
    actions = ["hide_messages", "dismiss_reports", "mute_authors"]

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        # Reported messages first: those with open reports, most reported first, then the newest.
        # (Built here, not from super(): that orders by the annotation before it exists.)
        return (
            self.model._default_manager.get_queryset()
            .annotate(open_reports=Count("reports", filter=Q(reports__resolved_at=None)))
            .order_by("-open_reports", "-created_at", "-id")
        )

    def get_ordering(self, request: HttpRequest) -> tuple[str, ...]:
        return ("-open_reports", "-created_at", "-id")

    @admin.display(description=gettext_lazy("open reports"), ordering="open_reports")
    def open_reports_count(self, obj: ChatMessage) -> int:
        count: int = getattr(obj, "open_reports")  # noqa: B009 - annotated by get_queryset
        return count

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False  # append-only: a message is hidden, never deleted

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return obj is None and request.user.is_staff  # the list and its actions, never an edit form

    @admin.action(description=gettext_lazy("Hide the selected messages (asks for a reason)"))
    def hide_messages(self, request: AuthenticatedRequest, queryset: QuerySet[ChatMessage]) -> TemplateResponse | None:
        # The chat services write each action's admin log entry themselves.
        return each_with_reason(
            self,
            request,
            queryset,
            form_class=ReasonForm,
            title=_("Hide messages"),
            done=_("%(row)s: hidden."),
            refused=ChatError,
            service=lambda message, data: services.message_hide(
                message_id=message.pk, by=request.user, reason=data["reason"]
            ),
        )

    @admin.action(description=gettext_lazy("Dismiss the reports on the selected messages (keep them)"))
    def dismiss_reports(
        self, request: AuthenticatedRequest, queryset: QuerySet[ChatMessage]
    ) -> TemplateResponse | None:
        # RULING P19: dismissing says why, as hiding does; the service writes the admin log entry.
        answers, page = ask_reason(self, request, queryset, _("Dismiss reports"), form_class=ReasonForm)
        if answers is None:  # the page asking why
            return page
        for message in queryset:
            try:
                count = services.reports_dismiss(message_id=message.pk, by=request.user, reason=answers["reason"])
            except ChatError as error:
                self.message_user(request, f"{message}: {error}", messages.ERROR)
                continue
            self.message_user(
                request,
                ngettext("%(message)s: %(count)d report dismissed.", "%(message)s: %(count)d reports dismissed.", count)
                % {"message": message, "count": count},
                messages.SUCCESS,
            )
        return None

    @admin.action(
        description=gettext_lazy("Mute the authors of the selected messages site-wide (asks for a reason and period)")
    )
    def mute_authors(self, request: AuthenticatedRequest, queryset: QuerySet[ChatMessage]) -> TemplateResponse | None:
        # One mute per author, however many of their messages were selected.
        first_of_author: dict[int, ChatMessage] = {}
        for message in queryset.select_related("author"):
            first_of_author.setdefault(message.author_id, message)
        rows = list(first_of_author.values())

        def mute(message: ChatMessage, data: dict) -> None:
            services.mute_create(
                user=message.author,
                by=request.user,
                reason=data["reason"],
                until=timezone.now() + timedelta(hours=data["hours"]),
            )

        return each_with_reason(
            self,
            request,
            rows,
            form_class=MuteForm,
            title=_("Mute authors from chat"),
            service=mute,
            done=_("%(row)s: author muted."),
            refused=ChatError,
        )


@admin.register(ChatMute)
class ChatMuteAdmin(admin.ModelAdmin):
    list_display = ["user", "until", "reason", "created_by", "created_at"]
    search_fields = ["user__username", "reason"]
    list_select_related = ["user", "created_by"]
    readonly_fields = (
        "user",
        "reason",
        "until",
        "created_by",
        "created_at",
    )
    fields = readonly_fields
    actions = ["lift"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # mutes are set from a message (the mute action), with a reason

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False  # kept as the record; lifting ends one early

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return obj is None and request.user.is_staff

    @admin.action(description=gettext_lazy("Lift the selected mutes now (asks for a reason)"))
    def lift(self, request: AuthenticatedRequest, queryset: QuerySet[ChatMute]) -> TemplateResponse | None:
        # RULING P19: lifting says why, as muting did; the service writes the admin log entry.
        return each_with_reason(
            self,
            request,
            queryset.select_related("user"),
            form_class=ReasonForm,
            title=_("Lift mutes"),
            done=_("%(row)s: lifted."),
            refused=ChatError,
            service=lambda mute, data: services.mute_lift(mute_id=mute.pk, by=request.user, reason=data["reason"]),
        )


@admin.register(ChatRoom)
class ChatRoomAdmin(admin.ModelAdmin):
    list_display = ["table", "spectator_chat"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False  # the host's switch, set from the table page

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False
