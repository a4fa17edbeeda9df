"""RULING P18: sign-up now confirms the address (ACCOUNT_EMAIL_VERIFICATION=mandatory outside
development), and allauth then also asks an unconfirmed address to be confirmed at login.
Players who joined before, when nothing was confirmed, keep logging in as they did: their
address counts as confirmed."""

from django.db import migrations


def accept_existing_addresses(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    EmailAddress = apps.get_model("account", "EmailAddress")
    for user in User.objects.filter(is_bot=False).exclude(email="").iterator():
        addresses = EmailAddress.objects.filter(user=user, email__iexact=user.email)
        if addresses.exists():
            addresses.update(verified=True)
        elif not EmailAddress.objects.filter(email__iexact=user.email, verified=True).exists():
            EmailAddress.objects.create(user=user, email=user.email.lower(), primary=True, verified=True)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0003_four_colour_suits"), ("account", "0009_emailaddress_unique_primary_email")]
    operations = [migrations.RunPython(accept_existing_addresses, migrations.RunPython.noop)]
