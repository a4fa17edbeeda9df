"""The dismissal vote's services and its expiry task (RULINGS S12, P6), against the real PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from games.models import Match
from payouts import selectors as payout_selectors
from tables import selectors
from tables.errors import TableError
from tables.models import DismissalVote, Table
from tables.render import fragment
from tables.services import lobby, play, votes
from tables.tasks import vote_expire
from tests.conftest import make_user
from tests.helpers import fair_value
from tests.payouts.helpers import assert_passes_conserved
from tests.tables.helpers import play_bots_until_human, start_sitaratas

pytestmark = pytest.mark.django_db


def restart(match: Match, host, guests) -> Match:
    for guest in guests:
        lobby.seat_ready(table_id=match.table_id, user=guest, ready=True, entropy=fair_value())
    return lobby.table_start(table_id=match.table_id, host=host, entropy=fair_value())


def test_the_pass_ledger_across_a_dismissal_its_restart_and_a_dismissed_restart(host, player, queued) -> None:
    # RULING P6 and S12
    match = start_sitaratas(host, [player])
    assert payout_selectors.pass_counts(user=player) == {"free": 4, "reserved": 0, "used": 1}
    votes.vote_propose(match_id=match.pk, user=player)
    votes.vote_cast(match_id=match.pk, user=host, yes=True)  # 2 of 3 needed (RULING S12)
    match.refresh_from_db()
    table = Table.objects.get(pk=match.table_id)
    assert match.status == Match.Status.DISMISSED and match.record is not None  # kept in history
    assert table.status == Table.Status.LOBBY
    assert list(table.seats.order_by("position").values_list("user_id", flat=True))[:2] == [host.pk, player.pk]
    assert not table.seats.get(user=player).is_ready and table.seats.exclude(user__is_bot=False).get().is_ready
    for user in (host, player):
        # restored as a reservation
        assert payout_selectors.pass_counts(user=user) == {"free": 4, "reserved": 1, "used": 0}

    second = restart(match, host, [player])
    assert second.attempt == 2
    assert payout_selectors.pass_counts(user=player) == {"free": 4, "reserved": 0, "used": 1}
    votes.vote_propose(match_id=second.pk, user=host)
    votes.vote_cast(match_id=second.pk, user=player, yes=True)
    for user in (host, player):
        # A dismissed restart keeps its passes used.
        assert payout_selectors.pass_counts(user=user) == {"free": 4, "reserved": 0, "used": 1}
    third = restart(second, host, [player])  # a new attempt takes a fresh pass
    assert third.attempt == 3
    assert payout_selectors.pass_counts(user=player) == {"free": 3, "reserved": 0, "used": 2}
    assert_passes_conserved()


def test_leaving_before_the_restart_releases_the_restored_pass(host, player, outsider, queued) -> None:
    match = start_sitaratas(host, [player, outsider])
    votes.vote_propose(match_id=match.pk, user=player)
    votes.vote_cast(match_id=match.pk, user=outsider, yes=True)  # 2 of 3
    lobby.seat_leave(table_id=match.table_id, user=outsider)
    assert payout_selectors.pass_counts(user=outsider) == {"free": 5, "reserved": 0, "used": 0}
    assert_passes_conserved()


def test_a_proposal_is_once_per_attempt_only_in_rounds_1_to_n_and_only_by_a_player(
    host, player, outsider, queued
) -> None:
    match = start_sitaratas(host, [player])
    with pytest.raises(TableError, match="Only the players"):
        votes.vote_propose(match_id=match.pk, user=outsider)
    votes.vote_propose(match_id=match.pk, user=player)
    votes.vote_cast(match_id=match.pk, user=host, yes=False)  # 1 yes of 2 needed, only the bot left: rejected
    assert DismissalVote.objects.get().status == DismissalVote.Status.REJECTED
    with pytest.raises(TableError, match="already been proposed"):
        votes.vote_propose(match_id=match.pk, user=host)
    assert DismissalVote.objects.count() == 1

    other = start_sitaratas(make_user("hugo"), [make_user("ivy")])
    panel = selectors.vote_panel(other)
    assert (panel["round_number"], panel["rounds"]) == (1, 3)
    Match.objects.filter(pk=other.pk).update(players=0)  # pretend round 1 is past the first N rounds
    with pytest.raises(TableError, match="rounds 1 to 0"):
        votes.vote_propose(match_id=other.pk, user=other.match_players.get(seat=0).user)


def test_play_is_paused_while_the_vote_is_open(host, player, outsider, queued) -> None:
    match = start_sitaratas(host, [player, outsider])
    votes.vote_propose(match_id=match.pk, user=player)
    match.refresh_from_db()
    assert selectors.is_paused(match)
    assert play.bots_act(match_id=match.pk, version=match.version) == 0
    with pytest.raises(TableError, match="paused"):
        play.match_act(match_id=match.pk, user=host, action={"type": "bid", "bid": 0}, version=match.version)
    version = match.version
    match.refresh_from_db()
    assert match.version == version


def test_the_vote_expires_after_its_deadline_and_a_late_or_repeated_task_is_harmless(
    host, player, outsider, queued, django_capture_on_commit_callbacks
) -> None:
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        match = start_sitaratas(host, [player, outsider])
        with django_capture_on_commit_callbacks(execute=True):
            vote = votes.vote_propose(match_id=match.pk, user=player)
    assert queued.calls("vote_expire") == [(vote.pk, 60)]
    with time_machine.travel(start + timedelta(seconds=59), tick=False):
        with django_capture_on_commit_callbacks(execute=True):
            assert vote_expire(vote.pk) is False  # early: still open, looks again later
        vote.refresh_from_db()
        assert vote.status == DismissalVote.Status.OPEN
        assert queued.calls("vote_expire")[-1] == (vote.pk, 1.0)
    with time_machine.travel(start + timedelta(seconds=60), tick=False):
        assert vote_expire(vote.pk) is True
        assert vote_expire(vote.pk) is False  # delivered twice
    with time_machine.travel(start + timedelta(hours=2), tick=False):
        assert vote_expire(vote.pk) is False  # delivered late
    vote.refresh_from_db()
    match.refresh_from_db()
    assert vote.status == DismissalVote.Status.EXPIRED
    assert match.status == Match.Status.PLAYING and not selectors.is_paused(match)
    match = play_bots_until_human(match)  # play resumes where it stopped
    assert match.status == Match.Status.PLAYING


def test_a_ballot_after_the_deadline_closes_the_vote_as_expired(host, player, outsider, queued) -> None:
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        match = start_sitaratas(host, [player, outsider])
        votes.vote_propose(match_id=match.pk, user=player)
    with time_machine.travel(start + timedelta(seconds=61), tick=False):
        votes.vote_cast(match_id=match.pk, user=host, yes=True)
    assert DismissalVote.objects.get().status == DismissalVote.Status.EXPIRED
    assert Match.objects.get(pk=match.pk).status == Match.Status.PLAYING


# Transactional: the ballot and the expiry race on threads, on connections of their own.
@pytest.mark.django_db(transaction=True)
def test_an_approval_and_an_expiry_at_once_close_the_vote_once(host, player, outsider, queued) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connections

    start = timezone.now()
    with time_machine.travel(start, tick=False):
        match = start_sitaratas(host, [player, outsider])
        vote = votes.vote_propose(match_id=match.pk, user=player)

    def cast():
        try:
            votes.vote_cast(match_id=match.pk, user=host, yes=True, now=start + timedelta(seconds=59))
        except TableError:
            pass
        finally:
            connections.close_all()

    def expire():
        try:
            return votes.vote_close_expired(vote_id=vote.pk, now=start + timedelta(seconds=61))
        finally:
            connections.close_all()

    with ThreadPoolExecutor(2) as pool:
        list(pool.map(lambda f: f(), [cast, expire]))
    vote.refresh_from_db()
    match.refresh_from_db()
    assert vote.status in (DismissalVote.Status.APPROVED, DismissalVote.Status.EXPIRED)
    restored = payout_selectors.pass_counts(user=host)["reserved"]
    assert (match.status == Match.Status.DISMISSED) == (vote.status == DismissalVote.Status.APPROVED) == (restored == 1)
    assert_passes_conserved()


def test_a_lone_human_with_two_bots_cannot_dismiss(host, queued, django_capture_on_commit_callbacks) -> None:
    # RULING S12: the majority is 2 of 3 players and bots never vote, so the proposer's own YES
    # is all there can be: the proposal closes as rejected at once, the pass stays used, and
    # play goes on (no free partial games by proposing, dismissing and closing the lobby).
    match = start_sitaratas(host, [])
    panel = selectors.vote_panel(match)
    assert (panel["majority"], panel["bots"], panel["can_pass"]) == (2, 2, False)
    html = fragment.render_live(fragment.load_snapshot(match.table_id), user_id=host.pk, connected=set())
    assert 'value="vote_propose"' not in html  # issue 37: not offered, it cannot pass
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        vote = votes.vote_propose(match_id=match.pk, user=host)
    assert callbacks  # the proposal's after-commit work ran (the table's sockets told), queueing no expiry
    assert (vote.status, vote.eligible, vote.needed, vote.yes_voters) == (
        DismissalVote.Status.REJECTED,
        3,
        2,
        [host.pk],
    )
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING and not selectors.is_paused(match)
    assert payout_selectors.pass_counts(user=host) == {"free": 4, "reserved": 0, "used": 1}
    assert queued.calls("vote_expire") == []  # closed at once: no expiry task
    assert selectors.vote_panel(match)["status"] == DismissalVote.Status.REJECTED
    with pytest.raises(TableError, match="already been proposed"):
        votes.vote_propose(match_id=match.pk, user=host)


def test_two_humans_and_two_bots_fall_short_of_three(host, player, queued) -> None:
    # RULING S12: 3 of 4 are needed; both humans saying YES would make only 2 and the bots never
    # vote, so approval is impossible from the proposal on: it closes as rejected at once, and
    # the other human's YES finds no open vote.
    match = start_sitaratas(host, [player], seat_count=4)
    vote = votes.vote_propose(match_id=match.pk, user=player)
    assert (vote.status, vote.eligible, vote.needed, vote.yes_voters) == (
        DismissalVote.Status.REJECTED,
        4,
        3,
        [player.pk],
    )
    with pytest.raises(TableError, match="no open vote"):
        votes.vote_cast(match_id=match.pk, user=host, yes=True)
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING and not selectors.is_paused(match)
    for user in (host, player):
        assert payout_selectors.pass_counts(user=user) == {"free": 4, "reserved": 0, "used": 1}


@pytest.mark.parametrize("seats, needed", [(3, 2), (4, 3), (5, 3), (6, 4)])
def test_all_human_tables_need_the_books_majority(seats, needed, queued) -> None:
    # RULING S12: 2 of 3, 3 of 4, 3 of 5, 4 of 6; one YES short stays open, the next approves.
    users = [make_user(f"voter{n}") for n in range(seats)]
    match = start_sitaratas(users[0], users[1:], seat_count=seats)
    vote = votes.vote_propose(match_id=match.pk, user=users[0])
    assert (vote.eligible, vote.needed) == (seats, needed)
    for user in users[1 : needed - 1]:
        vote = votes.vote_cast(match_id=match.pk, user=user, yes=True)
    assert vote.status == DismissalVote.Status.OPEN
    vote = votes.vote_cast(match_id=match.pk, user=users[needed - 1], yes=True)
    assert vote.status == DismissalVote.Status.APPROVED
    assert Match.objects.get(pk=match.pk).status == Match.Status.DISMISSED


def test_a_table_is_dealt_again_at_most_twice_its_third_deal_is_played_out(host, player, queued) -> None:
    """RULING P88: one proposal per attempt, and no more than two redeals across the attempts, so a
    majority cannot dismiss again and again until it likes its hands."""
    match = start_sitaratas(host, [player])
    for attempt in (1, 2):
        assert match.attempt == attempt
        votes.vote_propose(match_id=match.pk, user=player)
        votes.vote_cast(match_id=match.pk, user=host, yes=True)
        match.refresh_from_db()
        assert match.status == Match.Status.DISMISSED
        match = restart(match, host, [player])
    assert match.attempt == votes.MAX_REDEALS + 1 == 3
    assert not selectors.vote_panel(match)["can_propose"]  # not offered, and refused if asked
    with pytest.raises(TableError, match="dealt again 2 times, the most a table may be"):
        votes.vote_propose(match_id=match.pk, user=player)
    assert not DismissalVote.objects.filter(match=match).exists()
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING and not selectors.is_paused(match)
