"""What the site's socket consumers share."""

from __future__ import annotations

from channels.consumer import get_handler_name


class LoopDispatch:
    """Mixed in before Channels' consumer class: each message goes straight to its handler.

    Channels (4.2+) first closes stale database connections on the one shared thread of
    ``database_sync_to_async``, before every message: each socket's event queued behind every
    other call on that thread in the process (issue 9: a table's seats behind the moves of every
    other table). Our handlers reach the database only through ``database_sync_to_async``, which
    does the same around each call.
    """

    async def dispatch(self, message: dict) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)
