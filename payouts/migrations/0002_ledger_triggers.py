"""The ledger's invariants, in the database (docs/style.md §8, after hordak's constraint triggers).

* ``payouts_entry_balance``: every inserted entry adds its amount to its account's
  balance, so a balance is always the sum of its entries; the account's CHECK
  (balance >= 0 except the mint) then refuses an overdraft at once.
* ``payouts_transfer_balanced``: a deferred constraint trigger; at commit, each
  transfer that gained entries must sum to zero, or the whole transaction fails.
* ``payouts_append_only``: entries and transfers refuse UPDATE and DELETE.
  (TRUNCATE, which the test suite uses to empty tables, is not a row operation.)
"""

from django.db import migrations

FORWARD = """
CREATE FUNCTION payouts_entry_balance() RETURNS trigger AS $$
BEGIN
    UPDATE payouts_account SET balance = balance + NEW.amount WHERE id = NEW.account_id;
    RETURN NEW;
END $$ LANGUAGE plpgsql;

CREATE TRIGGER payouts_entry_balance AFTER INSERT ON payouts_entry
    FOR EACH ROW EXECUTE FUNCTION payouts_entry_balance();

CREATE FUNCTION payouts_transfer_balanced() RETURNS trigger AS $$
DECLARE
    total bigint;
BEGIN
    SELECT COALESCE(SUM(amount), 0) INTO total FROM payouts_entry WHERE transfer_id = NEW.transfer_id;
    IF total <> 0 THEN
        RAISE EXCEPTION 'Ledger transfer % does not sum to zero (it sums to %)', NEW.transfer_id, total
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END $$ LANGUAGE plpgsql;

CREATE CONSTRAINT TRIGGER payouts_transfer_balanced AFTER INSERT ON payouts_entry
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION payouts_transfer_balanced();

CREATE FUNCTION payouts_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'The ledger is append-only: % on % is refused', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
END $$ LANGUAGE plpgsql;

CREATE TRIGGER payouts_entry_append_only BEFORE UPDATE OR DELETE ON payouts_entry
    FOR EACH ROW EXECUTE FUNCTION payouts_append_only();
CREATE TRIGGER payouts_transfer_append_only BEFORE UPDATE OR DELETE ON payouts_transfer
    FOR EACH ROW EXECUTE FUNCTION payouts_append_only();
"""

BACKWARD = """
DROP TRIGGER IF EXISTS payouts_transfer_append_only ON payouts_transfer;
DROP TRIGGER IF EXISTS payouts_entry_append_only ON payouts_entry;
DROP FUNCTION IF EXISTS payouts_append_only();
DROP TRIGGER IF EXISTS payouts_transfer_balanced ON payouts_entry;
DROP FUNCTION IF EXISTS payouts_transfer_balanced();
DROP TRIGGER IF EXISTS payouts_entry_balance ON payouts_entry;
DROP FUNCTION IF EXISTS payouts_entry_balance();
"""


class Migration(migrations.Migration):
    dependencies = [("payouts", "0001_initial")]

    operations = [migrations.RunSQL(FORWARD, BACKWARD)]
