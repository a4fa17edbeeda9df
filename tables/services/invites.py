"""Invitations to a table (RULING P66): to a friend, in the site (and by e-mail if they asked for
it), or by the table's link, for anyone the host gives it to (the link itself and who may invite:
tables/selectors/invites.py).

Following the link records the player as invited, so they may then sit as a friend of the host
may. Invitations to friends are limited per player per hour (RULING P68).
"""

from __future__ import annotations

import secrets
from datetime import datetime

from django.conf import settings
from django.core import signing
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from accounts.models import User
from accounts.names import public_name
from core.i18n import lazy_format
from core.limits import hourly_take
from games import catalog
from notifications import gates, kinds
from notifications.services import notify
from social.models import Block
from social.selectors import are_friends
from tables.errors import TableError
from tables.models import QuickPlayChoice, Table, TableInvite
from tables.selectors.invites import SALT, link_token, may_invite
from tables.services import lobby
from tables.services.steps import table_lock

LINK_EXPIRED = _("This invitation has expired: the table is no longer waiting for players.")
LINK_INVALID = _("This invitation link is not valid. Ask the host for a new one.")
YOU_BLOCKED = _(
    "You blocked this player, %(name)s, who hosts this table: you cannot join it while your block stands. "
    "Unblock them on your friends page first."
)


def _new_nonce() -> str:
    return secrets.token_urlsafe(16)


def link_give(*, table_id: int, host: User, request: HttpRequest | None = None) -> str:
    """The table's link, made on first asking (the host's only)."""
    with transaction.atomic():
        table = table_lock(table_id)
        if table.host_id != host.pk:
            raise TableError(_("Only the host can do that."))
        if not table.invite_nonce:
            table.invite_nonce = _new_nonce()
            table.save(update_fields=["invite_nonce"])
    path = reverse("table_invite", args=[link_token(table)])
    return request.build_absolute_uri(path) if request is not None else path


def link_renew(*, table_id: int, host: User) -> None:
    """Revoke every copy of the link: a new nonce, so the old tokens no longer match."""
    with transaction.atomic():
        table = table_lock(table_id)
        if table.host_id != host.pk:
            raise TableError(_("Only the host can do that."))
        table.invite_nonce = _new_nonce()
        table.save(update_fields=["invite_nonce"])


