"""Celery tasks of tournaments. Each takes ids, re-reads, and is harmless when run twice or late.

The services and the receivers queue them through the outbox (core/outbox.py): the handlers of
their events (tournaments/events.py) are at the end, registered in ``TournamentsConfig.ready``.
"""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from core.connections import retry_on_dead_connection
from tournaments.events import RoundTableFinished, StartDue, TablesStartDue


@shared_task(ignore_result=True)
@retry_on_dead_connection
def tournament_start_due(tournament_id: int) -> bool:
    """The start time has come (an ETA task); a task early, late or twice does no harm."""
    from tournaments import services

    return services.tournament_start(tournament_id=tournament_id, now=timezone.now())


@shared_task(ignore_result=True)
@retry_on_dead_connection
def round_tables_start(round_id: int) -> int:
    from tournaments import services

    return services.round_tables_start(round_id=round_id, now=timezone.now())


@shared_task(ignore_result=True)
@retry_on_dead_connection
def round_check(round_id: int) -> bool:
    from tournaments import services

    return services.round_check(round_id=round_id, now=timezone.now())


@shared_task(ignore_result=True)
@retry_on_dead_connection
def tournaments_sweep() -> dict[str, int]:
    from tournaments import services

    return services.tournaments_due(now=timezone.now())


@shared_task(ignore_result=True)
@retry_on_dead_connection
def seasons_freeze() -> int:
    from tournaments import services

    return services.seasons_freeze(now=timezone.now())


def start_due(event: StartDue) -> None:
    tournament_start_due.apply_async((event.tournament_id,), eta=event.at)


def tables_start_due(event: TablesStartDue) -> None:
    round_tables_start.apply_async((event.round_id,), countdown=event.seconds)


def round_table_finished(event: RoundTableFinished) -> None:
    round_check.delay(event.round_id)
