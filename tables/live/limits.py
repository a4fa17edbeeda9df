"""Token buckets kept in Redis, so a limit holds across every Daphne process (issue 34).

A socket's own bucket lives with the socket (tables/live/guard.py, ``Throttle``); what several
sockets share (all of one user's, all of one address's, the handshakes of one address) may be
spread over processes, so it is counted here. A bucket is a small hash (tokens, when last
filled) that expires once it would be full again. One script checks every bucket a message
draws on and takes a token from each only if all have one, in one round trip, on Redis's own
clock (the processes' clocks may differ).

Redis unreachable: the limit lets the message through (and the warning is logged). Every
push and broadcast already needs the same Redis, and a socket's own bucket still holds.
"""

from __future__ import annotations

import logging
import weakref
from dataclasses import dataclass

import redis.asyncio as aioredis
from redis.commands.core import AsyncScript
from redis.exceptions import RedisError

from tables.live import presence

logger = logging.getLogger(__name__)

# KEYS: the buckets; ARGV: burst and rate of each in turn. Returns 0 when every bucket had a token
# (one was taken from each), else the 1-based number of the first that had none (nothing taken).
_TAKE = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
local levels = {}
for i = 1, #KEYS do
  local burst, rate = tonumber(ARGV[2 * i - 1]), tonumber(ARGV[2 * i])
  local held = redis.call('HMGET', KEYS[i], 't', 's')
  local level = burst
  if held[1] then
    level = math.min(burst, tonumber(held[1]) + math.max(0, now - tonumber(held[2])) * rate)
  end
  if level < 1 then return i end
  levels[i] = level
end
for i = 1, #KEYS do
  local burst, rate = tonumber(ARGV[2 * i - 1]), tonumber(ARGV[2 * i])
  redis.call('HSET', KEYS[i], 't', tostring(levels[i] - 1), 's', tostring(now))
  redis.call('EXPIRE', KEYS[i], math.ceil(burst / rate) + 1)
end
return 0
"""


@dataclass(frozen=True)
class Bucket:
    name: str  # what it counts, e.g. "user:12" or "address:198.51.100.7"
    burst: float
    rate: float  # tokens a second


_scripts: weakref.WeakKeyDictionary[aioredis.Redis, AsyncScript] = weakref.WeakKeyDictionary()


def _script(client: aioredis.Redis) -> AsyncScript:
    # Registered once per client: run by its hash (EVALSHA), sent again only if Redis lost it.
    script = _scripts.get(client)
    if script is None:
        script = _scripts[client] = client.register_script(_TAKE)
    return script


def _key(bucket: Bucket) -> str:
    return f"{presence.key_prefix()}:limit:{bucket.name}"


async def take(*buckets: Bucket) -> Bucket | None:
    """One token from each of ``buckets``, or from none: the first bucket that was empty, or None."""
    if not buckets:
        return None
    client = presence.redis_client()
    args: list[float] = []
    for bucket in buckets:
        args += [bucket.burst, bucket.rate]
    try:
        empty = await _script(client)(keys=[_key(bucket) for bucket in buckets], args=args)
    except RedisError:
        logger.warning("a shared limit could not be read; the message is let through", exc_info=True)
        return None
    return buckets[int(empty) - 1] if empty else None


async def forget(*buckets: Bucket) -> None:
    """Empty the count of ``buckets`` (they are full again): for tests and the benchmark's phases."""
    await presence.redis_client().delete(*(_key(bucket) for bucket in buckets))
