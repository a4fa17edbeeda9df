"""What a tournament tells others after commit: its page's sockets, its tasks, and its players' bells.

The typed events below are handed to the outbox (core/outbox.py) inside the write's transaction.
Where they go is registered in ``TournamentsConfig.ready``: the page's group
(tournaments/consumer.py) and the tasks (tournaments/tasks.py). The socket event is small ("read
the standings again"), and each consumer renders the fragment in its own viewer's language.
Every push renders from the database, so a page that missed one is put right by the next. A
lost task is made good by beat's sweep (``tournaments_due``). Notifications go through the
notifications app, inside the caller's transaction (it pushes and delivers after commit itself).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class TournamentChanged:
    """Every open page of the tournament renders its standings, rounds and facts again."""

    tournament_id: int


@dataclass(frozen=True, slots=True)
class StartDue:
    """The tournament is to start at ``at`` (an ETA task)."""

    tournament_id: int
    at: datetime


@dataclass(frozen=True, slots=True)
class TablesStartDue:
    """The round's tables start when their players' ``seconds`` to get ready are over (RULING P80)."""

    round_id: int
    seconds: float


@dataclass(frozen=True, slots=True)
class RoundTableFinished:
    """A table of the round finished its game: the round checks whether it is over."""

    round_id: int


def notify_players(tournament_id: int, *, kind: str, user_ids: list[int], minutes: int | None = None) -> None:
    """The bell for each player: the tournament starts in ``minutes``, or their round's table is ready."""
    from tournaments.notices import notice_send

    notice_send(tournament_id=tournament_id, kind=kind, user_ids=user_ids, minutes=minutes)
