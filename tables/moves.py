"""What one action of a move leaves behind: a MatchEvent row, written with the move's state."""

from __future__ import annotations

from datetime import datetime
from typing import NamedTuple


class MoveEvent(NamedTuple):
    """One action of a move (a move is several when SITA's bots or the clock choose at once).
    ``by_clock``: the house chose it for an absent player (RULING P11). A tuple, in the columns'
    order, so the move's statement takes the events as arrays (tables/matchstore.py)."""

    version: int
    seat: int
    user_id: int
    action: object
    at: datetime
    by_clock: bool
