"""Invitations to a table (RULING P66), the read side: who may invite, the table's link token and
the invitation panel the table page shows (the writes are tables/services/invites.py).

The link is the table's id and its nonce, signed with the site's key (``django.core.signing``):
it cannot be made up or altered, the host revokes every copy at once by renewing the nonce,
and it leads to a seat only while the table waits for players (it expires with the table).
"""

from __future__ import annotations

from django.core import signing
from django.db.models import Prefetch

from accounts.models import User
from accounts.names import public_name
from accounts.selectors import users_named_publicly
from social.models import Friendship
from tables.models import RematchAnswer, Spectators, Table, TableInvite
from tables.selectors.privacy import NOT_INVITED

SALT = "tables.invite"


def may_invite(*, table: Table, user: User) -> bool:
    """The host; at a public table, anyone seated too. Only while the table waits for players."""
    if table.status != Table.Status.LOBBY or table.practice:
        return False
    if user.pk == table.host_id:
        return True
    return not table.private and table.seats.filter(user=user).exists()


def invited_answers(table: Table) -> list[dict]:
    """Issue 53: who is invited to a private table waiting for players and how each answered, for its
    seated players' view: "seated" (they took their seat), "declined" (a rematch's no, RULING P70)
    or "pending"; names as public lists show them (RULING P54)."""
    seated = set(table.seats.exclude(user=None).values_list("user_id", flat=True))
    declined = set(
        RematchAnswer.objects.filter(rematch__table=table, answer=RematchAnswer.Answer.DECLINED).values_list(
            "user_id", flat=True
        )
    )
    invites = (
        TableInvite.objects.filter(table=table)
        .exclude(user_id=table.host_id)
        .prefetch_related(Prefetch("user", queryset=users_named_publicly()))
    )
    rows = [
        {
            "user_id": invite.user_id,
            "name": public_name(invite.user),
            "answer": "seated" if invite.user_id in seated else "declined" if invite.user_id in declined else "pending",
        }
        for invite in invites.order_by("created_at", "pk")
    ]
    return rows


def link_token(table: Table) -> str:
    return signing.dumps({"t": table.pk, "n": table.invite_nonce}, salt=SALT, compress=True)


def panel(*, table_id: int, user: User) -> dict | None:
    """What the table page's invitation panel shows this viewer, or None (not theirs to show). The
    host's panel also shows the table's link, which the view asks for (made on first asking:
    tables/services/invites.py ``link_give``)."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None or not user.is_authenticated or not may_invite(table=table, user=user):
        return None
    seated = set(table.seats.exclude(user=None).values_list("user_id", flat=True))
    invited = set(TableInvite.objects.filter(table=table).values_list("user_id", flat=True))
    friends = (
        Friendship.objects.filter(user=user)
        .exclude(friend_id__in=seated)
        .select_related("friend")
        .order_by("friend__username")
    )
    return {
        "table": table,
        "is_host": user.pk == table.host_id,
        "link": None,
        "friends": [{"user": row.friend, "invited": row.friend_id in invited} for row in friends],
        "spectator_choices": Spectators.choices,
        "private_refusal": str(NOT_INVITED),
    }
