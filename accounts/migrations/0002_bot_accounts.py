from django.db import migrations

from accounts.bots import BOT_NAMES, bot_username


def create_bots(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    for name in BOT_NAMES:
        User.objects.get_or_create(
            username=bot_username(name),
            defaults={"display_name": f"{name} (bot)", "is_bot": True, "password": "!"},  # "!" = unusable
        )


def remove_bots(apps, schema_editor):
    apps.get_model("accounts", "User").objects.filter(is_bot=True).delete()


class Migration(migrations.Migration):
    dependencies = [("accounts", "0001_initial")]
    operations = [migrations.RunPython(create_bots, remove_bots)]
