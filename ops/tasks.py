"""Celery tasks of the ops app. Read-only and harmless when run twice (docs/style.md §7)."""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from core.connections import retry_on_dead_connection

logger = logging.getLogger("ops.integrity")


@shared_task(ignore_result=True)
@retry_on_dead_connection
def verify_matches_nightly() -> bool:
    """The integrity check over the last day's games (beat runs it nightly); the result goes to the log."""
    from ops.integrity import verify

    report = verify(since=timezone.now() - timedelta(days=1))
    extra = {
        "matches": report.matches,
        "events": report.events,
        "transfers": report.transfers,
        "differences": len(report.differences),
    }
    if report.ok:
        logger.info(report.summary(), extra=extra)
    else:
        logger.error("%s\n%s", report.summary(), "\n".join(report.differences), extra=extra)
    return report.ok
