"""Writes of friends, requests and blocks (docs/style.md §5–7), each one transaction.

RULING P67: a request to someone who blocked or muted its sender is kept but dropped quietly
(its sender sees it waiting; its recipient never sees it, nor is told). A block reaches both
ways and ends what joined the two: their friendship and their requests. RULING P68: requests
are limited per sender per hour.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from accounts.models import User
from core import outbox
from core.i18n import lazy_format
from core.limits import hourly_take
from notifications import gates, kinds
from notifications.events import BellChanged
from notifications.models import Notification
from notifications.services import notify
from social import signals
from social.events import BlockChanged
from social.models import Block, FriendRequest, Friendship


class SocialError(Exception):
    """A refusal a player can read; nothing was written."""


def _other(user_id: object) -> User:
    try:
        # Any value on purpose: a wrong one raises TypeError or ValueError, caught below.
        return User.objects.get(pk=int(user_id), is_active=True)  # type: ignore[call-overload]
    except (User.DoesNotExist, TypeError, ValueError):
        raise SocialError(_("There is no such player.")) from None


def _refuse_unless_a_person(sender: User, recipient: User) -> None:
    if recipient.pk == sender.pk:
        raise SocialError(_("You cannot be your own friend."))
    if recipient.is_bot:
        raise SocialError(_("Bots do not make friends."))


def friend_request_send(
    *, sender: User, recipient_id: object, now: datetime | None = None
) -> FriendRequest | Friendship:
    """Ask ``recipient_id`` to be friends; if they had already asked the sender, that is a yes."""
    recipient = _other(recipient_id)
    _refuse_unless_a_person(sender, recipient)
    now = now or timezone.now()
    with transaction.atomic():
        if Friendship.objects.filter(user=sender, friend=recipient).exists():
            raise SocialError(_("You are already friends."))
        if Block.objects.filter(blocker=sender, blocked=recipient).exists():
            raise SocialError(_("You blocked this player. Unblock them first."))
        if FriendRequest.objects.filter(sender=sender, recipient=recipient).exists():
            raise SocialError(_("Your friend request is already waiting for an answer."))
        theirs = FriendRequest.objects.filter(sender=recipient, recipient=sender, quiet=False).first()
        if theirs is not None:
            return _befriend(theirs, now=now)
        _take_request_token(sender)
        quiet = gates.refused(recipient_id=recipient.pk, actor_id=sender.pk)
        try:
            with transaction.atomic():
                request = FriendRequest.objects.create(sender=sender, recipient=recipient, created_at=now, quiet=quiet)
        except IntegrityError:
            raise SocialError(_("Your friend request is already waiting for an answer.")) from None
        if not quiet:
            notify(user=recipient, kind=kinds.FRIEND_REQUEST, actor=sender, now=now)
    return request


def _take_request_token(sender: User) -> None:
    most = settings.FRIEND_REQUESTS_PER_HOUR
    if not hourly_take("friend_request", user_id=sender.pk, most=most):
        raise SocialError(
            lazy_format(
                ngettext_lazy(
                    "You have sent %(count)s friend request in the last hour. Try again later.",
                    "You have sent %(count)s friend requests in the last hour. Try again later.",
                    most,
                ),
                count=most,
            )
        )


def _befriend(request: FriendRequest, *, now: datetime) -> Friendship:
    sender, recipient = request.sender, request.recipient
    FriendRequest.objects.filter(Q(sender=sender, recipient=recipient) | Q(sender=recipient, recipient=sender)).delete()
    for user, friend in ((sender, recipient), (recipient, sender)):
        Friendship.objects.get_or_create(user=user, friend=friend, defaults={"created_at": now})
    _mark_answered(recipient=recipient, sender=sender)
    signals.relation_began.send(sender=_befriend, user_ids=(sender.pk, recipient.pk))
    notify(user=sender, kind=kinds.FRIEND_ACCEPTED, actor=recipient, now=now)
    return Friendship.objects.get(user=recipient, friend=sender)


def _received(user: User, request_id: object) -> FriendRequest:
    number = _number(request_id)
    request = (
        FriendRequest.objects.select_for_update()
        .select_related("sender", "recipient")
        .filter(pk=number, recipient=user, quiet=False)
        .first()
        if number is not None
        else None
    )
    if request is None:
        raise SocialError(_("That friend request is not there any more."))
    return request


def _number(value: object) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 19:
        return int(value)
    return None


def friend_request_accept(*, user: User, request_id: object, now: datetime | None = None) -> Friendship:
    with transaction.atomic():
        return _befriend(_received(user, request_id), now=now or timezone.now())


def friend_request_decline(*, user: User, request_id: object) -> None:
    """No: the request goes, and its sender is not told (they may ask again later)."""
    with transaction.atomic():
        request = _received(user, request_id)
        request.delete()
        _mark_answered(recipient=user, sender=request.sender)


def friend_request_cancel(*, user: User, request_id: object) -> None:
    with transaction.atomic():
        number = _number(request_id)
        deleted = FriendRequest.objects.filter(pk=number, sender=user).delete()[0] if number is not None else 0
        if not deleted:
            raise SocialError(_("That friend request is not there any more."))


def friend_remove(*, user: User, friend_id: object) -> None:
    friend = _number(friend_id)
    with transaction.atomic():
        deleted, _rows = Friendship.objects.filter(
            Q(user=user, friend_id=friend) | Q(user_id=friend, friend=user)
        ).delete()
        if not deleted:
            raise SocialError(_("You are not friends with that player."))
        signals.relation_ended.send(sender=friend_remove, user_ids=(user.pk, friend))


def block(*, user: User, blocked_id: object, now: datetime | None = None) -> Block:
    """RULING P67: from now on neither reaches the other; their friendship and requests end."""
    other = _other(blocked_id)
    if other.pk == user.pk:
        raise SocialError(_("You cannot block yourself."))
    with transaction.atomic():
        row, _created = Block.objects.get_or_create(
            blocker=user, blocked=other, defaults={"created_at": now or timezone.now()}
        )
        Friendship.objects.filter(Q(user=user, friend=other) | Q(user=other, friend=user)).delete()
        FriendRequest.objects.filter(Q(sender=user, recipient=other) | Q(sender=other, recipient=user)).delete()
        # What the blocked player sent and the blocker has not read goes too.
        Notification.objects.filter(recipient=user, actor=other, read_at=None).delete()
        signals.relation_ended.send(sender=block, user_ids=(user.pk, other.pk))
        # Open table sockets of both read their chat again, without the other's messages.
        outbox.send(BlockChanged(user_ids=(user.pk, other.pk)))
        outbox.send(BellChanged(user_id=user.pk))
    return row


def unblock(*, user: User, blocked_id: object) -> None:
    other_id = _number(blocked_id)
    with transaction.atomic():
        lifted, _rows = Block.objects.filter(blocker=user, blocked_id=other_id).delete()
        if lifted:
            signals.relation_began.send(sender=unblock, user_ids=(user.pk, other_id))
        outbox.send(BlockChanged(user_ids=tuple(user_id for user_id in (user.pk, other_id) if user_id is not None)))


def _mark_answered(*, recipient: User, sender: User) -> None:
    """A friend request answered: its notification needs no more attention."""
    Notification.objects.filter(recipient=recipient, actor=sender, kind=kinds.FRIEND_REQUEST, read_at=None).update(
        read_at=timezone.now()
    )


def social_erase(user: User) -> None:
    """RULING P23: a deleted account's friendships, requests and blocks go, both ways: they say who
    the person knew or kept away, and the anonymous account can never answer or use them again."""
    Friendship.objects.filter(Q(user=user) | Q(friend=user)).delete()
    FriendRequest.objects.filter(Q(sender=user) | Q(recipient=user)).delete()
    Block.objects.filter(Q(blocker=user) | Q(blocked=user)).delete()
