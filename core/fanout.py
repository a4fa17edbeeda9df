"""One read per process for an event that many sockets of the process hear (issue 21, F1).

A change that every socket of a group hears (a table's lobby, a tournament's standings) used
to have each socket read it again: 50 sockets cost 50 reads per change. Each such event carries
an id; the first socket of a process to handle it starts the read (or a render), and the others
of that process await the same result, kept a few seconds for their turns. The sockets' own
modules say what is read and rendered and on which thread (tables/live/fanout.py,
tournaments/consumer.py); an event with no id is read by each socket alone.

What a read returns is never older than the event: it starts after the event was sent, and
the event is sent after its transaction commits.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable, Coroutine, Hashable
from typing import Any, TypeVar

KEEP_SECONDS = 5.0  # long enough for every socket of the process to take its turn at the event

Result = TypeVar("Result")

# Per event loop: reads in flight or just done, by event id and what is read.
_reads: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[Hashable, asyncio.Future]] = (
    weakref.WeakKeyDictionary()
)


async def once(event_id: str | None, what: Hashable, read: Callable[[], Coroutine[Any, Any, Result]]) -> Result:
    """``read()``'s result, read once in this process for the event ``event_id`` and ``what`` is read
    (a table's snapshot, a render for one kind of viewer); read alone when the event has no id."""
    if not event_id:
        return await read()
    key = (event_id, what)
    loop = asyncio.get_running_loop()
    reads = _reads.get(loop)
    if reads is None:
        reads = _reads[loop] = {}
    future = reads.get(key)
    if future is None:
        future = reads[key] = loop.create_task(read())
        loop.call_later(KEEP_SECONDS, reads.pop, key, None)
    # Shielded: a socket that closes while it waits cancels its own wait, not the others' read.
    return await asyncio.shield(future)
