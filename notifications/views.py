"""The notifications page, the bell's list, marking read and the preferences (one view per page and its fragment)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from notifications import kinds, selectors, services, texts
from notifications.models import Notification, Preference
from notifications.services import NotificationError

if TYPE_CHECKING:
    from django.db.models import Field

    from accounts.requests import AuthenticatedRequest


def _rows(notifications: list[Notification]) -> list[dict]:
    return [{"row": row, "html": texts.html(row), "url": texts.link(row)} for row in notifications]


@login_required
def notifications_page(request: AuthenticatedRequest) -> HttpResponse:
    context: dict[str, object] = {
        "rows": _rows(selectors.notifications_page(user=request.user)),
        "nav": "notifications",
    }
    context["unread"] = selectors.unread_count(request.user.pk)
    context["NOTIFICATION_DAYS"] = settings.NOTIFICATION_DAYS
    return render(request, "notifications/page.html", context)


@login_required
def bell(request: AuthenticatedRequest) -> HttpResponse:
    """The bell's drop-down (htmx): the latest few."""
    context = {"rows": _rows(selectors.bell_list(request.user.pk)), "unread": selectors.unread_count(request.user.pk)}
    return render(request, "notifications/_bell_list.html", context)


@login_required
@require_POST
def notification_open(request: AuthenticatedRequest, notification_id: int) -> HttpResponse:
    """Mark read and follow it: the list's links are small forms, so reading is a POST."""
    try:
        services.notification_read(user=request.user, notification_id=notification_id)
    except NotificationError as error:
        messages.error(request, str(error))
        return redirect("notifications")
    row = selectors.live_notifications(request.user.pk).filter(pk=notification_id).first()
    return redirect(texts.link(row) if row is not None else "notifications")


@login_required
@require_POST
def notifications_read_all(request: AuthenticatedRequest) -> HttpResponse:
    services.notifications_read_all(user=request.user)
    if request.htmx:
        return bell(request)
    messages.success(request, _("All your notifications are marked read."))
    return redirect("notifications")


@login_required
def notification_settings(request: AuthenticatedRequest) -> HttpResponse:
    prefs = selectors.preferences_of(user=request.user)
    if request.method == "POST":
        choices = {
            pref.kind: {way: request.POST.get(f"{pref.kind}-{way}") == "on" for way in Preference.WAYS}
            for pref in prefs
        }
        services.preferences_set(user=request.user, choices=choices)
        messages.success(request, _("Your choices are saved."))
        return redirect("notification_settings")
    # The ways are the model's boolean fields, never a relation.
    way_labels = {way: cast("Field[Any, Any]", Preference._meta.get_field(way)).verbose_name for way in Preference.WAYS}
    rows = [
        {
            "kind": pref.kind,
            "label": kinds.get(pref.kind).label,
            "ways": [(way, getattr(pref, way), way_labels[way]) for way in Preference.WAYS],
        }
        for pref in prefs
    ]
    return render(
        request,
        "notifications/settings.html",
        {"rows": rows, "way_labels": list(way_labels.values()), "nav": "notifications"},
    )
