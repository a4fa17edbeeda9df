"""Staked Estimation tables and Sitaratas passes through the table services (RULINGS P5, P6, P8)."""

from __future__ import annotations

import pytest

from games.models import Match
from payouts import selectors
from payouts.models import Transfer
from payouts.owners import table_owner
from payouts.split import split_pot
from tables.errors import TableError
from tables.models import Table
from tables.services import endings, lobby
from tests.conftest import make_user
from tests.helpers import fair_value
from tests.payouts.helpers import assert_coins_conserved, assert_passes_conserved, balance, play_to_end, wallet
from tests.tables.helpers import fill_with_bots, open_table

pytestmark = pytest.mark.django_db


def _staked_table(host, player, stake=100):
    table = open_table(host, "estimation", stake=stake)
    lobby.seat_take(table_id=table.pk, user=player, position=1)
    lobby.seat_ready(table_id=table.pk, user=player, ready=True, entropy=fair_value())
    fill_with_bots(table, host)
    return table


def test_taking_a_seat_holds_the_stake_and_leaving_releases_it(host, player) -> None:
    table = open_table(host, "estimation", stake=150)
    assert wallet(host) == 850
    lobby.seat_take(table_id=table.pk, user=player, position=2)
    assert wallet(player) == 850 and balance("stake_held", table_owner(table)) == 300
    lobby.seat_leave(table_id=table.pk, user=player)
    assert wallet(player) == 1000 and balance("stake_held", table_owner(table)) == 150
    assert_coins_conserved()


def test_a_seat_is_refused_clearly_when_the_wallet_is_short(host, player) -> None:
    open_table(host, "estimation", stake=1000)  # exactly enough: the host's whole wallet is held
    assert wallet(host) == 0
    with pytest.raises(TableError, match="stake is 5 coins and your wallet holds 0"):
        open_table(host, "estimation", stake=5)
    other = open_table(player, "estimation", stake=5)
    with pytest.raises(TableError, match="your wallet holds 0"):
        lobby.seat_take(table_id=other.pk, user=host, position=1)
    assert Table.objects.count() == 2 and not other.seats.filter(user=host).exists()
    assert_coins_conserved()


def test_closing_a_lobby_releases_every_hold(host, player) -> None:
    table = open_table(host, "estimation", stake=100)
    lobby.seat_take(table_id=table.pk, user=player, position=1)
    lobby.table_close(table_id=table.pk, by=host)
    assert wallet(host) == wallet(player) == 1000
    assert_coins_conserved()


def test_the_start_collects_the_pot_and_the_end_pays_the_split(host, player) -> None:
    table = _staked_table(host, player, stake=101)
    match = lobby.table_start(table_id=table.pk, host=host, entropy=fair_value())
    assert balance("pot", table_owner(table)) == 202 and balance("stake_held", table_owner(table)) == 0
    match = play_to_end(match)
    assert match.status == Match.Status.FINISHED
    players = {mp.user_id: mp for mp in match.match_players.all()}
    expected = split_pot(202, [(players[host.pk].place, 0), (players[player.pk].place, 1)])
    assert players[host.pk].payout == expected[0] and players[player.pk].payout == expected[1]
    assert wallet(host) == 1000 - 101 + expected[0]
    assert wallet(player) == 1000 - 101 + expected[1]
    assert balance("pot", table_owner(table)) == 0
    assert all(mp.payout is None for mp in match.match_players.filter(user__is_bot=True))
    assert_coins_conserved()


def test_a_double_start_collects_once(host, player) -> None:
    table = _staked_table(host, player)
    lobby.table_start(table_id=table.pk, host=host, entropy=fair_value())
    with pytest.raises(TableError):
        lobby.table_start(table_id=table.pk, host=host, entropy=fair_value())
    assert Transfer.objects.filter(reason="pot_collect").count() == 2
    assert balance("pot", table_owner(table)) == 200


def test_an_admin_abort_refunds_stakes_and_records_why(host, player) -> None:
    admin = make_user("root")
    admin.is_staff = True
    admin.save()
    table = _staked_table(host, player)
    match = lobby.table_start(table_id=table.pk, host=host, entropy=fair_value())
    with pytest.raises(TableError, match="admin"):
        endings.match_abort(match_id=match.pk, by=host, reason="no")
    endings.match_abort(match_id=match.pk, by=admin, reason="Players vanished")
    match.refresh_from_db()
    table.refresh_from_db()
    assert match.status == Match.Status.ABORTED and "Players vanished" in match.end_reason
    assert table.status == Table.Status.CLOSED
    assert wallet(host) == wallet(player) == 1000
    with pytest.raises(TableError):
        endings.match_abort(match_id=match.pk, by=admin, reason="again")
    assert_coins_conserved()


def test_sitaratas_seats_reserve_passes_the_start_uses_them_and_an_abort_returns_them(host, player) -> None:
    table = open_table(host, "sitaratas", seat_count=3)
    lobby.seat_take(table_id=table.pk, user=player, position=1)
    assert selectors.pass_counts(user=player) == {"free": 4, "reserved": 1, "used": 0}
    lobby.seat_leave(table_id=table.pk, user=player)
    assert selectors.pass_counts(user=player) == {"free": 5, "reserved": 0, "used": 0}
    lobby.seat_take(table_id=table.pk, user=player, position=1)
    lobby.seat_ready(table_id=table.pk, user=player, ready=True, entropy=fair_value())
    fill_with_bots(table, host)
    match = lobby.table_start(table_id=table.pk, host=host, entropy=fair_value())
    assert selectors.pass_counts(user=player) == {"free": 4, "reserved": 0, "used": 1}
    admin = make_user("root")
    admin.is_staff = True
    admin.save()
    endings.match_abort(match_id=match.pk, by=admin, reason="test")
    assert selectors.pass_counts(user=player) == {"free": 5, "reserved": 0, "used": 0}
    assert selectors.pass_counts(user=host) == {"free": 5, "reserved": 0, "used": 0}
    assert_passes_conserved()


def test_a_seat_without_a_free_pass_is_refused(host, player) -> None:
    tables = [open_table(make_user(f"h{n}"), "sitaratas", seat_count=3) for n in range(6)]
    for table in tables[:5]:
        lobby.seat_take(table_id=table.pk, user=player, position=1)
    with pytest.raises(TableError, match="game pass"):
        lobby.seat_take(table_id=tables[5].pk, user=player, position=1)
    assert not tables[5].seats.filter(user=player).exists()
    assert selectors.pass_counts(user=player) == {"free": 0, "reserved": 5, "used": 0}
    assert_passes_conserved()
