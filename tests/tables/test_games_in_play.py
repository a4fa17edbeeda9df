"""Games in play at once per account (RULING P87): every door to a seat counts them, a tournament's
tables apart, and two seats taken at once are counted one after the other."""

from __future__ import annotations

import pytest

from tables import selectors
from tables.errors import TableError
from tables.models import Seat, Table
from tables.services import lobby, quickplay, rematch
from tests.conftest import make_user
from tests.games.history_helpers import finished_table
from tests.helpers import race
from tests.tables.helpers import open_table, start_table
from tests.tournaments import helpers as tournaments

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("queued")]

REFUSED = "in play. Finish"


@pytest.fixture
def two_in_play(settings, player):
    """The player already sits at two tables, one playing and one waiting, with a cap of two."""
    settings.MAX_GAMES_IN_PLAY = 2
    start_table(make_user("ada"), "sita", seat_count=2, guests=[player])
    waiting = open_table(make_user("bea"), "sita", seat_count=4)
    lobby.seat_take(table_id=waiting.pk, user=player, position=1)
    assert selectors.games_in_play(player.pk) == 2
    return waiting


def seats_of(user) -> int:
    return Seat.objects.filter(user=user).count()


def test_taking_a_seat_past_the_cap_is_refused_and_changes_nothing(two_in_play, player, outsider) -> None:
    # RULING P87
    third = open_table(outsider, "sita", seat_count=4)
    with pytest.raises(TableError, match=REFUSED):
        lobby.seat_take(table_id=third.pk, user=player, position=1)
    assert seats_of(player) == 2 and not third.seats.filter(user=player).exists()


def test_opening_a_table_past_the_cap_is_refused(two_in_play, player) -> None:
    # RULING P87: the host's own seat is a seat like any other.
    tables_before = Table.objects.count()
    with pytest.raises(TableError, match=REFUSED):
        open_table(player, "sita")
    assert Table.objects.count() == tables_before and seats_of(player) == 2


def test_play_now_past_the_cap_is_refused(two_in_play, player, outsider) -> None:
    # RULING P87: neither an open table nor a new one.
    open_table(outsider, "estimation")  # the player sits at no Estimation table yet
    tables_before = Table.objects.count()
    with pytest.raises(TableError, match=REFUSED):
        quickplay.play_now(user=player, game="estimation")
    assert Table.objects.count() == tables_before and seats_of(player) == 2


def test_a_rematch_past_the_cap_is_refused(settings, host, player) -> None:
    # RULING P87: the rematch's new table is one more game.
    source = finished_table(host, "sita", [player])
    settings.MAX_GAMES_IN_PLAY = 1
    lobby.seat_take(table_id=open_table(make_user("ada"), "sita", seat_count=4).pk, user=player, position=1)
    tables_before = Table.objects.count()
    with pytest.raises(TableError, match=REFUSED):
        rematch.rematch_accept(table_id=source.pk, user=player)
    assert Table.objects.count() == tables_before and selectors.games_in_play(player.pk) == 1


def test_an_invitation_link_leads_to_a_seat_only_within_the_cap(two_in_play, player, outsider) -> None:
    # RULING P87: following the link invites; the seat it leads to is counted like any other.
    from tables.selectors.invites import link_token
    from tables.services import invites

    table = open_table(outsider, "sita", seat_count=4)
    invites.link_renew(table_id=table.pk, host=outsider)
    table.refresh_from_db()
    invites.link_follow(token=link_token(table), user=player)
    with pytest.raises(TableError, match=REFUSED):
        lobby.seat_take(table_id=table.pk, user=player, position=1)


def test_a_game_that_ends_or_a_table_left_frees_its_place(two_in_play, player, outsider) -> None:
    # RULING P87
    third = open_table(outsider, "sita", seat_count=4)
    lobby.seat_leave(table_id=two_in_play.pk, user=player)
    lobby.seat_take(table_id=third.pk, user=player, position=1)
    assert selectors.games_in_play(player.pk) == 2
    Table.objects.filter(pk=third.pk).update(status=Table.Status.FINISHED)
    assert selectors.games_in_play(player.pk) == 1


def test_a_tournaments_tables_are_neither_counted_nor_refused(settings) -> None:
    # RULINGS P87, P80: the site seats a tournament's players, whatever else they play.
    settings.MAX_GAMES_IN_PLAY = 1
    entrants = tournaments.players(4)
    cup = tournaments.create(tournaments.staff(), table_size=4, min_players=4)
    tournaments.sign_up(cup, entrants)
    open_table(entrants[0], "sita", seat_count=4)  # the one game the cap allows
    tournaments.start(cup)
    round_table = tournaments.current_round(cup).tables.get()
    assert round_table.table.seats.filter(user=entrants[0]).exists()  # seated anyway
    assert selectors.games_in_play(entrants[0].pk) == 1  # and not counted


@pytest.mark.django_db(transaction=True)
def test_two_seats_taken_at_once_are_counted_one_after_the_other(settings, player) -> None:
    # RULING P87: the account's row is locked before counting.
    settings.MAX_GAMES_IN_PLAY = 1
    first, second = (open_table(make_user(name), "sita", seat_count=4) for name in ("ada", "bea"))
    results = race(
        lambda: lobby.seat_take(table_id=first.pk, user=player, position=1),
        lambda: lobby.seat_take(table_id=second.pk, user=player, position=1),
    )
    assert sum(isinstance(result, TableError) and REFUSED in str(result) for result in results) == 1
    assert seats_of(player) == 1


def test_the_setting_is_the_cap(settings, player) -> None:
    # RULING P87: MAX_GAMES_IN_PLAY, 6 unless set.
    assert settings.MAX_GAMES_IN_PLAY == 6
    settings.MAX_GAMES_IN_PLAY = 3
    for name in ("ada", "bea", "cid"):
        lobby.seat_take(table_id=open_table(make_user(name), "sita", seat_count=4).pk, user=player, position=1)
    with pytest.raises(TableError, match="3 games in play"):
        lobby.seat_take(table_id=open_table(make_user("dan"), "sita", seat_count=4).pk, user=player, position=1)
