"""Celery tasks. Each takes ids, re-reads, and is harmless when run twice or late (docs/style.md §7).

The services hand their tasks to the outbox (core/outbox.py), which queues them after commit
through tables/delivery.py; no service imports this module, so it imports them at the top.
"""

from __future__ import annotations

import time

from celery import shared_task
from django.utils import timezone

from core.connections import retry_on_dead_connection
from tables import turn_notice_queue
from tables.live.presence import user_connected_now
from tables.services import lobby, play, quickplay, recovery, timeouts, turn_notices, votes


@shared_task(ignore_result=True)
@retry_on_dead_connection
def bots_move(match_id: int, version: int) -> int:
    """RULING P1: a bot's turn; does nothing if the game moved on since it was queued."""
    return play.bots_act(match_id=match_id, version=version)


@shared_task(ignore_result=True)
@retry_on_dead_connection
def close_idle_lobbies() -> int:
    return lobby.lobbies_close_idle(now=timezone.now())


@shared_task(ignore_result=True)
@retry_on_dead_connection
def vote_expire(vote_id: int) -> bool:
    """RULING S12: close a dismissal vote at its stored deadline; harmless twice, late or early."""
    return votes.vote_close_expired(vote_id=vote_id)


@shared_task(ignore_result=True)
@retry_on_dead_connection
def clock_expire(match_id: int, version: int, at: int | None = None) -> int:
    """RULING P11: the match's armed countdown (its version and time); harmless twice, late or early."""
    return timeouts.clock_expire(match_id=match_id, version=version, at=at)


@shared_task(ignore_result=True)
@retry_on_dead_connection
def clocks_sweep() -> dict:
    """Deadlines that passed while no worker ran; all-away and idle untimed games (RULINGS P11, P13, P14)."""
    return timeouts.clocks_sweep(now=timezone.now())


@shared_task(ignore_result=True)
@retry_on_dead_connection
def resume_stalled_work() -> dict:
    """RULING P35: beat's sweep for work a lost task should have done (tables/services/recovery.py)."""
    return recovery.stalled_work_resume(now=timezone.now())


@shared_task(ignore_result=True)
@retry_on_dead_connection
def quick_bots_fill(table_id: int) -> int:
    """RULING P73: bots fill a quick-play table's empty seats once its wait is over; harmless twice or late."""
    return quickplay.bots_fill(table_id=table_id)


@shared_task(ignore_result=True)
@retry_on_dead_connection
def turn_notices_check(match_id: int, version: int) -> int:
    """RULING P74: tell the awaited players who are not at the table; nothing if the game moved on.

    The match's one queued check (tables/turn_notice_queue.py): it checks the latest version a move
    recorded, or queues itself again for when that one is due."""
    due = turn_notice_queue.take(match_id)
    if due is not None and due.version > version:
        wait = due.at - time.time()
        if wait > 0:
            if turn_notice_queue.requeue(match_id):
                turn_notices_check.apply_async((match_id, due.version), countdown=wait)
            return 0
        version = due.version
    return turn_notices.turn_notices_check(match_id=match_id, version=version, connected=user_connected_now)


@shared_task(ignore_result=True)
@retry_on_dead_connection
def start_notices_check(match_id: int) -> int:
    """RULING P74: tell the seated players who are not at the table that their game has begun."""
    return turn_notices.start_notices_check(match_id=match_id, connected=user_connected_now)
