"""Channel-layer group names that more than one app sends to."""

from __future__ import annotations


def table_group(table_id: int) -> str:
    """The table's group: the game's events (tables/live/broadcast.py), its presence and its chat
    (chat/broadcast.py) share it, so the table's one socket hears them all."""
    return f"table.{table_id}"
