"""One queued "your turn" check per match at a time (tables/turn_notice_queue.py, RULING P74),
on the real Redis: a move records its version and queues a check only when none is queued; the
queued check checks the latest version, or queues itself again for when that one is due."""

from __future__ import annotations

import itertools
import os
import time

import pytest

from notifications import kinds
from notifications.models import Notification
from tables import matchstore, tasks, turn_notice_queue
from tables.services import play
from tests.tables.helpers import play_bots_until_human, start_sitaratas_with_a_bot, state_of

pytestmark = pytest.mark.django_db

# Ids no match of this test database has: the marks of the real matches below stay apart.
_ids = itertools.count(10**9 + os.getpid() * 1000)


@pytest.fixture
def match_id() -> int:
    return next(_ids)


def test_a_move_queues_a_check_only_when_none_is_queued(settings, match_id) -> None:
    settings.TURN_NOTICE_SECONDS = 20
    assert turn_notice_queue.record(match_id, 1) is True
    assert turn_notice_queue.record(match_id, 2) is False
    due = turn_notice_queue.take(match_id)
    assert due is not None and due.version == 2
    assert 19 < due.at - time.time() <= 20
    assert turn_notice_queue.record(match_id, 3) is True  # the check took its mark: the next move queues


def test_the_highest_version_is_kept_when_two_processes_record_out_of_order(match_id) -> None:
    turn_notice_queue.record(match_id, 6)
    turn_notice_queue.record(match_id, 5)
    due = turn_notice_queue.take(match_id)
    assert due is not None and due.version == 6


def test_without_a_record_the_check_keeps_its_own_version(match_id) -> None:
    assert turn_notice_queue.take(match_id) is None


def test_a_check_for_an_earlier_version_queues_itself_again_for_the_latest(settings, queued, match_id) -> None:
    settings.TURN_NOTICE_SECONDS = 20
    turn_notice_queue.record(match_id, 1)
    turn_notice_queue.record(match_id, 2)
    assert tasks.turn_notices_check(match_id, 1) == 0
    ((again_id, again_version, countdown),) = queued.calls("turn_notices_check")
    assert (again_id, again_version) == (match_id, 2)
    assert 19 < countdown <= 20
    assert turn_notice_queue.record(match_id, 3) is False  # queued again: a move does not queue another


def test_a_game_of_quick_moves_queues_one_check(
    settings, queued, host, player, django_capture_on_commit_callbacks
) -> None:
    settings.TURN_NOTICE_SECONDS = 20
    match = start_sitaratas_with_a_bot(host, player)
    users = {host.pk: host, player.pk: player}
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(6):  # the humans' moves and the bot's between them, each due a check
            engine, state = state_of(match)
            seat = engine.to_act(state)[0]
            user_id = next(user for at, user, _is_bot in matchstore.seating(match) if at == seat)
            action = engine.legal_actions(state, seat)[0]
            play.match_act(match_id=match.pk, user=users[user_id], action=action, version=match.version)
            match = play_bots_until_human(match)
    assert match.version >= 6
    assert len(queued.calls("turn_notices_check")) == 1
    due = turn_notice_queue.take(match.pk)
    assert due is not None and due.version == match.version


def test_a_due_later_version_is_checked_in_place_of_the_queued_one(settings, queued, host, player) -> None:
    settings.TURN_NOTICE_SECONDS = 0
    match = start_sitaratas_with_a_bot(host, player)
    turn_notice_queue.record(match.pk, match.version)
    # The queued check was for an earlier version; the match's latest is due now and awaits a
    # player who is not at the table: they are told.
    assert tasks.turn_notices_check(match.pk, match.version - 1) == 1
    assert Notification.objects.filter(kind=kinds.YOUR_TURN, table_id=match.table_id).count() == 1
