"""Quick play (RULING P71): the best open table or a new one, bots after the wait, one table for two at once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from games.models import Rating
from payouts.services import coins_grant, pass_reserve
from tables.errors import TableError
from tables.models import QuickPlayChoice, QuickTable, Table
from tables.services import lobby as services
from tables.services import quickplay
from tests.conftest import make_user
from tests.helpers import race
from tests.tables.helpers import open_table

pytestmark = pytest.mark.usefixtures("queued")


@pytest.mark.django_db
def test_it_seats_you_at_the_table_with_the_most_players(host, player, outsider) -> None:
    emptier = open_table(host, "sita", seat_count=4)
    fuller = open_table(player, "sita", seat_count=4)
    services.seat_take(table_id=fuller.pk, user=make_user("fred"), position=1)
    table = quickplay.play_now(user=outsider, game="sita")
    assert table == fuller
    assert fuller.seats.filter(user=outsider).exists() and not emptier.seats.filter(user=outsider).exists()


@pytest.mark.django_db
def test_among_equally_full_tables_the_nearest_rating_wins(host, player, outsider) -> None:
    for user, ordinal in ((host, 30.0), (player, 5.0), (outsider, 8.0)):
        Rating.objects.create(user=user, game="sita", mu=ordinal + 10, sigma=3.3, ordinal=ordinal)
    strong = open_table(host, "sita", seat_count=3)
    near = open_table(player, "sita", seat_count=3)
    assert quickplay.play_now(user=outsider, game="sita") == near
    assert not strong.seats.filter(user=outsider).exists()


@pytest.mark.django_db
def test_it_never_joins_a_table_whose_stake_is_more_than_your_coins(host, player) -> None:
    coins_grant(user=host, amount=5000, memo="test")
    rich = services.table_create(host=host, game="estimation", seat_count=4, stake=3000)
    table = quickplay.play_now(user=player, game="estimation")
    assert table != rich and table.host == player  # opened its own instead
    assert not rich.seats.filter(user=player).exists()


@pytest.mark.django_db
def test_without_a_free_pass_it_joins_no_sitaratas_table(host, player) -> None:
    open_table(host, "sitaratas", seat_count=4)
    for number in range(5):  # every one of the player's passes reserved (RULING P6)
        pass_reserve(user=player, table=open_table(make_user(f"h{number}"), "sitaratas"))
    with pytest.raises(TableError, match="pass"):
        quickplay.play_now(user=player, game="sitaratas")
    assert not Table.objects.filter(host=player, status=Table.Status.LOBBY).exists()


@pytest.mark.django_db
def test_with_no_table_it_opens_one_with_your_wait_and_bots_fill_it_after(
    host, queued, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        table = quickplay.play_now(user=host, game="sita", wait=60)
    quick = QuickTable.objects.get(table=table)
    assert quick.wait == 60 and QuickPlayChoice.objects.get(user=host, game="sita").wait == 60
    assert queued.calls("quick_bots_fill") == [(table.pk, 60)]  # the bots' fill, queued for the end of the wait
    assert quickplay.bots_fill(table_id=table.pk, now=timezone.now()) == 0  # early: nothing
    later = quick.bots_at + timedelta(seconds=1)
    assert quickplay.bots_fill(table_id=table.pk, now=later) == table.seat_count - 1
    assert not table.seats.filter(user=None).exists()
    assert quickplay.bots_fill(table_id=table.pk, now=later) == 0  # twice is once


@pytest.mark.django_db
def test_a_human_who_comes_in_time_keeps_a_bot_out_of_the_seat(host, player) -> None:
    table = quickplay.play_now(user=host, game="sita")
    assert quickplay.play_now(user=player, game="sita") == table
    later = QuickTable.objects.get(table=table).bots_at + timedelta(seconds=1)
    assert quickplay.bots_fill(table_id=table.pk, now=later) == table.seat_count - 2
    assert table.seats.get(user=player)


@pytest.mark.django_db
def test_bots_never_come_to_a_table_that_started_or_closed(host) -> None:
    table = quickplay.play_now(user=host, game="sita")
    services.table_close(table_id=table.pk, by=host)
    later = QuickTable.objects.get(table=table).bots_at + timedelta(seconds=1)
    assert quickplay.bots_fill(table_id=table.pk, now=later) == 0


@pytest.mark.django_db
def test_a_second_press_keeps_your_seat(host) -> None:
    table = quickplay.play_now(user=host, game="sita")
    assert quickplay.play_now(user=host, game="sita") == table
    assert Table.objects.filter(host=host).count() == 1


@pytest.mark.django_db
def test_a_bad_wait_or_game_is_refused(host) -> None:
    with pytest.raises(TableError):
        quickplay.play_now(user=host, game="sita", wait=7)
    with pytest.raises(TableError):
        quickplay.play_now(user=host, game="chess")
    assert not Table.objects.exists()


# Transactional: the two presses race on threads, on connections of their own.
@pytest.mark.django_db(transaction=True)
def test_two_players_pressing_at_once_land_at_one_table() -> None:
    first, second = make_user("ann"), make_user("ben")
    results = race(
        lambda: quickplay.play_now(user=first, game="sita"),
        lambda: quickplay.play_now(user=second, game="sita"),
    )
    assert all(isinstance(result, Table) for result in results), results
    assert results[0].pk == results[1].pk
    assert Table.objects.filter(status=Table.Status.LOBBY).count() == 1


# Transactional: the press runs on a thread of its own, past the lock this test's transaction holds.
@pytest.mark.django_db(transaction=True)
def test_a_table_being_seated_at_is_skipped_not_waited_for(host, player, outsider) -> None:
    busy = open_table(host, "sita", seat_count=4)
    other = open_table(player, "sita", seat_count=4)
    services.seat_take(table_id=busy.pk, user=make_user("fred"), position=1)  # the fuller one
    with transaction.atomic():
        # Another transaction holds the fuller table's row (a player being seated there): the press,
        # on its own connection, passes it over at once instead of queueing behind it.
        Table.objects.select_for_update().get(pk=busy.pk)
        result = race(lambda: quickplay.play_now(user=outsider, game="sita"))[0]
    assert result == other, result


def _later(table) -> object:
    return QuickTable.objects.get(table=table).bots_at + timedelta(seconds=1)


@pytest.mark.django_db
def test_the_quick_table_starts_by_itself_when_the_bots_fill_it_and_everyone_is_ready(host, player) -> None:
    """RULING P73 (issue 53): "Play now" plays now, through the rematch's start-when-ready (P70)."""
    from tables.services import rematch
    from tests.helpers import fair_value

    table = quickplay.play_now(user=host, game="sita")
    assert quickplay.play_now(user=player, game="sita") == table
    assert not table.seats.get(user=host).is_ready  # the host says ready with their own value (P31)
    rematch.rematch_seat_ready(table_id=table.pk, user=host, ready=True, entropy=fair_value())
    rematch.rematch_seat_ready(table_id=table.pk, user=player, ready=True, entropy=fair_value())
    table.refresh_from_db()
    assert table.status == Table.Status.LOBBY  # seats still empty: it waits for the bots
    quickplay.bots_fill(table_id=table.pk, now=_later(table))
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING and table.matches.count() == 1


