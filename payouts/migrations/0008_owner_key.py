"""A ledger account belongs to a generic owner key, not to a table's or a tournament's row.

* ``Account.owner_kind`` and ``owner_id`` are added and filled from the account's table or
  tournament foreign key, and the key of each such account takes the owner key's form that
  ``payouts.services._account`` builds ("pot:5" becomes "pot:table:5", "entry_held:12:t7"
  becomes "entry_held:12:tournament:7"); then both foreign keys go. Accounts are not part of the
  append-only ledger (a trigger keeps their balance), so this updates accounts only.
* A transfer keeps its tournament where it is: the column ``tournament_id`` loses its foreign key
  and is renamed ``owner_id``, catalogue changes that rewrite no row (RULING P7: the triggers of
  0002 refuse any UPDATE of a transfer or an entry, and none is made). The unique index that pays
  each player of a tournament once (RULING P83) is made again on ``owner_id`` in the same
  transaction, so no moment goes without it.

Backwards, the foreign keys come back filled from the owner key and the keys take their old form.
"""

from django.db import migrations, models

ACCOUNTS_FORWARD = """
UPDATE payouts_account SET owner_kind = 'table', owner_id = table_id WHERE table_id IS NOT NULL;
UPDATE payouts_account SET owner_kind = 'tournament', owner_id = tournament_id WHERE tournament_id IS NOT NULL;
UPDATE payouts_account SET key = concat_ws(':', kind, user_id, owner_kind, owner_id) WHERE owner_id IS NOT NULL;
SET CONSTRAINTS ALL IMMEDIATE;
"""

# Both ways the foreign keys' deferred checks of the updated accounts run at once (SET CONSTRAINTS):
# a check still pending makes PostgreSQL refuse the ALTER TABLE of the accounts that comes next.
ACCOUNTS_BACKWARD = """
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM payouts_account WHERE owner_kind NOT IN ('', 'table', 'tournament')) THEN
        RAISE EXCEPTION 'Accounts of an owner other than a table or a tournament have no foreign key to go back to';
    END IF;
END $$;
UPDATE payouts_account SET table_id = owner_id, key = concat_ws(':', kind, user_id, owner_id)
    WHERE owner_kind = 'table';
UPDATE payouts_account SET tournament_id = owner_id, key = concat_ws(':', kind, user_id, 't' || owner_id)
    WHERE owner_kind = 'tournament';
SET CONSTRAINTS ALL IMMEDIATE;
"""


class Migration(migrations.Migration):
    dependencies = [("payouts", "0007_tournaments")]

    operations = [
        migrations.AddField(
            model_name="account",
            name="owner_kind",
            field=models.CharField(blank=True, default="", max_length=20, verbose_name="owner"),
        ),
        migrations.AddField(
            model_name="account",
            name="owner_id",
            field=models.PositiveBigIntegerField(blank=True, null=True, verbose_name="owner's id"),
        ),
        migrations.RunSQL(ACCOUNTS_FORWARD, ACCOUNTS_BACKWARD),
        migrations.RemoveField(model_name="account", name="table"),
        migrations.RemoveField(model_name="account", name="tournament"),
        migrations.AddIndex(
            model_name="account",
            index=models.Index(fields=["owner_kind", "owner_id"], name="payouts_account_owner"),
        ),
        migrations.AddConstraint(
            model_name="account",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("owner_id__isnull", True), ("owner_kind", "")),
                    models.Q(models.Q(("owner_kind", ""), _negated=True), ("owner_id__isnull", False)),
                    _connector="OR",
                ),
                name="account_owner_kind_and_id_together",
            ),
        ),
        # The transfers: the foreign key becomes a plain column under its old name, then takes the new one.
        migrations.RemoveConstraint(model_name="transfer", name="one_tournament_transfer_per_player_and_reason"),
        migrations.AlterField(
            model_name="transfer",
            name="tournament",
            field=models.BigIntegerField(blank=True, null=True, db_column="tournament_id"),
        ),
        migrations.RenameField(model_name="transfer", old_name="tournament", new_name="owner_id"),
        migrations.AlterField(
            model_name="transfer",
            name="owner_id",
            field=models.PositiveBigIntegerField(blank=True, null=True, verbose_name="owner's id"),
        ),
        migrations.AddConstraint(
            model_name="transfer",
            constraint=models.UniqueConstraint(
                condition=models.Q(("owner_id__isnull", False), ("reason__in", ["entry_collect", "prize_payout"])),
                fields=("reason", "user", "owner_id"),
                name="one_owner_transfer_per_player_and_reason",
            ),
        ),
    ]
