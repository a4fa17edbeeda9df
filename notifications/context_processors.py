from __future__ import annotations

from django.http import HttpRequest

from notifications.selectors import unread_count


def bell(request: HttpRequest) -> dict:
    """The header's unread count, on every page of a signed-in player (one small indexed count)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"bell_unread": unread_count(user.pk)}
