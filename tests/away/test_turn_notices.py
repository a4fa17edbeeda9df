"""RULING P74 end to end: a move, the check 20 s later, the notification, the push, the local push service."""

from __future__ import annotations

import asyncio
import json

import pytest

from away.models import Device
from games.models import Match
from notifications import kinds
from notifications.models import Notification, Preference
from tables.live import presence
from tables.selectors.turn_notices import awaited_users
from tables.services import play
from tables.services.turn_notices import turn_notices_check
from tests.tables.helpers import start_sitaratas_with_a_bot, state_of

pytestmark = pytest.mark.django_db


def awaited(match: Match):
    """The human the match awaits now, and their seat."""
    match.refresh_from_db()
    users = awaited_users(match)
    assert len(users) == 1, "the prepared position awaits one human"
    ((user_id, seat),) = users.items()
    return match.match_players.get(seat=seat).user, seat


@pytest.fixture
def check(django_capture_on_commit_callbacks):
    """``check(match)``: the turn notice's check at the match's version, then its after-commit work
    (the notification's push); ``version`` another version to check at."""

    def run(match: Match, *, version: int | None = None) -> int:
        match.refresh_from_db()
        with django_capture_on_commit_callbacks(execute=True):
            version = match.version if version is None else version
            return turn_notices_check(match_id=match.pk, version=version, connected=presence.user_connected_now)

    return run


@pytest.fixture
def turn(host, player):
    """A Sitaratas game of host, player and a bot, played on to a human's turn: (match, awaited user, seat)."""
    match = start_sitaratas_with_a_bot(host, player)
    user, seat = awaited(match)
    return match, user, seat


def test_an_awaited_player_away_from_the_table_is_told_on_their_device(turn, check, subscribe, push_service):
    match, user, seat = turn
    device = subscribe(user)
    assert check(match) == 1
    (message,) = push_service.messages(device)
    assert message.topic == f"table-{match.table_id}"
    assert message.payload["tag"] == message.topic  # the device shows one notice per table
    assert message.payload["url"] == f"/tables/{match.table_id}/"
    assert str(match.table_id) in message.payload["body"] and "turn" in message.payload["body"]
    assert message.urgency == "high"
    assert 0 < message.ttl <= 15 * 60
    assert message.claims["aud"] == push_service.origin and message.claims["sub"] == "mailto:ops@example.com"
    assert Notification.objects.filter(recipient=user, kind=kinds.YOUR_TURN).count() == 1


def test_the_notice_carries_no_card(turn, check, subscribe, push_service):
    match, user, seat = turn
    device = subscribe(user)
    check(match)
    _engine, state = state_of(match)
    hand = state.hands[seat]
    assert hand, "the awaited player holds cards"
    sent = json.dumps(push_service.messages(device)[0].payload)
    for card in hand:
        assert f'"{card}"' not in sent and f" {card} " not in sent and f" {card}." not in sent


def test_a_player_with_the_table_open_is_not_told(turn, check, subscribe, push_service):
    match, user, _seat = turn
    device = subscribe(user)
    asyncio.run(presence.join(match.table_id, "test-socket", user.pk))
    try:
        assert check(match) == 0
    finally:
        asyncio.run(presence.leave(match.table_id, "test-socket"))
    assert push_service.messages(device) == []
    assert not Notification.objects.filter(recipient=user, kind=kinds.YOUR_TURN).exists()


def test_a_check_for_a_version_the_game_left_does_nothing(turn, check, subscribe, push_service):
    match, user, _seat = turn
    device = subscribe(user)
    assert check(match, version=match.version - 1) == 0
    assert push_service.messages(device) == []


def test_a_second_check_of_the_same_turn_tells_no_one_again(turn, check, subscribe, push_service):
    match, user, _seat = turn
    device = subscribe(user)
    assert check(match) == 1
    assert check(match) == 0
    assert len(push_service.messages(device)) == 1


def the_queued_push(user) -> tuple[int, int]:
    """What the worker will run: the push of the player's notification to their device."""
    notification = Notification.objects.get(recipient=user, kind=kinds.YOUR_TURN)
    return Device.objects.get(user=user).pk, notification.pk


def test_a_turn_taken_before_the_push_goes_out_is_not_sent(
    turn, check, subscribe, push_service, queued_only, django_capture_on_commit_callbacks
):
    from away.tasks import push_send

    match, user, seat = turn
    device = subscribe(user)
    assert check(match) == 1
    queued = the_queued_push(user)
    engine, state = state_of(match)
    with django_capture_on_commit_callbacks(execute=True):
        play.match_act(match_id=match.pk, user=user, action=engine.legal_actions(state, seat)[0], version=match.version)
    assert push_send(*queued) == 0
    assert push_service.messages(device) == []


