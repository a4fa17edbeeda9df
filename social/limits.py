"""Hourly limits on what reaches other players (RULING P68), counted in Redis for every process.

A fixed window per user and action: the first use opens it for an hour, and the count inside it
is capped. Kept beside the table sockets' shared limits (same key prefix, tables/live/limits.py),
so the suite's fixture that empties those empties these too. Redis unreachable: the action goes
through (and the warning is logged); the database's own constraints still hold.
"""

from __future__ import annotations

import logging

from redis.exceptions import RedisError

from core.redis import key_prefix, sync_client

logger = logging.getLogger(__name__)
WINDOW_SECONDS = 3600

# KEYS[1]: the window; ARGV: the cap, the window's length. 1 and one more counted, or 0 when full.
_TAKE = """
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used >= tonumber(ARGV[1]) then return 0 end
redis.call('INCR', KEYS[1])
if used == 0 then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
return 1
"""


def _key(action: str, user_id: int) -> str:
    return f"{key_prefix()}:limit:hourly:{action}:{user_id}"


def hourly_take(action: str, *, user_id: int, most: int) -> bool:
    """Count one ``action`` of the user in this hour's window; False (nothing counted) when it is full."""
    try:
        return bool(sync_client().eval(_TAKE, 1, _key(action, user_id), most, WINDOW_SECONDS))
    except RedisError:
        logger.warning("an hourly limit could not be read; the action is let through", exc_info=True)
        return True
