"""Who is connected to a table, kept in Redis so every Daphne process sees the same (RULING S11).

Each open socket is a member of its table's sorted set, scored with the time it
stops counting unless renewed. Every process renews its own sockets on a heartbeat
(RULING P17), so a socket whose process crashed, and whose ``disconnect`` therefore
never ran, stops counting as connected within a minute; the heartbeat also drops
such members and tells the table, so the seats' dots heal without anyone's help.
A hash beside the set maps each socket to its user: a user is connected while at
least one of their sockets is live.

The same heartbeat keeps the per-user count of open table sockets that the caps
of RULING P16 are checked against, so they hold across processes and heal too.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
import weakref
from dataclasses import dataclass, field

from channels.layers import get_channel_layer
from django.conf import settings

from core.groups import table_group
from core.redis import async_client, key_prefix, script, sync_client

logger = logging.getLogger(__name__)

# RULING P17: renewed every 15 s, a socket counts for 40 s after its last renewal, so a crashed
# one is gone, and the table told, within 40 + 15 = 55 s.
HEARTBEAT_SECONDS = 15.0
EXPIRY_SECONDS = 40.0
# RULING P16: open table sockets per user.
MAX_SOCKETS_PER_TABLE = 5
MAX_SOCKETS_PER_USER = 20
BEAT_SLICE = 100  # keys per heartbeat pipeline


# Not "presence:<id>": that name held a hash before the heartbeat (issue 21), and a site
# upgraded while such keys live would meet them with the wrong type.
def _key(table_id: int) -> str:
    return f"{key_prefix()}:online:{table_id}"


def _users_key(table_id: int) -> str:
    return f"{key_prefix()}:online:{table_id}:users"


def sockets_key(user_id: int) -> str:
    return f"{key_prefix()}:sockets:{user_id}"


def _expiry() -> float:
    return getattr(settings, "PRESENCE_EXPIRY_SECONDS", EXPIRY_SECONDS)


def _heartbeat() -> float:
    return getattr(settings, "PRESENCE_HEARTBEAT_SECONDS", HEARTBEAT_SECONDS)


# Checked and added in one step, so two sockets opened at once by one user on two processes
# cannot both take the last place. Members of the user's set are "<table id> <channel name>".
_ADMIT = """
if redis.call('EXISTS', KEYS[2]) == 1 then return 3 end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local members = redis.call('ZRANGE', KEYS[1], 0, -1)
if #members >= tonumber(ARGV[6]) then return 2 end
local here = 0
for _, member in ipairs(members) do
  if string.sub(member, 1, #ARGV[4]) == ARGV[4] then here = here + 1 end
end
if here >= tonumber(ARGV[5]) then return 1 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[7])
return 0
"""

TOO_MANY_HERE = "You already have {} windows open on this table. Close one of them to open another here."
TOO_MANY_IN_ALL = "You already have {} table windows open. Close some of them to open another."
COOLING_DOWN = "You were disconnected for sending too many messages. Wait a few seconds, then reload."
# RULING P15: a socket closed for flooding keeps its user off that table's sockets this long, so
# reconnecting at once does not turn the flood into one of handshakes and first views.
COOL_DOWN_SECONDS = 10


def _cooling_key(table_id: int, user_id: int) -> str:
    return f"{key_prefix()}:cooling:{table_id}:{user_id}"


async def cool_down(table_id: int, user_id: int) -> None:
    await async_client().set(_cooling_key(table_id, user_id), 1, ex=COOL_DOWN_SECONDS)


def caps() -> tuple[int, int]:
    """Sockets a user may hold on one table and on all together (RULING P16)."""
    return (
        getattr(settings, "MAX_SOCKETS_PER_TABLE", MAX_SOCKETS_PER_TABLE),
        getattr(settings, "MAX_SOCKETS_PER_USER", MAX_SOCKETS_PER_USER),
    )


async def admit(table_id: int, channel_name: str, user_id: int) -> str | None:
    """Reserve one of the user's socket places (RULING P16); why not (``here``: too many on this
    table, ``all``: on all tables, ``cooling``: after a flood, RULING P15), or None."""
    now = time.time()
    per_table, in_all = caps()
    # Every opening runs this: by its hash (core/redis.py script).
    refused = await script(async_client(), _ADMIT)(
        keys=[sockets_key(user_id), _cooling_key(table_id, user_id)],
        args=[
            now,
            now + _expiry(),
            f"{table_id} {channel_name}",
            f"{table_id} ",
            per_table,
            in_all,
            int(_expiry() * 2) + 1,
        ],
    )
    return {1: "here", 2: "all", 3: "cooling"}.get(int(refused))


async def release(table_id: int, channel_name: str, user_id: int) -> None:
    await async_client().zrem(sockets_key(user_id), f"{table_id} {channel_name}")


async def join(table_id: int, channel_name: str, user_id: int) -> None:
    """Count the socket as connected and keep it so while this process lives (the heartbeat)."""
    key, users = _key(table_id), _users_key(table_id)
    ttl = int(_expiry() * 2) + 1
    async with async_client().pipeline() as pipe:
        pipe.zadd(key, {channel_name: time.time() + _expiry()}).expire(key, ttl)
        await pipe.hset(users, channel_name, user_id).expire(users, ttl).execute()
    _registry().sockets[channel_name] = (table_id, user_id)
    _registry()  # starts the heartbeat if this is the process's first socket


async def leave(table_id: int, channel_name: str) -> None:
    registry = _registry()
    registry.sockets.pop(channel_name, None)
    if not registry.sockets and registry.task is not None:
        registry.task.cancel()  # nothing left to renew; the next join starts it again
        registry.task = None
    async with async_client().pipeline() as pipe:
        await pipe.zrem(_key(table_id), channel_name).hdel(_users_key(table_id), channel_name).execute()


async def connected_users(table_id: int) -> set[int]:
    async with async_client().pipeline(transaction=False) as pipe:
        live, users = (
            await pipe.zrangebyscore(_key(table_id), time.time(), "+inf").hgetall(_users_key(table_id)).execute()
        )
    return {int(users[channel]) for channel in live if channel in users}


# --- the heartbeat ------------------------------------------------------------------------


@dataclass
class _Registry:
    """This process's live table sockets (per event loop): channel name → (table id, user id)."""

    sockets: dict[str, tuple[int, int]] = field(default_factory=dict)
    task: asyncio.Task | None = None


