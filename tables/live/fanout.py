"""One read and one render per process for a change that every socket of a table hears (issue 21, F1).

A lobby change (a seat taken, a ready flag) and a presence change reach every socket
of the table, and each used to read the table (or Redis) and render its own view: 50
sockets cost 50 reads per change. Each such event now carries an id; the first socket
of a process to handle it starts the read, and the others of that process await the
same result (core/fanout.py). A move's event carries its new state, and the sockets of a
process that held the same view before it share one new snapshot too (``moved``). Views are rendered
once per (snapshot, what the viewer may see, their language, who is connected): a user's five windows on
one table share one render, and so do all the spectators of a table (the view depends
on the viewer only through their seat and whether they host the table).

What a read returns is never older than the event: it starts after the event was sent,
and the event is sent after its transaction commits (tables/live/broadcast.py).
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Awaitable
from collections.abc import Set as AbstractSet

from channels.db import database_sync_to_async
from django.utils import translation
from django.utils.safestring import SafeString

from core.fanout import KEEP_SECONDS, once
from tables.live import presence
from tables.render import fragment

# A move's snapshot and renders: the process's sockets of the table take their turns at a move
# within one pass of the loop, and a busy table makes several moves a second, each with a
# fragment per seat; kept as long as a lobby read, they added up to megabytes.
MOVE_KEEP_SECONDS = 1.0


class _Shared:
    """Per event loop: moves' snapshots by event id, and renders by snapshot."""

    def __init__(self) -> None:
        self.moves: dict[str, list[tuple[fragment.Snapshot, fragment.Snapshot]]] = {}
        self.renders: dict[int, tuple[fragment.Snapshot, dict]] = {}


_shared: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Shared] = weakref.WeakKeyDictionary()


def _here() -> _Shared:
    loop = asyncio.get_running_loop()
    shared = _shared.get(loop)
    if shared is None:
        shared = _shared[loop] = _Shared()
    return shared


async def table_snapshot(table_id: int, event_id: str | None) -> fragment.Snapshot | None:
    """The table as read once for ``event_id`` in this process (read alone when there is no id)."""
    load = database_sync_to_async(fragment.load_snapshot)
    result = await once(event_id, ("snapshot", table_id), lambda: load(table_id))
    if event_id and result is not None:
        _remember(result)
    return result


def moved(
    before: fragment.Snapshot, event_id: str | None, *, version: int, state: str, clock: dict | None
) -> fragment.Snapshot:
    """``before`` with a move's new state; one snapshot per process for every socket that held
    the same view before the move (compared by value), so their views render once."""
    if not event_id:
        return before.with_state(version=version, state=state, clock=clock)
    shared = _here()
    pairs = shared.moves.get(event_id)
    if pairs is None:
        pairs = shared.moves[event_id] = []
        asyncio.get_running_loop().call_later(MOVE_KEEP_SECONDS, shared.moves.pop, event_id, None)
    for known, after in pairs:
        if known is before or known == before:
            return after
    after = before.with_state(version=version, state=state, clock=clock)
    pairs.append((before, after))
    _remember(after, MOVE_KEEP_SECONDS)
    return after


async def connected(table_id: int, event_id: str | None) -> frozenset[int]:
    """Who is connected, read once for ``event_id`` in this process."""
    return await once(event_id, ("connected", table_id), lambda: _frozen(presence.connected_users(table_id)))


async def _frozen(users: Awaitable[set[int]]) -> frozenset[int]:
    return frozenset(await users)


def _remember(result: fragment.Snapshot, keep: float = KEEP_SECONDS) -> None:
    shared = _here()
    key = id(result)
    if key not in shared.renders:
        shared.renders[key] = (result, {})
        asyncio.get_running_loop().call_later(keep, shared.renders.pop, key, None)


def render(snap: fragment.Snapshot, *, user_id: int, connected: AbstractSet[int]) -> SafeString:
    """This viewer's fragment; rendered once per kind of viewer and connected set for a shared snapshot."""
    entry = _here().renders.get(id(snap))
    if entry is None or entry[0] is not snap:  # not shared (a resync, a refused command): render it
        return fragment.render_live(snap, user_id=user_id, connected=connected, oob=True)
    # All the view takes from its viewer (tables/render/fragment.py, live_context): their seat, whether
    # they host the table, whether they are logged in at all, their language (two windows may
    # read two languages), at a closed table what came back to them, and whether they may sit.
    # Of who is connected, the view shows only the seated players' marks (live_context): a
    # socket's set may also hold spectators, as of its own last presence event.
    seated = {seat.user_id for seat in snap.seats if seat.user_id is not None}
    key = (
        fragment.seat_of(snap, user_id),
        user_id == snap.host_id,
        user_id is None,
        translation.get_language(),
        frozenset(connected) & seated,
        tuple(sorted((fragment.given_back_to(snap, user_id) or {}).items())),
        fragment.may_sit_here(snap, user_id),  # RULING P66: a private table offers a seat to some
    )
    html = entry[1].get(key)
    if html is None:
        html = entry[1][key] = fragment.render_live(snap, user_id=user_id, connected=connected, oob=True)
    return html
