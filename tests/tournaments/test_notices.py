"""What a tournament tells its players (RULINGS P80, P85): five minutes before the start, once, with
a link to its page; at each round, where their own table is."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from notifications import kinds, texts
from notifications.models import Notification
from tests.tournaments.helpers import create, current_round, players, sign_up, staff, start
from tournaments import services

pytestmark = pytest.mark.django_db


def told(kind: str) -> list[Notification]:
    return list(Notification.objects.filter(kind=kind).select_related("recipient").order_by("recipient_id"))


def test_players_are_told_five_minutes_before_the_start_once() -> None:
    tournament = create(staff(), name="Friday cup")
    entrants = players(4)
    sign_up(tournament, entrants)
    services.entry_withdraw(
        tournament_id=tournament.pk, user=entrants[3], now=tournament.starts_at - timedelta(hours=1)
    )

    assert services.tournaments_due(now=tournament.starts_at - timedelta(minutes=6))["reminded"] == 0
    assert told(kinds.TOURNAMENT_STARTING) == []

    assert services.tournaments_due(now=tournament.starts_at - timedelta(seconds=290))["reminded"] == 1
    notices = told(kinds.TOURNAMENT_STARTING)
    assert [notice.recipient for notice in notices] == entrants[:3]  # the withdrawn player is not told
    assert texts.text(notices[0]) == "The tournament Friday cup starts in 5 min."
    assert texts.link(notices[0]) == reverse("tournament", args=[tournament.pk])

    # The next sweep, and one run twice, tell no one again.
    assert services.tournaments_due(now=tournament.starts_at - timedelta(seconds=260))["reminded"] == 0
    assert (
        services.tournament_remind(tournament_id=tournament.pk, now=tournament.starts_at - timedelta(seconds=200))
        is False
    )
    assert len(told(kinds.TOURNAMENT_STARTING)) == 3


def test_a_late_sweep_says_how_many_minutes_are_left_and_a_past_start_is_not_announced() -> None:
    tournament = create(staff(), name="Late cup")
    sign_up(tournament, players(4))
    assert services.tournament_remind(tournament_id=tournament.pk, now=tournament.starts_at - timedelta(seconds=61))
    assert texts.text(told(kinds.TOURNAMENT_STARTING)[0]) == "The tournament Late cup starts in 2 min."

    missed = create(staff(), name="Missed cup")
    sign_up(missed, players(4))
    assert services.tournament_remind(tournament_id=missed.pk, now=missed.starts_at) is False
    assert services.tournament_remind(tournament_id=missed.pk, now=missed.starts_at + timedelta(seconds=1)) is False


def test_a_cancelled_tournament_tells_no_one_that_it_starts() -> None:
    tournament = create(staff(), name="Cancelled cup")
    sign_up(tournament, players(4))
    services.tournament_cancel(tournament_id=tournament.pk, by=staff(), reason="The venue is closed")
    assert (
        services.tournament_remind(tournament_id=tournament.pk, now=tournament.starts_at - timedelta(minutes=4))
        is False
    )
    assert told(kinds.TOURNAMENT_STARTING) == []


def test_each_round_tells_each_player_where_their_own_table_is() -> None:
    tournament = create(staff(), name="Round cup")
    entrants = players(8)
    sign_up(tournament, entrants)
    start(tournament)
    assert told(kinds.TOURNAMENT_STARTING) == []  # the round's notice says it all at the start
    notices = told(kinds.ROUND_READY)
    assert [notice.recipient for notice in notices] == entrants
    tables = {rt.table_id for rt in current_round(tournament).tables.all()}
    for notice in notices:
        assert notice.table_id in tables
        assert notice.table.seats.filter(user=notice.recipient).exists()
        assert texts.link(notice) == reverse("table", args=[notice.table_id])
    assert texts.text(notices[0]) == "Round 1 of Round cup: your table is ready."
