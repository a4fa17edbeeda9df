"""What every app's admin shares: the page that asks why (RULING P19), running an action row by
row through a service, the change form and deletion that ask why (ReasonedAdmin), and the bases
for rows that only the services write.

Here, in the lowest app with an admin that uses them, so any app's admin may import them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, cast

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.actions import delete_selected
from django.contrib.admin.models import DELETION, LogEntry
from django.core.exceptions import ImproperlyConfigured
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponse, QueryDict
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


# Where a confirmed deletion's reason waits for ``log_deletions``, which Django calls with the request.
_DELETION_REASON = "p19_deletion_reason"


class _AsksWhy:
    """Mixed into a change form: a save that changes something (or adds a row) needs a reason."""

    instance: Model
    changed_data: list[str]
    fields: dict[str, forms.Field]

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean()  # type: ignore[misc]
        if (changed_fields(self) or self.instance._state.adding) and not cleaned.get("reason"):
            self.add_error("reason", forms.ValidationError(self.fields["reason"].error_messages["required"]))  # type: ignore[attr-defined]
        return cleaned


def changed_fields(form: Any) -> list[str]:
    return [name for name in form.changed_data if name != "reason"]


class ReasonedAdmin(admin.ModelAdmin):
    """RULING P19 for a row the admin may edit or delete: the change form has a ``reason`` field,
    required as soon as the save changes something, and the admin log's entry says
    ``"Changed <fields>: <reason>"``; deleting (the delete page or the "delete selected" action)
    asks why on its confirmation page, deletes nothing without a reason, and logs
    ``"Deleted: <reason>"``. The log is in English: it is the record, whoever reads it.

    Inline formsets are not covered: an admin using this has only read-only inlines."""

    delete_confirmation_template = "admin/reasoned_delete_confirmation.html"
    delete_selected_confirmation_template = "admin/reasoned_delete_selected_confirmation.html"

    def get_form(self, request: HttpRequest, obj=None, change: bool = False, **kwargs: Any) -> type[forms.ModelForm]:
        if any(field.name == "reason" for field in self.model._meta.get_fields()):
            raise ImproperlyConfigured(f"{self.model.__name__} has its own `reason`: the change form's would hide it.")
        base = kwargs.pop("form", self.form)
        # As Django's get_form does for the form it is given: a declared field shown read-only is left out.
        hidden = dict.fromkeys(f for f in self.get_readonly_fields(request, obj) if f in base.declared_fields)
        reason = forms.CharField(
            label=gettext_lazy("Reason"),
            max_length=150,
            required=False,  # required by _AsksWhy.clean once the save changes something
            help_text=gettext_lazy("Why (kept with the record and in the admin log)."),
        )
        kwargs["form"] = type(base.__name__, (_AsksWhy, base), {**hidden, "reason": reason})
        return super().get_form(request, obj, change, **kwargs)

    def get_fields(self, request: HttpRequest, obj=None) -> Any:
        # The reason goes in a fieldset of its own, last (get_fieldsets).
        return [name for name in super().get_fields(request, obj) if name != "reason"]

    def get_fieldsets(self, request: HttpRequest, obj=None) -> Any:
        fieldsets = list(super().get_fieldsets(request, obj))
        writes = self.has_add_permission(request) if obj is None else self.has_change_permission(request, obj)
        return [*fieldsets, (None, {"fields": ["reason"]})] if writes else fieldsets

    def construct_change_message(self, request: HttpRequest, form, formsets, add: bool = False) -> Any:
        reason = form.cleaned_data.get("reason")
        if not reason:  # nothing changed: Django's own "No fields changed."
            return super().construct_change_message(request, form, formsets, add)
        changed = "Added" if add else f"Changed {', '.join(changed_fields(form))}"
        return f"{changed}: {reason}"

    def delete_view(self, request: HttpRequest, object_id: str, extra_context=None) -> HttpResponse:
        form = ReasonForm(request.POST if request.method == "POST" else None)
        if form.is_valid():
            setattr(request, _DELETION_REASON, form.cleaned_data["reason"])
        elif request.method == "POST":
            request.POST = QueryDict()  # type: ignore[assignment]  # not confirmed: the page again
        return super().delete_view(request, object_id, {**(extra_context or {}), "reason_form": form})

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions: dict[str, Any] = super().get_actions(request)
        if "delete_selected" in actions:  # Django's, allowed by the delete permission
            _function, name, description = actions["delete_selected"]
            actions["delete_selected"] = (delete_selected_with_reason, name, description)
        return actions

    def log_deletions(self, request: HttpRequest, queryset: Any) -> Any:
        reason = getattr(request, _DELETION_REASON)  # set before any deletion is confirmed
        return LogEntry.objects.log_actions(
            user_id=cast("int", request.user.pk),
            queryset=queryset,
            action_flag=DELETION,
            change_message=f"Deleted: {reason}",
        )


def delete_selected_with_reason(
    model_admin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet[Any]
) -> TemplateResponse | None:
    """Django's "delete selected" action, whose confirmation page asks why (RULING P19): a
    confirmation without a reason shows the page again and deletes nothing."""
    confirmed = bool(request.POST.get("post"))
    form = ReasonForm(request.POST if confirmed else None)
    if form.is_valid():
        setattr(request, _DELETION_REASON, form.cleaned_data["reason"])
        return delete_selected(model_admin, request, queryset)
    if confirmed:  # not confirmed without a reason: Django shows the confirmation page again
        unconfirmed = request.POST.copy()
        del unconfirmed["post"]
        request.POST = unconfirmed  # type: ignore[assignment]  # Django's own type is read-only
    page = delete_selected(model_admin, request, queryset)
    if page is not None:
        page.context_data = {**(page.context_data or {}), "reason_form": form}
    return page


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
