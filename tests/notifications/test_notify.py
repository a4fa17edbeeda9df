"""notify(): recorded in the caller's transaction, dropped quietly when it must be, pushed and
delivered after commit, expired (RULINGS P67, P69)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.db import transaction
from django.utils import timezone

from chat.models import PersonalMute
from notifications import kinds, services, tasks, texts
from notifications.models import Notification
from social.models import Block
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


def test_it_records_a_notification_that_expires_after_the_configured_days(host, player, settings) -> None:
    settings.NOTIFICATION_DAYS = 7
    now = timezone.now()
    row = services.notify(user=player, kind=kinds.FRIEND_REQUEST, actor=host, now=now)
    assert row is not None
    assert row.expires_at == now + timedelta(days=7)
    assert row.read_at is None


def test_an_unknown_kind_or_nested_data_is_refused_and_nothing_is_written(host, player) -> None:
    with pytest.raises(ValueError):
        services.notify(user=player, kind="surprise", actor=host)
    with pytest.raises(ValueError):
        services.notify(user=player, kind=kinds.INVITE, actor=host, data={"hand": ["QS", "10H"]})
    assert not Notification.objects.exists()


def test_a_block_either_way_drops_it_quietly(host, player) -> None:
    Block.objects.create(blocker=player, blocked=host, created_at=timezone.now())
    assert services.notify(user=player, kind=kinds.FRIEND_REQUEST, actor=host) is None
    assert services.notify(user=host, kind=kinds.FRIEND_REQUEST, actor=player) is None
    assert not Notification.objects.exists()


def test_a_personal_mute_drops_what_the_muted_player_sends(host, player) -> None:
    PersonalMute.objects.create(owner=player, muted=host)
    assert services.notify(user=player, kind=kinds.INVITE, actor=host) is None
    # The mute is the recipient's: the one who muted can still reach the muted player.
    assert services.notify(user=host, kind=kinds.INVITE, actor=player) is not None


def test_a_kind_turned_off_in_the_site_is_not_recorded(host, player) -> None:
    services.preferences_set(user=player, choices={kinds.INVITE: {"site": False}})
    assert services.notify(user=player, kind=kinds.INVITE, actor=host) is None
    assert services.notify(user=player, kind=kinds.FRIEND_REQUEST, actor=host) is not None


def test_a_rolled_back_caller_leaves_no_notification_and_sends_nothing(
    host, player, eager_bots, django_capture_on_commit_callbacks
) -> None:
    EmailAddress.objects.create(user=player, email=player.email, verified=True, primary=True)
    services.preferences_set(user=player, choices={kinds.INVITE: {"email": True}})
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError), transaction.atomic():
        services.notify(user=player, kind=kinds.INVITE, actor=host)
        raise RuntimeError("the caller's write failed")
    assert not Notification.objects.exists()
    assert mail.outbox == []


def test_e_mail_is_off_by_default_and_sent_once_when_asked_for(
    host, player, eager_bots, django_capture_on_commit_callbacks
) -> None:
    EmailAddress.objects.create(user=player, email=player.email, verified=True, primary=True)
    with django_capture_on_commit_callbacks(execute=True):
        services.notify(user=player, kind=kinds.INVITE, actor=host)
    assert mail.outbox == []  # RULING P69: off unless the player turned it on

    services.preferences_set(user=player, choices={kinds.INVITE: {"email": True}})
    with django_capture_on_commit_callbacks(execute=True):
        row = services.notify(user=player, kind=kinds.INVITE, actor=host)
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == [player.email]
    assert host.name in mail.outbox[0].subject
    assert tasks.notification_deliver(row.pk) == 0  # a second run finds it claimed
    assert len(mail.outbox) == 1


def test_no_e_mail_goes_to_an_unverified_address(host, player, eager_bots, django_capture_on_commit_callbacks) -> None:
    EmailAddress.objects.create(user=player, email=player.email, verified=False, primary=True)
    services.preferences_set(user=player, choices={kinds.INVITE: {"email": True}})
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        services.notify(user=player, kind=kinds.INVITE, actor=host)
    assert callbacks  # the delivery ran, and found no address to mail
    assert mail.outbox == []


def test_the_e_mail_is_in_the_recipients_language(host, player, eager_bots, django_capture_on_commit_callbacks) -> None:
    player.language = "et"
    player.save(update_fields=["language"])
    EmailAddress.objects.create(user=player, email=player.email, verified=True, primary=True)
    services.preferences_set(user=player, choices={kinds.FRIEND_REQUEST: {"email": True}})
    # Through the request itself: a mail is sent only while the request stands (RULING P74).
    from social.services import friend_request_send

    with django_capture_on_commit_callbacks(execute=True):
        friend_request_send(sender=host, recipient_id=player.pk)
    assert "sõbraks" in mail.outbox[0].body


def test_bots_are_never_notified(host) -> None:
    bot = make_user("robo")
    bot.is_bot = True
    bot.save(update_fields=["is_bot"])
    assert services.notify(user=bot, kind=kinds.YOUR_TURN) is None


def test_expiry_deletes_only_what_has_passed_and_twice_is_once(host, player) -> None:
    now = timezone.now()
    old = services.notify(user=player, kind=kinds.FRIEND_REQUEST, actor=host, now=now - timedelta(days=31))
    fresh = services.notify(user=player, kind=kinds.FRIEND_REQUEST, actor=host, now=now)
    assert services.notifications_expire(now=now) == 1
    assert services.notifications_expire(now=now) == 0
    assert not Notification.objects.filter(pk=old.pk).exists()
    assert Notification.objects.filter(pk=fresh.pk).exists()


def test_marking_read_touches_only_the_readers_own(host, player) -> None:
    mine = services.notify(user=player, kind=kinds.FRIEND_REQUEST, actor=host)
    theirs = services.notify(user=host, kind=kinds.FRIEND_REQUEST, actor=player)
    with pytest.raises(services.NotificationError):
        services.notification_read(user=player, notification_id=theirs.pk)
    services.notification_read(user=player, notification_id=mine.pk)
    mine.refresh_from_db()
    theirs.refresh_from_db()
    assert mine.read_at is not None and theirs.read_at is None
    services.notify(user=player, kind=kinds.INVITE, actor=host)
    assert services.notifications_read_all(user=player) == 1
    assert not Notification.objects.filter(recipient=player, read_at=None).exists()


def test_a_tournaments_title_is_isolated_in_the_bell(host, player) -> None:
    row = services.notify(user=player, kind=kinds.ROUND_READY, data={"title": "كأس <b>", "round": 2})
    assert row is not None
    assert "<bdi>كأس &lt;b&gt;</bdi>" in texts.html(row)
    assert "كأس <b>" in texts.text(row)  # plain text (a socket frame, an e-mail) as typed
