"""Where the table life cycle meets payouts, votes and ratings.

The table services call these at each step, inside their transaction; each
step's money, passes and ratings live in their own app.
"""

from __future__ import annotations

from accounts.models import User
from games.models import Match, MatchPlayer
from tables.models import Table


def seat_taken(*, table: Table, user: User) -> None:
    pass


def seat_left(*, table: Table, user: User) -> None:
    pass


def match_started(*, table: Table, match: Match, users: list[User]) -> None:
    pass


def match_finished(*, match: Match, players: list[MatchPlayer]) -> None:
    pass


def is_paused(match: Match) -> bool:
    return False


def live_extra(*, table: Table, match: Match | None) -> dict:
    """Extra context for the table page (the pot, an open vote)."""
    return {}
