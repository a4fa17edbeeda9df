"""Reads of accounts (docs/style.md §5)."""

from __future__ import annotations

from datetime import datetime

from django.apps import apps
from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone

from accounts.models import User


def users_named_publicly(*, now: datetime | None = None) -> QuerySet[User]:
    """Users as public lists show them (the lobby, the history, the ratings: RULING P54).

    A display name is the player's own words, like a chat message: while a site-wide chat mute is
    in force (RULING P29), the name follows the mute, and lists show a neutral "Player <id>"
    instead (``name_withheld``, read by ``accounts.names.public_name``), as chat shows nothing
    the muted player would write. It is one query filter for every list, not a check per view:
    use it as the queryset of a ``Prefetch`` of the list's users. Chat sits above accounts, so
    its mute is reached through the app registry.
    """
    mutes = apps.get_model("chat", "ChatMute").objects.filter(user=OuterRef("pk"), until__gt=now or timezone.now())
    return User.objects.annotate(name_withheld=Exists(mutes))
