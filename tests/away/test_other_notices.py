"""RULING P74 for the other kinds: friend requests, invitations, a table starting; each checked at send time."""

from __future__ import annotations

import pytest

from away.models import Device
from away.tasks import push_send
from notifications import kinds
from notifications.models import Notification
from payouts.services import pass_grant
from social import services as social
from tables.live.presence import user_connected_now
from tables.selectors.turn_notices import awaited_users
from tables.services.turn_notices import start_notices_check
from tests.tables.helpers import start_table

pytestmark = pytest.mark.django_db


def test_a_friend_request_reaches_the_players_devices(
    host, player, subscribe, push_service, django_capture_on_commit_callbacks
) -> None:
    device = subscribe(player)
    with django_capture_on_commit_callbacks(execute=True):
        social.friend_request_send(sender=host, recipient_id=player.pk)
    (message,) = push_service.messages(device)
    assert host.username in message.payload["body"]
    assert message.topic == f"friend-request-{host.pk}" and message.urgency == "normal"
    assert message.ttl == 24 * 3600


def test_a_friend_request_withdrawn_before_its_push_goes_out_is_not_sent(
    host, player, subscribe, push_service, queued_only, django_capture_on_commit_callbacks
) -> None:
    device = subscribe(player)
    with django_capture_on_commit_callbacks(execute=True):
        request = social.friend_request_send(sender=host, recipient_id=player.pk)
    notification = Notification.objects.get(recipient=player, kind=kinds.FRIEND_REQUEST)
    with django_capture_on_commit_callbacks(execute=True):
        social.friend_request_cancel(user=host, request_id=request.pk)
    assert push_send(Device.objects.get(user=player).pk, notification.pk) == 0
    assert push_service.messages(device) == []


def test_the_seated_players_away_from_the_table_are_told_it_started(
    host, player, subscribe, push_service, django_capture_on_commit_callbacks
) -> None:
    devices = {user.pk: subscribe(user) for user in (host, player)}
    for user in (host, player):  # each of the tables below takes a game pass from both
        pass_grant(user=user, amount=8, memo="Passes for the tables of this test.")
    # Tasks run as they are queued, and the notice waits 0 s here: the start's checks have run.
    # The deal picks who decides first; a deal that gives it to the bot (it plays at once, and the
    # next human's own turn notice follows) is followed by another table, up to a few times.
    for _ in range(8):
        before = {user_id: len(push_service.messages(device)) for user_id, device in devices.items()}
        with django_capture_on_commit_callbacks(execute=True):
            _table, match = start_table(host, "sitaratas", seat_count=3, guests=[player])
        match.refresh_from_db()
        if match.version == 0:
            break
    else:
        raise AssertionError("eight deals in a row gave the first decision to the bot")
    awaited = awaited_users(match)
    assert len(awaited) == 1, "the first decision is a human's"
    for user in (host, player):
        (message,) = push_service.messages(devices[user.pk])[before[user.pk] :]
        # The player the game awaits is told it is their turn; the other, that the table started.
        expected = "It is your turn" if user.pk in awaited else "is starting"
        assert expected in message.payload["body"] and message.topic == f"table-{match.table_id}"
    assert start_notices_check(match_id=match.pk, connected=user_connected_now) == 0  # once per game
