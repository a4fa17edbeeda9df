"""Celery tasks. Each takes ids, re-reads, and is harmless when run twice or late (STYLE.md §7)."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from tables import services
from tables.connections import retry_on_dead_connection


@shared_task(ignore_result=True)
@retry_on_dead_connection
def bots_move(match_id: int, version: int) -> int:
    """RULING P1: a bot's turn; does nothing if the game moved on since it was queued."""
    return services.bots_act(match_id=match_id, version=version)


@shared_task(ignore_result=True)
@retry_on_dead_connection
def close_idle_lobbies() -> int:
    return services.lobbies_close_idle(now=timezone.now())


@shared_task(ignore_result=True)
@retry_on_dead_connection
def vote_expire(vote_id: int) -> bool:
    """RULING S12: close a dismissal vote at its stored deadline; harmless twice, late or early."""
    from tables.votes import vote_close_expired

    return vote_close_expired(vote_id=vote_id)


@shared_task(ignore_result=True)
@retry_on_dead_connection
def resume_stalled_work() -> dict:
    """RULING P35: beat's sweep for work a lost task should have done (tables/recovery.py)."""
    from tables.recovery import stalled_work_resume

    return stalled_work_resume(now=timezone.now())
