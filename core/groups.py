"""Every channel-layer group the site's sockets join and its apps send to, named here alone, and
the one way a committed write's event reaches a group (``send``).

A socket joins a group and some other module, often of another app, sends to it: both ask here,
so neither spells the other's string. The outbox's handlers (core/outbox.py) all send through
``send``, so every after-commit message leaves the process one way.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from contextvars import ContextVar

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)

# Set by a socket's consumer: the event loop its commands' writes (and so their handlers) run for.
socket_loop: ContextVar[asyncio.AbstractEventLoop | None] = ContextVar("socket_loop", default=None)
_sending: set[asyncio.Task] = set()  # the loop keeps only weak references to tasks


def send(group: str, event: dict, *, on_loop: Callable[[str, dict], None] | None = None) -> None:
    """Send ``event`` to ``group``, after the commit that made it.

    A write that came in over a socket runs on that consumer's database thread: its event is
    handed to the consumer's event loop (to ``on_loop``, else ``send_on_loop``) and not waited
    for, since blocking the database thread until the busy loop gets round to the send would
    hold up every other write of that process (issue 9). Elsewhere (Celery, views, tests) the
    send completes before the call returns, and a failure is raised to the caller.
    """
    loop = socket_loop.get()
    if loop is not None and loop.is_running():
        loop.call_soon_threadsafe(on_loop or send_on_loop, group, event)
    else:
        async_to_sync(get_channel_layer().group_send)(group, event)


def send_on_loop(group: str, event: dict) -> None:
    """On the running loop: start the send, keep it until done, log it if it fails (what was
    written is committed; the next push or page heals every view)."""
    task = asyncio.get_running_loop().create_task(get_channel_layer().group_send(group, event))
    _sending.add(task)
    task.add_done_callback(_sent)


def _sent(task: asyncio.Task) -> None:
    _sending.discard(task)
    if not task.cancelled() and task.exception() is not None:
        logger.error("a group send failed", exc_info=task.exception())


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