_registries: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Registry] = weakref.WeakKeyDictionary()


def _registry() -> _Registry:
    loop = asyncio.get_running_loop()
    registry = _registries.get(loop)
    if registry is None:
        registry = _registries[loop] = _Registry()
    if registry.sockets and (registry.task is None or registry.task.done()):
        registry.task = loop.create_task(_beat_forever(registry))
    return registry


async def _beat_forever(registry: _Registry) -> None:
    # One loop per process, not one per socket: a few Redis round trips every 15 s in all.
    while True:
        await asyncio.sleep(_heartbeat())
        try:
            await beat(registry.sockets)
        except Exception:  # noqa: BLE001 (Redis away for a moment: the next beat tries again)
            logger.warning("presence heartbeat failed", exc_info=True)


async def beat(sockets: dict[str, tuple[int, int]]) -> set[int]:
    """Renew ``sockets``, drop the members whose time ran out, and tell their tables. Returns the tables told."""
    now = time.time()
    until = now + _expiry()
    ttl = int(_expiry() * 2) + 1
    by_table: dict[int, dict[str, float]] = {}
    by_user: dict[int, dict[str, float]] = {}
    for channel_name, (table_id, user_id) in list(sockets.items()):
        by_table.setdefault(table_id, {})[channel_name] = until
        by_user.setdefault(user_id, {})[f"{table_id} {channel_name}"] = until
    renewals = [(_key(table_id), members) for table_id, members in by_table.items()]
    renewals += [(sockets_key(user_id), members) for user_id, members in by_user.items()]
    # In slices: thousands of sockets in one pipeline would hold the event loop for the encoding.
    for start in range(0, len(renewals), BEAT_SLICE):
        async with async_client().pipeline(transaction=False) as pipe:
            for key, members in renewals[start : start + BEAT_SLICE]:
                pipe.zadd(key, members, xx=True).expire(key, ttl)
            await pipe.execute()
    told = set()
    tables = sorted(by_table)
    for start in range(0, len(tables), BEAT_SLICE):
        chunk = tables[start : start + BEAT_SLICE]
        async with async_client().pipeline(transaction=False) as pipe:
            for table_id in chunk:
                pipe.expire(_users_key(table_id), ttl).zrangebyscore(_key(table_id), "-inf", now)
            results = await pipe.execute()
        for table_id, channels in zip(chunk, results[1::2]):
            if not channels:
                continue
            # Sockets that nobody renews: their process is gone without its disconnects.
            async with async_client().pipeline(transaction=False) as pipe:
                await pipe.zremrangebyscore(_key(table_id), "-inf", now).hdel(_users_key(table_id), *channels).execute()
            await get_channel_layer().group_send(
                table_group(table_id), {"type": "presence.changed", "id": uuid.uuid4().hex}
            )
            told.add(table_id)
    return told


# --- read from sync code (Celery) -------------------------------------------------------------


def user_connected_now(table_id: int, user_id: int) -> bool:
    """Whether ``user_id`` has a live socket on the table, from a worker (RULING P74's check)."""
    pipe = sync_client().pipeline(transaction=False)
    pipe.zrangebyscore(_key(table_id), time.time(), "+inf")
    pipe.hgetall(_users_key(table_id))
    live, users = pipe.execute()
    return any(int(users[channel]) == user_id for channel in live if channel in users)
