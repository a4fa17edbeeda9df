"""The site's limits, counted in Redis so that each holds across every process (issues 34, 39).

The primitives alone; what each app limits, under which name and at which numbers, stays in
that app (the table socket's in tables/live/guard.py, the friend requests' in social/services.py,
the invitations' in tables/invites.py).

- **Token buckets** (async, for sockets): a bucket is a small hash (tokens, when last filled)
  that expires once it would be full again. One script checks every bucket a message draws on
  and takes a token from each only if all have one, in one round trip, on Redis's own clock (the
  processes' clocks may differ).
- **Back-off** (async): what a refused client has earned, a hash (level ``n``, refused until
  ``u`` on Redis's clock, why ``r``) per name, checked before anything costly is done for it. An
  attempt while the wait lasts is refused and changes nothing; each refusal after a wait doubles
  the next one, up to a ceiling; the level is forgotten some time after the last refusal.
- **Hourly windows** (sync, for services): the first use opens a window of an hour for the user
  and the action, and the count inside it is capped.

Redis unreachable: the limit lets the action through (and the warning is logged). Every push and
broadcast already needs the same Redis; a socket's own bucket and the database's constraints
still hold.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from redis.exceptions import RedisError

from core.redis import async_client, key_prefix, script, sync_client

logger = logging.getLogger(__name__)

# --- token buckets ------------------------------------------------------------------------------

# What every bucket script starts with: Redis's clock, a bucket's level now, and taking a token.
_BUCKET = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
local function level_of(key, burst, rate)
  local held = redis.call('HMGET', key, 't', 's')
  if not held[1] then return burst end
  return math.min(burst, tonumber(held[1]) + math.max(0, now - tonumber(held[2])) * rate)
end
local function take_one(key, level, burst, rate)
  redis.call('HSET', key, 't', tostring(level - 1), 's', tostring(now))
  redis.call('EXPIRE', key, math.ceil(burst / rate) + 1)
end
"""

# KEYS: the buckets; ARGV: burst and rate of each in turn. Returns 0 when every bucket had a token
# (one was taken from each), else the 1-based number of the first that had none (nothing taken).
_TAKE = (
    _BUCKET
    + """
local levels = {}
for i = 1, #KEYS do
  local level = level_of(KEYS[i], tonumber(ARGV[2 * i - 1]), tonumber(ARGV[2 * i]))
  if level < 1 then return i end
  levels[i] = level
end
for i = 1, #KEYS do
  take_one(KEYS[i], levels[i], tonumber(ARGV[2 * i - 1]), tonumber(ARGV[2 * i]))
end
return 0
"""
)


@dataclass(frozen=True)
class Bucket:
    name: str  # what it counts, e.g. "messages:user:12" or "handshakes:198.51.100.7"
    burst: float
    rate: float  # tokens a second


def _key(bucket: Bucket) -> str:
    return f"{key_prefix()}:limit:{bucket.name}"


async def take(*buckets: Bucket) -> Bucket | None:
    """One token from each of ``buckets``, or from none: the first bucket that was empty, or None."""
    if not buckets:
        return None
    args: list[float] = []
    for bucket in buckets:
        args += [bucket.burst, bucket.rate]
    try:
        empty = await script(async_client(), _TAKE)(keys=[_key(bucket) for bucket in buckets], args=args)
    except RedisError:
        logger.warning("a shared limit could not be read; the message is let through", exc_info=True)
        return None
    return buckets[int(empty) - 1] if empty else None


# --- back-off -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Backoff:
    """How long a refusal makes its client wait: ``base`` seconds after the first, doubled after
    each refusal that follows a wait, at most ``ceiling``; forgotten ``memory`` seconds after the last."""

    base: float
    ceiling: float
    memory: int


@dataclass(frozen=True)
class Refused:
    """A refusal: why (the code it was earned with) and how long the client must wait before its next try."""

    why: str
    seconds: float


# Earning the next level of a back-off: ``earn(key, why, base, ceiling, memory)`` gives the wait (ms).
_EARNING = """
local function earn(key, why, base, ceiling, memory)
  local level = redis.call('HINCRBY', key, 'n', 1)
  local wait = math.min(ceiling, base * 2 ^ (level - 1))
  redis.call('HSET', key, 'u', tostring(now + wait), 'r', why)
  redis.call('EXPIRE', key, memory)
  return math.ceil(wait * 1000)
end
"""

