"""Lifting a mute, setting a password and adding an account in the admin say why, are in the admin
log, and name the admin on every ledger row they cause (issue 34, finding 6; RULING P19)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.admin.models import LogEntry
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from chat import services as chat
from chat.models import ChatMute
from chat.services import ChatError
from payouts.models import Transfer
from payouts.services import PayoutError, account_open

pytestmark = pytest.mark.django_db


@pytest.fixture
def mute(admin_user, player) -> ChatMute:
    return chat.mute_create(user=player, by=admin_user, reason="spam", until=timezone.now() + timedelta(days=1))


def _lift(admin_client, mute: ChatMute, **extra):
    url = reverse("admin:chat_chatmute_changelist")
    return admin_client.post(url, {"action": "lift", "_selected_action": [mute.pk], **extra})


def test_lifting_a_mute_asks_why_and_does_nothing_without_a_reason(admin_client, mute) -> None:
    asked = _lift(admin_client, mute)
    assert asked.status_code == 200 and b'name="reason"' in asked.content
    _lift(admin_client, mute, apply="1", reason="")
    mute.refresh_from_db()
    assert mute.until > timezone.now()
    assert not LogEntry.objects.filter(object_id=str(mute.pk), change_message__startswith="Lifted").exists()


def test_lifting_a_mute_with_a_reason_ends_it_and_logs_the_reason(admin_client, admin_user, mute) -> None:
    _lift(admin_client, mute, apply="1", reason="Apologised in the forum")
    mute.refresh_from_db()
    assert mute.until <= timezone.now()
    entry = LogEntry.objects.get(object_id=str(mute.pk), change_message__startswith="Lifted")
    assert entry.user == admin_user and "Apologised in the forum" in entry.change_message


def test_the_service_refuses_a_lift_without_a_reason(admin_user, mute) -> None:
    with pytest.raises(ChatError):
        chat.mute_lift(mute_id=mute.pk, by=admin_user, reason="  ")
    mute.refresh_from_db()
    assert mute.until > timezone.now()


def _password_url(user: User) -> str:
    return reverse("admin:auth_user_password_change", args=[user.pk])


def test_setting_a_password_in_the_admin_needs_a_reason(admin_client, player) -> None:
    before = User.objects.get(pk=player.pk).password
    form = {"password1": "Another-Long-Phrase-7", "password2": "Another-Long-Phrase-7", "usable_password": "true"}
    refused = admin_client.post(_password_url(player), {**form, "set-password": "1"})
    assert refused.status_code == 200 and b'name="reason"' in refused.content
    assert User.objects.get(pk=player.pk).password == before

    reason = "Locked out, asked by mail"
    done = admin_client.post(_password_url(player), {**form, "reason": reason, "set-password": "1"})
    assert done.status_code == 302
    player.refresh_from_db()
    assert player.check_password("Another-Long-Phrase-7")
    entry = LogEntry.objects.filter(object_id=str(player.pk)).latest("action_time")
    assert entry.change_message == "Set the password. Reason: Locked out, asked by mail"


def _add(admin_client, **extra):
    form = {
        "username": "newcomer",
        "usable_password": "true",
        "password1": "A-Long-Enough-Phrase-1",
        "password2": "A-Long-Enough-Phrase-1",
        "_save": "Save",
    }
    return admin_client.post(reverse("admin:accounts_user_add"), {**form, **extra})


def test_adding_an_account_in_the_admin_needs_a_reason(admin_client) -> None:
    response = _add(admin_client)
    assert response.status_code == 200 and b'name="reason"' in response.content
    assert not User.objects.filter(username="newcomer").exists()
    assert not Transfer.objects.filter(user__username="newcomer").exists()


def test_an_account_added_in_the_admin_names_the_admin_on_its_starting_coins_and_passes(
    admin_client, admin_user, settings
) -> None:
    response = _add(admin_client, reason="Tournament guest")
    assert response.status_code == 302
    user = User.objects.get(username="newcomer")
    grants = Transfer.objects.filter(user=user, reason=Transfer.Reason.GRANT)
    assert {t.asset for t in grants} == {"coins", "passes"}
    assert all(t.by == admin_user and t.memo.endswith("Account added by an admin: Tournament guest") for t in grants)
    entry = LogEntry.objects.get(object_id=str(user.pk))
    assert entry.user == admin_user and entry.change_message == "Added. Reason: Tournament guest"


def test_the_wallet_shows_an_added_accounts_grant_in_the_players_language(client, admin_client) -> None:
    _add(admin_client, reason="Tournament guest")
    user = User.objects.get(username="newcomer")
    client.force_login(user)
    page = client.get(reverse("wallet"), HTTP_ACCEPT_LANGUAGE="et").content.decode()
    assert "Tournament guest" in page and "Account added by an admin" not in page


def test_a_sign_up_still_names_nobody(player) -> None:
    assert set(Transfer.objects.filter(user=player).values_list("by", flat=True)) == {None}


def test_an_admin_opening_an_account_without_a_reason_is_refused(admin_user) -> None:
    user = User(username="quiet")
    with pytest.raises(PayoutError):
        account_open(user=user, by=admin_user, reason="")
