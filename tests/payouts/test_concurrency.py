"""Races against the real PostgreSQL: threads with their own connections (RULINGS P4–P6)."""

from __future__ import annotations

import pytest

from payouts.models import Transfer
from payouts.owners import table_owner
from tables.errors import TableError
from tables.services import lobby
from tests.conftest import make_user
from tests.helpers import fair_value, race
from tests.payouts.helpers import assert_coins_conserved, assert_passes_conserved, balance, wallet
from tests.tables.helpers import fill_with_bots, open_table, seat_guests

# Transactional: transfers raced on threads, on connections of their own.
pytestmark = pytest.mark.django_db(transaction=True)


def test_two_players_take_the_last_seat_at_once(host, player, outsider) -> None:
    table = open_table(host, "estimation", seat_count=4, stake=100)
    lobby.bot_add(table_id=table.pk, host=host, position=1)
    lobby.bot_add(table_id=table.pk, host=host, position=2)
    results = race(
        lambda: lobby.seat_take(table_id=table.pk, user=player, position=3),
        lambda: lobby.seat_take(table_id=table.pk, user=outsider, position=3),
    )
    assert sum(isinstance(result, TableError) for result in results) == 1
    seated = table.seats.get(position=3).user
    loser = outsider if seated == player else player
    assert wallet(seated) == 900 and wallet(loser) == 1000
    assert balance("stake_held", table_owner(table)) == 200
    assert_coins_conserved()


def test_one_player_takes_seats_at_two_staked_tables_that_together_exceed_the_wallet(player) -> None:
    tables = [open_table(make_user(f"host{n}"), "estimation", stake=600) for n in range(2)]
    results = race(*[lambda t=t: lobby.seat_take(table_id=t.pk, user=player, position=1) for t in tables])
    assert sum(isinstance(result, TableError) for result in results) == 1
    assert [r for r in results if isinstance(r, TableError)][0].args[0].startswith("This table's stake is 600")
    assert wallet(player) == 400
    assert sum(t.seats.filter(user=player).count() for t in tables) == 1
    assert_coins_conserved()


def test_a_double_start_starts_once_and_collects_once(host, player) -> None:
    table = open_table(host, "estimation", stake=50)
    seat_guests(table, [player])
    fill_with_bots(table, host)
    results = race(
        lambda: lobby.table_start(table_id=table.pk, host=host, entropy=fair_value()),
        lambda: lobby.table_start(table_id=table.pk, host=host, entropy=fair_value()),
    )
    assert sum(isinstance(result, TableError) for result in results) == 1
    assert table.matches.count() == 1
    assert Transfer.objects.filter(reason="pot_collect").count() == 2
    assert balance("pot", table_owner(table)) == 100
    assert_coins_conserved()


def test_a_double_start_of_a_sitaratas_table_uses_each_pass_once(host, player) -> None:
    table = open_table(host, "sitaratas", seat_count=3)
    seat_guests(table, [player])
    fill_with_bots(table, host)
    race(
        lambda: lobby.table_start(table_id=table.pk, host=host, entropy=fair_value()),
        lambda: lobby.table_start(table_id=table.pk, host=host, entropy=fair_value()),
    )
    assert Transfer.objects.filter(reason="pass_use").count() == 2
    assert_passes_conserved()
