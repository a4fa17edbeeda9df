"""A player's own data as one JSON document (RULING P55; docs/privacy.md promises it).

Accounts sits below the apps whose rows make up most of it (games, the ledger, chat, devices,
tournaments), so it does not import them: each app registers what it keeps about a player in
accounts/personal_data.py from its ``AppConfig.ready``, and ``user_export`` asks every
registration that exports for its section, so the export and the deletion read the same list.
The account's own fields are this module's; each section is a plain function of the user that
returns JSON-ready data.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from allauth.account.models import EmailAddress
from django.utils import timezone

from accounts import personal_data
from accounts.models import User


def user_export(*, user: User) -> dict[str, Any]:
    document: dict[str, Any] = {"exported_at": when(timezone.now())}
    for data in personal_data.registered():
        if data.export is not None:
            document[data.name] = data.export(user)
    return document


def when(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def account_export(user: User) -> dict[str, Any]:
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
        "time_zone": user.time_zone,
        "review_visibility": user.review_visibility,
        "four_colour_suits": user.four_colour_suits,
    }
