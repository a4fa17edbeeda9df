"""Writes to accounts: deleting one by anonymising it, by an admin (RULING P23) or by the player
(RULING P55).

A deleted account cannot simply lose its row: ledger rows, seats in past games and ratings
point at it, and other players' histories and balances are built from them (the ledger must
keep summing to zero, RULING P7). So the person goes and the row stays: everything that
identifies them is removed or replaced, the account can never sign in again, and what the
games and the ledger recorded is left exactly as it was. What every other app keeps about the
person (devices, friends, notifications, invitations, tournament entries…) is erased by the
registrations of accounts/personal_data.py, in the same transaction, so no app can be missed.
"""

from __future__ import annotations

from allauth.account.models import EmailAddress
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.sessions.models import Session
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts import personal_data
from accounts.bots import BOT_NAMES, DEFAULT_BOT_LEVEL, bot_display_name, bot_username
from accounts.models import User

DELETED_PREFIX = "deleted-"
OPEN_TABLE_STATUSES = ("lobby", "playing")


class AccountError(ValueError):
    """A refused account change; the message is for whoever asked (the admin, or the player)."""


def account_anonymise(*, user_id: int, by: User) -> User:
    """The admin's *delete account* action (RULING P23); the messages are for the admin."""
    if not by.is_staff:
        raise AccountError("Only an admin can delete an account.")
    with transaction.atomic():
        user = User.objects.select_for_update().filter(pk=user_id).first()
        if user is None:
            raise AccountError("No such account.")
        if user.is_bot:
            raise AccountError(f"{user.username} is a bot: bots belong to the site and are not deleted.")
        if user.username == f"{DELETED_PREFIX}{user.pk}":
            raise AccountError(f"{user.username} is already deleted.")
        if user.pk == by.pk:
            raise AccountError("An admin cannot delete their own account; ask another admin.")
        if _seated(user):
            raise AccountError(
                f"{user.username} is seated at a table that is waiting or playing: "
                "they must leave it, or the game must end or be aborted, first."
            )
        _anonymise(user)
    return user


def account_delete_own(*, user_id: int) -> User:
    """RULING P55: a player deletes their own account, anonymised exactly as the admin's action
    does. The caller has checked their password; the messages are for the player."""
    with transaction.atomic():
        user = User.objects.select_for_update().filter(pk=user_id, is_active=True, is_bot=False).first()
        if user is None or user.username == f"{DELETED_PREFIX}{user.pk}":
            raise AccountError(_("This account cannot be deleted."))
        if user.is_staff or user.is_superuser:
            # An admin's rights are another admin's to take away, with a reason (RULING P19).
            raise AccountError(_("An admin’s account is deleted by another admin; ask one."))
        if _seated(user):
            raise AccountError(
                _("You are seated at a table that is waiting or playing: leave it, or let the game end, first.")
            )
        _anonymise(user)
        # Not an admin's action, but the admin log is where deletions are read: it says who did it.
        LogEntry.objects.log_actions(
            user.pk, [user], CHANGE, "Deleted their own account (anonymised).", single_object=True
        )
    return user


def _seated(user: User) -> bool:
    # Holds and reservations at a table still waiting, or a game in play, belong to that table's
    # own life cycle (leaving releases them, an abort refunds them); anonymising under them would
    # leave a seat nobody can ever leave.
    return user.seats.filter(table__status__in=OPEN_TABLE_STATUSES).exists()


def _anonymise(user: User) -> None:
    """Everything that identifies the person goes; the row, its games and its ledger stay.
    Every app's registered erase runs here, inside the caller's transaction (RULING P23)."""
    user.username = f"{DELETED_PREFIX}{user.pk}"
    user.display_name = user.first_name = user.last_name = user.email = ""
    user.time_zone = user.language = ""  # where they live, what they speak: theirs, not the games'
    user.set_unusable_password()
    user.is_active = user.is_staff = user.is_superuser = False
    user.save()
    personal_data.erase_all(user)
    _sessions_end(user.pk)


def account_rows_erase(user: User) -> None:
    """Accounts' own rows about the person: e-mail addresses, groups and permissions."""
    user.groups.clear()
    user.user_permissions.clear()
    EmailAddress.objects.filter(user=user).delete()


def _sessions_end(user_id: int) -> None:
    """Remove the account's sessions. Database sessions can only be read by decoding them; an
    admin action runs this rarely, so a scan of the live ones is acceptable."""
    from django.utils import timezone

    doomed = [
        session.pk
        for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator()
        if session.get_decoded().get("_auth_user_id") == str(user_id)
    ]
    Session.objects.filter(pk__in=doomed).delete()


PROFILE_FIELDS = ("display_name", "four_colour_suits", "language", "review_visibility", "time_zone")


def profile_update(*, user: User, fields: dict) -> None:
    """The player's own profile, from the profile form's checked fields (a save, so whatever
    listens to an account's save hears it)."""
    changed = [name for name in PROFILE_FIELDS if name in fields]
    for name in changed:
        setattr(user, name, fields[name])
    user.save(update_fields=changed)


def password_save(*, user: User) -> None:
    """The new password's hash, set on ``user`` by allauth's adapter, saved: with it the session
    hash changes, which ends the account's other logins (RULING P18)."""
    user.save(update_fields=["password"])


def email_primary_set(*, address: EmailAddress) -> None:
    """RULING P19: the address an admin made primary is the account's only primary one, and the
    account's own e-mail field follows it."""
    from allauth.account.utils import user_email

    with transaction.atomic():
        EmailAddress.objects.filter(user=address.user_id, primary=True).exclude(pk=address.pk).update(primary=False)
        address.save(update_fields=["primary"])
        user_email(address.user, address.email, commit=True)


def user_language_set(*, user_id: int, language: str) -> None:
    """Remember a player's language (issue 26); the caller has checked that the site speaks it."""
    User.objects.filter(pk=user_id).update(language=language)


def user_time_zone_guess(*, user_id: int, time_zone: str) -> bool:
    """Issue 41: keep the browser's guess of the player's time zone, only while they have chosen
    none (a zone they chose is never overwritten); whether it was kept. The caller has checked
    that the zone is one the site knows."""
    return bool(User.objects.filter(pk=user_id, time_zone="").update(time_zone=time_zone))


def ensure_bot_accounts(level: str = DEFAULT_BOT_LEVEL) -> list[User]:
    """The bot users of ``level``, created if missing (a flushed test database has none)."""
    bots = []
    for name in BOT_NAMES:
        bot, _created = User.objects.get_or_create(
            username=bot_username(name, level),
            defaults={
                "display_name": bot_display_name(name, level),
                "is_bot": True,
                "bot_level": level,
                "password": "!",
            },
        )
        bots.append(bot)
    return bots
