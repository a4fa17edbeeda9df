"""Games' typed events: what a write of games hands the outbox (core/outbox.py) for after commit.

Both queue a review task; their handlers are in games/tasks.py, registered in ``GamesConfig.ready``.
A lost one is sent again by beat's dispatch every minute, since the reviews wait in their rows.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ReviewsWaiting:
    """Reviews are pending: the dispatch queues those the limits allow (games/services/reviews.py)."""


@dataclass(frozen=True, slots=True)
class ReviewQueued:
    """The review is queued: its task goes to the review queue, which only the review worker reads."""

    review_id: int
