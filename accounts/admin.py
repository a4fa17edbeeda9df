from __future__ import annotations

import json
from typing import TYPE_CHECKING, cast

from allauth.account.admin import EmailAddressAdmin as AllauthEmailAddressAdmin
from allauth.account.models import EmailAddress
from django import forms
from django.contrib import admin, messages
from django.contrib.admin.models import LogEntry
from django.contrib.auth.admin import GroupAdmin as BaseGroupAdmin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.contrib.auth.forms import AdminPasswordChangeForm, AdminUserCreationForm, UserChangeForm
from django.contrib.auth.models import Group
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from accounts.models import User
from accounts.services import AccountError, account_anonymise, email_primary_set
from core.admin_tools import ReasonedAdmin, ask_reason

if TYPE_CHECKING:
    from accounts.requests import AuthenticatedRequest


def _reason_field() -> forms.CharField:
    return forms.CharField(
        label=gettext_lazy("Reason"), max_length=200, help_text=gettext_lazy("Why this change (kept in the admin log).")
    )


class ModeratedUserChangeForm(UserChangeForm):
    # RULING P19: a change to someone's account (deactivating, staff rights, a name) says why.
    reason = _reason_field()


class ModeratedPasswordForm(AdminPasswordChangeForm):
    # RULING P19: setting someone's password (or turning password sign-in off) says why.
    reason = _reason_field()


class ModeratedUserCreationForm(AdminUserCreationForm):
    # RULING P19: adding an account mints its starting coins and passes, so it says why.
    reason = _reason_field()


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    form = ModeratedUserChangeForm
    add_form = ModeratedUserCreationForm
    change_password_form = ModeratedPasswordForm
    change_user_password_template = "admin/accounts/user/change_password.html"
    add_fieldsets = [*BaseUserAdmin.add_fieldsets, (gettext_lazy("Moderation"), {"fields": ["reason"]})]
    list_display = ["username", "display_name", "email", "is_bot", "bot_level", "is_staff", "date_joined"]
    list_filter = ["is_bot", "bot_level", "is_staff", "is_active"]
    search_fields = ["username", "display_name", "email"]
    fieldsets = [
        *(BaseUserAdmin.fieldsets or ()),
        (gettext_lazy("Player"), {"fields": ["display_name", "is_bot", "bot_level"]}),
        (gettext_lazy("Moderation"), {"fields": ["reason"]}),
    ]
    # A bot's level is what its past games were played at (RULING P45): never edited. The e-mail
    # address is its owner's to write (RULING P19): a password reset would go to one an admin wrote.
    readonly_fields = ["bot_level", "email"]
    actions = ["delete_accounts"]

    def get_actions(self, request: HttpRequest) -> dict:
        # Removing a User row is never right: the ledger and past games point at it (RULING P23).
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    @admin.action(description=gettext_lazy("Delete account (anonymise; games and ledger kept)"))
    def delete_accounts(self, request: AuthenticatedRequest, queryset: QuerySet[User]) -> TemplateResponse | None:
        """RULING P23: each account through the service, one transaction each; RULING P19: the admin
        says why, and each deletion is in the admin log."""
        answers, page = ask_reason(self, request, queryset, _("Delete the selected accounts"))
        if answers is None:  # the page asking why
            return page
        reason = answers["reason"]
        done = 0
        for user in queryset:
            try:
                account_anonymise(user_id=user.pk, by=request.user)
                done += 1
            except AccountError as error:
                self.message_user(request, str(error), messages.ERROR)
            else:
                # The admin log stays in English: it is the record, read by whoever audits it.
                self.log_change(request, user, f"Deleted the account (anonymised): {reason}")
        if done:
            self.message_user(
                request,
                ngettext("%(count)d account deleted (anonymised).", "%(count)d accounts deleted (anonymised).", done)
                % {"count": done},
                messages.SUCCESS,
            )
        return None

    def save_model(self, request: HttpRequest, obj: User, form, change: bool) -> None:
        if not change:
            # The starting coins and passes are minted on this save (payouts/signals.py): they name
            # the admin and the reason (RULING P19).
            obj.opened_by, obj.opened_reason = cast("AuthenticatedRequest", request).user, form.cleaned_data["reason"]
        super().save_model(request, obj, form, change)

    def construct_change_message(self, request, form, formsets, add=False):
        message = super().construct_change_message(request, form, formsets, add)
        reason = form.cleaned_data.get("reason")
        if not reason:
            return message
        # The log shows a plain-text message as it is: Django's own wording, then the reason. A
        # password form's message would list its fields; it says what was done instead.
        if isinstance(form, AdminPasswordChangeForm):
            changed = "Set the password." if form.user.has_usable_password() else "Turned password sign-in off."
        else:
            changed = LogEntry(change_message=json.dumps(message)).get_change_message() or "No fields changed."
        return f"{changed} Reason: {reason}"


# allauth's own admin lets staff move an address to another account or mark it verified, which
# takes the account over through a password reset: this one replaces it (this app loads after allauth).
admin.site.unregister(EmailAddress)


@admin.register(EmailAddress)
class EmailAddressAdmin(ReasonedAdmin, AllauthEmailAddressAdmin):
    """RULING P19: an address stays with its account, as its owner wrote it, and is verified only
    by its owner's own confirmation: an address an admin wrote would receive the account's
    password reset (allauth sends one to an unconfirmed address too). Which address is primary
    may be changed, and an address deleted, saying why, in the admin log."""

    readonly_fields = ("user", "email", "verified")
    actions = ()  # not allauth's "mark verified"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a player adds their own addresses, and confirms them

    def save_model(self, request: HttpRequest, obj: EmailAddress, form, change: bool) -> None:
        if obj.primary:
            email_primary_set(address=obj)  # the account's address is its primary one
        else:
            super().save_model(request, obj, form, change)


# A group's permissions are what its staff may do here: changing or deleting one says why (RULING P19).
admin.site.unregister(Group)


@admin.register(Group)
class GroupAdmin(ReasonedAdmin, BaseGroupAdmin):
    pass
