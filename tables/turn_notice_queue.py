"""One queued "your turn" check per match at a time (RULING P74, tables/services/turn_notices.py).

Each move that begins a turn used to queue its own check, a Celery publish on the move's path
every move (8.5 % of a Daphne process's CPU per move under load), though every check but the
last finds the game moved on and does nothing. Now a move records in Redis that its version is
due a check and when, and queues a check only if none is queued for the match. The queued
check, when it runs, first frees the match's mark (a move after that queues its own), then
checks the latest version recorded if it is due; if it is not due yet it queues itself again
for the time it is. So a check still runs ``TURN_NOTICE_SECONDS`` after the last turn began,
and a game of quick moves costs a publish every ``TURN_NOTICE_SECONDS`` instead of every move.

A lost task (a broker down, a worker killed) holds the mark until it expires, a minute past the
check's time; then the next move queues again. Twice or late stays harmless: the check itself
does nothing for a game that moved on.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from django.conf import settings

from core.redis import key_prefix, script, sync_client

# A lost check's mark outlives its time by this long before a move may queue another.
LOST_AFTER_SECONDS = 60

# Keeps the highest version (after-commit handlers of two processes may run out of order) with
# when it became due, and sets the queued mark if there is none: 1 when the caller must queue.
_RECORD = """
local latest = tonumber(redis.call('HGET', KEYS[1], 'version') or '-1')
if tonumber(ARGV[1]) > latest then
  redis.call('HSET', KEYS[1], 'version', ARGV[1], 'at', ARGV[2])
end
redis.call('EXPIRE', KEYS[1], ARGV[3])
if redis.call('SET', KEYS[2], '1', 'NX', 'EX', ARGV[3]) then return 1 end
return 0
"""


def _keys(match_id: int) -> list[str]:
    latest = f"{key_prefix()}:turn-notice:{match_id}"
    return [latest, f"{latest}:queued"]


def _mark_seconds() -> int:
    return settings.TURN_NOTICE_SECONDS + LOST_AFTER_SECONDS


@dataclass(frozen=True)
class Due:
    version: int
    at: float  # when the check for that version is due (epoch seconds)


def record(match_id: int, version: int) -> bool:
    """The move's side: ``version`` is due a check in ``TURN_NOTICE_SECONDS``. Whether the caller
    must queue the check (True when none is queued for the match)."""
    due_at = time.time() + settings.TURN_NOTICE_SECONDS
    return bool(script(sync_client(), _RECORD)(keys=_keys(match_id), args=[version, repr(due_at), _mark_seconds()]))


def take(match_id: int) -> Due | None:
    """The queued check's side, as it starts: free the mark, then the latest version due (None if
    Redis has no record of one, as after a flush)."""
    latest, queued = _keys(match_id)
    pipe = sync_client().pipeline(transaction=False)
    pipe.delete(queued)
    pipe.hgetall(latest)
    _, found = pipe.execute()
    if not found:
        return None
    return Due(version=int(found[b"version"]), at=float(found[b"at"]))


def requeue(match_id: int) -> bool:
    """Mark a check queued again, for a version not due yet; False if a move queued one meanwhile."""
    _, queued = _keys(match_id)
    return bool(sync_client().set(queued, "1", nx=True, ex=_mark_seconds()))
