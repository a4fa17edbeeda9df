"""Where tables' events go (tables/events.py, through core/outbox.py): the table's sockets, a
user's sockets, the Celery tasks and this process's caches.

Connected once, from ``TablesConfig.ready``. This is the one module of the write path that
knows both the sockets (``tables.live``) and the tasks; the services know neither.
"""

from __future__ import annotations

from datetime import UTC, datetime

from django.conf import settings

from away.push import replacement_text
from away.tasks import pushes_replace
from core import outbox
from games.events import ReviewDone
from tables import clock, matchstore, tasks, turn_notice_queue
from tables.events import (
    AccountSaved,
    BotsDue,
    ClockDue,
    QuickFillDue,
    RoundsStored,
    SessionEnded,
    TableChanged,
    TurnNoticeDue,
    TurnNoticeWithdrawn,
    VoteDue,
)
from tables.live import sessions
from tables.live.broadcast import send_table_changed


def connect() -> None:
    outbox.handle(TableChanged, table_changed)
    outbox.handle(ReviewDone, review_done)
    outbox.handle(BotsDue, bots_due)
    outbox.handle(ClockDue, clock_due)
    outbox.handle(VoteDue, vote_due)
    outbox.handle(QuickFillDue, quick_fill_due)
    outbox.handle(TurnNoticeDue, turn_notice_due)
    outbox.handle(TurnNoticeWithdrawn, turn_notice_withdrawn)
    outbox.handle(RoundsStored, rounds_stored)
    outbox.handle(AccountSaved, sessions.account_saved)
    outbox.handle(SessionEnded, sessions.session_ended)


def review_done(event: ReviewDone) -> None:
    """A review of the table's finished game is ready: its sockets read the table again, and the
    game-over panel links to it."""
    send_table_changed(event.table_id, lobby=True)


def table_changed(event: TableChanged) -> None:
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


def bots_due(event: BotsDue) -> None:
    countdown = settings.BOT_DELAY_SECONDS if event.delay else None
    tasks.bots_move.apply_async((event.match_id, event.version), countdown=countdown)


def clock_due(event: ClockDue) -> None:
    # The countdown from the moment it is queued, after commit: the deadline itself is in the row.
    countdown = max(0.0, (event.at - clock.ms(datetime.now(UTC))) / 1000)
    tasks.clock_expire.apply_async((event.match_id, event.version, event.at), countdown=countdown)


def vote_due(event: VoteDue) -> None:
    tasks.vote_expire.apply_async((event.vote_id,), countdown=event.seconds)


def quick_fill_due(event: QuickFillDue) -> None:
    tasks.quick_bots_fill.apply_async((event.table_id,), countdown=event.seconds)


def turn_notice_due(event: TurnNoticeDue) -> None:
    countdown = settings.TURN_NOTICE_SECONDS
    # One queued check per match at a time (tables/turn_notice_queue.py): not a publish every move.
    if turn_notice_queue.record(event.match_id, event.version):
        tasks.turn_notices_check.apply_async((event.match_id, event.version), countdown=countdown)
    if event.version == 0:
        tasks.start_notices_check.apply_async((event.match_id,), countdown=countdown)


def turn_notice_withdrawn(event: TurnNoticeWithdrawn) -> None:
    body = replacement_text(language=event.language, table_id=event.table_id)
    pushes_replace(user_id=event.user_id, table_id=event.table_id, body=body)


def rounds_stored(event: RoundsStored) -> None:
    matchstore.remember_rounds(event.match_id, event.seed, event.rounds)
