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

from core.redis import async_client, key_prefix

logger = logging.getLogger(__name__)

# What every script here starts with: Redis's clock, a bucket's level now, and taking a token.
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
    return f"{key_prefix()}:limit:{bucket.name}"


async def take(*buckets: Bucket) -> Bucket | None:
    """One token from each of ``buckets``, or from none: the first bucket that was empty, or None."""
    if not buckets:
        return None
    client = async_client()
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
    await async_client().delete(*(_key(bucket) for bucket in buckets))


# --- back-off: a refused opening makes the next one wait (RULINGS P16, P51) ---------------------

# What a refused client has earned: a hash (level ``n``, refused until ``u`` on Redis's clock, why
# ``r``) per address and per login (the session cookie's key, hashed), checked before the session
# is read. An opening while the wait lasts is refused and changes nothing (a page retries on its
# own before it has asked how long to wait); each refusal after a wait doubles the next one, from
# BACKOFF_BASE_SECONDS up to BACKOFF_CEILING_SECONDS; the level is forgotten BACKOFF_MEMORY_SECONDS
# after the last refusal.
BACKOFF_BASE_SECONDS = 1.0
BACKOFF_CEILING_SECONDS = 60.0
BACKOFF_MEMORY_SECONDS = 600

# KEYS: the back-off hashes, and last (when ARGV[1] is 1) the address's opening bucket; ARGV: has a
# bucket, its burst and rate, then base, ceiling, memory. Returns {0} when admitted (a token taken),
# else {the 1-based back-off key that refused, milliseconds still to wait, why}: a wait that lasts
# refuses as it is; an empty bucket earns the next level on the first key (the address's).
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

_OPENING = (
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
    return {1, earn(KEYS[1], 'address', tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])), 'address'}
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


@dataclass(frozen=True)
class Refused:
    """An opening refused: why (a code: ``address``, or the socket caps' ``here``, ``all``,
    ``cooling``) and how long the client must wait before its next try."""

    why: str
    seconds: float


def backoff_key(name: str) -> str:
    """``name``: ``address:<limit key>`` or ``login:<hashed session key>``."""
    return f"{key_prefix()}:limit:backoff:{name}"


def _backoff_args() -> list[float]:
    return [BACKOFF_BASE_SECONDS, BACKOFF_CEILING_SECONDS, BACKOFF_MEMORY_SECONDS]


_opening_scripts: weakref.WeakKeyDictionary[aioredis.Redis, tuple[AsyncScript, AsyncScript]] = (
    weakref.WeakKeyDictionary()
)


def _backoff_scripts(client: aioredis.Redis) -> tuple[AsyncScript, AsyncScript]:
    scripts = _opening_scripts.get(client)
    if scripts is None:
        scripts = _opening_scripts[client] = (client.register_script(_OPENING), client.register_script(_EARN))
    return scripts


async def opening_refused(backoffs: list[str], bucket: Bucket | None) -> Refused | None:
    """At the handshake, before the session is read: a client still waiting out a refusal (on any
    of ``backoffs``) is refused for what is left of its wait; one past ``bucket`` is refused and
    earns the next level on the first of ``backoffs`` (the address's). One round trip."""
    client = async_client()
    keys = [backoff_key(name) for name in backoffs] + ([_key(bucket)] if bucket else [])
    args = [1 if bucket else 0, bucket.burst if bucket else 0, bucket.rate if bucket else 0, *_backoff_args()]
    try:
        answer = await _backoff_scripts(client)[0](keys=keys, args=args)
    except RedisError:
        logger.warning("the opening limits could not be read; the opening is let through", exc_info=True)
        return None
    if not answer[0]:
        return None
    return Refused(_text(answer[2]), int(answer[1]) / 1000)


async def backoff_earn(names: list[str], why: str) -> None:
    """A refusal decided after the session was read (the socket caps of RULING P16): each of
    ``names`` waits, and its next opening is refused at the handshake until the wait is over."""
    client = async_client()
    try:
        for name in names:
            await _backoff_scripts(client)[1](keys=[backoff_key(name)], args=[why, *_backoff_args()])
    except RedisError:
        logger.warning("a refusal's back-off could not be kept", exc_info=True)


# A refusal is still told to a page this long after its wait ended: a held handshake is answered
# when the wait is over (tables/live/guard.py reject), and only then does the page ask why.
TOLD_SECONDS = 10.0


async def backoff_now(names: list[str]) -> Refused | None:
    """What a page is told after its socket was refused: the latest refusal (its wait still
    running, or ended within TOLD_SECONDS), and how long is left of the wait."""
    client = async_client()
    try:
        async with client.pipeline(transaction=False) as pipe:
            pipe.time()
            for name in names:
                pipe.hmget(backoff_key(name), ["u", "r"])
            (seconds, microseconds), *held = await pipe.execute()
    except RedisError:
        return None
    now = seconds + microseconds / 1_000_000
    waits = [(float(until) - now, _text(why)) for until, why in held if until is not None and why is not None]
    waits = [(seconds, why) for seconds, why in waits if seconds > -TOLD_SECONDS]
    if not waits:
        return None
    seconds, why = max(waits)
    return Refused(why, max(0.0, seconds))


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
