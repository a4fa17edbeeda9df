"""The ledger's second invariant in the database (as django-hordak has it): every entry of a
transfer moves the transfer's own asset. Without it, a coin entry and a pass entry that sum to
zero would be accepted, turning passes into coins."""

from django.db import migrations

FORWARD = """
CREATE FUNCTION payouts_entry_one_asset() RETURNS trigger AS $$
DECLARE
    account_asset text;
    transfer_asset text;
BEGIN
    SELECT asset INTO account_asset FROM payouts_account WHERE id = NEW.account_id;
    SELECT asset INTO transfer_asset FROM payouts_transfer WHERE id = NEW.transfer_id;
    IF account_asset IS DISTINCT FROM transfer_asset THEN
        RAISE EXCEPTION 'Ledger transfer % moves %, not the % of account %: a transfer is of one asset',
            NEW.transfer_id, transfer_asset, account_asset, NEW.account_id
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END $$ LANGUAGE plpgsql;

CREATE TRIGGER payouts_entry_one_asset BEFORE INSERT ON payouts_entry
    FOR EACH ROW EXECUTE FUNCTION payouts_entry_one_asset();
"""

BACKWARD = """
DROP TRIGGER IF EXISTS payouts_entry_one_asset ON payouts_entry;
DROP FUNCTION IF EXISTS payouts_entry_one_asset();
"""


class Migration(migrations.Migration):
    dependencies = [("payouts", "0005_pot_forfeit")]

    operations = [migrations.RunSQL(FORWARD, BACKWARD)]
