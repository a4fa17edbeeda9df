"""RULING P74, the read side: whom a game awaits, and whether a notice about a table is still true
when an away channel is about to send it (``current``, ``start_current``, ``invite_current``,
registered in ``TablesConfig.ready``). The notices themselves are written by
tables/services/turn_notices.py.

Whether a player is at the table is the table sockets' presence (tables/live/presence.py), which
the read side of tables may not import (the live side reads these selectors): it is handed in as
``connected``.
"""

from __future__ import annotations

from collections.abc import Callable

from games.catalog import get_engine
from games.models import Match
from notifications.models import Notification
from tables import matchstore
from tables.models import Table, TableInvite

Connected = Callable[[int, int], bool]  # (table id, user id) → a live socket of theirs is on that table now


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


def current(notification: Notification, *, connected: Connected) -> bool:
    """Still true: that game awaits this player, who is still not at the table."""
    match_id = (notification.data or {}).get("match")
    table_id = notification.table_id
    if match_id is None or table_id is None:
        return False  # no game to await anyone (a match always has a table)
    match = Match.objects.filter(pk=match_id, table_id=table_id).first()
    if match is None or notification.recipient_id not in awaited_users(match):
        return False
    return not connected(table_id, notification.recipient_id)


def start_current(notification: Notification, *, connected: Connected) -> bool:
    """Still true: the game is being played and the player is still not at the table."""
    match_id = (notification.data or {}).get("match")
    if match_id is None or not Match.objects.filter(pk=match_id, status=Match.Status.PLAYING).exists():
        return False
    table_id = notification.table_id
    return table_id is None or not connected(table_id, notification.recipient_id)


def invite_current(notification: Notification) -> bool:
    """Still true: the invitation stands and the table still waits for players (RULING P66)."""
    if not notification.table_id:
        return True  # an invitation that names no table has nothing to withdraw
    waiting = Table.objects.filter(pk=notification.table_id, status=Table.Status.LOBBY).exists()
    return (
        waiting and TableInvite.objects.filter(table_id=notification.table_id, user=notification.recipient_id).exists()
    )