def link_follow(*, token: str, user: User, now: datetime | None = None) -> Table:
    """The player followed the link: they are invited (and may sit) while the table waits for players."""
    try:
        claim = signing.loads(token, salt=SALT)
        table_id, nonce = int(claim["t"]), str(claim["n"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise TableError(LINK_INVALID) from None
    with transaction.atomic():
        table = Table.objects.filter(pk=table_id).first()
        if table is None or not table.invite_nonce or not secrets.compare_digest(table.invite_nonce, nonce):
            raise TableError(LINK_INVALID)
        if table.status != Table.Status.LOBBY:
            raise TableError(LINK_EXPIRED)
        if Block.objects.filter(blocker_id=table.host_id, blocked=user).exists():
            raise TableError(LINK_INVALID)  # RULING P67: said as for any link that does not hold
        if Block.objects.filter(blocker=user, blocked_id=table.host_id).exists():
            if table.private:
                # RULING P67: the one who blocked knows it; their block keeps them from the host's private table.
                raise TableError(lazy_format(YOU_BLOCKED, name=public_name(table.host)))
            return table  # a public table: they may sit there as anyone may, no invitation needed
        if user.pk != table.host_id:
            TableInvite.objects.get_or_create(table=table, user=user, defaults={"created_at": now or timezone.now()})
    return table


def invite_send(
    *, table_id: int, by: User, user_id: str | int | None, now: datetime | None = None
) -> TableInvite | None:
    """Invite a friend: recorded, and they are notified (RULING P66). None when it was dropped
    quietly (RULING P67): the friend muted the one inviting."""
    try:
        if user_id is None:  # the form sent no player
            raise ValueError(user_id)
        friend = User.objects.get(pk=int(user_id), is_active=True, is_bot=False)
    except (User.DoesNotExist, TypeError, ValueError):
        raise TableError(_("There is no such player.")) from None
    now = now or timezone.now()
    with transaction.atomic():
        table = table_lock(table_id)
        if not may_invite(table=table, user=by):
            raise TableError(_("You cannot invite players to this table now."))
        if not are_friends(user_id=by.pk, other_id=friend.pk):
            raise TableError(_("You can invite your friends; send anyone else the table's link."))
        if table.seats.filter(user=friend).exists():
            raise TableError(_("That player is already at the table."))
        if TableInvite.objects.filter(table=table, user=friend).exists():
            raise TableError(_("That player is already invited."))
        _take_invite_token(by)
        quiet = gates.refused(recipient_id=friend.pk, actor_id=by.pk)
        try:
            with transaction.atomic():
                invite = TableInvite.objects.create(table=table, user=friend, invited_by=by, created_at=now)
        except IntegrityError:
            raise TableError(_("That player is already invited.")) from None
        if not quiet:
            notify(user=friend, kind=kinds.INVITE, table=table, actor=by, data={"game": table.game}, now=now)
    return None if quiet else invite


def challenge(*, by: User, user_id: str | int | None, game: str, now: datetime | None = None) -> Table:
    """Challenge a friend (issue 53): a table of ``game`` with the challenger's last options for it
    (the last table they hosted of it, else their "Play now" choice, else the game's defaults),
    friends and invited only, its host the challenger, and the friend invited to it (RULING P66)."""
    if not catalog.known(game):
        raise TableError(_("There is no such game."))
    try:
        friend_id = int(user_id)  # type: ignore[arg-type]  # anything a form sent: refused below if not a number
    except (TypeError, ValueError):
        raise TableError(_("There is no such player.")) from None
    if not are_friends(user_id=by.pk, other_id=friend_id):
        raise TableError(_("You can challenge your friends; send anyone else a table's link."))
    seat_count, options, clock_seconds = last_options(user=by, game=game)
    with transaction.atomic():
        table = lobby.table_create(
            host=by, game=game, seat_count=seat_count, options=options, clock_seconds=clock_seconds, private=True
        )
        invite_send(table_id=table.pk, by=by, user_id=friend_id, now=now)
    return table


def last_options(*, user: User, game: str) -> tuple[int, dict, int | None]:
    """The seats, options and turn clock of the last unstaked table ``user`` hosted of ``game`` (not a
    practice one); else their "Play now" choice for it; else the game's own (four seats, or its limit)."""
    last = (
        Table.objects.filter(host=user, game=game, practice=False, stake=0)
        .order_by("-created_at", "-pk")
        .values("seat_count", "options", "clock")
        .first()
    )
    if last is not None:
        return last["seat_count"], dict(last["options"]), last["clock"]
    rules = catalog.get(game)
    choice = QuickPlayChoice.objects.filter(user=user, game=game).first()
    seat_count = (choice and choice.seat_count) or max(rules.min_players, min(4, rules.max_players))
    return seat_count, dict((choice and choice.options) or {}), None


def _take_invite_token(by: User) -> None:
    most = settings.INVITES_PER_HOUR
    if not hourly_take("invite", user_id=by.pk, most=most):
        raise TableError(
            lazy_format(
                ngettext_lazy(
                    "You have sent %(count)s invitation in the last hour. Try again later.",
                    "You have sent %(count)s invitations in the last hour. Try again later.",
                    most,
                ),
                count=most,
            )
        )


def rematch_offer_send(*, user: User, table: Table, source: Table, actor: User) -> None:
    """A rematch waits for ``user``'s answer (RULING P70); dropped quietly if they turned the kind
    off or blocked ``actor`` (notify decides). It leads to the game-over panel, where they answer."""
    answer_at = reverse("table", args=[source.pk]) + "#rematch"
    with transaction.atomic():
        notify(
            user=user, kind=kinds.REMATCH_OFFER, table=table, actor=actor, data={"game": table.game, "url": answer_at}
        )
