"""Every admin action says why, is in Django's admin log, and names the admin on the ledger rows
it causes (issue 21, F6; RULING P19)."""

from __future__ import annotations

import pytest
from django.contrib.admin.models import LogEntry
from django.urls import reverse

from accounts.models import User
from games.models import Match
from payouts import services as payouts
from payouts.models import Account, Transfer
from payouts.services import PayoutError
from tables.errors import TableError
from tables.models import Table
from tables.services import endings, lobby
from tests.helpers import fair_value
from tests.tables.helpers import fill_with_bots, open_table

pytestmark = pytest.mark.django_db


def _changelist(model) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")


@pytest.fixture
def admin_user(admin_user) -> User:
    return admin_user


@pytest.fixture
def staked_lobby(host, player) -> Table:
    table = open_table(host, "estimation", options={"length": "micro"}, stake=50)
    lobby.seat_take(table_id=table.pk, user=player, position=1)
    return table


def test_closing_a_lobby_asks_why_then_logs_it_and_names_the_admin_on_each_release(
    admin_client, admin_user, staked_lobby, host, player
) -> None:
    asked = admin_client.post(_changelist(Table), {"action": "close_lobbies", "_selected_action": [staked_lobby.pk]})
    assert asked.status_code == 200 and b'name="reason"' in asked.content
    no_reason = admin_client.post(
        _changelist(Table),
        {"action": "close_lobbies", "apply": "1", "reason": "", "_selected_action": [staked_lobby.pk]},
    )
    assert no_reason.status_code == 200
    staked_lobby.refresh_from_db()
    assert staked_lobby.status == Table.Status.LOBBY  # nothing done without a reason
    admin_client.post(
        _changelist(Table),
        {"action": "close_lobbies", "apply": "1", "reason": "Offensive name", "_selected_action": [staked_lobby.pk]},
    )
    staked_lobby.refresh_from_db()
    assert staked_lobby.status == Table.Status.CLOSED and "Offensive name" in staked_lobby.closed_reason
    releases = Transfer.objects.filter(table=staked_lobby, reason=Transfer.Reason.STAKE_RELEASE)
    assert {(t.user, t.by) for t in releases} == {(host, admin_user), (player, admin_user)}
    assert "Offensive name" in releases[0].memo
    entry = LogEntry.objects.get(object_id=str(staked_lobby.pk), content_type__model="table")
    assert entry.user == admin_user and "Offensive name" in entry.get_change_message()


def test_an_abort_needs_a_reason_and_each_refund_names_the_admin(admin_client, admin_user, host, player) -> None:
    table = open_table(host, "sitaratas", seat_count=3)
    lobby.seat_take(table_id=table.pk, user=player, position=1)
    lobby.seat_ready(table_id=table.pk, user=player, ready=True, entropy=fair_value())
    fill_with_bots(table, host)
    match = lobby.table_start(table_id=table.pk, host=host, entropy=fair_value())
    with pytest.raises(TableError):
        endings.match_abort(match_id=match.pk, by=admin_user, reason="  ")
    admin_client.post(
        _changelist(Match),
        {"action": "abort_games", "apply": "1", "reason": "Server trouble", "_selected_action": [match.pk]},
    )
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED
    refunds = Transfer.objects.filter(match=match, reason=Transfer.Reason.PASS_REFUND)
    assert refunds.count() == 2 and {t.by for t in refunds} == {admin_user}
    entry = LogEntry.objects.get(object_id=str(match.pk), content_type__model="match")
    assert entry.user == admin_user and "Server trouble" in entry.get_change_message()


def test_a_grant_needs_a_reason_and_is_logged(admin_client, admin_user, player) -> None:
    with pytest.raises(PayoutError):
        payouts.coins_grant(user=player, amount=10, by=admin_user)
    wallet = Account.objects.get(key=f"wallet:{player.pk}")
    no_memo = admin_client.post(
        _changelist(Account),
        {"action": "grant_coins", "apply": "1", "amount": "10", "memo": "", "_selected_action": [wallet.pk]},
    )
    assert no_memo.status_code == 200 and b"This field is required" in no_memo.content
    admin_client.post(
        _changelist(Account),
        {
            "action": "grant_coins",
            "apply": "1",
            "amount": "10",
            "memo": "Tournament prize",
            "_selected_action": [wallet.pk],
        },
    )
    grant = Transfer.objects.get(user=player, reason=Transfer.Reason.GRANT, by=admin_user)
    assert grant.memo == "Tournament prize"
    entry = LogEntry.objects.get(object_id=str(player.pk), content_type__model="user")
    assert entry.user == admin_user and "Granted 10 coins: Tournament prize" in entry.get_change_message()


def test_changing_an_account_asks_why_and_logs_it(admin_client, admin_user, player) -> None:
    url = reverse("admin:accounts_user_change", args=[player.pk])
    form = {
        "username": player.username,
        "email": player.email,
        "display_name": player.display_name,
        "date_joined_0": "2026-01-01",
        "date_joined_1": "10:00:00",
        "is_active": "",
    }
    refused = admin_client.post(url, form)
    assert refused.status_code == 200 and b"This field is required" in refused.content
    player.refresh_from_db()
    assert player.is_active
    admin_client.post(url, {**form, "reason": "Abusive chat"})
    player.refresh_from_db()
    assert not player.is_active
    entry = LogEntry.objects.get(object_id=str(player.pk), content_type__model="user")
    assert entry.user == admin_user and "Abusive chat" in entry.get_change_message()
