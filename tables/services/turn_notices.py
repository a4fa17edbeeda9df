"""RULING P74: "your turn", told on a player's devices when they are not at the table.

A move that begins a new turn, or that a human made, is due a check after commit, in
``TURN_NOTICE_SECONDS`` (``turn_notice_queue`` in tables/services/steps.py; one queued check per
match at a time, tables/turn_notice_queue.py). The check (``turn_notices_check``) reads the match
again and does nothing if it moved on since: a quick game sends nothing. Otherwise each human
seat still awaited whose player has no live socket on the table gets one ``YOUR_TURN``
notification (once per turn: one already there is kept), and a ``YOUR_TURN`` notice of a player
no longer awaited is withdrawn: deleted from the bell and, if it went to their devices, replaced
there by a quiet one with the same tag.

The same test is what the push channel asks at send time (tables/selectors/turn_notices.py
``current``): a notice that stopped being true while it waited (the turn taken, the player back
at the table) is not sent. Each notice is its own transaction, the withdrawal one statement: a
check is a loop of them, harmless twice or late. ``connected`` is the table sockets' presence
(the task hands it in: the write side does not import the live side).
"""

from __future__ import annotations

from django.db import transaction

from core import outbox
from games.models import Match
from notifications import kinds
from notifications.models import Notification
from notifications.services import notify
from tables import matchstore
from tables.events import TurnNoticeWithdrawn
from tables.selectors.turn_notices import Connected, awaited_users


def _deadline(match: Match, seat: int) -> int | None:
    kept = (match.deadlines or {}).get(str(seat))
    return int(kept[0] / 1000) if kept else None


def turn_notices_check(*, match_id: int, version: int, connected: Connected) -> int:
    """The queued check; the number of players told. Twice or late is harmless."""
    match = Match.objects.filter(pk=match_id).select_related("table").first()
    if match is None or match.version != version:
        return 0  # it moved on: the check that later move queued decides
    awaited = awaited_users(match)
    _withdraw(match, keep=set(awaited))
    told = 0
    for user_id, seat in awaited.items():
        earlier = Notification.objects.filter(kind=kinds.YOUR_TURN, table_id=match.table_id, recipient_id=user_id)
        if earlier.filter(data__match=match.pk).exists() or connected(match.table_id, user_id):
            continue
        data = {"game": match.game, "match": match.pk, "seat": seat, "version": match.turn_version}
        deadline = _deadline(match, seat)
        if deadline is not None:
            data["deadline"] = deadline
        with transaction.atomic():
            user = match.match_players.get(seat=seat).user
            if notify(user=user, kind=kinds.YOUR_TURN, table=match.table, data=data) is not None:
                told += 1
    return told


def _withdraw(match: Match, *, keep: set[int]) -> None:
    """The "your turn" notices at this table of players not awaited any more: gone from the bell,
    and on devices that showed one, replaced by a quiet notice with the same tag (RULING P74)."""
    stale = Notification.objects.filter(kind=kinds.YOUR_TURN, table_id=match.table_id).exclude(recipient_id__in=keep)
    for notification in stale.select_related("recipient"):
        if notification.delivered_at is not None:
            language = notification.recipient.language
            outbox.send(
                TurnNoticeWithdrawn(user_id=notification.recipient_id, table_id=match.table_id, language=language)
            )
    stale.delete()


def start_notices_check(*, match_id: int, connected: Connected) -> int:
    """RULING P74: "your table is starting", to the seated players who are not at the table once the
    game has begun (the one it awaits is told it is their turn instead). Once per game and player."""
    match = Match.objects.filter(pk=match_id).select_related("table").first()
    if match is None or match.status != Match.Status.PLAYING:
        return 0
    awaited = awaited_users(match)
    told = 0
    for seat, user_id, is_bot in matchstore.seating(match):
        if is_bot or user_id in awaited or connected(match.table_id, user_id):
            continue
        earlier = Notification.objects.filter(kind=kinds.TABLE_STARTING, table_id=match.table_id, recipient_id=user_id)
        if earlier.filter(data__match=match.pk).exists():
            continue
        with transaction.atomic():
            user = match.match_players.get(seat=seat).user
            data = {"game": match.game, "match": match.pk}
            if notify(user=user, kind=kinds.TABLE_STARTING, table=match.table, data=data) is not None:
                told += 1
    return told
