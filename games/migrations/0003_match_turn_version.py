from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0002_rating")]

    operations = [
        migrations.AddField(
            model_name="match",
            name="turn_version",
            field=models.PositiveIntegerField(
                default=0,
                help_text="The version at which the seats now awaited began to be awaited. In SITA's simultaneous "
                "choice a move made on any view since then is still current.",
            ),
        ),
    ]
