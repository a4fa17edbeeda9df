"""Tournament times, points and the profile's tournaments and season badges."""

from __future__ import annotations

from datetime import datetime

from django import template
from django.utils import formats

from tournaments import selectors

register = template.Library()


@register.simple_tag(takes_context=True)
def local_time(context: template.Context, moment: datetime) -> str:
    """A stored UTC moment in the viewer's own time zone, with the zone's name (issue 41)."""
    user = context.get("user")
    local = selectors.local_time(moment, user) if user is not None else moment
    return f"{formats.date_format(local, 'DATETIME_FORMAT')} ({local.tzname()})"


@register.filter
def points(half: int | None) -> str:
    """Half-points as points: 7 → "3½" (RULING P77: tied places share exactly)."""
    if half is None:
        return ""
    whole, rest = divmod(int(half), 2)
    return f"{whole}½" if rest and whole else ("½" if rest else str(whole))


@register.filter
def still_in(rows: list[selectors.Row]) -> int:
    """The players still in: neither withdrawn nor disqualified (issue 53: "Players 3 / 8" with all withdrawn)."""
    return sum(1 for row in rows if row.entry.state == "active")


@register.inclusion_tag("tournaments/_player_tournaments.html", takes_context=True)
def player_tournaments(context: template.Context, player) -> dict:
    """``{% player_tournaments player %}``: the player's tournaments and season badges on their profile."""
    return {
        "user": context.get("user"),
        "entries": selectors.player_tournaments(player),
        "badges": selectors.season_badges(player),
    }
