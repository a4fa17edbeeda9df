"""Issue 53, item 11: what a tournament's player tripped on. A round's table says that leaving
only makes you absent and offers withdrawing, which the tournament's page offers after the start
too (RULING P82); the player count leaves out the withdrawn; a cancelled tournament's round and
pot no longer show as going; the admin's cancel message reads as a sentence; the monthly
seasons have a page (RULING P84), linked from the ratings and tournaments pages."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.admin.models import LogEntry
from django.urls import reverse

from tables.render.fragment import load_snapshot, render_live
from tests.tournaments.helpers import create, current_round, players, sign_up, staff, start
from tests.tournaments.test_seasons import finished_game
from tournaments import services
from tournaments.consumer import standings_read, standings_render
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db


def test_a_round_table_offers_withdrawing_not_a_leave_that_only_makes_you_absent() -> None:
    tournament = create(staff())
    entrants = players(4)
    sign_up(tournament, entrants)
    start(tournament)
    table = current_round(tournament).tables.get().table
    html = render_live(load_snapshot(table.pk), user_id=entrants[0].pk, connected=set())
    assert 'data-command="seat_leave"' not in html and "Leave the table" not in html
    link = re.search(r'<a class="button danger" id="tournament-withdraw" href="([^"]+)"', html)
    assert link and link[1] == f"/tournaments/{tournament.pk}/#t-actions"
    assert "the house plays it and you score nothing at this table" in html


def test_a_player_withdraws_after_the_start_from_the_page_and_its_live_copy(client) -> None:
    tournament = create(staff(), entry_fee=10, prize_split="100")
    entrants = players(4)
    sign_up(tournament, entrants)
    start(tournament)
    leaver = entrants[0]
    client.force_login(leaver)
    page = client.get(reverse("tournament", args=[tournament.pk])).content.decode()
    assert 'id="withdraw"' in page and "Withdraw from the tournament" in page
    # The socket's copy of the actions (rendered for this entrant) offers it too.
    live = standings_render(standings_read(tournament.pk), user=leaver, language="en")
    assert 'id="withdraw"' in live
    answer = client.post(
        reverse("tournament_signup", args=[tournament.pk]), {"withdraw": "1"}, headers={"HX-Request": "true"}
    )
    assert answer.headers["HX-Redirect"] == reverse("tournament", args=[tournament.pk])
    assert Entry.objects.get(user=leaver).state == Entry.State.WITHDRAWN
    page = client.get(reverse("tournament", args=[tournament.pk])).content.decode()
    assert 'id="withdraw"' not in page and "You withdrew" in page
    players_fact = re.search(r"<dt>Players</dt><dd>(\d+) / 40", page)
    assert players_fact and players_fact[1] == "3", "a withdrawn player is not counted"


def test_the_player_count_leaves_out_everyone_who_withdrew(client) -> None:
    tournament = create(staff())
    entrants = players(3)
    sign_up(tournament, entrants)
    for user in entrants:
        services.entry_withdraw(tournament_id=tournament.pk, user=user, now=tournament.starts_at - timedelta(minutes=1))
    page = client.get(reverse("tournament", args=[tournament.pk])).content.decode()
    assert re.search(r"<dt>Players</dt><dd>0 / 40", page)


def test_a_cancelled_running_tournament_shows_no_round_playing_and_no_pot(client) -> None:
    admin = staff()
    tournament = create(admin, entry_fee=30, prize_split="100")
    sign_up(tournament, players(4))
    start(tournament)
    services.tournament_cancel(tournament_id=tournament.pk, by=admin, reason="Server move")
    page = client.get(reverse("tournament", args=[tournament.pk])).content.decode()
    rounds = page[page.index('id="t-rounds"') :]
    assert ">Playing<" not in rounds and ">cancelled<" in rounds
    assert "of 120 coins" not in page
    assert "Cancelled; every entry fee was given back." in page


def test_the_admin_s_cancel_says_what_was_done_in_a_sentence(client) -> None:
    admin = staff()
    admin.is_superuser = True
    admin.save()
    tournament = create(admin, name="Cup (to cancel)")
    client.force_login(admin)
    changelist = reverse("admin:tournaments_tournament_changelist")
    action = {"action": "cancel", "_selected_action": [tournament.pk], "apply": "1", "reason": "Wrong date"}
    done = client.post(changelist, action, follow=True).content.decode()
    assert Tournament.objects.get(pk=tournament.pk).state == Tournament.State.CANCELLED
    assert ": Cancel." not in done
    assert "Cup (to cancel) is cancelled: every entry fee was given back, with your reason." in done
    assert LogEntry.objects.get().change_message == "Cancel: Wrong date"


def test_the_seasons_page_shows_the_month_s_ladder_and_the_frozen_archives(client, settings) -> None:
    settings.SEASON_MIN_GAMES = 1
    ada, bo = players(2)
    finished_game([ada, bo], [10.0, 5.0], datetime(2026, 11, 10, tzinfo=UTC))
    services.seasons_freeze(now=datetime(2026, 12, 1, 1, tzinfo=UTC))
    finished_game([bo, ada], [20.0, 3.0], datetime.now(UTC))
    page = client.get(reverse("seasons"), {"game": "sita"}).content.decode()
    ladder = page[page.index('id="season-ladder"') : page.index('id="season-archives"')]
    assert ladder.index(bo.username) < ladder.index(ada.username)
    archives = page[page.index('id="season-archives"') :]
    assert "November 2026" in archives and archives.index(ada.username) < archives.index(bo.username)
    for url in (reverse("ratings"), reverse("tournaments")):
        assert 'id="seasons-link"' in client.get(url).content.decode()
