"""Who may sit at a table and who may watch it (RULING P66), asked by every door to a table:
the lobby's list, the table page, its socket and taking a seat.

A public table is open to everyone, as before. A private one ("friends and invited only") is
not listed in the public lobby; its seats are for its host, the host's friends and the players
invited to it (by a friend's invitation or by following its link); its spectators are whom the
host chose: anyone, the friends of its seated players, or nobody. A player blocked by the host,
or who blocked the host, neither sits nor watches there (RULING P67). Whoever holds a seat may
always see their own table.

Open sockets follow these rules too, not only their openings: every change of who may see a
table raises its ``access_version`` (tables/services/privacy.py ``access_recheck``), and a
socket that decided under an older version decides again, with ``open_refusal``, before its next
push (tables/live/consumer.py). Changes that concern two players alone (a block, an unfriending)
name them, so the table's other sockets need no read; who sits is in every socket's snapshot, so
a seat taken or left at a private table needs no version of its own.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from accounts.models import User
from social.models import Friendship
from social.selectors import are_friends, blocked_either_way, blocked_ids, friend_ids
from tables.models import Spectators, Table, TableInvite

NOT_INVITED = _("This table is for the host's friends and invited players.")
NOT_WATCHABLE = _("This table is private: you cannot watch it.")


def _seated(table: Table, user: User) -> bool:
    return table.seats.filter(user=user).exists()


def may_sit(*, table: Table, user: User) -> bool:
    if not table.private or user.pk == table.host_id:
        return True
    if blocked_either_way(user_id=table.host_id, other_id=user.pk):
        return False
    return (
        are_friends(user_id=table.host_id, other_id=user.pk)
        or TableInvite.objects.filter(table=table, user=user).exists()
    )


def sitters(table: Table) -> frozenset[int] | None:
    """Everyone who may take a seat at a private table waiting for players, as ``may_sit`` decides
    it for each (None: a public table, open to all): read once with the table's live view, so the
    view offers a seat only to whom taking it will not refuse (issue 53)."""
    if not table.private or table.status != Table.Status.LOBBY:
        return None
    invited = set(TableInvite.objects.filter(table=table).values_list("user_id", flat=True))
    allowed = (friend_ids(user_id=table.host_id) | invited) - blocked_ids(user_id=table.host_id)
    return frozenset(allowed | {table.host_id})


def may_watch(*, table: Table, user: User) -> bool:
    if not table.private or user.pk == table.host_id or _seated(table, user):
        return True
    if blocked_either_way(user_id=table.host_id, other_id=user.pk):
        return False
    if table.spectators == Spectators.ANYONE:
        return True
    if table.spectators == Spectators.FRIENDS:
        seated = table.seats.exclude(user=None).values("user_id")
        return Friendship.objects.filter(user_id__in=seated, friend=user).exists()
    return False


def may_open(*, table: Table, user: User) -> bool:
    """The table page and its socket: a watcher, or one who may still take a seat."""
    if may_watch(table=table, user=user):
        return True
    return table.status == Table.Status.LOBBY and may_sit(table=table, user=user)


def open_refusal(table_id: int, user: User) -> str | None:
    """Sync: why ``user`` may not open the table (page or socket), or None. One read for a public table."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None or not table.private or may_open(table=table, user=user):
        return None
    return str(NOT_WATCHABLE)
