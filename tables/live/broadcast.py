"""Tell every consumer of a table that it changed; each renders its own viewer's fragment.

Sent only after the transaction commits (docs/style.md §7), so a consumer never reads
a state that might still roll back. The event carries the new state text, so
consumers need no database read per move; they never send it to a client.

It leaves through ``core.groups.send``: handed to the consumer's loop when a socket's command
made the change, sent at once elsewhere; on the loop, a table's lobby changes are coalesced.
"""

from __future__ import annotations

import asyncio
import uuid
import weakref
from dataclasses import dataclass

from core import groups
from core.groups import table_group


def send_table_changed(
    table_id: int,
    *,
    match_id: int | None = None,
    version: int | None = None,
    state: str | None = None,
    lobby: bool = False,
    clock: dict | None = None,
    access: int | None = None,
    access_users: tuple[int, ...] | None = None,
) -> None:
    # ``clock``: the turn clock's public part (deadlines, away seats), pushed with the state it goes with.
    # The id lets the sockets of one process share one read of the table (tables/live/fanout.py).
    event = {
        "type": "table.changed",
        "match_id": match_id,
        "version": version,
        "state": state,
        "lobby": lobby,
        "clock": clock,
        "access": access,  # RULING P66: see tables/events.py TableChanged
        "access_users": list(access_users) if access_users is not None else None,
        "id": uuid.uuid4().hex,
    }
    # Simultaneous moves of one table (SITA) commit in order but may be handed over out of order
    # by their threads; a consumer never replaces a newer version with an older one.
    groups.send(table_group(table_id), event, on_loop=_start_sending)


# Issue 34: lobby changes of one table (a seat taken or left, ready, not ready) sent from one process
# at most this often. Each makes every process holding the table's sockets read the table and render
# its viewers' views; a script toggling "ready" as fast as its limits allow made that read and
# render ten times a second per account. The first change of a quiet spell goes at once; those that
# follow within the spell are sent as one, at its end, so the last change always reaches everyone.
LOBBY_COALESCE_SECONDS = 0.25


@dataclass
class _LobbySends:
    last: float = -1e9  # the loop's time of the last send
    trailing: asyncio.TimerHandle | None = None


_lobby_sends: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, _LobbySends]] = weakref.WeakKeyDictionary()


def _start_sending(group: str, event: dict) -> None:
    if event.get("lobby") and not event.get("state"):
        loop = asyncio.get_running_loop()
        sends = _lobby_sends.setdefault(loop, {}).setdefault(group, _LobbySends())
        wait = sends.last + LOBBY_COALESCE_SECONDS - loop.time()
        if sends.trailing is not None:
            return  # the spell's send is already due, and will carry this change too
        if wait > 0:
            sends.trailing = loop.call_later(wait, _send_trailing, group, event, sends)
            return
        sends.last = loop.time()
        loop.call_later(LOBBY_COALESCE_SECONDS * 2, _forget_quiet, loop, group, sends)
    groups.send_on_loop(group, event)


def _send_trailing(group: str, event: dict, sends: _LobbySends) -> None:
    loop = asyncio.get_running_loop()
    sends.trailing, sends.last = None, loop.time()
    # A fresh id: the sockets of each process read the table once for it, after every change it carries.
    groups.send_on_loop(group, {**event, "id": uuid.uuid4().hex})
    loop.call_later(LOBBY_COALESCE_SECONDS * 2, _forget_quiet, loop, group, sends)


def _forget_quiet(loop: asyncio.AbstractEventLoop, group: str, sends: _LobbySends) -> None:
    by_group = _lobby_sends.get(loop, {})
    if sends.trailing is None and loop.time() - sends.last >= LOBBY_COALESCE_SECONDS and by_group.get(group) is sends:
        del by_group[group]