# KEYS: the back-off hashes, and last (when ARGV[1] is 1) the bucket; ARGV: has a bucket, its burst
# and rate, then base, ceiling, memory, and why an empty bucket refuses. Returns {0} when admitted
# (a token taken), else {the 1-based back-off key that refused, milliseconds still to wait, why}: a
# wait that lasts refuses as it is; an empty bucket earns the next level on the first key.
_REFUSAL = (
    _BUCKET
    + _EARNING
    + """
local has_bucket = ARGV[1] == '1'
local burst, rate = tonumber(ARGV[2]), tonumber(ARGV[3])
local last = #KEYS
if has_bucket then last = #KEYS - 1 end
for i = 1, last do
  local held = redis.call('HMGET', KEYS[i], 'u', 'r')
  if held[1] and now < tonumber(held[1]) then
    return {i, math.ceil((tonumber(held[1]) - now) * 1000), held[2]}
  end
end
if has_bucket then
  local level = level_of(KEYS[#KEYS], burst, rate)
  if level < 1 then
    return {1, earn(KEYS[1], ARGV[7], tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])), ARGV[7]}
  end
  take_one(KEYS[#KEYS], level, burst, rate)
end
return {0}
"""
)

# KEYS: one back-off hash; ARGV: why, base, ceiling, memory. Earns the next level; returns the wait (ms).
_EARN = (
    _BUCKET
    + _EARNING
    + """
return earn(KEYS[1], ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]))
"""
)


def backoff_key(name: str) -> str:
    return f"{key_prefix()}:limit:backoff:{name}"


def _backoff_args(backoff: Backoff) -> list[float]:
    return [backoff.base, backoff.ceiling, backoff.memory]


async def backoff_refusal(
    names: list[str], bucket: Bucket | None, backoff: Backoff, *, empty_why: str
) -> Refused | None:
    """A client still waiting out a refusal (on any of ``names``) is refused for what is left of its
    wait; else one past ``bucket`` is refused, ``empty_why``, and earns the next level of ``backoff``
    on the first of ``names``; else a token is taken. One round trip; None when let through."""
    keys = [backoff_key(name) for name in names] + ([_key(bucket)] if bucket else [])
    args = [1 if bucket else 0, bucket.burst if bucket else 0, bucket.rate if bucket else 0, *_backoff_args(backoff)]
    try:
        answer = await script(async_client(), _REFUSAL)(keys=keys, args=[*args, empty_why])
    except RedisError:
        logger.warning("a back-off could not be read; the attempt is let through", exc_info=True)
        return None
    if not answer[0]:
        return None
    return Refused(_text(answer[2]), int(answer[1]) / 1000)


async def backoff_earn(names: list[str], why: str, backoff: Backoff) -> None:
    """A refusal decided elsewhere: each of ``names`` earns the next level of ``backoff``, and is
    refused by ``backoff_refusal`` until its wait is over."""
    client = async_client()
    try:
        for name in names:
            await script(client, _EARN)(keys=[backoff_key(name)], args=[why, *_backoff_args(backoff)])
    except RedisError:
        logger.warning("a refusal's back-off could not be kept", exc_info=True)


async def backoff_now(names: list[str], *, told_seconds: float) -> Refused | None:
    """The latest refusal of any of ``names`` whose wait is still running or ended within
    ``told_seconds``, with how long is left of the wait; None if there is none."""
    try:
        async with async_client().pipeline(transaction=False) as pipe:
            pipe.time()
            for name in names:
                pipe.hmget(backoff_key(name), ["u", "r"])
            (seconds, microseconds), *held = await pipe.execute()
    except RedisError:
        return None
    now = seconds + microseconds / 1_000_000
    waits = [(float(until) - now, _text(why)) for until, why in held if until is not None and why is not None]
    waits = [(seconds, why) for seconds, why in waits if seconds > -told_seconds]
    if not waits:
        return None
    seconds, why = max(waits)
    return Refused(why, max(0.0, seconds))


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


# --- hourly windows -----------------------------------------------------------------------------

HOUR_SECONDS = 3600

# KEYS[1]: the window; ARGV: the cap, the window's length. 1 and one more counted, or 0 when full.
_HOURLY = """
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used >= tonumber(ARGV[1]) then return 0 end
redis.call('INCR', KEYS[1])
if used == 0 then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
return 1
"""


def hourly_take(action: str, *, user_id: int, most: int) -> bool:
    """Count one ``action`` of the user in this hour's window; False (nothing counted) when it is full."""
    key = f"{key_prefix()}:limit:hourly:{action}:{user_id}"
    try:
        return bool(script(sync_client(), _HOURLY)(keys=[key], args=[most, HOUR_SECONDS]))
    except RedisError:
        logger.warning("an hourly limit could not be read; the action is let through", exc_info=True)
        return True
