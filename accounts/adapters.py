"""allauth customisation, through its adapter only (docs/style.md §11)."""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from django import forms

RESERVED_PREFIXES = ("bot",)


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username: str, shallow: bool = False) -> str:
        username = super().clean_username(username, shallow=shallow)
        # Bot accounts are named "bot…"; a person must not be mistaken for one.
        if username.lower().startswith(RESERVED_PREFIXES):
            raise forms.ValidationError("Usernames starting with “bot” are reserved.")
        return username
