"""The lobby's "Next tournaments" (a slot of tables.lobby_slots: tables sits below tournaments)."""

from __future__ import annotations

from django.http import HttpRequest
from django.template.loader import render_to_string

from tournaments import selectors

LOBBY_TOURNAMENTS = 3


def next_tournaments(request: HttpRequest) -> str:
    """For a signed-in player, the next few open for sign-up; nothing when there is none."""
    if not request.user.is_authenticated:
        return ""
    upcoming = selectors.next_open(limit=LOBBY_TOURNAMENTS)
    if not upcoming:
        return ""
    # The viewer for their time zone; no request: the lobby's context processors have already run.
    return render_to_string("tournaments/_lobby_next.html", {"upcoming": upcoming, "user": request.user})
