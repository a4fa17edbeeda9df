"""Reads of friends and blocks (docs/style.md §5). Ids or users are taken alike."""

from __future__ import annotations

from django.db.models import Q

from social.models import Block, FriendRequest, Friendship


def _id(who: object) -> int:
    return who if isinstance(who, int) else who.pk  # type: ignore[attr-defined]


def are_friends(a: object, b: object) -> bool:
    return Friendship.objects.filter(user_id=_id(a), friend_id=_id(b)).exists()


def friend_ids(user: object) -> set[int]:
    return set(Friendship.objects.filter(user_id=_id(user)).values_list("friend_id", flat=True))


def blocked_either_way(a: object, b: object) -> bool:
    a_id, b_id = _id(a), _id(b)
    return Block.objects.filter(Q(blocker_id=a_id, blocked_id=b_id) | Q(blocker_id=b_id, blocked_id=a_id)).exists()


def blocked_ids(user: object) -> set[int]:
    """Everyone the player blocked and everyone who blocked them (RULING P67: block's reach is both ways)."""
    user_id = _id(user)
    rows = Block.objects.filter(Q(blocker_id=user_id) | Q(blocked_id=user_id)).values_list("blocker_id", "blocked_id")
    return {other for pair in rows for other in pair if other != user_id}


def blocked_by_me(user: object) -> list[Block]:
    return list(Block.objects.filter(blocker_id=_id(user)).select_related("blocked").order_by("blocked__username"))


def requests_received(user: object) -> list[FriendRequest]:
    return list(
        FriendRequest.objects.filter(recipient_id=_id(user), quiet=False)
        .select_related("sender")
        .order_by("-created_at")
    )


def requests_sent(user: object) -> list[FriendRequest]:
    # A quietly dropped request looks to its sender like any other that waits (RULING P67).
    return list(FriendRequest.objects.filter(sender_id=_id(user)).select_related("recipient").order_by("-created_at"))


def social_export(user: object) -> dict:
    """RULING P55: the player's friends, requests and blocks."""
    user_id = _id(user)
    return {
        "friends": sorted(Friendship.objects.filter(user_id=user_id).values_list("friend__username", flat=True)),
        "requests_sent": sorted(
            FriendRequest.objects.filter(sender_id=user_id).values_list("recipient__username", flat=True)
        ),
        "requests_received": sorted(
            FriendRequest.objects.filter(recipient_id=user_id, quiet=False).values_list("sender__username", flat=True)
        ),
        "blocked": sorted(Block.objects.filter(blocker_id=user_id).values_list("blocked__username", flat=True)),
    }
