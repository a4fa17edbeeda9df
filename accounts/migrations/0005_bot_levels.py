from django.db import migrations, models

from accounts.bots import BOT_LEVELS, BOT_NAMES, DEFAULT_BOT_LEVEL, bot_display_name, bot_username


def add_levels(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    # The bots that existed before levels are the normal ones (RULING P45).
    User.objects.filter(is_bot=True, bot_level="").update(bot_level=DEFAULT_BOT_LEVEL)
    for level in BOT_LEVELS:
        for name in BOT_NAMES:
            User.objects.get_or_create(
                username=bot_username(name, level),
                defaults={
                    "display_name": bot_display_name(name, level),
                    "is_bot": True,
                    "bot_level": level,
                    "password": "!",
                },  # "!" = unusable
            )


def remove_levels(apps, schema_editor):
    apps.get_model("accounts", "User").objects.filter(is_bot=True).exclude(bot_level=DEFAULT_BOT_LEVEL).delete()


class Migration(migrations.Migration):
    dependencies = [("accounts", "0004_existing_addresses_verified")]
    operations = [
        migrations.AddField(
            model_name="user",
            name="bot_level",
            field=models.CharField(
                blank=True,
                default="",
                max_length=10,
                help_text="A bot's level: easy, normal or strong (each level is its own rated bot); empty for people.",
            ),
        ),
        migrations.RunPython(add_levels, remove_levels),
    ]
