"""Celery tasks of the games app: game reviews (issue 42). ``review_run`` is routed to the review
queue (config/settings.py ``CELERY_TASK_ROUTES``), which only the review worker reads; each task
takes ids, and the service it calls is harmless twice or late. The services queue them through
the outbox (core/outbox.py): the handlers of their events (games/events.py) are at the end,
registered in ``GamesConfig.ready``."""

from __future__ import annotations

from celery import shared_task

from games.events import ReviewQueued, ReviewsWaiting


@shared_task(ignore_result=True)
def review_run(review_id: int) -> bool:
    from games.services import reviews

    return reviews.review_run(review_id=review_id)


@shared_task(ignore_result=True)
def reviews_dispatch() -> int:
    from games.services import reviews

    return len(reviews.reviews_dispatch())


def reviews_waiting(event: ReviewsWaiting) -> None:
    reviews_dispatch.delay()


def review_queued(event: ReviewQueued) -> None:
    review_run.delay(event.review_id)
