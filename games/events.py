"""Games' typed events: what a write of games hands the outbox (core/outbox.py) for after commit.

The review's waiting and queued events queue a review task; their handlers are in games/tasks.py,
registered in ``GamesConfig.ready``. A lost one is sent again by beat's dispatch every minute, since
the reviews wait in their rows. ``ReviewDone`` goes to the table's sockets (tables/delivery.py); a
lost one is made good by the next read of the table (a reload shows the link).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ReviewsWaiting:
    """Reviews are pending: the dispatch queues those the limits allow (games/services/reviews.py)."""


@dataclass(frozen=True, slots=True)
class ReviewDone:
    """A player's review of a finished game is stored: the table's sockets show its link on the
    game-over panel (the handler is the tables app's, tables/delivery.py)."""

    table_id: int
    match_id: int


@dataclass(frozen=True, slots=True)
class ReviewQueued:
    """The review is queued: its task goes to the review queue, which only the review worker reads."""

    review_id: int
