"""Tell every consumer of a table that it changed; each renders its own viewer's fragment.

Sent only after the transaction commits (STYLE.md §7), so a consumer never reads
a state that might still roll back. The event carries the new state text, so
consumers need no database read per move; they never send it to a client.
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction


def group_name(table_id: int) -> str:
    return f"table.{table_id}"


def send_table_changed(table_id: int, *, match_id: int | None = None, version: int | None = None,
                       state: str | None = None, lobby: bool = False) -> None:
    event = {"type": "table.changed", "match_id": match_id, "version": version, "state": state, "lobby": lobby}
    async_to_sync(get_channel_layer().group_send)(group_name(table_id), event)


def table_changed_on_commit(table_id: int, **kwargs) -> None:
    transaction.on_commit(lambda: send_table_changed(table_id, **kwargs))
