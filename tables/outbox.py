"""The write side's after-commit side effects, handed over as typed events (docs/style.md §7).

A service never tells the sockets or queues a task itself: it hands an event to ``send``, which
holds it until the transaction commits (nothing is sent for a write that rolls back) and then
gives it to the handler registered for its type. The handlers (tables/delivery.py, wired in
``TablesConfig.ready``) send the table's group message and queue the Celery tasks; this module
imports nothing of tables, so the write modules reach neither ``tables.live`` nor
``tables.tasks``. It is in-process, not a table: an event lost with its process (a crash between
commit and send) is made good as before, by the next change (sockets) and by beat's sweeps
(tasks, tables/services/recovery.py and the clock's sweep).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.db import transaction


@dataclass(frozen=True, slots=True)
class TableChanged:
    """Every socket of the table renders its viewer's fragment again. ``state`` and ``clock``
    (the clock's public part, tables.selectors.clock_public) come with a move, so the sockets
    need no read; ``lobby``: more than the state changed, the sockets read the table again.
    ``access``: the table's access version, with a move (RULING P66: a socket that decided under
    an older one decides again). ``access_users``: after a change of who may see the table that
    concerns these users alone (a block, an unfriending), the only sockets that must decide again."""

    table_id: int
    match_id: int | None = None
    version: int | None = None
    state: str | None = None
    lobby: bool = False
    clock: dict | None = None
    access: int | None = None
    access_users: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class BotsDue:
    """A bot (or the house, for an away seat) is awaited at this version (RULINGS P1, P12)."""

    match_id: int
    version: int
    delay: bool = True  # after BOT_DELAY_SECONDS; the beat sweep's re-queue goes at once


@dataclass(frozen=True, slots=True)
class ClockDue:
    """The match's countdown timer was armed for ``at`` (epoch ms), set at ``version`` (tables/clock.py)."""

    match_id: int
    version: int
    at: int


@dataclass(frozen=True, slots=True)
class VoteDue:
    """A dismissal vote's deadline is ``seconds`` away (RULING S12)."""

    vote_id: int
    seconds: float


@dataclass(frozen=True, slots=True)
class QuickFillDue:
    """A quick-play table's wait for humans ends in ``seconds``; then bots fill it (RULING P73)."""

    table_id: int
    seconds: float


@dataclass(frozen=True, slots=True)
class TurnNoticeDue:
    """Check in a while whom to tell that the game awaits them (RULING P74); at version 0 also
    whom to tell that it started."""

    match_id: int
    version: int


Event = TableChanged | BotsDue | ClockDue | VoteDue | QuickFillDue | TurnNoticeDue

_handlers: dict[type, Callable[[Any], None]] = {}


def handle(kind: type, handler: Callable[[Any], None]) -> None:
    """Register where events of ``kind`` go (once, at start-up)."""
    _handlers[kind] = handler


def send(event: Event, *, robust: bool = False) -> None:
    """Deliver ``event`` once the transaction commits (at once outside one). ``robust``: a failure
    to deliver is logged, not raised: the write has committed, and a sweep makes good the loss."""
    transaction.on_commit(partial(_deliver, event), robust=robust)


def _deliver(event: Event) -> None:
    handler = _handlers.get(type(event))
    if handler is None:
        raise RuntimeError(f"No handler for {type(event).__name__}: tables.delivery is not connected.")
    handler(event)
