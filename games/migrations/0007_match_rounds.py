"""Issue 27: a match's finished rounds are stored once, beside the state (games/records/storage.py).

The column is compressed with lz4 where the server has it, as the state is (0004).
"""

from django.db import migrations, models


def _set_rounds_compression(schema_editor, method: str) -> None:
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("SELECT %s = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'", [method])
        row = cursor.fetchone()
        if row and row[0]:
            cursor.execute(f"ALTER TABLE games_match ALTER COLUMN rounds SET COMPRESSION {method}")


def rounds_lz4(apps, schema_editor) -> None:
    _set_rounds_compression(schema_editor, "lz4")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_sitaratas_signature"),
    ]

    operations = [
        migrations.AlterField(
            model_name="match",
            name="state",
            field=models.TextField(
                help_text="The engine's dumps(), finished rounds left to ``rounds`` (games.records.storage); hidden cards "
                "included, never sent to a client."
            ),
        ),
        migrations.AddField(
            model_name="match",
            name="rounds",
            field=models.TextField(
                blank=True,
                default="",
                help_text="The finished rounds the state leaves out, a JSON array written once per round "
                "(games.records.storage).",
            ),
        ),
        migrations.RunPython(rounds_lz4, migrations.RunPython.noop),
    ]
