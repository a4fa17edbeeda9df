"""Reads of friends and blocks (docs/style.md §5), by user id."""

from __future__ import annotations

from django.db.models import Q

from accounts.models import User
from social.models import Block, FriendRequest, Friendship


def are_friends(*, user_id: int, other_id: int) -> bool:
    return Friendship.objects.filter(user_id=user_id, friend_id=other_id).exists()


def friend_ids(*, user_id: int) -> set[int]:
    return set(Friendship.objects.filter(user_id=user_id).values_list("friend_id", flat=True))


def blocked_either_way(*, user_id: int, other_id: int) -> bool:
    return Block.objects.filter(
        Q(blocker_id=user_id, blocked_id=other_id) | Q(blocker_id=other_id, blocked_id=user_id)
    ).exists()


def blocked_ids(*, user_id: int) -> set[int]:
    """Everyone the player blocked and everyone who blocked them (RULING P67: block's reach is both ways)."""
    rows = Block.objects.filter(Q(blocker_id=user_id) | Q(blocked_id=user_id)).values_list("blocker_id", "blocked_id")
    return {other for pair in rows for other in pair if other != user_id}


def blocked_by_me(*, user_id: int) -> list[Block]:
    return list(Block.objects.filter(blocker_id=user_id).select_related("blocked").order_by("blocked__username"))


def requests_received(*, user_id: int) -> list[FriendRequest]:
    return list(
        FriendRequest.objects.filter(recipient_id=user_id, quiet=False).select_related("sender").order_by("-created_at")
    )


def requests_sent(*, user_id: int) -> list[FriendRequest]:
    # A quietly dropped request looks to its sender like any other that waits (RULING P67).
    return list(FriendRequest.objects.filter(sender_id=user_id).select_related("recipient").order_by("-created_at"))


def social_export(user: User) -> dict:
    """RULING P55: the player's friends, requests and blocks (called by accounts' export with the user)."""
    return {
        "friends": sorted(Friendship.objects.filter(user=user).values_list("friend__username", flat=True)),
        "requests_sent": sorted(
            FriendRequest.objects.filter(sender=user).values_list("recipient__username", flat=True)
        ),
        "requests_received": sorted(
            FriendRequest.objects.filter(recipient=user, quiet=False).values_list("sender__username", flat=True)
        ),
        "blocked": sorted(Block.objects.filter(blocker=user).values_list("blocked__username", flat=True)),
    }
