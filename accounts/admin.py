import json

from django import forms
from django.contrib import admin
from django.contrib.admin.models import LogEntry
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.contrib.auth.forms import UserChangeForm

from accounts.models import User


class ModeratedUserChangeForm(UserChangeForm):
    # RULING P19: a change to someone's account (deactivating, staff rights, a name) says why.
    reason = forms.CharField(max_length=200, help_text="Why this change (kept in the admin log).")


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    form = ModeratedUserChangeForm
    list_display = ["username", "display_name", "email", "is_bot", "is_staff", "date_joined"]
    list_filter = ["is_bot", "is_staff", "is_active"]
    search_fields = ["username", "display_name", "email"]
    fieldsets = [*BaseUserAdmin.fieldsets, ("Player", {"fields": ["display_name", "is_bot"]}),
                 ("Moderation", {"fields": ["reason"]})]

    def construct_change_message(self, request, form, formsets, add=False):
        message = super().construct_change_message(request, form, formsets, add)
        reason = form.cleaned_data.get("reason") if not add else None
        if not reason:
            return message
        # The log shows a plain-text message as it is: Django's own wording, then the reason.
        changed = LogEntry(change_message=json.dumps(message)).get_change_message() or "No fields changed."
        return f"{changed} Reason: {reason}"
