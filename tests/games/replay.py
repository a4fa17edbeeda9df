"""Rebuild a match's state from its seed and its action log (the log is the truth)."""

from __future__ import annotations

from games.catalog import get_engine
from games.models import Match
from games.records.replay import rebuild


def rebuild_state(match: Match, *, upto: int | None = None):
    events = match.events.order_by("version")
    if upto is not None:
        events = events.filter(version__lte=upto)
    return rebuild(
        get_engine(match.game), match.players, match.options, match.seed, events.values_list("seat", "action")
    )
