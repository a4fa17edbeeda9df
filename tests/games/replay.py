"""Rebuild a match's state from its seed and its action log (the log is the truth)."""

from __future__ import annotations

from games.engines import get_engine
from games.models import Match


def rebuild_state(match: Match, *, upto: int | None = None):
    engine = get_engine(match.game)
    state = engine.new_game(match.players, match.options, match.seed)
    for event in match.events.order_by("version"):
        if upto is not None and event.version > upto:
            break
        state = engine.apply(state, event.seat, event.action)
    return state