@pytest.mark.django_db
def test_the_quick_table_waits_for_a_player_who_is_not_ready(host, player) -> None:
    from tables.services import rematch
    from tests.helpers import fair_value

    table = quickplay.play_now(user=host, game="sita")
    quickplay.play_now(user=player, game="sita")
    rematch.rematch_seat_ready(table_id=table.pk, user=host, ready=True, entropy=fair_value())
    quickplay.bots_fill(table_id=table.pk, now=_later(table))
    table.refresh_from_db()
    assert table.status == Table.Status.LOBBY  # piet has not said ready
    rematch.rematch_seat_ready(table_id=table.pk, user=player, ready=True, entropy=fair_value())
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING  # the last one ready starts it


@pytest.mark.django_db
def test_a_quick_table_filled_by_people_starts_before_the_wait(host) -> None:
    from tables.services import rematch
    from tests.helpers import fair_value

    table = quickplay.play_now(user=host, game="sita")
    guests = [make_user(f"guest{number}") for number in range(table.seat_count - 1)]
    for guest in guests:
        assert quickplay.play_now(user=guest, game="sita") == table
    for user in [host, *guests]:
        rematch.rematch_seat_ready(table_id=table.pk, user=user, ready=True, entropy=fair_value())
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert quickplay.bots_fill(table_id=table.pk, now=_later(table)) == 0  # the bots' task, late: nothing


@pytest.mark.django_db
def test_an_ordinary_table_still_waits_for_its_host_to_start(host, player) -> None:
    from tables.services import rematch
    from tests.helpers import fair_value

    table = open_table(host, "sita", seat_count=2)
    rematch.rematch_seat_take(table_id=table.pk, user=player, position=1)
    rematch.rematch_seat_ready(table_id=table.pk, user=player, ready=True, entropy=fair_value())
    table.refresh_from_db()
    assert table.status == Table.Status.LOBBY


@pytest.mark.django_db
def test_a_practice_table_opens_with_bots_in_every_other_seat(host) -> None:
    """RULING P65 (issue 53): nobody else may sit there, so the bots sit as it opens."""
    table = services.table_create(host=host, game="sita", seat_count=4, options={"matches": 1}, practice=True)
    seats = list(table.seats.select_related("user").order_by("position"))
    assert seats[0].user == host
    assert all(seat.user is not None and seat.user.is_bot and seat.is_ready for seat in seats[1:])
    assert len({seat.user_id for seat in seats}) == 4
