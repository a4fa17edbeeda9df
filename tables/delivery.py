"""Where the outbox's events go (tables/outbox.py): the table's sockets and the Celery tasks.

Connected once, from ``TablesConfig.ready``. This is the one module of the write path that
knows both the sockets (``tables.live.broadcast``) and the tasks; the services know neither.
"""

from __future__ import annotations

from datetime import UTC, datetime

from django.conf import settings

from tables import clock, outbox, tasks, turn_notice_queue
from tables.live.broadcast import send_table_changed


def connect() -> None:
    outbox.handle(outbox.TableChanged, table_changed)
    outbox.handle(outbox.BotsDue, bots_due)
    outbox.handle(outbox.ClockDue, clock_due)
    outbox.handle(outbox.VoteDue, vote_due)
    outbox.handle(outbox.QuickFillDue, quick_fill_due)
    outbox.handle(outbox.TurnNoticeDue, turn_notice_due)


def table_changed(event: outbox.TableChanged) -> None:
    send_table_changed(
        event.table_id,
        match_id=event.match_id,
        version=event.version,
        state=event.state,
        lobby=event.lobby,
        clock=event.clock,
        access=event.access,
        access_users=event.access_users,
    )


def bots_due(event: outbox.BotsDue) -> None:
    countdown = settings.BOT_DELAY_SECONDS if event.delay else None
    tasks.bots_move.apply_async((event.match_id, event.version), countdown=countdown)


def clock_due(event: outbox.ClockDue) -> None:
    # The countdown from the moment it is queued, after commit: the deadline itself is in the row.
    countdown = max(0.0, (event.at - clock.ms(datetime.now(UTC))) / 1000)
    tasks.clock_expire.apply_async((event.match_id, event.version, event.at), countdown=countdown)


def vote_due(event: outbox.VoteDue) -> None:
    tasks.vote_expire.apply_async((event.vote_id,), countdown=event.seconds)


def quick_fill_due(event: outbox.QuickFillDue) -> None:
    tasks.quick_bots_fill.apply_async((event.table_id,), countdown=event.seconds)


def turn_notice_due(event: outbox.TurnNoticeDue) -> None:
    countdown = settings.TURN_NOTICE_SECONDS
    # One queued check per match at a time (tables/turn_notice_queue.py): not a publish every move.
    if turn_notice_queue.record(event.match_id, event.version):
        tasks.turn_notices_check.apply_async((event.match_id, event.version), countdown=countdown)
    if event.version == 0:
        tasks.start_notices_check.apply_async((event.match_id,), countdown=countdown)
