"""RULING P74: "your turn", told on a player's devices when they are not at the table.

A move that begins a new turn, or that a human made, is due a check after commit, in
``TURN_NOTICE_SECONDS`` (``turn_notice_queue`` in tables/services/steps.py; one queued check per
match at a time, tables/turn_notice_queue.py). The check (``turn_notices_check``) reads the match
again and does nothing if it moved on since: a quick game sends nothing. Otherwise each human
seat still awaited whose player has no live socket on the table gets one ``YOUR_TURN``
notification (once per turn: one already there is kept), and a ``YOUR_TURN`` notice of a player
no longer awaited is withdrawn: deleted from the bell and, if it went to their devices, replaced
there by a quiet one with the same tag.

The same test is what the push channel asks at send time (``current``): a notice that stopped
being true while it waited (the turn taken, the player back at the table) is not sent.
"""

from __future__ import annotations

from django.db import transaction

from games.catalog import get_engine
from games.models import Match
from notifications import kinds
from notifications.models import Notification
from tables import matchstore
from tables.live.presence import user_connected_now


def awaited_users(match: Match) -> dict[int, int]:
    """Human players whose decision the match awaits now: user id → seat. Away seats are the house's."""
    if match.status != Match.Status.PLAYING:
        return {}
    state = matchstore.loaded(match.game, match.pk, match.version, match.state)
    awaited = set(get_engine(match.game).to_act(state))
    away = {int(seat) for seat in (match.clock_seats or {}).get("away", {})}
    return {
        user_id: seat
        for seat, user_id, is_bot in matchstore.seating(match)
        if seat in awaited and not is_bot and seat not in away
    }


def _deadline(match: Match, seat: int) -> int | None:
    kept = (match.deadlines or {}).get(str(seat))
    return int(kept[0] / 1000) if kept else None


def check(*, match_id: int, version: int) -> int:
    """The queued check; the number of players told. Twice or late is harmless."""
    from notifications.services import notify

    match = Match.objects.filter(pk=match_id).select_related("table").first()
    if match is None or match.version != version:
        return 0  # it moved on: the check that later move queued decides
    awaited = awaited_users(match)
    withdraw(match, keep=set(awaited))
    told = 0
    for user_id, seat in awaited.items():
        earlier = Notification.objects.filter(kind=kinds.YOUR_TURN, table_id=match.table_id, recipient_id=user_id)
        if earlier.filter(data__match=match.pk).exists() or user_connected_now(match.table_id, user_id):
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


def withdraw(match: Match, *, keep: set[int]) -> None:
    """The "your turn" notices at this table of players not awaited any more: gone from the bell,
    and on devices that showed one, replaced by a quiet notice with the same tag (RULING P74)."""
    from away.push import replacement_text
    from away.tasks import pushes_replace

    stale = Notification.objects.filter(kind=kinds.YOUR_TURN, table_id=match.table_id).exclude(recipient_id__in=keep)
    for notification in stale.select_related("recipient"):
        if notification.delivered_at is not None:
            pushes_replace(
                user_id=notification.recipient_id,
                table_id=match.table_id,
                body=replacement_text(language=notification.recipient.language, table_id=match.table_id),
            )
    stale.delete()


def current(notification: Notification) -> bool:
    """Still true: that game awaits this player, who is still not at the table."""
    match_id = (notification.data or {}).get("match")
    table_id = notification.table_id
    if match_id is None or table_id is None:
        return False  # no game to await anyone (a match always has a table)
    match = Match.objects.filter(pk=match_id, table_id=table_id).first()
    if match is None or notification.recipient_id not in awaited_users(match):
        return False
    return not user_connected_now(table_id, notification.recipient_id)


def start_check(*, match_id: int) -> int:
    """RULING P74: "your table is starting", to the seated players who are not at the table once the
    game has begun (the one it awaits is told it is their turn instead). Once per game and player."""
    from notifications.services import notify

    match = Match.objects.filter(pk=match_id).select_related("table").first()
    if match is None or match.status != Match.Status.PLAYING:
        return 0
    awaited = awaited_users(match)
    told = 0
    for seat, user_id, is_bot in matchstore.seating(match):
        if is_bot or user_id in awaited or user_connected_now(match.table_id, user_id):
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


def start_current(notification: Notification) -> bool:
    """Still true: the game is being played and the player is still not at the table."""
    match_id = (notification.data or {}).get("match")
    if match_id is None or not Match.objects.filter(pk=match_id, status=Match.Status.PLAYING).exists():
        return False
    table_id = notification.table_id
    return table_id is None or not user_connected_now(table_id, notification.recipient_id)


def invite_current(notification: Notification) -> bool:
    """Still true: the invitation stands and the table still waits for players (RULING P66)."""
    from tables.models import Table, TableInvite

    if not notification.table_id:
        return True  # an invitation that names no table has nothing to withdraw
    waiting = Table.objects.filter(pk=notification.table_id, status=Table.Status.LOBBY).exists()
    return (
        waiting and TableInvite.objects.filter(table_id=notification.table_id, user=notification.recipient_id).exists()
    )
