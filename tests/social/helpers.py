"""Social test helpers: friends made the way players make them."""

from __future__ import annotations

from social import services


def befriend(a, b) -> None:
    """``a`` asks ``b`` to be friends and ``b`` accepts."""
    request = services.friend_request_send(sender=a, recipient_id=b.pk)
    services.friend_request_accept(user=b, request_id=request.pk)
