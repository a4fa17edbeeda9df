"""What every app's admin shares: the page that asks why (RULING P19), running an action row by
row through a service, and the bases for rows that only the services write.

Here, in the lowest app with an admin that uses them, so any app's admin may import them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Reason"),
        max_length=150,
        help_text=gettext_lazy("Why (kept with the record and in the admin log)."),
    )


def ask_reason(
    model_admin: admin.ModelAdmin,
    request: HttpRequest,
    queryset: QuerySet[Any] | Iterable[Model],
    title: str,
    *,
    form_class: type[forms.Form] = ReasonForm,
) -> tuple[dict | None, TemplateResponse | None]:
    """RULING P19: an admin action first asks why (and whatever else ``form_class`` asks).
    Returns the form's answers, or the page asking for them."""
    form = form_class(request.POST if "apply" in request.POST else None)
    if form.is_valid():
        return form.cleaned_data, None
    return None, action_page(model_admin, request, queryset, form, title)


def action_page(
    model_admin: admin.ModelAdmin[Any],
    request: HttpRequest,
    queryset: QuerySet[Any] | Iterable[Model],
    form: forms.Form,
    title: str,
    **context: object,
) -> TemplateResponse:
    """The page between choosing an action and running it: the rows, the form, the button."""
    context = {
        "form": form,
        "users": [],
        "queryset": queryset,
        "action": request.POST["action"],
        "title": title,
        "opts": model_admin.model._meta,
        **model_admin.admin_site.each_context(request),
        **context,
    }
    return TemplateResponse(request, "admin/action_form.html", context)


def each_with_reason(
    model_admin: admin.ModelAdmin,
    request: HttpRequest,
    queryset: QuerySet[Any] | Iterable[Model],
    *,
    title: str,
    service: Callable[[Any, dict[str, Any]], object],
    done: str,
    refused: type[Exception],
    form_class: type[forms.Form] = ReasonForm,
    logged: str | None = None,
) -> TemplateResponse | None:
    """Ask why (RULING P19), then run ``service(row, answers)`` row by row; a refusal (``refused``)
    is reported, not raised. ``done`` (with ``%(row)s``) is the admin's message, in their language.
    ``logged``: the admin log's words for each row done, followed by the reason; in English, the
    log being the record whoever reads it. None when the service writes its own entry."""
    answers, page = ask_reason(model_admin, request, queryset, title, form_class=form_class)
    if answers is None:  # the page asking why
        return page
    for row in queryset:
        try:
            service(row, answers)
        except refused as error:
            model_admin.message_user(request, _("%(row)s: %(error)s") % {"row": row, "error": error}, messages.ERROR)
        else:
            if logged:
                model_admin.log_change(request, row, f"{logged}: {answers['reason']}")
            model_admin.message_user(request, done % {"row": row}, messages.SUCCESS)
    return None


class ServiceWrittenAdmin(admin.ModelAdmin):
    """Rows the services create and end: no adding or deleting from the admin (holds, passes, refunds)."""

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


class ViewOnlyAdmin(ServiceWrittenAdmin):
    """For rows the services write (or that are append-only): admins read them, never edit them here.
    Actions still run: each goes through a service."""

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


class ViewOnlyInline(admin.TabularInline):
    """The same for the rows shown inside another's page."""

    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False
