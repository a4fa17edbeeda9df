"""Tables' typed events: what a table's write hands the outbox (core/outbox.py) for after commit.

Where each goes is tables/delivery.py (the table's sockets, the tasks, this process's caches),
wired in ``TablesConfig.ready``; this module imports nothing of tables, so the write modules
reach neither ``tables.live`` nor ``tables.tasks``. A lost event is made good as before: by the
next change (sockets) and by beat's sweeps (tasks, tables/services/recovery.py and the clock's
sweep).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


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
class TurnNoticeWithdrawn:
    """A "your turn" notice that is no longer true, already shown on the player's devices: each
    device's is replaced by a quiet one with the same tag (RULING P74)."""

    user_id: int
    table_id: int
    language: str | None


@dataclass(frozen=True, slots=True)
class TurnNoticeDue:
    """Check in a while whom to tell that the game awaits them (RULING P74); at version 0 also
    whom to tell that it started."""

    match_id: int
    version: int


@dataclass(frozen=True, slots=True)
class RoundsStored:
    """A move wrote the match's newly finished rounds: this process keeps them (tables/matchstore.py)
    once they are committed."""

    match_id: int
    seed: object
    rounds: list[Any]


@dataclass(frozen=True, slots=True)
class SessionEnded:
    """A login ended (a logout): the sockets opened under that session close (RULING P18)."""

    user_id: int
    session_key: str


@dataclass(frozen=True, slots=True)
class AccountSaved:
    """An account was saved (a new password, deactivation): each of its open sockets reads its
    session again once the save commits, and sees the new password hash (RULING P18)."""

    user_id: int
