"""The coin and pass ledgers against the real PostgreSQL (RULINGS P4, P6, P7)."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, InternalError, connection, transaction

from accounts.models import User
from payouts import selectors, services
from payouts.models import Account, Entry, Transfer
from payouts.services import PayoutError
from tests.conftest import make_user
from tests.payouts.helpers import assert_coins_conserved, assert_passes_conserved, wallet

# Plain tests never commit: Django's TestCase runs the deferred checks (the zero-sum trigger) as
# it ends each one (SET CONSTRAINTS ALL IMMEDIATE), so every transfer they make is still checked.
pytestmark = pytest.mark.django_db


def test_a_new_account_gets_its_starting_coins_and_passes(settings) -> None:
    user = make_user("newbie")
    assert wallet(user) == settings.STARTING_COINS == 1000
    assert selectors.pass_counts(user=user) == {"free": 5, "reserved": 0, "used": 0}
    assert_coins_conserved()
    assert_passes_conserved()


def test_bots_get_no_wallet() -> None:
    bot = User.objects.create(username="bot-x", is_bot=True)
    assert not Account.objects.filter(user=bot).exists()


def test_an_admin_grant_is_recorded_with_who_and_why(host) -> None:
    admin = make_user("root")
    services.coins_grant(user=host, amount=250, by=admin, memo="Tournament prize")
    assert wallet(host) == 1250
    grant = Transfer.objects.filter(user=host, reason="grant", asset="coins", by=admin).get()
    assert grant.memo == "Tournament prize"
    assert sorted(grant.entries.values_list("amount", flat=True)) == [-250, 250]
    moves = selectors.coin_movements(user=host)
    assert [(m.amount, m.balance_after) for m in moves] == [(250, 1250), (1000, 1000)]


def test_bad_grant_amounts_are_refused(host) -> None:
    for amount in (0, -5, True):
        with pytest.raises(PayoutError):
            services.coins_grant(user=host, amount=amount)
    assert wallet(host) == 1000


# Transactional: the zero-sum trigger is deferred to COMMIT, which is what this test makes.
@pytest.mark.django_db(transaction=True)
def test_a_transfer_that_does_not_sum_to_zero_cannot_commit(host) -> None:
    account = Account.objects.get(kind="wallet", user=host)
    before = Entry.objects.count()
    with pytest.raises((IntegrityError, InternalError), match="sum to zero"), transaction.atomic():
        transfer = Transfer.objects.create(asset="coins", reason="grant", user=host, created_at="2026-01-01T00:00Z")
        Entry.objects.create(transfer=transfer, account=account, amount=5)
    assert Entry.objects.count() == before
    assert wallet(host) == 1000


def test_a_transfer_moves_one_asset_even_when_its_entries_sum_to_zero(host, player) -> None:
    # Five of the host's passes for five of the player's coins would sum to zero: refused.
    coins = Account.objects.get(kind="wallet", user=player, asset="coins")
    passes = Account.objects.filter(user=host, asset="passes").exclude(balance=0).first()
    before = Entry.objects.count()
    with pytest.raises(IntegrityError, match="one asset"), transaction.atomic():
        transfer = Transfer.objects.create(asset="coins", reason="grant", user=host, created_at="2026-01-01T00:00Z")
        Entry.objects.bulk_create(
            [Entry(transfer=transfer, account=passes, amount=-5), Entry(transfer=transfer, account=coins, amount=5)]
        )
    assert Entry.objects.count() == before
    assert wallet(player) == 1000


def test_a_balance_can_never_go_negative_even_bypassing_the_services(host, player) -> None:
    source = Account.objects.get(kind="wallet", user=host)
    target = Account.objects.get(kind="wallet", user=player)
    with pytest.raises(IntegrityError, match="never_negative"), transaction.atomic():
        transfer = Transfer.objects.create(asset="coins", reason="grant", user=host, created_at="2026-01-01T00:00Z")
        Entry.objects.bulk_create(
            [
                Entry(transfer=transfer, account=source, amount=-1001),
                Entry(transfer=transfer, account=target, amount=1001),
            ]
        )
    assert wallet(host) == 1000 and wallet(player) == 1000


def test_the_ledger_is_append_only(host) -> None:
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        Entry.objects.filter(account__user=host).update(amount=99)
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM payouts_transfer WHERE user_id = %s", [host.pk])
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM payouts_entry WHERE amount = 99")
        assert cursor.fetchone()[0] == 0


def test_passes_are_granted_by_admins_and_listed_for_the_player(host) -> None:
    services.pass_grant(user=host, amount=3, by=make_user("root"), memo="Season prize")
    assert selectors.pass_counts(user=host)["free"] == 8
    assert [m.amount for m in selectors.pass_movements(user=host)] == [3, 5]
    assert_passes_conserved()
