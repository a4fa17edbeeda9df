"""Beat's sweep for work a lost task should have done (RULING P35, tables/services/recovery.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from games.models import Match
from tables.models import DismissalVote
from tables.services import play, recovery, votes
from tests.tables.helpers import play_bots_until_human, start_sitaratas, state_of

pytestmark = pytest.mark.django_db
BOT_SEAT = 2


def until_the_bot_is_awaited(match: Match) -> Match:
    """Humans play their first legal action until the bot's turn comes."""
    while True:
        engine, state = state_of(match)
        if BOT_SEAT in engine.to_act(state):
            return match
        seat = engine.to_act(state)[0]
        play.match_act(
            match_id=match.pk,
            user=match.match_players.get(seat=seat).user,
            action=engine.legal_actions(state, seat)[0],
            version=match.version,
        )


def test_a_game_waiting_for_its_bot_longer_than_the_limit_gets_its_task_again(
    host, player, settings, queued, django_capture_on_commit_callbacks
) -> None:
    settings.RESUME_STALLED_SECONDS = 10
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        match = until_the_bot_is_awaited(start_sitaratas(host, [player]))
    queued.clear()  # the task the move queued: lost
    with time_machine.travel(start + timedelta(seconds=9), tick=False):
        assert recovery.stalled_work_resume(now=timezone.now()) == {"votes_closed": 0, "bots_queued": 0}
    # The task is queued after commit (core/outbox.py): the test's transaction never commits.
    with (
        time_machine.travel(start + timedelta(seconds=11), tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        assert recovery.stalled_work_resume(now=timezone.now()) == {"votes_closed": 0, "bots_queued": 1}
    assert queued.args("bots_move") == [(match.pk, match.version)]
    # The task that was "lost" turns up after all: the version guard makes the second one a no-op.
    assert play.bots_act(match_id=match.pk, version=match.version) == 1
    assert play.bots_act(match_id=match.pk, version=match.version) == 0


def test_a_human_thinking_is_not_a_stall(host, player, settings, queued) -> None:
    settings.RESUME_STALLED_SECONDS = 10
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        match = play_bots_until_human(start_sitaratas(host, [player]))
    engine, state = state_of(match)
    assert BOT_SEAT not in engine.to_act(state)
    with time_machine.travel(start + timedelta(hours=1), tick=False):
        assert recovery.stalled_work_resume(now=timezone.now())["bots_queued"] == 0


def test_a_vote_past_its_deadline_is_closed_by_the_sweep(host, player, outsider, settings, queued) -> None:
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        match = start_sitaratas(host, [player, outsider])
        vote = votes.vote_propose(match_id=match.pk, user=player)
    with time_machine.travel(start + timedelta(seconds=59), tick=False):
        assert recovery.stalled_work_resume(now=timezone.now())["votes_closed"] == 0
    with time_machine.travel(start + timedelta(seconds=61), tick=False):
        assert recovery.stalled_work_resume(now=timezone.now())["votes_closed"] == 1
        assert recovery.stalled_work_resume(now=timezone.now())["votes_closed"] == 0
    vote.refresh_from_db()
    assert vote.status == DismissalVote.Status.EXPIRED
