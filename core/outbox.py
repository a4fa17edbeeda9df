"""The one after-commit outbox: the write side's side effects, handed over as typed events (docs/style.md §7).

A write never tells a socket or queues a Celery task itself. Inside its transaction it hands a
typed event (a frozen dataclass from its app's ``events.py``) to ``send``. The event waits for
the commit; nothing is sent for a write that rolls back. Then it goes to the handler registered
for its type. A transaction sends at one savepoint depth, so one ``on_commit`` hook carries all
its events, in the order they were handed over, and an event equal to one already waiting goes
once. A send inside a nested atomic block starts a batch of its own, with its own hook, and so
does a send made back in the outer block after it. Then a rolled-back savepoint drops exactly
its own events, as Django drops its hooks, and the events still go out in order. Outside a
transaction an event goes at once, as ``on_commit`` runs a hook.

Where events go is registered, from its ``ready()``, by the app that owns the destination. A
handler sits beside what it sends to: the module that sends to a socket group, or the tasks
module for a task. Tables gathers its handlers in tables/delivery.py. Chat's are in
chat/broadcast.py, which also handles social's block event, since the chat panels are chat's.
Notifications' are in notifications/live.py (the bell) and notifications/tasks.py (the away
delivery). Tournaments' are in tournaments/consumer.py (the page) and tournaments/tasks.py, and
games' in games/tasks.py. So services import neither the sockets nor the tasks, and this module
imports no app. A new kind of event is one dataclass in its app's ``events.py`` and one
registry entry, ``outbox.handle(Kind, handler)``, in that app's ``ready()`` (tables: in
``tables.delivery.connect``).

The outbox lives in the process, not in a table. It sends each event at most once: an event is
lost if its process dies between the commit and the send, if the broker is down (``robust``
events), or if a socket misses it. Most losses are repaired by the next push, since each push
carries the whole current view. These are not, so each is stored or checked again:

- A table's move or lobby change: every push is the table's whole view with its version, and
  the next push or a reconnect brings it.
- A permission revoked (a table made private, a block, an unfriending; RULING P66): the table's
  ``access_version`` is stored, and every move's push carries it, so a socket that missed the
  event decides again before that push.
- A chat message hidden: ``ChatMessage.hidden`` is stored. Every chat panel read leaves the
  message out: a socket's opening, any ``chat.sync``, a refused post.
- A site-wide chat mute set or lifted (RULING P29), or the host's switch of spectators' chat
  (RULING P26): the ``ChatMute`` and ``ChatRoom`` rows are stored. Posting checks them itself,
  and the panel's next read shows them.
- A block or an unblock (RULING P67): the ``Block`` row is stored. The next chat panel read
  leaves out the other player's messages, and notifying checks it (notifications.gates).
- A bell notice, or notices read: the ``Notification`` rows are stored. Every bell frame reads
  the count and the list from them, at the next push or page. The notice's away delivery
  (e-mail, web push) is a task sent once; if it is lost it is not sent again.
- A login ended by a save of the account (RULING P18): the account holds the new session hash,
  and a socket checks its session again at its first message after ``SESSION_RECHECK_SECONDS``.
- A tournament's page: every push renders it again from the database.
- The tasks: beat's sweeps queue again what a lost task should have done. For tables, that is
  tables/services/recovery.py and the clock's sweep; for tournaments, ``tournaments_due``; for
  reviews, the dispatch every minute.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.db import transaction
from django.db.backends.base.base import BaseDatabaseWrapper

logger = logging.getLogger(__name__)

Event = TypeVar("Event")

_handlers: dict[type, Callable[[Any], None]] = {}


def handle(kind: type[Event], handler: Callable[[Event], None]) -> None:
    """Register where events of ``kind`` go (once, from the owning app's ``ready()``)."""
    _handlers[kind] = handler


def send(event: object, *, robust: bool = False) -> None:
    """Deliver ``event`` once the transaction commits (at once outside one). ``robust``: a failure
    to deliver is logged, not raised. The write has committed, and the event is one that the
    next push or a sweep makes good (see above)."""
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        _Batch([], [[event, robust]])()
        return
    batch = _batches.get(connection)
    if batch is None or not batch.waiting(connection):
        batch = _batches[connection] = _Batch(list(connection.savepoint_ids))
        connection.on_commit(batch)
    batch.add(event, robust)


@dataclass(eq=False)
class _Batch:
    """The events one transaction hands over at one savepoint depth, and its one on-commit hook."""

    savepoints: list[str | None]
    events: list[list[Any]] = field(default_factory=list)  # [event, robust]
    done: bool = False

    def waiting(self, connection: BaseDatabaseWrapper) -> bool:
        """Still filling: this transaction's, at this depth. Equal savepoint stacks are the same
        open savepoints (an id is not reused within a transaction); the hook's presence tells this
        transaction from an earlier one that rolled back, whose hooks went with it."""
        return (
            not self.done
            and self.savepoints == connection.savepoint_ids
            and any(entry[1] is self for entry in connection.run_on_commit)  # (savepoints, hook, robust)
        )

    def add(self, event: object, robust: bool) -> None:
        for waiting in self.events:
            if waiting[0] == event:
                waiting[1] = waiting[1] and robust  # coalesced: robust only if both were
                return
        self.events.append([event, robust])

    def __call__(self) -> None:
        self.done = True
        for event, robust in self.events:
            if not robust:
                _deliver(event)
                continue
            try:
                _deliver(event)
            except Exception:  # noqa: BLE001 (robust: committed, and made good later, as the docstring says)
                logger.exception("after-commit event %s was not delivered", type(event).__name__)


# The batch each connection is filling; connections are per thread, so this is too.
_batches: weakref.WeakKeyDictionary[BaseDatabaseWrapper, _Batch] = weakref.WeakKeyDictionary()


def _deliver(event: object) -> None:
    handler = _handlers.get(type(event))
    if handler is None:
        raise RuntimeError(f"No handler for {type(event).__name__}: its app registers one from its ready().")
    handler(event)
