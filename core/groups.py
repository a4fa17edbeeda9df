"""Every channel-layer group the site's sockets join and its apps send to, named here alone.

A socket joins a group and some other module, often of another app, sends to it: both ask here,
so neither spells the other's string.
"""

from __future__ import annotations


def table_group(table_id: int) -> str:
    """The table's group: the game's events (tables/live/broadcast.py), its presence and its chat
    (chat/broadcast.py) share it, so the table's one socket hears them all."""
    return f"table.{table_id}"


def notify_group(user_id: int) -> str:
    """The player's group: every socket they have open (a table's, or a page's bell socket) hears
    their bell (notifications/live.py) and the end of their login (tables/live/sessions.py)."""
    return f"notify.{user_id}"


def tournament_group(tournament_id: int) -> str:
    """The tournament page's group: its sockets hear that the standings or rounds changed."""
    return f"tournament.{tournament_id}"
