"""Which time zone a viewer reads and types times in (issues 41, 53).

A signed-in player's own zone (``User.time_zone``: chosen on the profile, or the browser's guess
kept at their first visit) is activated for the whole request, after authentication, so that
every page prints a stored moment in it (Django's ``date`` filter and ``localtime`` read the
active zone) and every form reads a typed time in it (``forms.DateTimeField`` makes a naive
time aware in the active zone, and refuses one that a DST change skips or repeats). Anyone
else reads the site's zone (``TIME_ZONE``, UTC). What a table's socket sends is made once for
many viewers (the live fragment, tables/render/, and its chat), in no one's zone: its clocks
count seconds left, and a chat message carries the instant it was said, which the browser
writes in its reader's zone (static/js/chat.js).
"""

from __future__ import annotations

from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.translation import gettext


def zone_named(name: str | None) -> ZoneInfo | None:
    """The IANA zone called ``name`` ("Europe/Tallinn", "UTC"), else None (unknown, or a bare
    abbreviation such as "EST" that names no place)."""
    if not name or ("/" not in name and name != "UTC"):
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def viewer_zone(user: object) -> ZoneInfo | None:
    """A signed-in player's own zone, else None (the site's zone)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return zone_named(getattr(user, "time_zone", ""))


def typed_time_note() -> str:
    """What a form that takes a time says beside it: the zone it reads the time in (issue 53)."""
    return gettext("In your time zone, %(zone)s (your profile sets it).") % {
        "zone": timezone.get_current_timezone_name()
    }


class TimeZoneMiddleware:
    """After authentication: a signed-in player's own zone for the whole request (issue 53)."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        zone = viewer_zone(getattr(request, "user", None))
        if zone is None:
            timezone.deactivate()
            return self.get_response(request)
        timezone.activate(zone)
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()  # the thread serves the next request with the site's zone
