"""payouts 0008: ledger accounts take a generic owner key, run on a database holding rows.

The rows are written before the migration (by the services, then taken back to 0007, and one
sign-up written as the code of 0007 wrote it), and the services of now carry on with them after
it. The ledger's own rows are append-only (RULING P7): the migration must not touch one of them,
so each keeps its physical place and the transaction that wrote it (``ctid``, ``xmin``).
"""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from ops import integrity
from payouts.models import Account, Transfer
from tables.services import lobby
from tests.conftest import make_user
from tests.payouts.helpers import assert_coins_conserved, wallet
from tests.tables.helpers import open_table
from tests.tournaments.helpers import create, players, sign_up, staff, start
from tournaments import services
from tournaments.models import Entry

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("payouts", "0007_tournaments")]
AFTER = [("payouts", "0008_owner_key")]


def migrate(targets):
    """Migrate payouts to ``targets``; the models of that state."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def ledger_rows() -> list[tuple]:
    """Every transfer and entry with its physical place and writing transaction."""
    rows = []
    with connection.cursor() as cursor:
        for table in ("payouts_transfer", "payouts_entry"):
            cursor.execute(f"SELECT ctid::text, xmin::text, * FROM {table} ORDER BY id")
            rows += [(table, *row) for row in cursor.fetchall()]
    return rows


def foreign_keys_to(table: str) -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT conname FROM pg_constraint WHERE contype = 'f' AND confrelid = %s::regclass "
            "AND conrelid::regclass::text LIKE 'payouts_%%'",
            [table],
        )
        return [name for (name,) in cursor.fetchall()]


def sign_up_as_0007_did(apps, *, user, tournament) -> None:
    """The fee hold of payouts.services.entry_hold at 0007: the account keyed "t<id>" with its
    foreign key, and the transfer naming the tournament."""
    OldAccount, OldTransfer, OldEntry = (apps.get_model("payouts", name) for name in ("Account", "Transfer", "Entry"))
    Entry.objects.create(tournament=tournament, user=user, signed_up_at=timezone.now())
    with transaction.atomic():
        source = OldAccount.objects.get(key=f"wallet:{user.pk}")
        target = OldAccount.objects.create(
            key=f"entry_held:{user.pk}:t{tournament.pk}",
            asset="coins",
            kind="entry_held",
            user_id=user.pk,
            tournament_id=tournament.pk,
        )
        moved = OldTransfer.objects.create(
            asset="coins",
            reason="entry_hold",
            memo="Tournament entry fee held.",
            user_id=user.pk,
            tournament_id=tournament.pk,
            created_at=timezone.now(),
        )
        OldEntry.objects.bulk_create(
            [
                OldEntry(transfer=moved, account=source, amount=-tournament.entry_fee),
                OldEntry(transfer=moved, account=target, amount=tournament.entry_fee),
            ]
        )


def test_the_owner_key_migration_fills_the_accounts_and_leaves_every_ledger_row_as_it_was() -> None:
    admin = staff()
    host, guest, late = make_user("mhost"), make_user("mguest"), make_user("mlate")
    table = open_table(host, "estimation", stake=100)
    lobby.seat_take(table_id=table.pk, user=guest, position=1)
    running = create(admin, entry_fee=30, prize_split="100")
    entrants = players(4, prefix="m")
    sign_up(running, entrants)
    start(running)
    signing = create(admin, entry_fee=20, prize_split="100")
    sign_up(signing, [entrants[0]])
    try:
        old = migrate(BEFORE)
        OldAccount = old.get_model("payouts", "Account")
        # Taken back, the accounts are as 0007 wrote them.
        assert OldAccount.objects.get(key=f"tournament_pot:t{running.pk}").balance == 120
        assert OldAccount.objects.get(key=f"stake_held:{guest.pk}:{table.pk}").table_id == table.pk
        sign_up_as_0007_did(old, user=late, tournament=signing)
        accounts = dict(Account.objects.values_list("pk", "balance"))
        before = ledger_rows()
    finally:
        migrate(AFTER)

    assert ledger_rows() == before
    assert dict(Account.objects.values_list("pk", "balance")) == accounts
    assert foreign_keys_to("tournaments_tournament") == []
    the_pot = Account.objects.get(kind="tournament_pot")
    assert (the_pot.key, the_pot.owner_kind, the_pot.owner_id) == (
        f"tournament_pot:tournament:{running.pk}",
        "tournament",
        running.pk,
    )
    held = Account.objects.get(kind="stake_held", user=guest)
    assert (held.key, held.owner_kind, held.owner_id) == (f"stake_held:{guest.pk}:table:{table.pk}", "table", table.pk)
    assert Account.objects.get(kind="entry_held", user=late).owner_id == signing.pk
    assert not Account.objects.filter(kind="wallet").exclude(owner_kind="").exists()

    # RULING P83 holds on the new key over the rows written before it: no second fee into the pot.
    with pytest.raises(IntegrityError, match="one_owner_transfer_per_player_and_reason"), transaction.atomic():
        Transfer.objects.create(
            asset="coins", reason="entry_collect", user=entrants[1], owner_id=running.pk, created_at=timezone.now()
        )

    # The services of now find the same accounts: every fee and stake comes back out of them, and an
    # account they open (a pass reserve looked up and empty) holds nothing and is no second one.
    services.tournament_cancel(tournament_id=running.pk, by=admin, reason="Moved")
    services.tournament_cancel(tournament_id=signing.pk, by=admin, reason="Moved")
    lobby.seat_leave(table_id=table.pk, user=guest)
    assert [wallet(user) for user in (*entrants, late, guest)] == [1000] * 6
    assert not Account.objects.exclude(pk__in=accounts).exclude(balance=0).exists()
    owned = list(Account.objects.values_list("asset", "kind", "user_id", "owner_kind", "owner_id"))
    assert len(owned) == len(set(owned))
    assert Account.objects.get(pk=the_pot.pk).balance == 0
    assert Transfer.objects.filter(owner_id=running.pk, reason="entry_release").count() == 4
    assert_coins_conserved()
    report = integrity.verify()
    assert report.ok, report.differences
