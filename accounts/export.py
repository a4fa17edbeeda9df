"""A player's own data as one JSON document (RULING P55; docs/privacy.md promises it).

Accounts sits below the apps whose rows make up most of it (games, the ledger, chat), so it
does not import them: each app adds its section here from its ``AppConfig.ready`` with
``section_add``, and ``user_export`` asks every section in turn. The account's own fields are
this module's. Each section is a plain function of the user that returns JSON-ready data.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from allauth.account.models import EmailAddress
from django.utils import timezone

from accounts.models import User

Section = Callable[[User], Any]
_SECTIONS: dict[str, Section] = {}


def section_add(name: str, section: Section) -> None:
    """Add (or replace, on a second ``ready``) the section ``name`` of every export."""
    _SECTIONS[name] = section


def user_export(*, user: User) -> dict[str, Any]:
    document: dict[str, Any] = {"exported_at": when(timezone.now()), "account": _account(user)}
    for name, section in sorted(_SECTIONS.items()):
        document[name] = section(user)
    return document


def when(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def _account(user: User) -> dict[str, Any]:
    return {
        "id": user.pk,
        "username": user.username,
        "display_name": user.display_name,
        "email": user.email,
        "email_addresses": [
            {"email": address.email, "verified": address.verified, "primary": address.primary}
            for address in EmailAddress.objects.filter(user=user).order_by("pk")
        ],
        "date_joined": when(user.date_joined),
        "last_login": when(user.last_login),
        "language": user.language,
        "four_colour_suits": user.four_colour_suits,
    }
