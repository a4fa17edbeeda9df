"""allauth customisation, through its adapter only (docs/style.md §11)."""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from django import forms
from django.utils.translation import gettext as _

RESERVED_PREFIXES = ("bot",)


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username: str, shallow: bool = False) -> str:
        username = super().clean_username(username, shallow=shallow)
        # Bot accounts are named "bot…"; a person must not be mistaken for one.
        if username.lower().startswith(RESERVED_PREFIXES):
            raise forms.ValidationError(_("Usernames starting with “bot” are reserved."))
        return username

    def _get_login_attempts_cache_key(self, request, **credentials) -> str:
        # RULING P18: failed logins counted per account and address (allauth counts per account
        # alone, and locks a whole address for everyone behind it).
        return f"{super()._get_login_attempts_cache_key(request, **credentials)}:{self.get_client_ip(request)}"
