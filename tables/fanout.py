"""One read and one render per process for a change that every socket of a table hears (issue 21, F1).

A lobby change (a seat taken, a ready flag) and a presence change reach every socket
of the table, and each used to read the table (or Redis) and render its own view: 50
sockets cost 50 reads per change. Each such event now carries an id; the first socket
of a process to handle it starts the read, and the others of that process await the
same result. Views are rendered once per (snapshot, viewer, language, who is connected): a
user's five windows on one table share one render.

What a read returns is never older than the event: it starts after the event was sent,
and the event is sent after its transaction commits (tables/broadcast.py).
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Awaitable, Callable
from typing import TypeVar

from channels.db import database_sync_to_async
from django.utils import translation
from django.utils.safestring import SafeString

from tables import live, presence

KEEP_SECONDS = 5.0  # long enough for every socket of the process to take its turn at the event

Result = TypeVar("Result")


class _Shared:
    """Per event loop: reads in flight or just done, by event id, and renders by snapshot."""

    def __init__(self) -> None:
        self.reads: dict[tuple, asyncio.Future] = {}
        self.renders: dict[int, tuple[live.Snapshot, dict]] = {}


_shared: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Shared]" = weakref.WeakKeyDictionary()


def _here() -> _Shared:
    loop = asyncio.get_running_loop()
    shared = _shared.get(loop)
    if shared is None:
        shared = _shared[loop] = _Shared()
    return shared


async def _once(key: tuple, read: Callable[[], Awaitable[Result]]) -> Result:
    shared = _here()
    future = shared.reads.get(key)
    if future is None:
        loop = asyncio.get_running_loop()
        future = shared.reads[key] = loop.create_task(read())
        loop.call_later(KEEP_SECONDS, shared.reads.pop, key, None)
    return await asyncio.shield(future)


async def snapshot(table_id: int, event_id: str | None) -> live.Snapshot | None:
    """The table as read once for ``event_id`` in this process (read alone when there is no id)."""
    load = database_sync_to_async(live.load_snapshot)
    if not event_id:
        return await load(table_id)
    result = await _once(("snapshot", table_id, event_id), lambda: load(table_id))
    if result is not None:
        _remember(result)
    return result


async def connected(table_id: int, event_id: str | None) -> frozenset[int]:
    """Who is connected, read once for ``event_id`` in this process."""
    if not event_id:
        return frozenset(await presence.connected_users(table_id))
    return await _once(("connected", table_id, event_id),
                       lambda: _frozen(presence.connected_users(table_id)))


async def _frozen(users: Awaitable[set[int]]) -> frozenset[int]:
    return frozenset(await users)


def _remember(result: live.Snapshot) -> None:
    shared = _here()
    key = id(result)
    if key not in shared.renders:
        shared.renders[key] = (result, {})
        asyncio.get_running_loop().call_later(KEEP_SECONDS, shared.renders.pop, key, None)


def render(snap: live.Snapshot, *, user_id: int, connected: set[int] | frozenset[int]) -> SafeString:
    """This viewer's fragment; rendered once per viewer and connected set for a shared snapshot."""
    entry = _here().renders.get(id(snap))
    if entry is None or entry[0] is not snap:  # not shared (a move's state, a resync): render it
        return live.render_live(snap, user_id=user_id, connected=connected, oob=True)
    key = (user_id, translation.get_language(), frozenset(connected))  # two windows may read two languages
    html = entry[1].get(key)
    if html is None:
        html = entry[1][key] = live.render_live(snap, user_id=user_id, connected=connected, oob=True)
    return html
