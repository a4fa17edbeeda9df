"""Friend requests, friendships and blocks (RULINGS P67, P68)."""

from __future__ import annotations

import pytest

from chat.models import PersonalMute
from notifications import kinds
from notifications.models import Notification
from social import selectors, services
from social.models import Block, FriendRequest, Friendship
from social.services import SocialError
from tests.conftest import make_user
from tests.social.helpers import befriend

pytestmark = pytest.mark.django_db


def test_a_request_notifies_and_accepting_makes_friends_both_ways(host, player) -> None:
    request = services.friend_request_send(sender=host, recipient_id=player.pk)
    assert Notification.objects.get(recipient=player).kind == kinds.FRIEND_REQUEST
    services.friend_request_accept(user=player, request_id=request.pk)
    assert selectors.are_friends(user_id=host.pk, other_id=player.pk)
    assert selectors.are_friends(user_id=player.pk, other_id=host.pk)
    assert selectors.friend_ids(user_id=host.pk) == {player.pk}
    assert not FriendRequest.objects.exists()
    accepted = Notification.objects.get(recipient=host)
    assert accepted.kind == kinds.FRIEND_ACCEPTED and accepted.actor == player
    # The request's notification needs no more attention once answered.
    assert Notification.objects.get(recipient=player).read_at is not None


def test_asking_someone_who_already_asked_you_makes_you_friends(host, player) -> None:
    services.friend_request_send(sender=host, recipient_id=player.pk)
    services.friend_request_send(sender=player, recipient_id=host.pk)
    assert selectors.are_friends(user_id=host.pk, other_id=player.pk)
    assert not FriendRequest.objects.exists()


def test_only_the_recipient_accepts_or_declines_and_only_the_sender_cancels(host, player, outsider) -> None:
    request = services.friend_request_send(sender=host, recipient_id=player.pk)
    for call in (services.friend_request_accept, services.friend_request_decline):
        with pytest.raises(SocialError):
            call(user=outsider, request_id=request.pk)
    with pytest.raises(SocialError):
        services.friend_request_cancel(user=player, request_id=request.pk)
    assert FriendRequest.objects.filter(pk=request.pk).exists()
    services.friend_request_decline(user=player, request_id=request.pk)
    assert not FriendRequest.objects.exists() and not Friendship.objects.exists()

    again = services.friend_request_send(sender=host, recipient_id=player.pk)
    services.friend_request_cancel(user=host, request_id=again.pk)
    assert not FriendRequest.objects.exists()


def test_requests_that_make_no_sense_are_refused_and_change_nothing(host, player) -> None:
    bot = make_user("robo")
    bot.is_bot = True
    bot.save(update_fields=["is_bot"])
    for recipient in (host.pk, bot.pk, 999_999, "x"):
        with pytest.raises(SocialError):
            services.friend_request_send(sender=host, recipient_id=recipient)
    services.friend_request_send(sender=host, recipient_id=player.pk)
    with pytest.raises(SocialError):
        services.friend_request_send(sender=host, recipient_id=player.pk)
    assert FriendRequest.objects.count() == 1


def test_unfriending_ends_it_both_ways(host, player) -> None:
    befriend(host, player)
    services.friend_remove(user=player, friend_id=host.pk)
    assert not Friendship.objects.exists()
    with pytest.raises(SocialError):
        services.friend_remove(user=player, friend_id=host.pk)


def test_a_block_ends_the_friendship_and_requests_and_unread_notifications(host, player) -> None:
    befriend(host, player)
    services.friend_remove(user=host, friend_id=player.pk)
    services.friend_request_send(sender=player, recipient_id=host.pk)
    services.block(user=host, blocked_id=player.pk)
    assert selectors.blocked_either_way(user_id=host.pk, other_id=player.pk)
    assert selectors.blocked_either_way(user_id=player.pk, other_id=host.pk)
    assert selectors.blocked_ids(user_id=player.pk) == {host.pk}
    assert not FriendRequest.objects.exists()
    assert not Notification.objects.filter(recipient=host, actor=player, read_at=None).exists()
    # RULING P67: the blocker is told to unblock first; the blocked player's request is dropped quietly.
    with pytest.raises(SocialError):
        services.friend_request_send(sender=host, recipient_id=player.pk)
    quiet = services.friend_request_send(sender=player, recipient_id=host.pk)
    assert quiet.quiet
    assert selectors.requests_sent(user_id=player.pk) == [quiet]  # the sender sees it waiting
    assert selectors.requests_received(user_id=host.pk) == []  # the recipient never does
    assert not Notification.objects.filter(recipient=host, read_at=None).exists()
    with pytest.raises(SocialError):
        services.friend_request_accept(user=host, request_id=quiet.pk)


def test_unblocking_lets_requests_through_again(host, player) -> None:
    services.block(user=host, blocked_id=player.pk)
    services.unblock(user=host, blocked_id=player.pk)
    assert not Block.objects.exists()
    request = services.friend_request_send(sender=player, recipient_id=host.pk)
    assert not request.quiet


def test_a_muted_players_request_is_dropped_quietly(host, player) -> None:
    PersonalMute.objects.create(owner=host, muted=player)
    request = services.friend_request_send(sender=player, recipient_id=host.pk)
    assert request.quiet
    assert not Notification.objects.filter(recipient=host).exists()


def test_friend_requests_are_limited_per_hour_with_a_clear_message(host, settings) -> None:
    settings.FRIEND_REQUESTS_PER_HOUR = 2
    others = [make_user(f"pal{n}") for n in range(3)]
    services.friend_request_send(sender=host, recipient_id=others[0].pk)
    services.friend_request_send(sender=host, recipient_id=others[1].pk)
    with pytest.raises(SocialError, match="2 friend requests in the last hour"):
        services.friend_request_send(sender=host, recipient_id=others[2].pk)
    assert FriendRequest.objects.count() == 2
    assert not Notification.objects.filter(recipient=others[2]).exists()


def test_the_friend_pages_actions_work_through_the_forms(client, host, player) -> None:
    client.force_login(host)
    page = client.post("/friends/requests/", {"username": player.username.upper()}, follow=True)
    assert b"Friend request sent." in page.content
    client.force_login(player)
    request = FriendRequest.objects.get()
    page = client.get("/friends/")
    assert f'id="request-{request.pk}"'.encode() in page.content
    client.post(f"/friends/requests/{request.pk}/accept/")
    page = client.get("/friends/")
    assert f'id="friend-{host.pk}"'.encode() in page.content
    assert b'data-state="offline"' in page.content
    page = client.post("/friends/requests/", {"username": "nobody-here"}, follow=True)
    assert b"There is no player with that user name." in page.content
