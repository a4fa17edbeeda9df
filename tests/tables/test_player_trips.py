"""What players tripped on (issue 37), one test each; every one failed on the code before.

What only a browser shows (a push keeping a chosen control, the layout on a phone) is in
tests/browser/test_player_trips_browser.py.
"""

from __future__ import annotations

import pytest

from games.models import Match
from payouts.models import Transfer
from tables import clock, services, tasks, votes
from tables.live.snapshot import load_snapshot, render_live
from tests.conftest import make_user
from tests.payouts.helpers import play_to_end
from tests.tables.helpers import fill_with_bots, open_table, seat_guests, start_table

pytestmark = pytest.mark.django_db(transaction=True)


def _html(table_id: int, user) -> str:
    return render_live(load_snapshot(table_id), user_id=user.pk if user else None, connected=set())


@pytest.mark.parametrize("game", ["estimation", "sita"])
def test_game_over_in_a_game_without_a_sitaratas_names_none(host, game) -> None:
    table, match = start_table(host, game)
    match = play_to_end(match)
    assert match.status == Match.Status.FINISHED
    html = _html(table.pk, host)
    assert 'id="result"' in html
    assert "is the Sitaratas" not in html and 'id="signature"' not in html


def test_game_over_in_sitaratas_still_names_the_sitaratas(host) -> None:
    table, match = start_table(host, "sitaratas")
    play_to_end(match)
    assert "</strong> is the Sitaratas" in _html(table.pk, host)


@pytest.fixture
def no_vote_timer(monkeypatch) -> None:
    monkeypatch.setattr(tasks.vote_expire, "apply_async", lambda args, countdown: None)


def _dismiss(match, proposer, other) -> None:
    votes.vote_propose(match_id=match.pk, user=proposer)
    votes.vote_cast(match_id=match.pk, user=other, yes=True)
    match.refresh_from_db()
    assert match.status == Match.Status.DISMISSED


def test_after_a_dismissed_restart_the_lobby_says_the_passes_stay_used_and_the_next_pass_says_why(
    host, player, no_vote_timer
) -> None:
    table, first = start_table(host, "sitaratas", guests=[player])
    _dismiss(first, player, host)
    assert "game pass came back" in _html(table.pk, player)
    services.seat_ready(table_id=table.pk, user=player, ready=True)
    restart = services.table_start(table_id=table.pk, host=host)
    _dismiss(restart, player, host)
    html = _html(table.pk, player)
    assert "game pass came back" not in html
    assert "its game passes stay used" in html and "the next start takes one free pass" in html
    services.seat_ready(table_id=table.pk, user=player, ready=True)
    third = services.table_start(table_id=table.pk, host=host)
    fresh = Transfer.objects.filter(user=player, reason="pass_reserve").order_by("pk").last()
    assert fresh.memo == "New attempt after a dismissed restart: a fresh pass."
    seated = Transfer.objects.filter(user=player, reason="pass_reserve", memo="Seat taken at a Sitaratas table.")
    assert seated.count() == 1  # only when the player sat down
    assert Transfer.objects.filter(user=player, reason="pass_use", match=third).count() == 1


def test_a_lone_human_with_bots_is_not_offered_a_dismissal_that_cannot_pass(host, player) -> None:
    table, _ = start_table(host, "sitaratas", seat_count=3)
    html = _html(table.pk, host)
    assert 'value="vote_propose"' not in html
    assert "with 1 person here a dismissal vote cannot pass" in html
    table, _ = start_table(host, "sitaratas", seat_count=3, guests=[player])
    assert 'value="vote_propose"' in _html(table.pk, host)  # two of three can dismiss


def test_a_finished_table_does_not_tell_the_away_player_to_come_back(host) -> None:
    table, match = start_table(host, "estimation", options={"length": "micro"})
    Match.objects.filter(pk=match.pk).update(clock_seats={"away": {"0": clock.ms(match.started_at)}})
    assert "I&#39;m back" in _html(table.pk, host) or "I'm back" in _html(table.pk, host)
    play_to_end(match)
    html = _html(table.pk, host)
    assert 'id="result"' in html
    assert "You are marked" not in html and 'value="back"' not in html


def _admin():
    admin = make_user("root")
    admin.is_staff = True
    admin.save()
    return admin


def test_the_players_of_an_aborted_game_are_told_their_stake_came_back(host, player) -> None:
    table = open_table(host, "estimation", stake=7, options={"length": "micro"})
    seat_guests(table, [player])
    fill_with_bots(table, host)
    match = services.table_start(table_id=table.pk, host=host)
    services.match_abort(match_id=match.pk, by=_admin(), reason="A player fell ill")
    html = _html(table.pk, player)
    assert "Your stake of 7 coins came back to your wallet." in html
    assert ">watching<" not in html and "you played here" in html
    assert ">watching<" in _html(table.pk, make_user("olga"))


def test_the_players_of_a_closed_sitaratas_lobby_are_told_their_pass_came_back(host, player) -> None:
    table = open_table(host, "sitaratas", seat_count=3)
    seat_guests(table, [player])
    services.table_close(table_id=table.pk, by=host)
    html = _html(table.pk, player)
    assert "Your game pass came back to your free passes." in html and ">watching<" not in html