def test_a_player_back_at_the_table_before_the_push_goes_out_gets_none(
    turn, check, subscribe, push_service, queued_only
):
    from away.tasks import push_send

    match, user, _seat = turn
    device = subscribe(user)
    check(match)
    queued = the_queued_push(user)
    asyncio.run(presence.join(match.table_id, "back", user.pk))
    try:
        assert push_send(*queued) == 0
    finally:
        asyncio.run(presence.leave(match.table_id, "back"))
    assert push_service.messages(device) == []
    # Away again, the same queued push goes out: it is still true.
    assert push_send(*queued) == 201
    assert len(push_service.messages(device)) == 1


def test_when_the_turn_passes_the_shown_notice_is_replaced_under_the_same_topic(
    turn, check, subscribe, push_service, django_capture_on_commit_callbacks
):
    match, user, seat = turn
    device = subscribe(user)
    check(match)
    engine, state = state_of(match)
    with django_capture_on_commit_callbacks(execute=True):
        play.match_act(match_id=match.pk, user=user, action=engine.legal_actions(state, seat)[0], version=match.version)
    check(match)
    first, second = push_service.messages(device)[:2]
    assert second.topic == first.topic and second.payload["tag"] == first.payload["tag"]
    assert second.payload["silent"] is True and "went on" in second.payload["body"]
    # The device was away all along: the push service hands it only the newest of the topic.
    handed = push_service.deliver(device, at=second.received_at)
    assert [message.payload["body"] for message in handed if message.topic == first.topic] == [second.payload["body"]]
    assert not Notification.objects.filter(recipient=user, kind=kinds.YOUR_TURN).exists()


def test_a_turn_notice_does_not_outlive_the_turn_clock(turn, check, subscribe, push_service):
    import time

    match, user, seat = turn
    deadline = int(time.time()) + 100
    match.turn_clock = 100
    match.deadlines = {str(seat): [deadline * 1000, match.version]}
    match.save(update_fields=["turn_clock", "deadlines"])
    device = subscribe(user)
    check(match)
    (message,) = push_service.messages(device)
    assert 0 < message.ttl <= 100
    # Past its TTL the push service drops it: a device that comes back later is handed nothing.
    assert push_service.deliver(device, at=message.received_at + message.ttl + 1) == []


def test_a_subscription_the_push_service_dropped_is_removed(turn, check, subscribe, push_service):
    match, user, _seat = turn
    device = subscribe(user)
    push_service.expire(device)
    check(match)
    assert (410, "subscription expired") in push_service.refused
    assert not Device.objects.filter(endpoint=device.endpoint).exists()


def test_a_push_service_that_fails_is_tried_again(turn, check, subscribe, push_service):
    match, user, _seat = turn
    device = subscribe(user)
    push_service.fail(2, status=503)
    check(match)
    assert [status for status, _ in push_service.refused] == [503, 503]
    assert len(push_service.messages(device)) == 1


def test_a_player_who_turned_device_notices_off_gets_none(turn, check, subscribe, push_service):
    match, user, _seat = turn
    device = subscribe(user)
    Preference.objects.filter(user=user, kind=kinds.YOUR_TURN).update(push=False)
    check(match)
    assert push_service.messages(device) == []
    # Still in the site: only the devices' way was turned off.
    assert Notification.objects.filter(recipient=user, kind=kinds.YOUR_TURN).exists()


def test_the_notice_is_in_the_players_language(turn, check, subscribe, push_service):
    match, user, _seat = turn
    user.language = "et"
    user.save(update_fields=["language"])
    device = subscribe(user)
    check(match)
    payload = push_service.messages(device)[0].payload
    assert payload["lang"] == "et"
    assert "turn" not in payload["body"] and str(match.table_id) in payload["body"]


def test_a_players_devices_get_a_bounded_number_of_notices_an_hour(turn, check, subscribe, push_service, settings):
    from django.utils import timezone

    from notifications.models import Sent

    match, user, _seat = turn
    device = subscribe(user)
    settings.PUSHES_PER_HOUR = 1
    # One notice already went to the player's devices this hour.
    Sent.objects.create(user=user, channel=Sent.Channel.PUSH, kind=kinds.INVITE, sent_at=timezone.now())
    check(match)
    assert push_service.messages(device) == []
    assert Notification.objects.filter(recipient=user, kind=kinds.YOUR_TURN).exists()  # still in the site
